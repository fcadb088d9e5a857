"""Options shared by the ``kosolve`` commands, as click decorators.

>>> import click
>>> @click.command()
... @tt_mb_option
... def show(tt_mb: float) -> None:
...     click.echo(tt_mb)
>>> from click.testing import CliRunner
>>> CliRunner().invoke(show, ["--tt-mb", "8"]).output
'8.0\\n'
>>> @click.command()
... @rules_options
... def rules(rules: Rules) -> None:
...     click.echo(rules.win_thirds)
>>> CliRunner().invoke(rules, ["--win-thirds", "106"]).output
'106\\n'
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

from kosolve.engine._search import DEFAULT_TT_MB
from kosolve.model.game import DEFAULT_RULES, RULE_SWITCHES, Rules

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


def rules_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """The rule options (docs/rules.md §8), one switch per field of
    :class:`~kosolve.model.game.Rules` (:data:`~kosolve.model.game.RULE_SWITCHES`),
    handed to the command as one ``rules`` argument."""

    @functools.wraps(function)
    def with_rules(
        *args: Any,
        win_thirds: str,
        silent_bird_penalty: bool,
        defender_announcements: bool,
        kontra: bool,
        **kwargs: Any,
    ) -> Any:
        rules = Rules(
            win_thirds=int(win_thirds),
            silent_bird_penalty=silent_bird_penalty,
            defender_announcements=defender_announcements,
            kontra=kontra,
        )
        return function(*args, rules=rules, **kwargs)

    decorators = [
        click.option(
            RULE_SWITCHES["win_thirds"],
            type=click.Choice(["107", "106"]),
            default=str(DEFAULT_RULES.win_thirds),
            show_default=True,
            help="Rule option: thirds the declarer needs to win: 107 (36 points) or 106 (35⅓ points accepted).",
        ),
        click.option(
            RULE_SWITCHES["silent_bird_penalty"],
            is_flag=True,
            help="Rule option: a silent bird played in its trick and beaten costs its silent value.",
        ),
        click.option(
            RULE_SWITCHES["defender_announcements"],
            is_flag=True,
            help="Rule option: the defender may announce a bird or the Valat.",
        ),
        click.option(
            RULE_SWITCHES["kontra"], is_flag=True, help="Rule option: a Kontra on an announcement doubles it."
        ),
    ]
    decorated: Callable[..., Any] = with_rules
    for decorator in reversed(decorators):
        decorated = decorator(decorated)
    return decorated
