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
from typing import Final

from kosolve.analysis.report import Options, OptionsError, check
from kosolve.cli.errors import InputError
from kosolve.model.deal import Deal, DealError, load_deal, read_deal
from kosolve.model.game import Rules
from kosolve.model.quoting import source_name

STDIN: Final = "-"
"""The file argument that stands for the standard input."""
STDIN_NAME: Final = "<stdin>"
"""The standard input's name in messages and output."""


class DealFileError(InputError):
    """A deal file that cannot be used: its one line names the file and the
    field."""


def _read_stdin(rules: Rules) -> Deal:
    # The binary stream, so that the standard input's bytes are decoded as
    # a file's are (UTF-8, a byte order mark allowed) whatever the locale.
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise DealError(f"{STDIN_NAME}: cannot read the file: there is no standard input")
    return read_deal(stream, STDIN_NAME, rules=rules)


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
            deal = _read_stdin(options.rules) if file == STDIN else load_deal(file, rules=options.rules)
            check(deal, options)
        except DealError as error:
            raise DealFileError(str(error)) from None
        except OptionsError as error:
            raise DealFileError(f"{source_name(name)}: {error}") from None
        deals.append((name, deal))
    return deals


__all__ = ["STDIN", "STDIN_NAME", "DealFileError", "load_deals"]
