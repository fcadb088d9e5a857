"""How the transposition table's size trades nodes against cache misses.

Solves the same realistic deals (every first card valued) with one table of
each size, several times, and prints the best total time and the nodes.

    python benchmarks/table_size.py --deals 40 --repeat 4 --sizes 4 8 16 64
"""

from __future__ import annotations

import argparse
import time

from kosolve.dealing import deal_games
from kosolve.engine import Solver


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=40, help="realistic deals to solve")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals")
    parser.add_argument("--repeat", type=int, default=4, help="runs per size; the best time counts")
    parser.add_argument("--sizes", type=float, nargs="+", default=[2, 4, 8, 16, 64], help="table sizes in MB")
    args = parser.parse_args(argv)
    deals = deal_games(args.deals, args.seed)
    print(f"{'table MB':>9} {'best ms':>9} {'nodes':>14} {'nodes/s':>14}")
    for size in args.sizes:
        best = float("inf")
        nodes = 0
        for _ in range(args.repeat):
            solver = Solver(tt_mb=size)
            start = time.perf_counter()
            for deal in deals:
                solver.move_values(deal.hands[0], deal.hands[1], deal.leader, deal.declarer)
            best = min(best, time.perf_counter() - start)
            nodes = solver.stats["nodes"]
        print(f"{size:9g} {best * 1000:9.0f} {nodes:14,} {nodes / best:14,.0f}")


if __name__ == "__main__":
    main()
