"""``kosolve bench``: the benchmark of :mod:`kosolve.tools.bench` on the
command line."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import click

from kosolve.cli.options import json_option, quiet_option, threads_option, tt_mb_option
from kosolve.cli.running import progress_bar
from kosolve.dealing import HARD_TAROCKS
from kosolve.model.game import TRICKS_PER_GAME

if TYPE_CHECKING:
    from kosolve.tools.bench import BenchReport
    from kosolve.tools.bench_odds import OddsBenchReport
    from kosolve.tools.bench_review import ReviewBenchReport


@click.command("bench")
@click.option("--deals", type=click.IntRange(min=0), help="Whole deals to solve (default: the standard run).")
@click.option("--seed", type=int, help="Seed of the dealing; the same seed deals the same positions.")
@click.option("--endings", type=click.IntRange(min=0), help="Endings to time against the pure-Python reference.")
@click.option("--ending-tricks", type=click.IntRange(1, TRICKS_PER_GAME), help="Tricks in each ending.")
@click.option("--postmortems", type=click.IntRange(min=0), help="Whole plays to review card by card.")
@click.option(
    "--exchange",
    "exchanges",
    type=click.IntRange(min=0),
    help="Exchange tables of deals as dealt to time: both players, every talon choice and lay-away (default: none).",
)
@click.option(
    "--hard",
    is_flag=True,
    help=f"Solve the hard set instead: realistic deals in which both hands hold at least {HARD_TAROCKS} tarocks.",
)
@click.option(
    "--score",
    "scores",
    type=click.IntRange(min=0),
    help="Whole deals with random announcements to value for the net score and for points (default: none).",
)
@click.option("--goals/--no-goals", default=True, help="Time the feasibility of birds and Valat on the whole deals.")
@click.option(
    "--odds",
    "with_odds",
    is_flag=True,
    help="Also time the odds from one seat: a trick-1 view with 1,000 samples (without and with the goals) and a"
    " view before the auction with 200, with 1 job and with 2 (several minutes).",
)
@click.option(
    "--review",
    "with_review",
    is_flag=True,
    help="Also time the review by what the player knew: 3 whole played hands, up to 200 worlds a card, with 2 jobs"
    " and with 1 (a few minutes).",
)
@click.option(
    "--repeat",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Solve the whole deals this many times; each deal's fastest time counts.",
)
@click.option(
    "--signature",
    is_flag=True,
    help="Print only the bench signature: the total nodes of a fixed set of questions (docs/benchmarks.md).",
)
@tt_mb_option
@threads_option
@json_option
@quiet_option("No progress bar.")
def bench_command(
    deals: int | None,
    seed: int | None,
    endings: int | None,
    ending_tricks: int | None,
    postmortems: int | None,
    exchanges: int | None,
    hard: bool,
    scores: int | None,
    goals: bool,
    with_odds: bool,
    with_review: bool,
    repeat: int,
    signature: bool,
    tt_mb: float,
    threads: int,
    as_json: bool,
    quiet: bool,
) -> None:
    """Time the solver on realistic positions: whole deals dealt by the
    rules (shuffle, discard, talon exchange) from a fixed seed, the
    feasibility of birds and Valat on them, post-mortems of whole plays,
    short endings checked against the pure-Python reference, and on request
    exchange tables of deals as dealt and net scores of deals with random
    announcements, each against the points solve of the same deal.

    \b
    Examples:
      kosolve bench
      kosolve bench --deals 20 --endings 5 --json
      kosolve bench --repeat 3   # on a busy machine
      kosolve bench --hard       # the even tarock splits, the hardest deals
      kosolve bench --threads 1  # one core
      kosolve bench --signature  # did a change alter the search?
      kosolve bench --deals 0 --endings 0 --postmortems 0 --exchange 50
      kosolve bench --deals 0 --endings 0 --postmortems 0 --odds
      kosolve bench --deals 0 --endings 0 --postmortems 0 --review
      kosolve bench --deals 0 --endings 0 --postmortems 0 --no-goals --score 100
    """
    from kosolve.tools.bench import run_bench, signature_breakdown  # loaded only when benchmarking

    if signature:
        # The signature's tables have fixed sizes and one thread: --tt-mb and --threads do not apply.
        kinds = signature_breakdown()
        total = sum(kinds.values())
        click.echo(json.dumps({"signature": total, "nodes": kinds}) if as_json else str(total))
        return

    given = {
        "deals": deals,
        "seed": seed,
        "endings": endings,
        "ending_tricks": ending_tricks,
        "postmortems": postmortems,
        "exchanges": exchanges,
        "scores": scores,
    }
    options: dict[str, Any] = {name: value for name, value in given.items() if value is not None}

    def bench(progress: Callable[[int, int], None] | None) -> BenchReport:
        try:
            return run_bench(
                tt_mb=tt_mb, threads=threads, goals=goals, repeat=repeat, hard=hard, progress=progress, **options
            )
        except (MemoryError, ValueError) as error:
            raise click.ClickException(f"the benchmark failed: {error or 'out of memory'}") from None

    with progress_bar("benchmark", quiet) as progress:
        report = bench(progress)
    if with_odds:
        report = replace(report, odds=_odds_bench(quiet))
    if with_review:
        report = replace(report, review=_review_bench(quiet))
    click.echo(json.dumps(report.to_json()) if as_json else report.format())


def _odds_bench(quiet: bool) -> OddsBenchReport:
    from kosolve.tools.bench_odds import run_odds_bench  # loaded only when benchmarking

    with progress_bar("odds", quiet) as progress:
        return run_odds_bench(progress=progress)


def _review_bench(quiet: bool) -> ReviewBenchReport:
    from kosolve.tools.bench_review import run_review_bench  # loaded only when benchmarking

    with progress_bar("review", quiet) as progress:
        return run_review_bench(progress=progress)
