"""The compiled search (Cython): bit operations (``_bits``), move generation
and ordering (``_movegen``), the alpha-beta helpers (``_alphabeta``), the
transposition table (``_tt``), the point and goal search
(:mod:`~kosolve.engine._search`) and the score-optimal search
(:mod:`~kosolve.engine._score`).  It works on raw masks and may import only
:mod:`kosolve.model`; the ``.pxd`` files are its contract between modules.
"""
