"""``kosolve batch``: many deals solved on every core or on a Dask cluster
(:mod:`kosolve.batch`), into a resumable results file, and summarised."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Final

import click

from kosolve.analysis.pool import JobsError
from kosolve.analysis.report import Options
from kosolve.batch.cluster import DEFAULT_CHUNK, ClusterError, cluster
from kosolve.batch.results import ResultsError, WriteError, read_results
from kosolve.batch.runner import Answerer, Batch, BatchRun, Record, local
from kosolve.batch.source import DealSource, SourceError
from kosolve.batch.summary import Summary, summarise
from kosolve.batch.tasks import Question
from kosolve.cli.errors import InputError
from kosolve.cli.loading import STDIN, STDIN_NAME
from kosolve.cli.options import MAX_SAMPLES, jobs_option, json_option, quiet_option, rules_options, tt_mb_option
from kosolve.cli.running import progress_bar
from kosolve.model.game import Rules
from kosolve.model.reprs import counted

FAILED: Final = 1
"""The exit status when some deal's record is an error."""


def _run(batch: Batch, answers: Answerer, quiet: bool) -> BatchRun:
    with progress_bar("solving", quiet or not batch.todo, per_second="deals") as progress:
        if progress is None:
            return batch.run(answers)
        moved = progress
        done = 0

        def advance(_: Record) -> None:
            nonlocal done
            done += 1
            moved(done, batch.todo)

        return batch.run(answers, advance)


@click.command("batch")
@click.argument("deals", metavar="DEALS", required=False, type=click.Path(readable=False))
@click.option(
    "-o",
    "--output",
    "results",
    metavar="RESULTS.jsonl",
    required=True,
    type=click.Path(dir_okay=False, readable=False),
    help="The results file: one JSON object a line. If it exists, the batch resumes it (same deals and options).",
)
@jobs_option
@click.option("--dask", "address", metavar="ADDRESS", help="Run on the Dask cluster whose scheduler is ADDRESS.")
@click.option(
    "--chunk",
    type=click.IntRange(min=1),
    metavar="N",
    help=f"With --dask: deals a task  [default: {DEFAULT_CHUNK}]",
)
@click.option(
    "--feasibility", is_flag=True, help="Also say which birds, Valat and point targets each player can force."
)
@click.option("--postmortem", is_flag=True, help="Also judge every card of a deal's play.")
@click.option(
    "--score/--no-score",
    default=None,
    help="Solve for the net game points too, as kosolve solve does (by default on for a deal with announcements).",
)
@click.option(
    "--exchange",
    is_flag=True,
    help="Deals as dealt: the exchange table, par and the declared bid's cost (kosolve exchange), not the play.",
)
@click.option(
    "--odds",
    "samples",
    type=click.IntRange(1, MAX_SAMPLES),
    metavar="N",
    help="Seat views (kosolve view): the odds of each from N sampled worlds (kosolve odds), not a deal's play.",
)
@click.option(
    "--review",
    "review_samples",
    type=click.IntRange(1, MAX_SAMPLES),
    metavar="N",
    help="Played hands: every card judged by what its player knew, up to N worlds a card (kosolve review).",
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="With --odds and --review: the seed of every draw."
)
@click.option("--summary-only", is_flag=True, help="Solve nothing: print the summary of the results file.")
@json_option
@tt_mb_option
@quiet_option("No progress bar.")
@rules_options
def batch_command(
    deals: str | None,
    results: str,
    jobs: int | None,
    address: str | None,
    chunk: int | None,
    feasibility: bool,
    postmortem: bool,
    score: bool | None,
    exchange: bool,
    samples: int | None,
    review_samples: int | None,
    seed: int,
    summary_only: bool,
    as_json: bool,
    tt_mb: float,
    quiet: bool,
    rules: Rules,
) -> None:
    """Solve every deal of DEALS, a file of deal lines (one deal file a
    line, as kosolve deal writes them; - the standard input) or a folder of
    deal files (*.json), into RESULTS.jsonl: a header line with the question, then one line a
    deal, its "line" (from 1) or "file", the "sha256" of the deal and its
    "report", the object kosolve --json prints for it (kosolve exchange
    --json with --exchange, kosolve odds --json with --odds, kosolve review
    --json with --review; docs/batch.md).
    By default each report has the value and every first card's value.  A
    bad deal gets an error record, {"line": 17, "sha256": "...", "error":
    "..."}, and the batch goes on; the exit status is then 1.

    Each result is on the disk as soon as it is finished.  Interrupted
    (Ctrl-C, a kill, a crash), the same command again resumes: it keeps
    every complete line, drops a torn last one, and solves only the deals
    not in the file.  It resumes only the results of the same deals (more
    may have been appended) and the same options, and no file that another
    batch is writing: anything else is refused, exit status 2.  At the end
    it prints a summary (--json: as JSON).

    --jobs starts no more processes than there are cores, or deals to do.

    \b
    Examples:
      kosolve deal --seed 1 -n 1000 > deals.jsonl
      kosolve batch deals.jsonl -o results.jsonl
      kosolve deal --seed 1 -n 20 | kosolve batch - -o results.jsonl
      kosolve batch deals.jsonl -o results.jsonl --feasibility --jobs 2
      kosolve batch played.jsonl -o reviews.jsonl --review 200
      kosolve batch deals.jsonl -o results.jsonl --dask tcp://scheduler:8786
      kosolve batch --summary-only -o results.jsonl
    """
    if summary_only:
        if deals is not None:
            raise click.UsageError("--summary-only reads the results file alone: give no DEALS")
        _finish(results, None, as_json)
        return
    if deals is None:
        raise click.UsageError("Missing argument 'DEALS'")
    if address is not None and jobs is not None:
        raise click.UsageError("--jobs runs on this machine, --dask on a cluster: give one")
    if chunk is not None and address is None:
        raise click.UsageError("--chunk is the size of a Dask task: it needs --dask")
    if deals != STDIN and os.path.exists(results) and os.path.exists(deals) and os.path.samefile(results, deals):
        raise click.UsageError(f"--output {results} is the deals' own file")
    options = Options(rules=rules, feasibility=feasibility, postmortem=postmortem, score=score)
    if exchange + (samples is not None) + (review_samples is not None) > 1:
        raise click.UsageError("--exchange tables deals as dealt, --odds reads seat views, --review plays: give one")
    if samples is not None:
        question = Question("odds", options, samples=samples, seed=seed)
    elif review_samples is not None:
        question = Question("review", options, samples=review_samples, seed=seed)
    else:
        question = Question("exchange" if exchange else "analyse", options)
    try:
        with contextlib.ExitStack() as stack:
            source = DealSource(stack.enter_context(_spooled(deals)), STDIN_NAME if deals == STDIN else None)
            answers = (
                local(jobs, tt_mb)
                if address is None
                else stack.enter_context(cluster(address, tt_mb, chunk or DEFAULT_CHUNK))
            )
            # After the cluster is reached: a batch that cannot start leaves no results file.
            batch = stack.enter_context(Batch(source, question, results))
            run = _run(batch, answers, quiet)
    except (SourceError, ResultsError) as error:
        raise InputError(str(error)) from None
    except (ClusterError, JobsError, WriteError) as error:
        raise click.ClickException(str(error)) from None
    except BrokenProcessPool:
        raise click.ClickException(
            f"a worker process died (killed, or out of memory): what was finished is in {results};"
            " the same command again resumes it"
        ) from None
    _finish(results, run, as_json)


@contextlib.contextmanager
def _spooled(deals: str) -> Iterator[str]:
    """The path of the deals; ``-``, the standard input, copied into a
    temporary file first (a batch reads its deals twice: to know what is
    left, then to solve it)."""
    if deals != STDIN:
        yield deals
        return
    with tempfile.NamedTemporaryFile(prefix="kosolve-stdin-", suffix=".jsonl") as spool:
        shutil.copyfileobj(sys.stdin.buffer, spool)
        spool.flush()
        yield spool.name


def _percent(share: float) -> str:
    return f"{100 * share:.1f} %"


def render_summary(summary: Summary) -> str:
    """The summary as the text ``kosolve batch`` prints.  It is here, not
    in :mod:`kosolve.render`: the renderers stand beside the batch and may
    not import it (docs/architecture.md).

    >>> records = [{"line": 1, "report": {"declarer": "forehand", "value": {"thirds": 120, "points": 40},
    ...             "result": "won", "stats": {"ms": 20.0},
    ...             "feasible": {"forehand": {"valat": False, "win": True}, "dealer": {"valat": False}}}},
    ...            {"line": 2, "report": {"declarer": "dealer", "value": {"thirds": 90, "points": 30},
    ...             "result": "lost", "stats": {"ms": 30.0},
    ...             "feasible": {"forehand": {"valat": True}, "dealer": {"valat": False, "win": False}}}},
    ...            {"line": 3, "error": "line 3: broken JSON"}]
    >>> print(render_summary(summarise(records)))  # doctest: +NORMALIZE_WHITESPACE
    deals            3 (2 answered, 1 failed)
    declarer         won 50.0 %, lost 50.0 % (of 2 with piles)
    points           mean 35.00, spread 5.00 (standard deviation), 30 to 40
    makeable         declarer: valat 0.0 %, win 50.0 %
                     defender: valat 50.0 %
    solver time      0.05 s (the value searches)
    """
    rows = [("deals", f"{summary.deals} ({summary.answered} answered, {summary.failed} failed)")]
    if summary.won is not None:
        rows.append(
            (
                "declarer",
                f"won {_percent(summary.won)}, lost {_percent(1 - summary.won)} (of {summary.results} with piles)",
            )
        )
    if summary.points_mean is not None and summary.points_range is not None:
        low, high = summary.points_range
        rows.append(
            (
                "points",
                f"mean {summary.points_mean:.2f}, spread {summary.points_spread:.2f} (standard deviation),"
                f" {low} to {high}",
            )
        )
    for index, (role, goals) in enumerate(summary.makeable.items()):
        shares = ", ".join(f"{goal} {_percent(share)}" for goal, share in goals.items())
        rows.append(("makeable" if index == 0 else "", f"{role}: {shares}"))
    if summary.par_mean is not None:
        rows.append(("par", f"mean {summary.par_mean:+.2f} game points for the forehand"))
    if summary.knew_accuracy is not None and summary.dd_accuracy is not None:
        rows.append(
            (
                "review",
                f"{counted(summary.reviews, 'hand')}; cards best by what the player knew"
                f" {_percent(summary.knew_accuracy)}, double dummy {_percent(summary.dd_accuracy)}",
            )
        )
    if summary.solver_seconds:
        rows.append(("solver time", f"{summary.solver_seconds:.2f} s (the value searches)"))
    if summary.run is not None:
        run = summary.run
        rows.append(("this run", f"{counted(run.done, 'deal')} in {run.seconds:.1f} s, {run.rate:.2f} deals/s"))
    return "\n".join(f"{name:<16} {text}".rstrip() if name else f"{'':<16} {text}" for name, text in rows)


def _finish(results: str, run: BatchRun | None, as_json: bool) -> None:
    """Print the summary of the whole results file; exit 1 when a deal failed."""
    try:
        records = read_results(results)
    except ResultsError as error:
        raise InputError(str(error)) from None
    summary = summarise(records, run)
    click.echo(json.dumps(summary.to_json()) if as_json else render_summary(summary))
    if summary.failed:
        click.echo(f"note: {counted(summary.failed, 'deal')} failed: their records in {results} say why", err=True)
        click.get_current_context().exit(FAILED)
