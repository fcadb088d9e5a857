"""The fuzzer of :mod:`kosolve.tools.fuzz` at scale: N mutated inputs (deal
files, deals as dealt, seat views) through the readers, on every core.
Every case must be read and usable, or refused in one line; the first
that is neither stops the run with its seed and bytes (exit status 1).
At the end, how the cases ended, by kind, and the rate.

    python benchmarks/fuzz.py -n 1000000
    python benchmarks/fuzz.py -n 20000 --jobs 1 --seed 7

The cases come in chunks of ``--chunk``, each from its own seed (the run's
seed and the chunk's number), so a run's cases do not depend on ``--jobs``
and a bug is found again by its chunk alone.
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from kosolve.tools.fuzz import KINDS, Base, Bug, bases, fuzz

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

Counts = collections.Counter[tuple[str, str]]


def chunk_seed(seed: int, chunk: int) -> int:
    return seed * 1_000_003 + chunk


def run_chunk(base_list: list[Base], seed: int, count: int) -> Counts:
    return fuzz(base_list, seed, count)


def report(counts: Counts, seconds: float) -> str:
    total = sum(counts.values())
    lines = [f"{total:,} cases in {seconds:.0f} s ({total / seconds:,.0f} a second): no bug"]
    for kind in KINDS:
        mine = {outcome: n for (k, outcome), n in counts.items() if k == kind}
        read = mine.pop("read", 0)
        no_world = mine.pop("no world", 0)
        refused = sum(mine.values())
        line = f"  {kind:5}  {sum(mine.values()) + read + no_world:>9,}: read {read:,}, refused {refused:,}"
        line += f" ({len(mine)} different fields)" + (f", no world {no_world:,}" if kind == "view" else "")
        lines.append(line)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", "--cases", type=int, default=100_000, help="cases to run (default 100,000)")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: every core)")
    parser.add_argument("--chunk", type=int, default=10_000, help="cases a chunk (default 10,000)")
    parser.add_argument("--generated", type=int, default=50, help="inputs of each kind from the dealer (default 50)")
    args = parser.parse_args()
    base_list = bases(args.seed, args.generated, EXAMPLES)
    chunks = [
        (chunk, min(args.chunk, args.cases - start)) for chunk, start in enumerate(range(0, args.cases, args.chunk))
    ]
    counts: Counts = collections.Counter()
    start = time.perf_counter()
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(args.jobs, mp_context=context) as pool:
        futures = [pool.submit(run_chunk, base_list, chunk_seed(args.seed, chunk), size) for chunk, size in chunks]
        for (chunk, _), future in zip(chunks, futures, strict=True):
            try:
                counts += future.result()
            except Bug as bug:
                print(f"chunk {chunk} (seed {chunk_seed(args.seed, chunk)}): {bug}", file=sys.stderr)
                pool.shutdown(wait=False, cancel_futures=True)
                sys.exit(1)
            done = sum(counts.values())
            print(f"{done:,} of {args.cases:,} cases, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    print(report(counts, time.perf_counter() - start))


if __name__ == "__main__":
    main()
