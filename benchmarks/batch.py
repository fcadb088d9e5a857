"""Throughput of ``kosolve batch``: deals a second for one job, two jobs and
a local Dask cluster of two worker processes, on the same realistic deals
(every first card valued, the default question).

Each run is a whole batch into a fresh results file, as the command runs
it: the pool's start (two spawned processes importing kosolve) is in the
time, the cluster's start is not (a cluster is there before the batch).
The setups take turns, a run each a round, and the best of ``--repeat``
rounds counts; ``steady`` is the rate from the first
result on, without the start.  ``cpu ms/deal`` is the processor time of
every process that solved (this one and the pool's, or the Dask workers'),
a deal, in the best run: on a machine that other work loads, the wall
times say little about scaling, while a processor time per deal that does
not grow with the workers says the work itself did not.

    python benchmarks/batch.py --deals 200 --repeat 3
    python benchmarks/batch.py --no-dask
"""

from __future__ import annotations

import argparse
import importlib
import json
import resource
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

from kosolve.analysis.report import Options
from kosolve.batch.runner import Answerer, Batch, Record, local
from kosolve.batch.source import DealSource
from kosolve.batch.tasks import Question
from kosolve.dealing import deal_games
from kosolve.model.deal import deal_to_json

CpuClock = Callable[[], float]


def local_cpu() -> float:
    """The processor time of this process and its finished children."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@contextmanager
def dask_cluster(tt_mb: float, chunk: int) -> Iterator[tuple[Answerer, CpuClock]]:
    from kosolve.batch.cluster import cluster

    # Any, like the batch's own use of it: the optional extra's types vary by version.
    distributed: Any = importlib.import_module("distributed")

    with (
        distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as local,
        cluster(local.scheduler_address, tt_mb, chunk) as answers,
        distributed.Client(local.scheduler_address) as client,
    ):
        yield answers, lambda: float(sum(client.run(time.process_time).values()))


def timed(deals: Path, answers: Answerer, cpu: CpuClock, folder: Path, name: str) -> tuple[float, float, float]:
    """The wall time of a whole batch, the time from its first result on,
    and the processor time of the solving processes."""
    results = folder / f"{name}-{time.monotonic_ns()}.jsonl"
    question = Question("analyse", Options(feasibility=False, postmortem=False))
    first: list[float] = []

    def seen(_: Record) -> None:
        if not first:
            first.append(time.perf_counter())

    with Batch(DealSource(str(deals)), question, str(results)) as batch:
        cpu_start = cpu()
        start = time.perf_counter()
        run = batch.run(answers, seen)
        end = time.perf_counter()
    assert run.done == batch.todo and not run.failed
    return end - start, end - first[0], cpu() - cpu_start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200, help="realistic deals to solve")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best counts")
    parser.add_argument("--tt-mb", type=float, default=16.0, help="tables of each worker, in MB")
    parser.add_argument("--chunk", type=int, default=8, help="deals a Dask task")
    parser.add_argument("--no-dask", action="store_true", help="leave out the Dask cluster")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        deals = folder / "deals.jsonl"
        deals.write_text("".join(json.dumps(deal_to_json(d)) + "\n" for d in deal_games(args.deals, args.seed)))
        setups: list[tuple[str, Callable[[], AbstractContextManager[tuple[Answerer, CpuClock]]]]] = [
            ("--jobs 1", lambda: nullcontext((local(1, args.tt_mb), local_cpu))),
            ("--jobs 2", lambda: nullcontext((local(2, args.tt_mb), local_cpu))),
        ]
        if not args.no_dask:
            setups.append(("dask, 2 workers", lambda: dask_cluster(args.tt_mb, args.chunk)))
        print(f"{args.deals} deals of seed {args.seed}, best of {args.repeat}")
        print(f"{'run':<16} {'seconds':>8} {'deals/s':>8} {'steady/s':>9} {'speed-up':>9} {'cpu ms/deal':>12}")
        # One setup at a time, its runs back to back.
        times: dict[str, list[tuple[float, float, float]]] = {}
        for label, setup in setups:
            with setup() as (answers, cpu):
                times[label] = [timed(deals, answers, cpu, folder, label.replace(" ", "")) for _ in range(args.repeat)]
        base = 0.0
        for label, runs in times.items():
            wall, _, used = min(runs)
            steady = min(s for _, s, _ in runs)
            rate = args.deals / wall
            base = base or rate
            print(
                f"{label:<16} {wall:8.2f} {rate:8.2f} {(args.deals - 1) / steady:9.2f} {rate / base:8.2f}x"
                f" {1000 * used / args.deals:12.1f}"
            )


if __name__ == "__main__":
    main()
