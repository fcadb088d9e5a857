"""The arena's benchmark: how fast ``pimc`` decides its first card, and
duplicate matches between pairs of bots, timed whole, with their results.

    python benchmarks/arena.py --first-cards 30
    python benchmarks/arena.py --deals 200 --jobs 2 --pairs pimc:heuristic pimc:random dd:pimc
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from kosolve.batch.results import read_results
from kosolve.play.arena import Match, dealer_deal, run_match, summarise
from kosolve.play.bots import HeuristicBot, PimcBot
from kosolve.play.game import Game
from kosolve.play.player import ask


def first_cards(count: int, spec_samples: int) -> list[float]:
    """Seconds ``pimc`` took for the first card of each of ``count`` games
    (the auction and the exchange by the heuristic bot), one bot for all of
    them as in a match (its tables made once, warm from earlier games only)."""
    times: list[float] = []
    seed = 0
    bot = PimcBot(samples=spec_samples)
    while len(times) < count:
        seed += 1
        game = Game(dealer_deal(1, seed))
        helper = HeuristicBot()
        helper.start(seed)
        while not game.over and game.phase != "play":
            ask(helper, game.decision(), game)
        if game.over:
            continue
        bot.start(seed)
        start = time.perf_counter()
        bot.decide(game.decision())
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--first-cards", type=int, default=0)
    parser.add_argument("--samples", type=int, default=10, help="pimc's worlds a card, for --first-cards")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--pairs", nargs="*", default=[], help="A:B pairs of bot specs")
    args = parser.parse_args()
    if args.first_cards:
        times = first_cards(args.first_cards, args.samples)
        print(
            f"pimc (samples={args.samples}) first card, {len(times)} games: median {statistics.median(times):.3f} s,"
            f" max {max(times):.3f} s"
        )
    deals = [dealer_deal(args.seed, number) for number in range(1, args.deals + 1)]
    for pair in args.pairs:
        a, _, b = pair.partition(":")
        match = Match(a, b, args.seed)
        with tempfile.TemporaryDirectory() as folder:
            path = str(Path(folder) / "match.jsonl")
            start = time.perf_counter()
            run_match(match, deals, path, jobs=args.jobs)
            seconds = time.perf_counter() - start
            summary = summarise(read_results(path), match)
        print(json.dumps({"pair": pair, "deals": args.deals, "jobs": args.jobs, "seconds": round(seconds, 1),
                          **summary.to_json()}))  # fmt: skip


if __name__ == "__main__":
    main()
