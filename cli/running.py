"""What the commands share around their work: setting up the search's
tables (a table too large for the memory left is one line, exit status 1)
and a progress bar on stderr that the library's ``progress(done, total)``
callbacks move.

>>> from click.testing import CliRunner
>>> @click.command()
... def count() -> None:
...     with progress_bar("counting", quiet=False) as progress:
...         assert progress is not None
...         for done in range(1, 4):
...             progress(done, 3)
>>> "counting" in CliRunner().invoke(count).stderr
True
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click

Progress = Callable[[int, int], None]


@contextmanager
def tables(tt_mb: float) -> Iterator[None]:
    """Around making what holds the tables of ``tt_mb`` megabytes: the
    error of a table too large for the memory left, or one the system
    refuses, becomes one line (exit status 1)."""
    try:
        yield
    except (MemoryError, ValueError, OverflowError) as error:
        raise click.ClickException(f"cannot set up {tt_mb:g} MB of tables: {error or 'out of memory'}") from None


@contextmanager
def progress_bar(label: str, quiet: bool) -> Iterator[Progress | None]:
    """A progress bar on stderr, and the callback that moves it: the
    library calls it with the steps done and their total, which it alone
    knows; None, and no bar, when ``quiet``."""
    if quiet:
        yield None
        return
    with click.progressbar(length=1, label=label, file=sys.stderr) as bar:

        def progress(done: int, total: int) -> None:
            bar.length = total
            bar.update(done - bar.pos)

        yield progress


__all__ = ["Progress", "progress_bar", "tables"]
