"""The arena's benchmark: how fast the bots decide, and duplicate matches
between pairs of bots, timed whole, with their results.

``--decisions N`` times ``pimc``'s first card (trick 1), its auction
calls, and its announcement and Kontra decisions over N games whose other
decisions the heuristic bot takes, then ``dd``'s; one bot for all the
games, as in a match (its tables warm from earlier games only).

``--speed A:B`` plays ``--deals`` duplicate deals between the two bots in
this process, one bot a side for all of them, and prints each bot's
seconds a decision by kind (every decision, both seats) and B's to A's
ratio: the two bots' costs on the same deals, as issue 32 compares
``expert`` with ``pimc``.

    python benchmarks/arena.py --decisions 40
    python benchmarks/arena.py --decisions 40 --pimc pimc:bonus_samples=8 --kontra
    python benchmarks/arena.py --deals 200 --jobs 2 --pairs pimc:heuristic pimc:random dd:pimc
    python benchmarks/arena.py --deals 400 --pairs pimc:pimc:announce=none --kontra
    python benchmarks/arena.py --deals 20 --speed expert:pimc
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from kosolve.batch.results import read_results
from kosolve.model.game import Rules
from kosolve.play.arena import Match, dealer_deal, run_match, summarise
from kosolve.play.bots import BOTS, make_bot
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


def speed(a: str, b: str, deals: int, rules: Rules, seed: int) -> dict[str, dict[str, list[float]]]:
    """Seconds per decision of each bot by kind over ``deals`` duplicate
    deals between them (each deal played twice, the seats swapped)."""
    bots = {a: make_bot(a, rules), b: make_bot(b, rules)}
    times: dict[str, dict[str, list[float]]] = {a: {}, b: {}}
    for number in range(1, deals + 1):
        for order in ((a, b), (b, a)):
            game = Game(dealer_deal(seed, number), rules)
            for seat, spec in enumerate(order):
                bots[spec].start(number, seat)
            while not game.over:
                spec = order[game.decision().seat]
                kind = game.decision().kind
                times[spec].setdefault(kind, []).append(timed(bots[spec], game))
    return times


def split_pair(pair: str) -> tuple[str, str]:
    """``A:B`` as its two bot specs, where a spec may hold colons itself
    (``pimc:pimc:announce=none``): B starts at the first colon that is
    followed by a bot's name and leaves A a whole spec."""
    for index, char in enumerate(pair):
        if char == ":" and index and pair[index + 1 :].startswith(tuple(BOTS)):
            return pair[:index], pair[index + 1 :]
    raise SystemExit(f"{pair!r}: give a pair as A:B")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--decisions", type=int, default=0, help="games to time the bots' decisions over")
    parser.add_argument("--pimc", default="pimc", help="the pimc spec to time")
    parser.add_argument("--dd", default="dd", help="the dd spec to time ('' for none)")
    parser.add_argument("--kontra", action="store_true", help="under Rules(kontra=True, defender_announcements=True)")
    parser.add_argument("--speed", default="", help="an A:B pair whose decisions to time side by side")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--pairs", nargs="*", default=[], help="A:B pairs of bot specs (split at the first colon before a bot name)"
    )
    args = parser.parse_args()
    rules = Rules(kontra=True, defender_announcements=True) if args.kontra else Rules()
    if args.decisions:
        for spec in filter(None, (args.pimc, args.dd)):
            times = play(spec, args.decisions, rules, args.seed)
            for kind, taken in times.items():
                if taken:
                    print(
                        f"{spec} {kind}: {len(taken)} decisions, mean {statistics.mean(taken):.3f} s,"
                        f" median {statistics.median(taken):.3f} s, max {max(taken):.3f} s"
                    )
    if args.speed:
        a, b = split_pair(args.speed)
        costs = speed(a, b, args.deals, rules, args.seed)
        for kind in sorted({*costs[a], *costs[b]}):
            ta, tb = costs[a].get(kind, []), costs[b].get(kind, [])
            if ta and tb:
                print(
                    f"{kind}: {a} {len(ta)} decisions, mean {statistics.mean(ta):.4f} s, max {max(ta):.3f} s;"
                    f" {b} {len(tb)}, mean {statistics.mean(tb):.4f} s, max {max(tb):.3f} s;"
                    f" {b}/{a} {statistics.mean(tb) / statistics.mean(ta):.2f}"
                )
        all_a = [t for taken in costs[a].values() for t in taken]
        all_b = [t for taken in costs[b].values() for t in taken]
        print(
            f"all: {a} {sum(all_a):.1f} s over {len(all_a)} decisions, {b} {sum(all_b):.1f} s over {len(all_b)};"
            f" {b}/{a} a decision {statistics.mean(all_b) / statistics.mean(all_a):.2f}"
        )
        return
    deals = [dealer_deal(args.seed, number) for number in range(1, args.deals + 1)]
    for pair in args.pairs:
        a, b = split_pair(pair)
        match = Match(a, b, args.seed, rules=rules)
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
