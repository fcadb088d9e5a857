"""A :class:`~kosolve.stats.figures.Table` as text a card player reads at
a glance, and as CSV (docs/statistics.md).

A mean is shown with two decimals and its interval, a share as a
percentage and its interval; a group of one deal has no interval (``-``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from kosolve.model.reprs import counted
from kosolve.render.text import columns
from kosolve.stats.figures import YES_NO, Figure, Group, Table


def _cells(figure: Figure) -> list[str]:
    """A figure's two cells: the mean (a share in %) and its interval."""
    if figure.mean is None:
        return ["-", ""]
    scale, digits = (100, 1) if figure.kind == YES_NO else (1, 2)
    interval = (
        "-" if figure.ci95 is None else f"{scale * figure.ci95[0]:.{digits}f} to {scale * figure.ci95[1]:.{digits}f}"
    )
    return [f"{scale * figure.mean:.{digits}f}", interval]


def to_text(table: Table) -> str:
    """The table: a line a group, the whole file last (``all``); a share
    in percent, each figure followed by its 95% interval."""
    grouped = f", by {', '.join(key.name for key in table.by)}" if table.by else ""
    failed = f", {table.failed} failed and left out" if table.failed else ""
    joined = f", cards from {table.joined}" if table.joined else ""
    where = f", where {table.where}" if table.where else ""
    lines = [f"{table.source}: {counted(table.deals, 'deal')} ({table.kind}{failed}{joined}{where}){grouped}"]
    header = [key.name for key in table.by] or ["group"]
    header.append("deals")
    for column, kind in table.what:
        header += [f"{column} %" if kind == YES_NO else column, "95% interval"]

    def cells(label: Sequence[str], group: Group) -> list[str]:
        return [*label, str(group.count), *(cell for figure in group.figures for cell in _cells(figure))]

    body = [cells(group.label, group) for group in table.groups]
    body.append(cells(["all", *[""] * (len(table.by) - 1)], table.total))
    keys = max(len(table.by), 1)
    # The keys and each interval to the left, the count and each figure (the
    # columns after the count, every other one) to the right, so that their
    # digits line up.
    figures = {keys, *range(keys + 1, len(header), 2)}
    lines += columns([header, *body], indent="", right=figures)
    lines.append("95% intervals: a mean's by Student's t, a share's by Wilson's score")
    return "\n".join(lines)


def _csv_cells(group: Group) -> list[object]:
    cells: list[object] = [group.count]
    for figure in group.figures:
        low, high = (None, None) if figure.ci95 is None else figure.ci95
        cells += [figure.n, figure.mean, low, high]
    return cells


def to_csv(table: Table) -> str:
    """A line a group (the whole file last, its keys ``all``): the ``--by``
    keys, ``deals``, then for each ``--what`` column ``COLUMN.n``,
    ``COLUMN.mean`` (the share for yes/no), ``COLUMN.low``, ``COLUMN.high``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = [key.name for key in table.by] + ["deals"]
    for column, _ in table.what:
        header += [f"{column}.n", f"{column}.mean", f"{column}.low", f"{column}.high"]
    writer.writerow(header)
    for group in table.groups:
        writer.writerow([*("" if value is None else value for value in group.key), *_csv_cells(group)])
    writer.writerow([*(["all"] * len(table.by)), *_csv_cells(table.total)])
    return out.getvalue()


__all__ = ["to_csv", "to_text"]
