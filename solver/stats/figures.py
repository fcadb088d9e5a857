"""Rows grouped and counted (docs/statistics.md): for each group of rows
that share the ``--by`` columns' values, how many deals, and for each
``--what`` column its mean with a 95% interval (a number) or its share
with a 95% interval (yes or no).

The mean's interval is Student's t on n − 1 degrees of freedom, exact for
normal values and close to the normal one from about 30 deals on; the
share's is Wilson's score interval, which stays inside 0 to 1 and is
sound for small groups and shares near 0 or 1, where the normal one is
not.

>>> mean_interval([1, 2, 3, 4])
(2.5, (0.4457..., 4.5542...))
>>> share_interval(8, 10)
(0.8, (0.4901..., 0.9433...))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from kosolve.model.game import CONTRACTS
from kosolve.sampling.odds import Z95
from kosolve.stats.rows import FACT_SEATS, Row, Rows, StatsError, Value

STATS_FORMAT: Final = 1
"""The version of :meth:`Table.to_json` (docs/statistics.md): a renamed or
removed key, or one that means something else, raises it; keys may be
added within a format."""

T975: Final = (
    12.706204736174,
    4.302652729749,
    3.182446305284,
    2.776445105198,
    2.570581835636,
    2.446911851144,
    2.364624251593,
    2.306004135204,
    2.262157162799,
    2.228138851986,
    2.200985160083,
    2.178812829667,
    2.160368656462,
    2.144786687917,
    2.131449545559,
    2.119905299221,
    2.109815577833,
    2.100922040241,
    2.093024054408,
    2.085963447266,
    2.079613844728,
    2.073873067904,
    2.068657610419,
    2.063898561628,
    2.059538552753,
    2.055529438642,
    2.051830516480,
    2.048407141795,
    2.045229642133,
    2.042272456301,
)
"""Student's t, the 97.5% quantile, for 1 to 30 degrees of freedom."""

DEFAULT_WHAT: Final = {
    "analyse": ("points", "won"),
    "exchange": ("game_points", "won", "bid_cost"),
    "odds": ("mean_points", "p_win"),
    "review": ("forehand.knew_accuracy", "dealer.knew_accuracy"),
    "arena": ("difference", "a.won"),
}
"""What ``kosolve stats`` counts of each kind of file when not told (``--what``)."""

NUMBER: Final = "number"
YES_NO: Final = "yes/no"
WORD: Final = "word"


def t975(freedom: int) -> float:
    """Student's t quantile of a two-sided 95% interval: the table to 30
    degrees of freedom, the Cornish–Fisher expansion about the normal
    quantile beyond (within 1e-6 of the exact value there)."""
    if freedom <= len(T975):
        return T975[freedom - 1]
    z, v = Z95, float(freedom)
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
    )


def mean_spread(values: Sequence[float]) -> tuple[float, float | None]:
    """The mean of ``values`` and their standard deviation (n − 1); no
    spread of a single value."""
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return mean, None
    return mean, math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))


def t_interval(mean: float, spread: float, n: int) -> tuple[float, float]:
    """The 95% interval (Student's t) of a mean of ``n`` values of standard
    deviation ``spread``: the one formula of every mean's interval here,
    a group's and a running mean's alike."""
    half = t975(n - 1) * spread / math.sqrt(n)
    return mean - half, mean + half


def mean_interval(values: Sequence[float]) -> tuple[float, tuple[float, float] | None]:
    """The mean of ``values`` and its 95% interval (Student's t); no
    interval from a single value."""
    mean, spread = mean_spread(values)
    return mean, None if spread is None else t_interval(mean, spread, len(values))


def share_interval(yes: int, n: int) -> tuple[float, tuple[float, float]]:
    """The share ``yes`` of ``n`` and its 95% Wilson score interval."""
    share = yes / n
    z2 = Z95 * Z95
    centre = (share + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n))
    return share, (max(0.0, centre - half), min(1.0, centre + half))


def column_type(rows: Sequence[Row], column: str) -> str:
    """What a column holds: :data:`YES_NO` (bools), :data:`NUMBER` or :data:`WORD`."""
    values = [row[column] for row in rows if row.get(column) is not None]
    if values and all(isinstance(value, bool) for value in values):
        return YES_NO
    if all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in values):
        return NUMBER
    return WORD


@dataclass(frozen=True)
class Key:
    """A ``--by`` column, numbers of which are put in bins of ``width``
    when given (``declarer.points:5``: 0 to under 5, 5 to under 10, ...)."""

    column: str
    width: float | None = None

    @classmethod
    def parse(cls, text: str) -> Key:
        column, colon, width = text.partition(":")
        if not colon:
            return cls(column)
        try:
            size = float(width)
        except ValueError:
            size = 0.0
        if not size > 0 or math.isinf(size):
            raise StatsError(f"--by {text}: the width of a bin must be a number above 0, not {width!r}")
        return cls(column, int(size) if size.is_integer() else size)

    @property
    def name(self) -> str:
        return self.column if self.width is None else f"{self.column}:{self.width:g}"

    def value(self, row: Row) -> Value:
        value = row.get(self.column)
        if self.width is None or value is None or isinstance(value, (bool, str)):
            return value
        bin_start = math.floor(value / self.width) * self.width
        return int(bin_start) if float(bin_start).is_integer() else bin_start

    def label(self, value: Value) -> str:
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if self.width is not None and isinstance(value, (int, float)):
            # "to under": a bin holds its lower end, not its upper one.
            return f"{value:g} to under {value + self.width:g}"
        if isinstance(value, float):
            return f"{value:g}"
        return str(value)


@dataclass(frozen=True)
class Figure:
    """One ``--what`` column in one group: its values counted (``n``),
    their mean (the share of yes, for yes/no) and its 95% interval."""

    column: str
    kind: str
    """:data:`NUMBER` (a mean) or :data:`YES_NO` (a share)."""
    n: int
    mean: float | None
    ci95: tuple[float, float] | None
    spread: float | None = None
    """The standard deviation of a number's values (n − 1)."""

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"type": "share" if self.kind == YES_NO else "mean", "n": self.n}
        data["share" if self.kind == YES_NO else "mean"] = _round(self.mean)
        if self.kind == NUMBER:
            data["sd"] = _round(self.spread)
        data["ci95"] = None if self.ci95 is None else [_round(end) for end in self.ci95]
        return data


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def figure(rows: Sequence[Row], column: str, kind: str) -> Figure:
    """The figure of ``column`` over ``rows``, None values left out."""
    values = [row[column] for row in rows if row.get(column) is not None]
    if not values:
        return Figure(column, kind, 0, None, None)
    if kind == YES_NO:
        share, ci95 = share_interval(sum(bool(value) for value in values), len(values))
        return Figure(column, kind, len(values), share, ci95)
    numbers = [float(value) for value in values if isinstance(value, (int, float))]
    mean, spread = mean_spread(numbers)
    interval = None if spread is None else t_interval(mean, spread, len(numbers))
    return Figure(column, kind, len(numbers), mean, interval, spread)


@dataclass(frozen=True)
class Group:
    """The rows sharing one value of each ``--by`` key: their count and figures."""

    key: tuple[Value, ...]
    label: tuple[str, ...]
    count: int
    figures: tuple[Figure, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "key": list(self.key),
            "label": list(self.label),
            "count": self.count,
            "figures": {figure.column: figure.to_json() for figure in self.figures},
        }


@dataclass(frozen=True)
class Table:
    """What ``kosolve stats`` prints: the groups in the order of their
    keys (none without ``by``), and the whole file's figures (``total``)."""

    source: str
    kind: str
    deals: int
    failed: int
    by: tuple[Key, ...]
    what: tuple[tuple[str, str], ...]
    """Each ``--what`` column with its type."""
    groups: tuple[Group, ...]
    total: Group
    joined: str | None = None
    where: str | None = None

    def to_json(self) -> dict[str, object]:
        """The JSON object of ``kosolve stats --json`` (stats format 1,
        docs/statistics.md; schema ``stats.schema.json``)."""
        return {
            "stats_format": STATS_FORMAT,
            "results": self.source,
            "kind": self.kind,
            "deals": self.deals,
            "failed": self.failed,
            "deals_file": self.joined,
            "where": self.where,
            "by": [{"column": key.column, "width": key.width} for key in self.by],
            "what": [{"column": column, "type": "share" if kind == YES_NO else "mean"} for column, kind in self.what],
            "intervals": {"mean": "student-t", "share": "wilson", "level": 0.95},
            "groups": [group.to_json() for group in self.groups],
            "total": self.total.to_json(),
        }


def _order(value: Value) -> tuple[int, float, str]:
    """Groups in the order of their keys: numbers by size, then words
    (contracts lowest first), none last."""
    if value is None:
        return (2, 0.0, "")
    if isinstance(value, (bool, int, float)):
        return (0, float(value), "")
    return (1, CONTRACTS.index(value) if value in CONTRACTS else len(CONTRACTS), value)


def tabulate(table: Rows, by: Sequence[str] = (), what: Sequence[str] = (), where: str | None = None) -> Table:
    """The rows of ``table`` grouped by the ``by`` keys (a column, or
    ``COLUMN:WIDTH`` for bins of a number) and each ``what`` column counted
    in each group (the kind's :data:`DEFAULT_WHAT` when none is given);
    :class:`StatsError` names a column the rows do not have, or one that
    cannot be counted."""
    rows = table.rows
    keys = tuple(Key.parse(text) for text in by)
    columns = tuple(what) or tuple(column for column in DEFAULT_WHAT[table.kind] if column in table.columns)
    for key in keys:
        _known(table, key.column, "--by")
        if key.width is not None and column_type(rows, key.column) != NUMBER:
            raise StatsError(f"--by {key.name}: {key.column} is not a number, so it has no bins")
    typed = []
    for column in columns:
        _known(table, column, "--what")
        kind = column_type(rows, column)
        if kind == WORD:
            raise StatsError(f"--what {column}: a word, neither a number nor yes/no: count it with --by {column}")
        typed.append((column, kind))
    grouped: dict[tuple[Value, ...], list[Row]] = {}
    for row in rows:
        grouped.setdefault(tuple(key.value(row) for key in keys), []).append(row)

    def group(key: tuple[Value, ...], members: Sequence[Row]) -> Group:
        label = tuple(k.label(value) for k, value in zip(keys, key, strict=True))
        return Group(key, label, len(members), tuple(figure(members, column, kind) for column, kind in typed))

    ordered = sorted(grouped, key=lambda key: [_order(v) for v in key]) if keys else []
    groups = tuple(group(key, grouped[key]) for key in ordered)
    total = Group((), (), len(rows), tuple(figure(rows, column, kind) for column, kind in typed))
    return Table(
        table.source, table.kind, len(rows), table.failed, keys, tuple(typed), groups, total, table.deals, where
    )


def _known(table: Rows, column: str, option: str) -> None:
    if column not in table.columns and table.deals is None and column.split(".")[0] in FACT_SEATS:
        raise StatsError(f"{option} {column}: each seat's cards need the deals file the batch read: give --deals")
    if column not in table.columns:
        raise StatsError(
            f"{option} {column}: no such column in these {table.kind} results (kosolve stats --columns lists them)"
        )


__all__ = [
    "DEFAULT_WHAT",
    "NUMBER",
    "STATS_FORMAT",
    "WORD",
    "YES_NO",
    "Figure",
    "Group",
    "Key",
    "Table",
    "column_type",
    "figure",
    "mean_interval",
    "mean_spread",
    "share_interval",
    "t975",
    "t_interval",
    "tabulate",
]
