"""The ``kosolve`` command group: ``kosolve DEAL.json`` solves (the default
command, :mod:`kosolve.cli.solve`), ``kosolve exchange`` tables a deal as
dealt, ``kosolve deal`` deals realistic deals, ``kosolve batch`` solves
many, ``kosolve bench`` times the solver (:mod:`kosolve.cli.bench`).

Each command's module is imported only when that command runs, so that
``kosolve --version`` and ``kosolve -h`` start at once: the group knows
its commands by name (:data:`COMMANDS`), with the one-line help it lists.

>>> from click.testing import CliRunner
>>> CliRunner().invoke(cli, ["--version"]).output.startswith("kosolve ")
True
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from types import FrameType
from typing import Any, Final

import click

from kosolve import __version__
from kosolve.cli.errors import InputError, Interrupted, one_line

DEFAULT_COMMAND: Final = "solve"


@dataclass(frozen=True)
class Command:
    """A command of the group: the module that defines it, and the line
    the group's help lists it with."""

    module: str
    usage: str
    """What follows ``kosolve`` in the usage lines of ``kosolve -h``."""
    short_help: str


COMMANDS: Final = {
    "solve": Command("solve", "[solve] [OPTIONS] FILE...", "Answer each file with what fits it (the default)."),
    "exchange": Command("exchange", "exchange [OPTIONS] DEALT.json", "The exchange table of a deal as dealt, and par."),
    "report": Command("report", "report [OPTIONS] DEAL.json -o FILE.html", "A self-contained HTML report of a play."),
    "serve": Command("serve", "serve [OPTIONS] [DEAL.json...]", "Click through deals in the browser."),
    "deal": Command("deal", "deal [--seed S] [-n N] [OPTIONS]", "Realistic deals, one deal file a line."),
    "batch": Command("batch", "batch [OPTIONS] DEALS.jsonl -o RESULTS.jsonl", "Solve many deals, on every core."),
    "odds": Command("odds", "odds [OPTIONS] VIEW.json", "Odds from one seat: every world of a seat view solved."),
    "review": Command("review", "review [OPTIONS] DEAL.json", "Every card judged by what its player knew and DD."),
    "arena": Command("arena", "arena [OPTIONS] A B -o RESULTS.jsonl", "A duplicate match between two bots."),
    "ladder": Command("ladder", "ladder [OPTIONS] BOT... -o DIR", "Every pair of bots in a match, and their ratings."),
    "stats": Command("stats", "stats [OPTIONS] RESULTS.jsonl", "Group and count the deals of a results file."),
    "view": Command("view", "view [OPTIONS] DEAL.json --seat SEAT", "The seat view a player had at a point of a deal."),
    "bench": Command("bench", "bench [OPTIONS]", "Time the solver on dealt positions."),
}
"""Every command, in the order ``kosolve -h`` lists them."""


class DefaultCommandGroup(click.Group):
    """A group whose first argument may be a subcommand or, when it names
    none, the first argument of the default command: ``kosolve deal.json``
    is ``kosolve solve deal.json``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        group_options = [*ctx.help_option_names, "--version"]
        if args and args[0] not in COMMANDS and args[0] not in group_options:
            args = [DEFAULT_COMMAND, *args]
        return super().parse_args(ctx, args)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module = importlib.import_module(f"kosolve.cli.{COMMANDS[name].module}")
        command: click.Command = getattr(module, f"{name}_command")
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # From the table, not the commands: listing them imports nothing.
        with formatter.section("Commands"):
            formatter.write_dl([(name, command.short_help) for name, command in COMMANDS.items()])

    def invoke(self, ctx: click.Context) -> Any:
        """Run the subcommand; its usage errors are one line, not click's
        usage text (``-h`` still shows the help), Ctrl-C exits 130 and
        running out of memory is a one-line failure, exit 1."""
        try:
            return super().invoke(ctx)
        except InputError:
            raise
        except click.UsageError as error:
            raise one_line(error) from None
        except KeyboardInterrupt:
            raise Interrupted() from None
        except MemoryError as error:
            raise click.ClickException(str(error) or "out of memory") from None
        except BrokenPipeError:
            _quiet_stdout()
            ctx.exit(0)

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        for index, command in enumerate(COMMANDS.values()):
            formatter.write_usage(ctx.command_path, command.usage, prefix="Usage: " if index == 0 else "       ")


@click.group(
    cls=DefaultCommandGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, "--version", prog_name="kosolve", message="%(prog)s %(version)s")
def cli() -> None:
    """Solve Kosakeln (two-player Tarock) positions exactly, double dummy:
    what best play by both sides yields for the declarer, the value of every
    card the player to move may play, and an optimal line to the end.

    A deal file is JSON (format version 1):

    \b
      {"version": 1, "contract": "dreiblatt", "declarer": "forehand",
       "hands": {"forehand": ["Sk", "XXI", ...], "dealer": ["HK", ...]},
       "piles": {"forehand": [...], "dealer": [...]},
       "leader": "forehand", "play": ["XIV", "XX", ...]}

    \b
    contract  dreiblatt, zweiblatt, einblatt or solo
    declarer  forehand or dealer
    hands     the cards each player holds when play starts: 16 each for a
              whole game, fewer (equal counts) for an ending
    piles     optional: the cards already counted for each player (discards,
              talon cards); with piles, hands and piles hold all 54 cards
              and the answer says whether the declarer wins
    leader    optional: who leads the first trick of these hands (forehand)
    play      optional: the cards played so far, in order

    A deal file may instead give the deal as dealt (key "dealt": talon,
    and per seat hand, personal cards and discards, judged by --discard)
    with contract, declarer and "exchange" (take, lay_away); kosolve
    derives the position at trick 1 (docs/deal-files.md).

    Cards use the canonical names: Sk, XXI ... I, HK HQ HC HJ H1 H2 H3 H4,
    DK ... D4, SK SQ SC SJ S10 S9 S8 S7, CK ... C7.

    \b
    Examples:
      kosolve examples/whole-deal.json
      kosolve examples/dealt.json
      kosolve --at 6 --json examples/played.json
      kosolve solve -q examples/ending.json examples/played.json
      kosolve report examples/played.json -o played.html
      kosolve serve examples/played.json
      kosolve deal --seed 1 -n 200 > deals.jsonl
      kosolve batch deals.jsonl -o results.jsonl
      kosolve bench --deals 20

    Solving is the default command; see 'kosolve solve -h' for its options.
    """


def _quiet_stdout() -> None:
    """The reader of stdout has gone (``kosolve deal | head``): what is left
    to print goes nowhere, quietly, as a Unix tool's output does, instead of
    failing again when Python flushes stdout on exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # pragma: no cover - a stdout without a file descriptor
        pass


def _terminate(signum: int, frame: FrameType | None) -> None:
    """SIGTERM stops kosolve as Ctrl-C does: what is finished is kept, the
    workers are stopped, exit status 130."""
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> None:
    """The ``kosolve`` console script."""
    signal.signal(signal.SIGTERM, _terminate)
    cli.main(args=list(argv) if argv is not None else None, prog_name="kosolve")
