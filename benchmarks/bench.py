"""Run the kosolve benchmark and print its report.

Usage: ``python benchmarks/bench.py [--deals N] [--seed S] [--tt-mb MB]
[--endings N] [--ending-tricks T] [--postmortems N] [--no-goals] [--repeat N]
[--hard] [--json]``.  Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys

from kosolve.analysis.solving import DEFAULT_BUDGET_MB
from kosolve.tools.bench import DEFAULT_DEALS, DEFAULT_ENDING_TRICKS, DEFAULT_ENDINGS, DEFAULT_POSTMORTEMS, run_bench


def _progress(done: int, total: int) -> None:
    end = "\n" if done == total else ""
    print(f"\rsolved {done}/{total}", end=end, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Benchmark kosolve on realistic deals and endings.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS, help="whole deals to solve")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and endings")
    parser.add_argument("--tt-mb", type=float, default=DEFAULT_BUDGET_MB, help="memory for all the tables in MB")
    parser.add_argument("--endings", type=int, default=DEFAULT_ENDINGS, help="endings to time against the reference")
    parser.add_argument("--ending-tricks", type=int, default=DEFAULT_ENDING_TRICKS, help="tricks left in each ending")
    parser.add_argument("--postmortems", type=int, default=DEFAULT_POSTMORTEMS, help="whole plays to review")
    parser.add_argument("--no-goals", action="store_true", help="do not time feasibility questions")
    parser.add_argument(
        "--repeat", type=int, default=1, help="solve the whole deals this many times; each deal's fastest time counts"
    )
    parser.add_argument("--hard", action="store_true", help="the hard set: both hands with at least 8 tarocks")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    report = run_bench(
        deals=args.deals,
        seed=args.seed,
        tt_mb=args.tt_mb,
        endings=args.endings,
        ending_tricks=args.ending_tricks,
        goals=not args.no_goals,
        postmortems=args.postmortems,
        repeat=args.repeat,
        hard=args.hard,
        progress=_progress,
    )
    print(json.dumps(report.to_json(), indent=2) if args.json else report.format())


if __name__ == "__main__":
    main()
