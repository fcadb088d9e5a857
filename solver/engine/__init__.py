"""The compiled search (Cython): bit operations (``_bits``), move generation
and ordering (``_movegen``), the alpha-beta helpers (``_alphabeta``), the
checks of a position (``_position``), the table both searches share
(``_table``) and the point search's keys into it (``_tt``), the point and
goal search (:mod:`~kosolve.engine._search`) and the score-optimal search
(:mod:`~kosolve.engine._score`); arguments they refuse raise
:class:`~kosolve.engine.errors.SearchInputError`.  It works on raw masks
and may import only :mod:`kosolve.model`; the ``.pxd`` files are its
contract between modules, and ``_testing`` holds the tests' views of the
C pieces.

What a program that searches positions itself (a bot, say) needs is here:

- :class:`Solver`, the point and goal searches, with its default table
  sizes :data:`DEFAULT_TT_MB` and :data:`GOAL_TT_MB`, the goals
  :data:`VALAT` and :data:`BIRD` of ``goal_feasible`` and ``goal_line``, and
  :data:`MAX_SEARCH_THREADS`;
- :class:`ScoreSolver`, the score-optimal search, with its default size
  :data:`SCORE_TT_MB` and the layout of the leaf table it takes: the index
  :func:`leaf_index` and the table's size :data:`LEAVES`, the thresholds
  :data:`STEPS`, each bird's state (:data:`BIRD_OPEN`, :data:`BIRD_WON`,
  :data:`BIRD_BEATEN`, :data:`BIRD_BITS` bits a bird) and the Valat bits
  (:data:`VALAT_DECLARER`, :data:`VALAT_DEFENDER`);
- the sizes a table may have, :data:`MIN_TABLE_MB` to :data:`MAX_TABLE_MB`
  megabytes, and the errors: :class:`SearchInputError` (a position or
  question a search refuses), :class:`TableSizeError` (a size outside that
  range) and :class:`TableMemoryError` (a table larger than the memory the
  process may still take).

:func:`kosolve.analysis.solving.solve` and
:func:`kosolve.analysis.netscore.net_score` wrap the two searches for
positions of :mod:`kosolve.model`.
"""

from kosolve.engine._score import (
    BIRD_BEATEN,
    BIRD_BITS,
    BIRD_OPEN,
    BIRD_WON,
    LEAVES,
    SCORE_TT_MB,
    STEPS,
    VALAT_DECLARER,
    VALAT_DEFENDER,
    ScoreSolver,
    leaf_index,
)
from kosolve.engine._search import BIRD, DEFAULT_TT_MB, GOAL_TT_MB, MAX_SEARCH_THREADS, VALAT, Solver
from kosolve.engine._table import MAX_TABLE_MB, MIN_TABLE_MB, TableMemoryError, TableSizeError
from kosolve.engine.errors import SearchInputError

__all__ = [
    "BIRD",
    "BIRD_BEATEN",
    "BIRD_BITS",
    "BIRD_OPEN",
    "BIRD_WON",
    "DEFAULT_TT_MB",
    "GOAL_TT_MB",
    "LEAVES",
    "MAX_SEARCH_THREADS",
    "MAX_TABLE_MB",
    "MIN_TABLE_MB",
    "SCORE_TT_MB",
    "STEPS",
    "VALAT",
    "VALAT_DECLARER",
    "VALAT_DEFENDER",
    "ScoreSolver",
    "SearchInputError",
    "Solver",
    "TableMemoryError",
    "TableSizeError",
    "leaf_index",
]
