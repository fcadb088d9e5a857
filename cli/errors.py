"""How the command line ends on bad input and interrupts: bad input is one
line on stderr, ``Error: FILE: FIELD: what is wrong`` (or ``Error:
--OPTION: ...``), exit status 2; an interrupt exits 130; a failure such as
running out of memory exits 1.

>>> import click
>>> one_line(click.UsageError("Got unexpected extra\\n  argument")).message
'Got unexpected extra argument'
>>> one_line(click.NoSuchOption("--colour", possibilities=["--score"])).message
'--colour: no such option (did you mean --score?)'
"""

from __future__ import annotations

import sys
from typing import IO, Any, Final

import click

INTERRUPTED: Final = 130
"""The exit status after Ctrl-C: 128 + SIGINT, as a shell reports it."""
MESSAGE_LIMIT: Final = 300
"""The longest message shown for a usage error; click's own messages may
repeat an argument whole."""


class InputError(click.UsageError):
    """Bad input (a deal file, an option's value): exit status 2 like any
    usage error, shown as its one line (click's usage text would only hide
    it)."""

    def show(self, file: IO[Any] | None = None) -> None:
        click.ClickException.show(self, file)


class Interrupted(click.ClickException):
    """Ctrl-C: exit status 130, not click's 1 for "Aborted!", so that a
    script can tell an interrupt from a failure."""

    exit_code = INTERRUPTED

    def __init__(self) -> None:
        super().__init__("interrupted")

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo("Interrupted", file=file or sys.stderr)


def switch_of(option: str) -> str:
    """The command line's switch for an option's field: ``win_thirds`` is
    ``--win-thirds``.

    >>> switch_of("defender_announcements")
    '--defender-announcements'
    """
    return "--" + option.replace("_", "-")


def shown(error: Exception) -> str:
    """An error's message as the command line says it: an option the
    library names by its field (``kontra``) named by its switch
    (``--kontra``).

    >>> from kosolve.model.game import OptionError
    >>> shown(OptionError("Kontra is off", "kontra")), shown(OptionError("12 is beyond the play", "at", given=True))
    ('Kontra is off (use --kontra)', '--at: 12 is beyond the play')
    """
    shows = getattr(error, "shown", None)
    return str(error) if shows is None else str(shows(switch_of))


def one_line(error: click.UsageError) -> InputError:
    """``error`` as one line: an option's bad value named by the option,
    white space (click's own line breaks, a newline in an argument)
    collapsed, and the whole cut at :data:`MESSAGE_LIMIT` characters."""
    param = error.param if isinstance(error, click.BadParameter) else None
    if isinstance(param, click.Option) and not isinstance(error, click.MissingParameter):
        message = f"{'/'.join(param.opts)}: {error.message}"
    elif isinstance(error, click.NoSuchOption):
        guesses = " or ".join(error.possibilities or ())
        message = f"{error.option_name}: no such option" + (f" (did you mean {guesses}?)" if guesses else "")
    else:
        message = error.format_message()
    message = " ".join(message.split())
    if len(message) > MESSAGE_LIMIT:
        message = message[:MESSAGE_LIMIT] + "..."
    return InputError(message)


__all__ = ["INTERRUPTED", "InputError", "Interrupted", "one_line", "shown", "switch_of"]
