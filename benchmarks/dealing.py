"""How fast the dealer keeps the deals that meet a condition (``kosolve deal
--where``, docs/statistics.md): deals tried a second for each condition,
the fastest of ``--repeat`` runs (the machine is shared and noisy), beside
the dealer with no condition, and the share of deals kept.

    python benchmarks/dealing.py
    python benchmarks/dealing.py --tries 50000 --repeat 5
"""

from __future__ import annotations

import argparse
import random
import time

from kosolve.dealing.dealer import deal_bid
from kosolve.dealing.where import dealt_where, where

CONDITIONS = (
    "forehand.tarocks >= 10",
    "forehand.tarocks >= 10 and 'I' in forehand.hand and dealer.kings == 0",
    "contract == 'solo' or declarer.points - defender.points > 10",
)
"""A simple condition (the issue's target is for it), the issue's example
and one with arithmetic over both seats."""


def plain_rate(tries: int, seed: int) -> float:
    """Deals a second of the dealer alone."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(tries):
        deal_bid(rng)
    return tries / (time.perf_counter() - start)


def condition_rate(text: str, tries: int, seed: int) -> tuple[float, int]:
    """Deals tried a second with the condition ``text``, and how many were kept."""
    condition = where(text)
    start = time.perf_counter()
    kept = sum(1 for _ in dealt_where(random.Random(seed), condition, tries=tries))
    return tries / (time.perf_counter() - start), kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tries", type=int, default=20_000, help="deals tried a run")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the fastest counts")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    plain = max(plain_rate(args.tries, args.seed) for _ in range(args.repeat))
    print(f"{'no condition':<75} {plain:>9,.0f} deals/s")
    for text in CONDITIONS:
        runs = [condition_rate(text, args.tries, args.seed) for _ in range(args.repeat)]
        rate = max(rate for rate, _ in runs)
        kept = runs[0][1]
        print(f"{text:<75} {rate:>9,.0f} tried/s  {kept / args.tries:6.1%} kept")


if __name__ == "__main__":
    main()
