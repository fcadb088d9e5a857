"""``kosolve solve`` (the default command): read files of any kind and
answer each with what fits it, through the library's one orchestration: a
play file, or a deal as dealt with its bid, is solved
(:meth:`~kosolve.analysis.report.Analyser.analyse`); a deal as dealt
without a bid gets its exchange table (as ``kosolve exchange``); a seat
view its odds (as ``kosolve odds``, with their defaults).  The answers are
printed as text or JSON, one object a file."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import click

from kosolve.analysis.report import Analyser, Options
from kosolve.cli.loading import DealFileError, check_view, checked, load_inputs, play_of
from kosolve.cli.options import json_option, quiet_option, rules_options, samples_options, threads_option, tt_mb_option
from kosolve.cli.running import check_target, progress_bar, tables, write_atomically
from kosolve.model.deal import Deal, deal_to_json
from kosolve.model.dealt_file import DealtFile
from kosolve.model.ending import EndingError, ending_deal
from kosolve.model.files import KIND_NAMES, InputFile, kind_of
from kosolve.model.game import Rules
from kosolve.model.jsonfile import FileError
from kosolve.model.notation import parse_notation, to_notation
from kosolve.model.quoting import source_name
from kosolve.model.view import SeatView
from kosolve.render.exchange import render_exchange_report, render_exchange_value
from kosolve.render.odds import render_odds, render_odds_value
from kosolve.render.text import Style, render_report, render_value, style_for
from kosolve.sampling.odds import odds

PROGRESS_MIN_FILES: Final = 4
"""From this many files on, solving shows a progress bar."""


SOLVE_ONLY: Final = ("--at", "--write-position", "--score")
"""Options about a deal's play: a file without one cannot take them."""


@dataclass(frozen=True)
class _Job:
    """One file and what answers it: a play position to solve, or a deal as
    dealt without a bid to table, or a seat view."""

    file: str
    read: InputFile
    deal: Deal | None


def _positions(texts: Sequence[str], rules: Rules) -> list[tuple[str, InputFile]]:
    """The deals of ``--position``, named ``position`` (``position 2``, ...)."""
    found: list[tuple[str, InputFile]] = []
    for number, text in enumerate(texts, start=1):
        name = "position" if len(texts) == 1 else f"position {number}"
        try:
            found.append((name, parse_notation(text, rules)))
        except FileError as error:
            raise DealFileError(str(error).replace("notation", name, 1)) from None
    return found


def _load_jobs(
    files: Sequence[str], options: Options, given: Sequence[str], positions: Sequence[str] = ()
) -> list[_Job]:
    """Every file (and ``--position``) read and checked before anything is
    solved or printed; ``given`` are the options of :data:`SOLVE_ONLY` on
    the command line."""
    jobs = []
    for name, read in [*load_inputs(files, options.rules), *_positions(positions, options.rules)]:
        if isinstance(read, SeatView) or (isinstance(read, DealtFile) and read.declared is None):
            if given:
                raise DealFileError(
                    f"{source_name(name)}: {KIND_NAMES[kind_of(read)]}, answered without a play: {given[0]} needs one"
                )
            if isinstance(read, SeatView):
                check_view(name, read, options.rules)
            jobs.append(_Job(name, read, None))
        else:
            jobs.append(_Job(name, read, checked(name, play_of(name, read), options)))
    return jobs


def _progress_wanted(count: int, quiet: bool) -> bool:
    # A bar redrawn on a terminal would be torn by results printed to the
    # same terminal, so it only shows while stdout goes elsewhere (and
    # stderr to a terminal: progress_bar's own condition).  sys.stdout,
    # not click.get_text_stream (deprecated, gone in click 9): CliRunner swaps it too.
    return not quiet and count >= PROGRESS_MIN_FILES and not sys.stdout.isatty()


@click.command("solve")
# No checks by click.Path: load_deal reports a directory or an unreadable
# file in the one-line format of every other bad file.
@click.argument("files", metavar="DEAL.json...", nargs=-1, type=click.Path(allow_dash=True, readable=False))
@click.option(
    "--position",
    "positions",
    multiple=True,
    metavar="TEXT",
    help="A deal in kosolve's one-line notation (kosolve FILE --notation writes it), answered as a file is.",
)
@click.option("--notation", is_flag=True, help="Print each deal in one line (the notation) instead of solving it.")
@click.option(
    "--at",
    type=click.IntRange(min=0),
    metavar="N",
    help="Solve the position after the first N cards of the play instead of after all of it.",
)
@json_option
@tt_mb_option
@threads_option
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
@samples_options("A seat view")
@click.option(
    "--write-position",
    type=click.Path(dir_okay=False, writable=True),
    metavar="FILE",
    help="Also write the position solved (after --at N, or after the whole play) to FILE as a deal file of its own:"
    " an ending with the hands, the piles with the tricks taken, and the seat to lead. One deal file only.",
)
@click.option(
    "--score/--no-score",
    default=None,
    help="Solve for the net game points too (the declarer maximising his score, the defender minimising it), and"
    " judge every card of the post-mortem by them; a search of its own per position, so slower. Only for a whole"
    " game with its piles (an error on other files); by default on when such a file has announcements.",
)
def solve_command(
    files: tuple[str, ...],
    positions: tuple[str, ...],
    notation: bool,
    at: int | None,
    as_json: bool,
    tt_mb: float,
    quiet: bool,
    feasibility: bool,
    postmortem: bool,
    rules: Rules,
    score: bool | None,
    write_position: str | None,
    threads: int,
    samples: int,
    seed: int,
) -> None:
    """Solve each DEAL.json: the position after its play (or after the first
    N cards with --at; --at 0 for the deal from trick 1), with best play by
    both sides.

    Prints the hands, the declarer's value in points and thirds, whether he
    wins (when the piles are given), the value of every card of the player
    to move, an optimal line, which announcements each player can still
    make, a post-mortem of the file's whole play (each card, what it cost,
    what was better; whatever --at is) and the search statistics.  One
    table is shared by all files; it speeds up solving but never changes an
    answer.

    Any file kosolve reads may be given, and each is answered with what fits
    it: a deal as dealt without a bid (contract, declarer, exchange) gets
    its exchange table and par, as kosolve exchange gives them; a seat view
    (kosolve view) its odds, as kosolve odds gives them (--samples,
    --seed).  --at, --score and --write-position are about a
    play, so such a file cannot take them.

    A DEAL.json of - reads one deal from the standard input (named <stdin>
    in messages and output); deal lines, one deal a line as kosolve deal
    writes them, are for kosolve batch.

    \b
    Examples:
      kosolve examples/ending.json
      kosolve --at 4 examples/played.json
      kosolve --json examples/*.json examples/views/*.json > answers.jsonl
      kosolve - < examples/ending.json
      kosolve examples/played.json --notation
      kosolve --position 'kd1:dreiblatt:forehand:forehand:XVIII.XV.HK.HQ/XVI.XIII.XII.CK:-:-::'
    """
    if not files and not positions:
        raise click.UsageError("Missing argument 'DEAL.json...' (or --position TEXT)")
    if quiet and not as_json:
        options = Options.value_only(rules=rules, at=at, score=bool(score))
    else:
        options = Options(rules=rules, at=at, feasibility=feasibility, postmortem=postmortem, score=score)
    context = click.get_current_context()
    given = [option for option, name in zip(SOLVE_ONLY, ("at", "write_position", "score"), strict=True)
             if context.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE]  # fmt: skip
    if notation:
        for name, read in [*load_inputs(files, options.rules), *_positions(positions, options.rules)]:
            if isinstance(read, SeatView):
                raise DealFileError(f"{source_name(name)}: a seat view has no one-line notation, only deal files")
            click.echo(to_notation(read))
        return
    jobs = _load_jobs(files, options, given, positions)
    ending = _ending_to_write(jobs, at, write_position) if write_position is not None else None
    with tables(tt_mb):
        analyser = Analyser(tt_mb, threads)
    style = style_for(sys.stdout)

    def run(job: _Job) -> None:
        answer = _answer(job, analyser, options, Draw(samples, seed, tt_mb), as_json, quiet, style)
        separator = "\n" if not (as_json or quiet) and job is not jobs[0] else ""
        click.echo(separator + answer)

    with progress_bar("solving", not _progress_wanted(len(jobs), quiet)) as progress:
        for done, job in enumerate(jobs, start=1):
            run(job)
            if progress is not None:
                progress(done, len(jobs))
    if write_position is not None and ending is not None:
        write_atomically(write_position, json.dumps(deal_to_json(ending), indent=2) + "\n")
        if ending.piles is None:
            click.echo(
                f"note: {write_position}: the deal has no piles, so the tricks taken so far are not in it", err=True
            )


@dataclass(frozen=True)
class Draw:
    """How a seat view's worlds are drawn and solved."""

    samples: int
    seed: int
    tt_mb: float


def _answer(
    job: _Job, analyser: Analyser, options: Options, draw: Draw, as_json: bool, quiet: bool, style: Style
) -> str:
    """The text or JSON that answers one file."""
    if job.deal is not None:
        report = analyser.analyse(job.deal, options)
        if as_json:
            return json.dumps({"file": job.file, **report.to_json()})
        return render_value(job.file, report, style) if quiet else render_report(job.file, report, style)
    if isinstance(job.read, SeatView):
        found = odds(
            job.read, draw.samples, draw.seed, rules=options.rules, tt_mb=draw.tt_mb, feasibility=options.feasibility
        )
        if as_json:
            return json.dumps({"file": job.file, **found.to_json()})
        return render_odds_value(job.file, found) if quiet else render_odds(job.file, found, style)
    assert isinstance(job.read, DealtFile)
    table = analyser.analyse_exchange(job.read.dealt, options.rules)
    if as_json:
        return json.dumps({"file": job.file, **table.to_json()})
    return render_exchange_value(job.file, table) if quiet else render_exchange_report(job.file, table, style)


def _ending_to_write(jobs: Sequence[_Job], at: int | None, path: str) -> Deal:
    """The position of the one deal file as an ending, checked before
    anything is solved: one file only, a hand not over, never the input."""
    if len(jobs) != 1:
        raise click.UsageError(f"--write-position takes one deal file, not {len(jobs)}")
    job = jobs[0]
    assert job.deal is not None, "--write-position is refused for a file without a play"
    check_target("--write-position", path, job.file)
    try:
        return ending_deal(job.deal, at)
    except EndingError as error:
        raise DealFileError(f"{job.file}: --write-position: {error}") from None
