"""Options shared by the ``kosolve`` commands, as click decorators.

>>> import click
>>> @click.command()
... @tt_mb_option
... def show(tt_mb: float) -> None:
...     click.echo(tt_mb)
>>> from click.testing import CliRunner
>>> CliRunner().invoke(show, ["--tt-mb", "8"]).output
'8.0\\n'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

from kosolve._search import DEFAULT_TT_MB

F = TypeVar("F", bound=Callable[..., object])


def tt_mb_option(function: F) -> F:
    """``--tt-mb MB``: the size of the transposition table, a float above 0."""
    return click.option(
        "--tt-mb",
        type=click.FloatRange(min=0, min_open=True),
        default=DEFAULT_TT_MB,
        show_default=True,
        metavar="MB",
        help="Size of the transposition table in megabytes.",
    )(function)


def json_option(function: F) -> F:
    """``--json``: machine-readable output on stdout."""
    return click.option(
        "--json",
        "as_json",
        is_flag=True,
        help="Print JSON instead of text: one object a line.",
    )(function)


def quiet_option(help_text: str) -> Callable[[F], F]:
    """``-q/--quiet`` with the given help text; it also silences progress
    bars."""

    def decorate(function: F) -> F:
        return click.option("-q", "--quiet", is_flag=True, help=help_text)(function)

    return decorate
