"""One position on several threads against one thread, in one process.

Each whole deal (every first card valued, as ``kosolve bench``) is solved by
a solver of each thread count in turn, the order rotating from deal to deal,
each solver warm across the run; each deal's fastest of ``--repeat`` runs
counts (a fresh set of solvers each run).  ``--hard`` keeps only the deals
in which both hands hold at least 8 tarocks, the even splits that take the
longest.  On a shared machine the threads compete with the neighbours for
the cores: compare the thread counts within one run.

    python benchmarks/threads.py --deals 100 --threads 1 2 --repeat 3
    python benchmarks/threads.py --deals 60 --hard --threads 1 2
"""

from __future__ import annotations

import argparse
import statistics
import time

from kosolve.analysis.solving import new_solver, search_args
from kosolve.dealing import deal_games
from kosolve.model.cards import TAROCK, suit_of
from kosolve.model.deal import Deal

HARD_TAROCKS = 8


def tarocks(hand: int) -> int:
    return sum(1 for card in range(54) if hand >> card & 1 and suit_of(card) == TAROCK)


def hard_deals(count: int, seed: int) -> list[Deal]:
    """The first ``count`` deals from ``seed`` whose hands both hold at least
    HARD_TAROCKS tarocks."""
    found: list[Deal] = []
    batch = 0
    while len(found) < count:
        batch += 1
        deals = deal_games(200 * batch, seed)[200 * (batch - 1) :]
        found += [d for d in deals if min(tarocks(h) for h in d.hands) >= HARD_TAROCKS]
    return found[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hard", action="store_true", help="only deals with both hands of 8 or more tarocks")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--tt-mb", type=float, default=16.0)
    args = parser.parse_args()
    deals = hard_deals(args.deals, args.seed) if args.hard else deal_games(args.deals, args.seed)
    positions = [search_args(d.position()) for d in deals]
    best = {n: [float("inf")] * len(positions) for n in args.threads}
    nodes = dict.fromkeys(args.threads, 0)
    answers: dict[int, list[object]] = {}
    for run in range(args.repeat):
        solvers = {n: new_solver(args.tt_mb, n) for n in args.threads}
        for index, position in enumerate(positions):
            shift = (index + run) % len(args.threads)
            for n in args.threads[shift:] + args.threads[:shift]:
                before = solvers[n].stats["nodes"]
                start = time.perf_counter()
                moves = solvers[n].move_values(*position)
                best[n][index] = min(best[n][index], (time.perf_counter() - start) * 1000)
                if run == 0:
                    nodes[n] += solvers[n].stats["nodes"] - before
                    answers.setdefault(n, []).append(moves)
    if any(answers[n] != answers[args.threads[0]] for n in args.threads):
        raise SystemExit("the thread counts disagree")
    base = args.threads[0]
    kind = "hard deals (both hands >= 8 tarocks)" if args.hard else "deals"
    print(f"{len(positions)} {kind} of seed {args.seed}, fastest of {args.repeat}, every first card valued")
    print(f"{'threads':>8}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}{'total ms':>10}{'nodes':>13}{'speed-up':>10}")
    for n in args.threads:
        times = sorted(best[n])
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        speedup = sum(best[base]) / sum(best[n])
        print(
            f"{n:>8}{statistics.median(times):>11.2f}{p95:>9.1f}{times[-1]:>9.1f}{sum(times):>10.0f}"
            f"{nodes[n]:>13,}{speedup:>9.2f}x"
        )


if __name__ == "__main__":
    main()
