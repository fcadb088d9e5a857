"""Options shared by the ``kosolve`` commands, as click decorators.

>>> import click
>>> @click.command()
... @tt_mb_option
... def show(tt_mb: float) -> None:
...     click.echo(tt_mb)
>>> from click.testing import CliRunner
>>> CliRunner().invoke(show, ["--tt-mb", "8"]).output
'8.0\\n'
>>> CliRunner().invoke(show, ["--tt-mb", "1e13"]).exit_code
2
>>> @click.command()
... @rules_options
... def rules(rules: Rules) -> None:
...     click.echo(rules.win_thirds)
>>> CliRunner().invoke(rules, ["--win-thirds", "106"]).output
'106\\n'
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import Field, fields
from typing import Any, TypeVar

import click

from kosolve.analysis.pool import default_jobs
from kosolve.analysis.solving import DEFAULT_BUDGET_MB, MAX_BUDGET_MB
from kosolve.cli.errors import switch_of
from kosolve.engine import MAX_SEARCH_THREADS
from kosolve.model.game import DEFAULT_RULES, Rules
from kosolve.review.choices import DEFAULT_DECISION_SAMPLES
from kosolve.sampling.odds import DEFAULT_SAMPLES

F = TypeVar("F", bound=Callable[..., object])


MIN_TT_MB = 1.0
"""The least ``--tt-mb``: below a megabyte the tables only slow a solve
down (the Python API takes smaller budgets, for tests)."""


class _TableMegabytes(click.FloatRange):
    """A float range that refuses NaN too, which no range comparison catches."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if math.isnan(number):
            self.fail(f"{value!r} is not in the range {MIN_TT_MB}<=x<={MAX_BUDGET_MB}.", param, ctx)
        return number


class Word(click.Choice[str]):
    """A choice of lower-case words (a seat, a contract, a discard variant)
    taken in any letter case, as deal files take them, and handed on in
    lower case.  ASCII only, as in deal files: str.lower() would also fold
    look-alikes such as the Kelvin sign into plain letters.

    >>> @click.command()
    ... @click.option("--seat", type=Word(("forehand", "dealer")))
    ... def seat(seat: str) -> None:
    ...     click.echo(seat)
    >>> from click.testing import CliRunner
    >>> CliRunner().invoke(seat, ["--seat", "Dealer"]).output
    'dealer\\n'
    """

    def __init__(self, choices: tuple[str, ...]) -> None:
        super().__init__(choices)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if isinstance(value, str) and value.isascii() and value.lower() in self.choices:
            value = value.lower()
        # Anything else is refused by click, in the words the user typed.
        word: str = super().convert(value, param, ctx)
        return word


def tt_mb_option(function: F) -> F:
    """``--tt-mb MB``: the memory of all the search tables of a run, 1 to
    16384 MB; outside that range a usage error (exit 2) names it."""
    return click.option(
        "--tt-mb",
        type=_TableMegabytes(min=MIN_TT_MB, max=MAX_BUDGET_MB),
        default=DEFAULT_BUDGET_MB,
        show_default=True,
        metavar="MB",
        help="Memory for all the search tables of a run, in megabytes: a quarter for the goal table"
        " (at most 2 MB), a half for the score search's tables (at most 16 MB; made only for a net score),"
        " the rest for the main table.",
    )(function)


def jobs_option(function: F) -> F:
    """``--jobs N``: worker processes, one solver each (default: every core
    this process may use; never more than the cores or the work left); what
    they answer does not depend on N."""
    return click.option(
        "--jobs",
        type=click.IntRange(min=1),
        metavar="N",
        help="Worker processes on this machine, one solver each, at most one a core and one an item of work;"
        " the answers are the same for any N  [default: every core]",
    )(function)


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system
    tells it), at most the solver's :data:`MAX_SEARCH_THREADS`."""
    return max(1, min(default_jobs(), MAX_SEARCH_THREADS))


def threads_option(function: F) -> F:
    """``--threads N``: the threads a solve of one position runs (1 to
    :data:`MAX_SEARCH_THREADS`), by default every core this process may use.

    >>> from click.testing import CliRunner
    >>> @click.command()
    ... @threads_option
    ... def count(threads: int) -> None:
    ...     click.echo(threads)
    >>> CliRunner().invoke(count, ["--threads", "2"]).output
    '2\\n'
    >>> CliRunner().invoke(count, []).output == f"{available_cores()}\\n"
    True
    >>> CliRunner().invoke(count, ["--threads", "0"]).exit_code
    2
    """
    return click.option(
        "--threads",
        type=click.IntRange(1, MAX_SEARCH_THREADS),
        default=available_cores,
        show_default="all cores",
        metavar="N",
        help="Threads for the search of each position, over one shared table: the answers are the same for any"
        " number, only faster (on positions with 20 or more cards in play, ten tricks).",
    )(function)


MAX_SAMPLES = 1_000_000
"""The most worlds one run draws: a million solves is hours already."""


def samples_options(what: str) -> Callable[[F], F]:
    """``--samples N`` and ``--seed S``: the worlds drawn of a seat view
    (every one, exact, when no more fit it) and the seed of the draw;
    ``what`` says which views, in the help."""

    def decorate(function: F) -> F:
        function = click.option(
            "--seed", type=int, default=0, show_default=True, help=f"{what}: the seed of the draw of worlds."
        )(function)
        return click.option(
            "--samples",
            type=click.IntRange(1, MAX_SAMPLES),
            default=DEFAULT_SAMPLES,
            show_default=True,
            metavar="N",
            help=f"{what}: the worlds to draw; when no more than N fit the view, every one is solved (exact).",
        )(function)

    return decorate


def decisions_options(what: str) -> Callable[[F], F]:
    """``--decisions/--no-decisions`` (the keyword ``before_play``) and
    ``--decision-samples N``: whether the decisions before the play of a
    deal as dealt are judged, and in how many worlds each; ``what`` names
    the work whose time they cost most of, in the help."""

    def decorate(function: F) -> F:
        function = click.option(
            "--decision-samples",
            type=click.IntRange(min=1),
            default=DEFAULT_DECISION_SAMPLES,
            show_default=True,
            metavar="N",
            help="The most worlds each decision before the play is valued in (each world asks the exchange"
            " table's rows, the dear part).",
        )(function)
        return click.option(
            "--decisions/--no-decisions",
            "before_play",
            default=True,
            show_default=True,
            help="For a deal as dealt, also judge every decision before the play: the bid, the announcements"
            f" (and Kontras), the talon choice and the lay-away.  They cost most of {what}'s time;"
            " --no-decisions judges the cards alone.",
        )(function)

    return decorate


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


def _rule_switch(option: Field[Any]) -> Callable[[F], F]:
    """The switch of one field of :class:`~kosolve.model.game.Rules`: a flag
    for one on or off, a choice of its values for the others; its help is
    the field's own."""
    default = getattr(DEFAULT_RULES, option.name)
    help_text = f"Rule option: {option.metadata['help']}."
    choices = option.metadata["choices"]
    if not choices:
        return click.option(switch_of(option.name), option.name, is_flag=True, help=help_text)
    return click.option(
        switch_of(option.name),
        option.name,
        type=Word(tuple(str(choice) for choice in choices)),
        default=str(default),
        show_default=True,
        help=help_text,
    )


def rules_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """The rule options (docs/rules.md §8), one switch for each field of
    :class:`~kosolve.model.game.Rules`, made from the field, handed to the
    command as one ``rules`` argument."""
    options = fields(Rules)

    @functools.wraps(function)
    def with_rules(*args: Any, **kwargs: Any) -> Any:
        given = {option.name: kwargs.pop(option.name) for option in options}
        # A choice's values come as text: each as the type of its default.
        values = {name: type(getattr(DEFAULT_RULES, name))(value) for name, value in given.items()}
        return function(*args, rules=Rules(**values), **kwargs)

    decorated: Callable[..., Any] = with_rules
    for option in reversed(options):
        decorated = _rule_switch(option)(decorated)
    return decorated
