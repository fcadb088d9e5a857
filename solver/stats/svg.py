"""Pictures drawn by kosolve itself, no plotting library (docs/statistics.md):
the figures of a table's groups, each a dot with its 95% interval a bar
through it on a scale, a row a group; and a match's running mean
difference over its deals with its 95% band.

The pieces are public, for any other picture of intervals in the same
style: :func:`interval_rows` and :func:`svg_document`; the axis ticks are
:func:`kosolve.model.svg.axis_ticks`, which the ladder's picture
(:func:`kosolve.play.rating.ratings_svg`) uses too.

>>> rows = [IntervalRow("7 tarocks", 0.5, (0.3, 0.7)), IntervalRow("8 tarocks", 0.8, None)]
>>> svg = svg_document(interval_rows("won", rows, percent=True))
>>> svg.startswith("<svg") and "8 tarocks" in svg
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from kosolve.model.svg import axis_ticks, svg_text
from kosolve.stats.figures import YES_NO, Table, t_interval

PLOT_WIDTH: Final = 470
"""The width of a plot itself, right of its labels."""
CHARACTER_WIDTH: Final = 7
"""About the width of a character of a label, 12 px sans-serif."""
ROW_HEIGHT: Final = 26
TITLE_HEIGHT: Final = 40
AXIS_HEIGHT: Final = 30
COLOUR: Final = "#2a5caa"
BAND: Final = "#c9d6ee"
SCALE_FROM: Final = 10
"""The deal from which a running mean's band sets its picture's scale."""


def _scale(ends: Sequence[float]) -> tuple[float, float]:
    """The range of a scale: every end inside it, a little room on both sides."""
    low, high = min(ends), max(ends)
    margin = (high - low) * 0.05 if high - low > 1e-9 else max(abs(high) * 0.1, 0.5)
    return low - margin, high + margin


@dataclass(frozen=True)
class Panel:
    """A piece of a picture: its SVG elements, placed from its top left, and its size."""

    elements: tuple[str, ...]
    width: int
    height: int


@dataclass(frozen=True)
class IntervalRow:
    """A row of a picture: its label, the value and its 95% interval (None: a dot alone)."""

    label: str
    value: float
    ci95: tuple[float, float] | None


def interval_rows(
    title: str, rows: Sequence[IntervalRow], *, percent: bool = False, reference: float | None = None
) -> Panel:
    """A panel of ``rows``, each a dot with its interval a bar through it,
    the label on the left, under ``title``, a dashed line at ``reference``
    (a whole's mean)."""
    ends = [end for row in rows for end in (row.ci95 or (row.value, row.value))]
    ends += [] if reference is None else [reference]
    low, high = _scale(ends)
    if percent:
        low, high = max(low, 0.0), min(high, 1.0)
    plot_left = 20 + CHARACTER_WIDTH * max(len(row.label) for row in rows)
    plot_right = plot_left + PLOT_WIDTH
    bottom = TITLE_HEIGHT + ROW_HEIGHT * len(rows)

    def x(value: float) -> float:
        return plot_left + (value - low) / (high - low) * (plot_right - plot_left)

    parts = [f'<text x="10" y="16" font-weight="bold">{svg_text(title)}</text>']
    for tick in axis_ticks(low, high):
        label = f"{100 * tick:.0f}%" if percent else f"{tick:g}"
        parts.append(
            f'<line x1="{x(tick):.1f}" y1="{TITLE_HEIGHT - 8}" x2="{x(tick):.1f}" y2="{bottom}" stroke="#ddd"/>'
            f'<text x="{x(tick):.1f}" y="{bottom + 16}" text-anchor="middle" fill="#444">{label}</text>'
        )
    if reference is not None:
        parts.append(
            f'<line x1="{x(reference):.1f}" y1="{TITLE_HEIGHT - 8}" x2="{x(reference):.1f}" y2="{bottom}"'
            ' stroke="#888" stroke-dasharray="4 3"/>'
        )
    for index, row in enumerate(rows):
        y = TITLE_HEIGHT + ROW_HEIGHT * index + ROW_HEIGHT / 2
        shown = f"{100 * row.value:.1f}%" if percent else f"{row.value:.2f}"
        if row.ci95 is not None:
            first, last = row.ci95
            shown += f" ({100 * first:.1f} to {100 * last:.1f})" if percent else f" ({first:.2f} to {last:.2f})"
        parts.append(
            f'<g class="group" data-label="{svg_text(row.label)}"><title>{svg_text(row.label)}: {shown}</title>'
            f'<text x="{plot_left - 8}" y="{y + 4:.1f}" text-anchor="end">{svg_text(row.label)}</text>'
        )
        if row.ci95 is not None:
            parts.append(
                f'<line x1="{x(row.ci95[0]):.1f}" y1="{y:.1f}" x2="{x(row.ci95[1]):.1f}" y2="{y:.1f}"'
                f' stroke="{COLOUR}" stroke-width="2"/>'
            )
        parts.append(f'<circle cx="{x(row.value):.1f}" cy="{y:.1f}" r="4" fill="{COLOUR}"/></g>')
    return Panel(tuple(parts), max(plot_right + 20, _title_width(title)), bottom + AXIS_HEIGHT)


def _title_width(title: str) -> int:
    """The width a bold title needs from the left edge, about."""
    return 20 + math.ceil(CHARACTER_WIDTH * 1.1 * len(title))


def svg_document(*panels: Panel, title: str | None = None) -> str:
    """Panels one under the other in one SVG picture, with its ``title``
    (a tooltip, and what a screen reader says of it)."""
    width = max(panel.width for panel in panels)
    height = sum(panel.height for panel in panels)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">'
    ]
    if title is not None:
        parts.append(f"<title>{svg_text(title)}</title>")
    top = 0
    for panel in panels:
        parts.append(f'<g transform="translate(0 {top})">')
        parts += panel.elements
        parts.append("</g>")
        top += panel.height
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def panel_title(column: str, kind: str, by: str) -> str:
    """What a panel plots, in words."""
    what = f"{column}: the share of yes" if kind == YES_NO else f"{column}: the mean"
    return f"{what}{f' by {by}' if by else ''}, with its 95% interval"


def table_svg(table: Table) -> str:
    """The table as a picture: a panel a ``--what`` column, a row a group
    (the whole file's figure the dashed line)."""
    by = ", ".join(key.name for key in table.by)
    panels = []
    for index, (column, kind) in enumerate(table.what):
        groups = table.groups if table.by else (table.total,)
        rows = [
            IntervalRow(", ".join(group.label) or "all", figure.mean, figure.ci95)
            for group in groups
            if (figure := group.figures[index]).mean is not None
        ]
        if rows:
            reference = table.total.figures[index].mean if table.by else None
            panels.append(
                interval_rows(panel_title(column, kind, by), rows, percent=kind == YES_NO, reference=reference)
            )
    if not panels:
        raise ValueError("nothing to draw: no group has a value")
    return svg_document(
        *panels, title=f"{table.source}: {', '.join(c for c, _ in table.what)}{f' by {by}' if by else ''}"
    )


@dataclass(frozen=True)
class Running:
    """A match's running mean: after each deal ``k`` (from 1), the mean
    difference of the first ``k`` deals and its 95% interval (Student's t;
    None after one deal)."""

    means: tuple[float, ...]
    bands: tuple[tuple[float, float] | None, ...]

    @classmethod
    def of(cls, differences: Sequence[float]) -> Running:
        means: list[float] = []
        bands: list[tuple[float, float] | None] = []
        total = square = 0.0
        for k, value in enumerate(differences, start=1):
            total += value
            square += value * value
            mean = total / k
            means.append(mean)
            if k < 2:
                bands.append(None)
                continue
            variance = max(square - k * mean * mean, 0.0) / (k - 1)
            bands.append(t_interval(mean, math.sqrt(variance), k))
        return cls(tuple(means), tuple(bands))

    def scale(self) -> tuple[float, float]:
        """The range a picture shows: every mean, 0, and the band from deal
        :data:`SCALE_FROM` on (the first deals' intervals are wide, t
        having few degrees of freedom, and would flatten the rest)."""
        first = min(SCALE_FROM, len(self.means))
        ends = [end for band in self.bands[first - 1 :] if band is not None for end in band]
        return _scale([*ends, *self.means, 0.0])


RUNNING_WIDTH: Final = 560
RUNNING_HEIGHT: Final = 260


def running_svg(running: Running, title: str, subtitle: str = "") -> str:
    """The running mean a line over the deals, its 95% band shaded, 0 a
    dashed line, on the scale of :meth:`Running.scale` (the band beyond it clipped)."""
    n = len(running.means)
    if n == 0:
        raise ValueError("nothing to draw: no deal")
    low, high = running.scale()
    left, right = 60, 60 + RUNNING_WIDTH
    top = TITLE_HEIGHT + (16 if subtitle else 0)
    bottom = top + RUNNING_HEIGHT

    def x(k: int) -> float:
        return left + (k - 1) / max(n - 1, 1) * (right - left)

    def y(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    parts = [f'<text x="10" y="16" font-weight="bold">{svg_text(title)}</text>']
    if subtitle:
        parts.append(f'<text x="10" y="34">{svg_text(subtitle)}</text>')
    parts.append(
        f'<clipPath id="plot"><rect x="{left}" y="{top}" width="{right - left}" height="{bottom - top}"/></clipPath>'
    )
    for tick in axis_ticks(low, high):
        parts.append(
            f'<line x1="{left}" y1="{y(tick):.1f}" x2="{right}" y2="{y(tick):.1f}" stroke="#ddd"/>'
            f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" fill="#444">{tick:g}</text>'
        )
    for tick in axis_ticks(1, n):
        if float(tick).is_integer():
            parts.append(
                f'<text x="{x(int(tick)):.1f}" y="{bottom + 16}" text-anchor="middle" fill="#444">{tick:g}</text>'
            )
    parts.append(f'<text x="{(left + right) / 2:.0f}" y="{bottom + 32}" text-anchor="middle">deals</text>')
    banded = [(k, band) for k, band in enumerate(running.bands, start=1) if band is not None]
    if banded:
        outline = [f"{x(k):.1f},{y(band[1]):.1f}" for k, band in banded]
        outline += [f"{x(k):.1f},{y(band[0]):.1f}" for k, band in reversed(banded)]
        parts.append(f'<polygon class="band" points="{" ".join(outline)}" fill="{BAND}" clip-path="url(#plot)"/>')
    parts.append(
        f'<line x1="{left}" y1="{y(0):.1f}" x2="{right}" y2="{y(0):.1f}" stroke="#888" stroke-dasharray="4 3"/>'
    )
    line = " ".join(f"{x(k):.1f},{y(mean):.1f}" for k, mean in enumerate(running.means, start=1))
    parts.append(f'<polyline class="mean" points="{line}" fill="none" stroke="{COLOUR}" stroke-width="2"/>')
    width = max(right + 20, _title_width(title))
    return svg_document(Panel(tuple(parts), width, bottom + 40), title=f"{title}; {subtitle}" if subtitle else title)


__all__ = [
    "IntervalRow",
    "Panel",
    "Running",
    "interval_rows",
    "panel_title",
    "running_svg",
    "svg_document",
    "table_svg",
]
