"""What the commands share around their work: setting up the search's
tables (a table too large for the memory left is one line, exit status 1),
a progress bar on stderr that the library's ``progress(done, total)``
callbacks move, and files written whole or not at all.

The bar is for a terminal only: stderr sent to a file or a pipe (as
click's CliRunner sends it) gets no bar and not even its label.

>>> from click.testing import CliRunner
>>> @click.command()
... def count() -> None:
...     with progress_bar("counting", quiet=False) as progress:
...         assert progress is None
>>> CliRunner().invoke(count).stderr
''
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from kosolve.cli.errors import InputError
from kosolve.cli.loading import STDIN

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar

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


def on_terminal() -> bool:
    """Whether stderr is a terminal, the only place a progress bar is drawn:
    in a file or a pipe its label would be a stray line among the errors."""
    return sys.stderr is not None and sys.stderr.isatty()


@contextmanager
def progress_bar(label: str, quiet: bool, per_second: str | None = None) -> Iterator[Progress | None]:
    """A progress bar on stderr, and the callback that moves it: the
    library calls it with the steps done and their total, which it alone
    knows; None, and no bar, when ``quiet`` or off a terminal.  With
    ``per_second`` (``"deals"``) the bar also shows the steps done and how
    many a second.

    The bar is drawn at the first step, not before: the library checks its
    input before it starts, so a bad input is one line with no bar above it."""
    if quiet or not on_terminal():
        yield None
        return
    with contextlib.ExitStack() as stack:
        bar: ProgressBar[object] | None = None
        start = time.perf_counter()

        def rate(_: object) -> str:
            # Drawn once as the bar is made, before the name bar holds it.
            elapsed = time.perf_counter() - start
            return f"{bar.pos / elapsed:.1f} {per_second}/s" if bar is not None and bar.pos and elapsed > 0 else ""

        def progress(done: int, total: int) -> None:
            nonlocal bar
            if bar is None:
                bar = stack.enter_context(
                    click.progressbar(
                        length=total,
                        label=label,
                        file=sys.stderr,
                        show_pos=per_second is not None,
                        item_show_func=None if per_second is None else rate,
                    )
                )
            bar.length = total
            bar.update(done - bar.pos)

        yield progress


def check_target(option: str, path: str, *read: str | None, reads: str = "deal file") -> None:
    """Refuse, before anything is done, a file to write (given by
    ``option``) that would replace a file ``read`` (the ``reads`` it
    reads), that is a folder, or that lands in a folder that cannot be
    written into: one line, exit status 2, however the command is called."""
    for given in read:
        if given is None or given == STDIN:
            continue
        if os.path.exists(path) and os.path.exists(given) and os.path.samefile(path, given):
            raise InputError(f"{option} {path} would replace the {reads} it reads")
    if os.path.isdir(path):
        raise InputError(f"{option} {path}: is a folder: name a file to write")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise InputError(f"{option} {path}: cannot write into {folder}")


@contextmanager
def whole_file(path: str) -> Iterator[str]:
    """A temporary path beside ``path`` for the block to write, renamed
    over ``path`` once the block is done: the file whole or not at all.  A
    file system's refusal is one line naming ``path``."""
    try:
        handle, temporary = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".kosolve-")
        os.close(handle)
    except OSError as error:
        raise click.FileError(path, error.strerror or str(error)) from None
    try:
        yield temporary
        # mkstemp makes the file private; what kosolve writes is as readable as any other file.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except OSError as error:
        raise click.FileError(path, error.strerror or str(error)) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def write_atomically(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (:func:`whole_file`)."""
    with whole_file(path) as temporary, open(temporary, "w", encoding="utf-8") as file:
        file.write(text)


__all__ = ["Progress", "check_target", "on_terminal", "progress_bar", "tables", "whole_file", "write_atomically"]
