"""``kosolve solve`` (the default command): read deal files, hand each to
the library's one orchestration (:func:`kosolve.analysis.report.analyse`)
and print the report as text or JSON."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any, Final

import click

from kosolve.analysis.report import Analyser, Options, OptionsError, check
from kosolve.cli.options import json_option, quiet_option, rules_options, tt_mb_option
from kosolve.model.deal import Deal, DealError, load_deal
from kosolve.model.game import Rules
from kosolve.render.text import render_report, render_value, style_for

PROGRESS_MIN_FILES: Final = 4
"""From this many files on, solving shows a progress bar."""


class DealFileError(click.UsageError):
    """A deal file that cannot be used: exit status 2 like any bad input,
    shown as the one line that names the file and the field (the usage
    text would only hide it)."""

    def show(self, file: IO[Any] | None = None) -> None:
        click.ClickException.show(self, file)


@dataclass(frozen=True)
class _Job:
    file: str
    deal: Deal


def _load_jobs(files: Sequence[str], options: Options) -> list[_Job]:
    """Every file read and checked before anything is solved or printed."""
    jobs = []
    for file in files:
        try:
            deal = load_deal(file)
            check(deal, options)
        except DealError as error:
            raise DealFileError(str(error)) from None
        except OptionsError as error:
            raise DealFileError(f"{file}: {error}") from None
        jobs.append(_Job(file, deal))
    return jobs


def _progress_wanted(count: int, quiet: bool) -> bool:
    # A bar redrawn on a terminal would be torn by results printed to the
    # same terminal, so it only shows while stdout goes elsewhere.
    return not quiet and count >= PROGRESS_MIN_FILES and not click.get_text_stream("stdout").isatty()


@click.command("solve", short_help="Solve deal files (the default command).")
@click.argument("files", metavar="DEAL.json...", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--at",
    type=click.IntRange(min=0),
    metavar="N",
    help="Solve the position after the first N cards of the play instead of after all of it.",
)
@json_option
@tt_mb_option
@quiet_option("Print only the value, one line a file, and no progress bar.")
@click.option(
    "--feasibility/--no-feasibility",
    default=True,
    show_default=True,
    help="Say which birds, Valat and point targets each player can still force.",
)
@click.option(
    "--postmortem/--no-postmortem",
    default=True,
    show_default=True,
    help="Go through the play card by card: what each card cost and what was better.",
)
@rules_options
@click.option(
    "--score/--no-score",
    default=None,
    help="Solve for the net game points too (the declarer maximising his score, the defender minimising it), and"
    " judge every card of the post-mortem by them; a search of its own per position, so slower. By default on when"
    " the file has announcements.",
)
def solve_command(
    files: tuple[str, ...],
    at: int | None,
    as_json: bool,
    tt_mb: float,
    quiet: bool,
    feasibility: bool,
    postmortem: bool,
    rules: Rules,
    score: bool | None,
) -> None:
    """Solve each DEAL.json: the position after its play (or after the first
    N cards with --at), with best play by both sides.

    Prints the hands, the declarer's value in points and thirds, whether he
    wins (when the piles are given), the value of every card of the player
    to move, an optimal line, which announcements each player can still
    make, a post-mortem of the play so far and the search statistics.  One
    table is shared by all files; it speeds up solving but never changes an
    answer.

    \b
    Examples:
      kosolve examples/ending.json
      kosolve --at 4 examples/played.json
      kosolve --json examples/*.json > values.jsonl
    """
    if quiet and not as_json:
        options = Options.value_only(rules=rules, at=at)
    else:
        options = Options(rules=rules, at=at, feasibility=feasibility, postmortem=postmortem, score=score)
    jobs = _load_jobs(files, options)
    try:
        analyser = Analyser(tt_mb)
    except (MemoryError, ValueError, OverflowError) as error:
        raise click.ClickException(f"cannot set up {tt_mb:g} MB of tables: {error or 'out of memory'}") from None
    style = style_for(click.get_text_stream("stdout"))

    def run(job: _Job) -> None:
        report = analyser.analyse(job.deal, options)
        if as_json:
            click.echo(json.dumps({"file": job.file, **report.to_json()}))
        elif quiet:
            click.echo(render_value(job.file, report, style))
        else:
            separator = "\n" if job is not jobs[0] else ""
            click.echo(separator + render_report(job.file, report, style))

    if _progress_wanted(len(jobs), quiet):
        with click.progressbar(jobs, label="solving", file=sys.stderr) as bar:
            for job in bar:
                run(job)
    else:
        for job in jobs:
            run(job)
