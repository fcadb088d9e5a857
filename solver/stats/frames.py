"""The rows as a pandas DataFrame, a Parquet file (pyarrow) and the
pictures as PNG (matplotlib): the optional extra ``kosolve[stats]``
(docs/statistics.md).  Nothing else of kosolve imports these packages,
and this module imports each only when it is asked for, so that a missing
one costs nothing until then, and then one line saying what to install
(:class:`ExtraError`)."""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any, Final

from kosolve.stats.figures import NUMBER, YES_NO, Table, column_type
from kosolve.stats.rows import Rows, read_rows
from kosolve.stats.svg import BAND, COLOUR, Running, panel_title

if TYPE_CHECKING:
    from pandas import DataFrame

INSTALL: Final = "pip install 'kosolve[stats]'"
PNG_WIDTH: Final = 800
"""The width of every PNG picture, in pixels."""
PNG_PANEL: Final = 70
"""The height of a PNG panel's title and axis, in pixels ..."""
PNG_ROW: Final = 28
"""... and of each of its rows."""
PNG_RUNNING_HEIGHT: Final = 400
DPI: Final = 100


class ExtraError(ImportError):
    """An optional package that is not installed: the message says which and how to install it."""


def _need(package: str, what: str) -> Any:
    """The module ``package``, or :class:`ExtraError` naming ``what`` needs it."""
    try:
        return importlib.import_module(package)
    except ImportError:
        raise ExtraError(f"{what} needs {package}: {INSTALL}") from None


def to_frame(rows: Rows) -> DataFrame:
    """The rows as a DataFrame, a row a deal and a column each of
    ``rows.columns``: yes/no columns of pandas' nullable ``boolean``,
    whole numbers ``Int64``, other numbers ``float64`` (None as NaN),
    words ``string``."""
    pandas = _need("pandas", "kosolve.stats.frame")
    data = {}
    for column in rows.columns:
        values = [row[column] for row in rows.rows]
        kind = column_type(rows.rows, column)
        if kind == YES_NO:
            dtype = "boolean"
        elif kind == NUMBER:
            whole = all(isinstance(value, int) for value in values if value is not None)
            dtype = "Int64" if whole else "float64"
            values = [float("nan") if value is None and not whole else value for value in values]
        else:
            dtype = "string"
        data[column] = pandas.array(values, dtype=dtype)
    frame: DataFrame = pandas.DataFrame(data, columns=list(rows.columns))
    return frame


def frame(
    path: str | os.PathLike[str], deals: str | os.PathLike[str] | None = None, where: str | None = None
) -> DataFrame:
    """The results file at ``path`` (``kosolve batch``'s or ``kosolve
    arena``'s) as a DataFrame, a row a deal, its columns those of
    docs/statistics.md; with the ``deals`` the batch read, each seat's
    cards too (``declarer.tarocks``, ...), kept where they meet the
    condition ``where`` (:func:`~kosolve.stats.rows.read_rows`)."""
    return to_frame(read_rows(path, deals, where))


def write_parquet(rows: Rows, path: str) -> None:
    """The rows' DataFrame written as Parquet, through pyarrow."""
    _need("pyarrow", "--parquet")
    to_frame(rows).to_parquet(path, index=False, engine="pyarrow")


def _pyplot() -> Any:
    _need("matplotlib", "a PNG picture")
    matplotlib = importlib.import_module("matplotlib")
    matplotlib.use("Agg")  # no window: a file
    return importlib.import_module("matplotlib.pyplot")


def png_size(table: Table) -> tuple[int, int]:
    """The width and height in pixels of :func:`table_png`'s picture."""
    groups = len(table.groups) if table.by else 1
    return PNG_WIDTH, len(table.what) * (PNG_PANEL + PNG_ROW * groups)


def table_png(table: Table, path: str) -> None:
    """The table as :func:`~kosolve.stats.svg.table_svg` draws it, a PNG
    of :func:`png_size` pixels."""
    plt = _pyplot()
    width, height = png_size(table)
    groups = table.groups if table.by else (table.total,)
    by = ", ".join(key.name for key in table.by)
    figure, axes = plt.subplots(
        len(table.what),
        1,
        figsize=(width / DPI, height / DPI),
        dpi=DPI,
        squeeze=False,
        height_ratios=[1] * len(table.what),
    )
    for index, (column, kind) in enumerate(table.what):
        ax = axes[index][0]
        scale = 100.0 if kind == YES_NO else 1.0
        labels, means, lows, highs = [], [], [], []
        for group in groups:
            shown = group.figures[index]
            if shown.mean is None:
                continue
            labels.append(", ".join(group.label) or "all")
            means.append(scale * shown.mean)
            low, high = shown.ci95 or (shown.mean, shown.mean)
            lows.append(scale * (shown.mean - low))
            highs.append(scale * (high - shown.mean))
        places = list(range(len(labels)))[::-1]  # the first group on top
        ax.errorbar(means, places, xerr=[lows, highs], fmt="o", color=COLOUR, capsize=3)
        ax.set_yticks(places, labels)
        total = table.total.figures[index].mean
        if table.by and total is not None:
            ax.axvline(scale * total, color="#888", linestyle="--", linewidth=1)
        ax.set_title(panel_title(column, kind, by) + (" (%)" if kind == YES_NO else ""), fontsize=10, loc="left")
        ax.grid(axis="x", color="#ddd")
    figure.tight_layout()
    figure.savefig(path, dpi=DPI, format="png")
    plt.close(figure)


def running_png(running: Running, title: str, path: str) -> None:
    """The running mean as :func:`~kosolve.stats.svg.running_svg` draws it,
    a PNG of :data:`PNG_WIDTH` by :data:`PNG_RUNNING_HEIGHT` pixels."""
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(PNG_WIDTH / DPI, PNG_RUNNING_HEIGHT / DPI), dpi=DPI)
    deals = range(1, len(running.means) + 1)
    banded = [(k, band) for k, band in zip(deals, running.bands, strict=True) if band is not None]
    if banded:
        ax.fill_between([k for k, _ in banded], [b[0] for _, b in banded], [b[1] for _, b in banded], color=BAND)
    ax.plot(list(deals), list(running.means), color=COLOUR)
    ax.axhline(0, color="#888", linestyle="--", linewidth=1)
    ax.set_ylim(*running.scale())
    ax.set_xlabel("deals")
    # Deals are whole: no tick at 1.5 of them.
    ax.xaxis.set_major_locator(plt.MaxNLocator(integer=True))
    ax.set_title(title, fontsize=10, loc="left")
    figure.tight_layout()
    figure.savefig(path, dpi=DPI, format="png")
    plt.close(figure)


__all__ = [
    "PNG_RUNNING_HEIGHT",
    "PNG_WIDTH",
    "ExtraError",
    "frame",
    "png_size",
    "running_png",
    "table_png",
    "to_frame",
    "write_parquet",
]
