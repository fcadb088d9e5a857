"""Statistics of many deals (``kosolve stats``, docs/statistics.md): a
results file of ``kosolve batch`` or ``kosolve arena`` read as rows, a row
a deal (:mod:`~kosolve.stats.rows`, with each seat's cards from the deals
file), grouped and counted with 95% intervals (:mod:`~kosolve.stats.figures`),
shown as text and CSV (:mod:`~kosolve.stats.output`), drawn as SVG by
kosolve itself (:mod:`~kosolve.stats.svg`), and, with the extra
``kosolve[stats]``, as a pandas DataFrame, Parquet and PNG
(:mod:`~kosolve.stats.frames`).

>>> from kosolve.stats import frame, read_rows, tabulate   # doctest: +SKIP
>>> results = frame("results.jsonl", deals="deals.jsonl")  # doctest: +SKIP
"""

from kosolve.stats.figures import Table, tabulate
from kosolve.stats.frames import ExtraError, frame, to_frame
from kosolve.stats.rows import Rows, StatsError, read_rows

__all__ = ["ExtraError", "Rows", "StatsError", "Table", "frame", "read_rows", "tabulate", "to_frame"]
