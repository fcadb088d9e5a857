"""Reading the files named on the command line, ``-`` for the standard
input, through the model's one loader (:mod:`kosolve.model.files`), each
checked before anything is solved or printed.  Any problem is a
:class:`DealFileError`, one line; a file given to a command that does not
read its kind says which command does.

>>> import click
>>> from click.testing import CliRunner
>>> @click.command()
... @click.argument("files", nargs=-1)
... def show(files: tuple[str, ...]) -> None:
...     for name, deal in load_deals(files, Options()):
...         click.echo(f"{name}: {deal.contract}")
>>> CliRunner().invoke(show, ["-"], input='{"version": 1, "contract": "solo", "declarer": "forehand",'
...                    ' "hands": {"forehand": ["HK"], "dealer": ["HQ"]}}').output
'<stdin>: solo\\n'
>>> CliRunner().invoke(show, ["-"], input="[]").stderr
'Error: <stdin>: expected a JSON object (a deal), got an array\\n'
>>> CliRunner().invoke(show, ["examples/views/trick4.json"]).stderr
'Error: examples/views/trick4.json: a seat view, not a deal: kosolve odds examples/views/trick4.json answers it\\n'
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Sequence
from typing import IO, Final

from kosolve.analysis.report import Options, OptionsError, check
from kosolve.cli.errors import InputError, shown
from kosolve.model.announcements import AnnouncementError, check_announcements
from kosolve.model.deal import Deal
from kosolve.model.dealt_file import DealtFile
from kosolve.model.files import KIND_NAMES, InputFile, deal_of, kind_of, parse_file
from kosolve.model.game import DEFAULT_RULES, Rules
from kosolve.model.jsonfile import FileError, load_json, read_json
from kosolve.model.quoting import source_name
from kosolve.model.view import SeatView
from kosolve.sampling.worlds import NoWorldError, world_space

STDIN: Final = "-"
"""The file argument that stands for the standard input."""
STDIN_NAME: Final = "<stdin>"
"""The standard input's name in messages and output."""
SEVERAL_VALUES: Final = "broken JSON: Extra data"
"""What the JSON reader says of a file that holds more than one value."""


class DealFileError(InputError):
    """A file that cannot be used: its one line names the file and the
    field."""


def answering_command(kind: str, name: str) -> str:
    """The command that answers a file of ``kind`` named ``name``.

    >>> answering_command("dealt", "my deal.json")
    "kosolve exchange 'my deal.json'"
    """
    shown = shlex.quote(name)
    return {"deal": f"kosolve {shown}", "dealt": f"kosolve exchange {shown}", "view": f"kosolve odds {shown}"}[kind]


def _stdin() -> IO[bytes]:
    # The binary stream, so that the standard input's bytes are decoded as
    # a file's are (UTF-8, a byte order mark allowed) whatever the locale.
    stream: IO[bytes] | None = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise FileError(f"{STDIN_NAME}: cannot read the file: there is no standard input")
    return stream


def _one_line(error: FileError) -> DealFileError:
    """The reader's error, with a hint where a file holds several deals
    (deal lines, as kosolve deal writes them)."""
    message = str(error)
    if SEVERAL_VALUES in message:
        message += " (one deal a file; deal lines, one deal a line, are for kosolve batch FILE|- -o RESULTS.jsonl)"
    return DealFileError(message)


def load_json_of(file: str) -> tuple[str, object]:
    """The name output and messages show for ``file`` (``-`` too), and its
    JSON value."""
    name = STDIN_NAME if file == STDIN else file
    try:
        return name, read_json(_stdin(), STDIN_NAME) if file == STDIN else load_json(file)
    except FileError as error:
        raise _one_line(error) from None


def load_input(file: str, rules: Rules = DEFAULT_RULES) -> tuple[str, InputFile]:
    """The name shown for ``file`` (``-`` too) and what it holds, whatever
    its kind; a deal as dealt is judged by ``rules``."""
    name, data = load_json_of(file)
    try:
        return name, parse_file(data, name, rules=rules)
    except FileError as error:
        raise _one_line(error) from None


def play_of(name: str, file: InputFile) -> Deal:
    """The play position of a file read, or a line saying which command
    answers a file that has none."""
    if isinstance(file, SeatView):
        command = answering_command("view", name)
        raise DealFileError(f"{source_name(name)}: a seat view, not a deal: {command} answers it")
    if isinstance(file, DealtFile) and file.declared is None:
        raise DealFileError(
            f"{source_name(name)}: a deal as dealt without a bid (contract, declarer and exchange), so no play:"
            f" {answering_command('dealt', name)} tables it"
        )
    try:
        return deal_of(file)
    except FileError as error:
        raise DealFileError(str(error)) from None


def checked(name: str, deal: Deal, options: Options) -> Deal:
    """``deal``, once the options fit it (``--at`` within its play, say)."""
    try:
        check(deal, options)
    except OptionsError as error:
        raise DealFileError(f"{source_name(name)}: {shown(error)}") from None
    return deal


def check_view(name: str, view: SeatView, rules: Rules) -> None:
    """A view some world fits, whose announcements the rules allow; else
    one line saying why, before anything is solved."""
    try:
        world_space(view)
        if view.contract is not None and view.declarer is not None:
            check_announcements(view.announcements, view.contract, view.declarer, rules)
    except (NoWorldError, AnnouncementError) as error:
        raise DealFileError(f"{source_name(name)}: {shown(error)}") from None


def _once(files: Sequence[str]) -> None:
    if list(files).count(STDIN) > 1:
        raise DealFileError(f"{STDIN_NAME}: given {list(files).count(STDIN)} times, but holds one deal")


def load_inputs(files: Sequence[str], rules: Rules) -> list[tuple[str, InputFile]]:
    """Every file's name and what it holds, whatever its kind."""
    _once(files)
    return [load_input(file, rules) for file in files]


def load_deals(files: Sequence[str], options: Options) -> list[tuple[str, Deal]]:
    """Each file's name and its play position, checked against ``options``."""
    return [(name, checked(name, play_of(name, file), options)) for name, file in load_inputs(files, options.rules)]


def _wrong_kind(name: str, file: InputFile, wanted: str) -> DealFileError:
    kind = kind_of(file)
    return DealFileError(
        f"{source_name(name)}: {KIND_NAMES[kind]}, not {KIND_NAMES[wanted]}: {answering_command(kind, name)} answers it"
    )


def load_dealt(file: str, rules: Rules) -> tuple[str, DealtFile]:
    """The name shown for ``file`` (``-`` too), and the deal as dealt in it,
    its discards judged by ``rules``."""
    name, read = load_input(file, rules)
    if not isinstance(read, DealtFile):
        raise _wrong_kind(name, read, "dealt")
    return name, read


def load_seat_view(file: str) -> tuple[str, SeatView]:
    """The name shown for ``file`` (``-`` too) and the seat view in it."""
    name, read = load_input(file)
    if not isinstance(read, SeatView):
        kind = kind_of(read)
        raise DealFileError(
            f"{source_name(name)}: {KIND_NAMES[kind]}, not {KIND_NAMES['view']}: {answering_command(kind, name)}"
            f" answers it, kosolve view {shlex.quote(name)} --seat SEAT writes what a seat knew"
        )
    return name, read


def load_viewed(file: str, rules: Rules) -> tuple[str, object, Deal | None, DealtFile | None]:
    """What the web view reads of ``file`` (``-`` too): its name, its JSON
    object, its play position (None for a deal as dealt without a bid) and
    its deal as dealt (None for a play file), checked by ``rules``."""
    name, data = load_json_of(file)
    try:
        read = parse_file(data, name, rules=rules)
    except FileError as error:
        raise _one_line(error) from None
    dealt = read if isinstance(read, DealtFile) else None
    if dealt is not None and dealt.declared is None:
        return name, data, None, dealt
    return name, data, checked(name, play_of(name, read), Options(rules=rules)), dealt


__all__ = [
    "STDIN",
    "STDIN_NAME",
    "DealFileError",
    "answering_command",
    "check_view",
    "checked",
    "load_deals",
    "load_dealt",
    "load_input",
    "load_inputs",
    "load_json_of",
    "load_seat_view",
    "load_viewed",
    "play_of",
]
