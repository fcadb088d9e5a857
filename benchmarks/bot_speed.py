"""How fast the bundled bots decide (docs/bots.md, "Speed"): ``pimc``'s
first card (trick 1, where a silent bird is nearly always in play, so it
searches the net score), its auction call, and its announcement and Kontra
decisions, over games whose other decisions the heuristic bot takes; and
``dd``'s announcement decisions.  One bot for all the games, as in a match
(its tables warm from earlier games only).

    python benchmarks/bot_speed.py --games 40
    python benchmarks/bot_speed.py --games 40 --pimc pimc:bonus_samples=8 --kontra
"""

from __future__ import annotations

import argparse
import statistics
import time

from kosolve.model.game import Rules
from kosolve.play.arena import dealer_deal
from kosolve.play.bots import make_bot
from kosolve.play.game import Game
from kosolve.play.player import Bot, ask


def timed(bot: Bot, game: Game) -> float:
    decision = game.decision()
    start = time.perf_counter()
    choice = bot.decide(decision, game if bot.omniscient else None)
    seconds = time.perf_counter() - start
    game.choose(choice)
    return seconds


def play(spec: str, games: int, rules: Rules, seed: int) -> dict[str, list[float]]:
    """Seconds per decision of the bot ``spec`` by kind, in ``games`` games
    in which it is the forehand and then the dealer against the heuristic
    bot: the auction calls, the announcement and Kontra decisions, and its
    first card (trick 1)."""
    bot = make_bot(spec, rules)
    times: dict[str, list[float]] = {"bid": [], "announce": [], "first card": []}
    number = 0
    while len(times["first card"]) < games:
        number += 1
        seat = number % 2
        game = Game(dealer_deal(seed, number), rules)
        helper = make_bot("heuristic", rules)
        helper.start(number, 1 - seat)
        bot.start(number, seat)
        first = True
        while not game.over:
            decision = game.decision()
            if decision.seat != seat:
                ask(helper, decision, game)
                continue
            kind = decision.kind
            if kind == "play":
                if not first:
                    break
                first = False
                times["first card"].append(timed(bot, game))
                continue
            seconds = timed(bot, game)
            if kind in ("bid", "announce", "kontra"):
                times["bid" if kind == "bid" else "announce"].append(seconds)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pimc", default="pimc", help="the pimc spec to time")
    parser.add_argument("--dd", default="dd", help="the dd spec to time ('' for none)")
    parser.add_argument("--kontra", action="store_true", help="under Rules(kontra=True, defender_announcements=True)")
    args = parser.parse_args()
    rules = Rules(kontra=True, defender_announcements=True) if args.kontra else Rules()
    for spec in filter(None, (args.pimc, args.dd)):
        times = play(spec, args.games, rules, args.seed)
        for kind, seconds in times.items():
            if seconds:
                print(
                    f"{spec} {kind}: {len(seconds)} decisions, mean {statistics.mean(seconds):.3f} s,"
                    f" median {statistics.median(seconds):.3f} s, max {max(seconds):.3f} s"
                )


if __name__ == "__main__":
    main()
