"""Reading the deal files named on the command line, ``-`` for the
standard input, each checked against the options before anything is
solved or printed; any problem is a :class:`DealFileError`, one line.

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
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import IO, Final

from kosolve.analysis.report import Options, OptionsError, check
from kosolve.cli.errors import InputError
from kosolve.model.deal import DEALT_KEY, Deal, DealError, load_deal, load_json, parse_deal, read_deal, read_json
from kosolve.model.dealt_file import DealtFile, load_dealt_file, parse_dealt_file
from kosolve.model.game import Rules
from kosolve.model.quoting import source_name
from kosolve.model.view import SeatView, ViewError, load_view, read_view

STDIN: Final = "-"
"""The file argument that stands for the standard input."""
STDIN_NAME: Final = "<stdin>"
"""The standard input's name in messages and output."""


class DealFileError(InputError):
    """A deal file that cannot be used: its one line names the file and the
    field."""


def _stdin() -> IO[bytes]:
    # The binary stream, so that the standard input's bytes are decoded as
    # a file's are (UTF-8, a byte order mark allowed) whatever the locale.
    stream: IO[bytes] | None = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise DealError(f"{STDIN_NAME}: cannot read the file: there is no standard input")
    return stream


def load_deals(files: Sequence[str], options: Options) -> list[tuple[str, Deal]]:
    """Each file's name as output and messages show it, and its deal, read
    and checked against ``options``."""
    if list(files).count(STDIN) > 1:
        raise DealFileError(f"{STDIN_NAME}: given {list(files).count(STDIN)} times, but holds one deal")
    deals = []
    for file in files:
        name = STDIN_NAME if file == STDIN else file
        try:
            # The rules judge a deal as dealt (its discard variant) as they
            # judge the announcements.
            if file == STDIN:
                deal = read_deal(_stdin(), STDIN_NAME, rules=options.rules)
            else:
                deal = load_deal(file, rules=options.rules)
            check(deal, options)
        except DealError as error:
            raise DealFileError(str(error)) from None
        except OptionsError as error:
            raise DealFileError(f"{source_name(name)}: {error}") from None
        deals.append((name, deal))
    return deals


def load_dealt(file: str, rules: Rules) -> tuple[str, DealtFile]:
    """The name output and messages show for ``file`` (``-`` too), and the
    deal as dealt in it, its discards judged by ``rules``."""
    name = STDIN_NAME if file == STDIN else file
    try:
        if file == STDIN:
            return name, parse_dealt_file(read_json(_stdin(), STDIN_NAME), STDIN_NAME, rules=rules)
        return name, load_dealt_file(file, rules=rules)
    except DealError as error:
        raise DealFileError(str(error)) from None


def load_viewed(file: str, rules: Rules) -> tuple[str, object, Deal | None, DealtFile | None]:
    """What the web view reads of ``file`` (``-`` too): its name, its JSON
    object, its play position (None for a deal as dealt without a bid) and
    its deal as dealt (None for a play file), checked by ``rules``."""
    name = STDIN_NAME if file == STDIN else file
    try:
        data = read_json(_stdin(), STDIN_NAME) if file == STDIN else load_json(file)
        if isinstance(data, dict) and DEALT_KEY in data:
            dealt = parse_dealt_file(data, name, rules=rules)
            bid = dealt.contract is not None and dealt.declarer is not None and dealt.exchange is not None
            deal = dealt.play_deal() if bid else None
        else:
            dealt, deal = None, parse_deal(data, name, rules=rules)
        if deal is not None:
            check(deal, Options(rules=rules))
    except DealError as error:
        raise DealFileError(str(error)) from None
    except OptionsError as error:
        raise DealFileError(f"{source_name(name)}: {error}") from None
    return name, data, deal, dealt


def load_seat_view(file: str) -> tuple[str, SeatView]:
    """The name shown for ``file`` (``-`` too) and the seat view in it."""
    name = STDIN_NAME if file == STDIN else file
    try:
        return name, read_view(_stdin(), STDIN_NAME) if file == STDIN else load_view(file)
    except ViewError as error:
        raise DealFileError(str(error)) from None


__all__ = ["STDIN", "STDIN_NAME", "DealFileError", "load_deals", "load_dealt", "load_seat_view", "load_viewed"]
