"""The compiled search (Cython): bit operations (``_bits``), move generation
and ordering (``_movegen``), the alpha-beta helpers (``_alphabeta``), the
checks of a position (``_position``), the table both searches share
(``_table``) and the point search's keys into it (``_tt``), the point and
goal search (:mod:`~kosolve.engine._search`) and the score-optimal search
(:mod:`~kosolve.engine._score`); arguments they refuse raise
:class:`~kosolve.engine.errors.SearchInputError`.  It works on raw masks
and may import only :mod:`kosolve.model`; the ``.pxd`` files are its
contract between modules.
"""
