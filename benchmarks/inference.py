"""Does the inference (docs/inference.md) point at the truth, trick by trick?

Every game is replayed decision by decision, and from each seat's
knowledge before each of its decisions:

- **a card** (once the other has played a card): ``--samples`` worlds of
  the seat view (:func:`~kosolve.sampling.worlds.sample_worlds`, as pimc
  draws them) and the true world, each weighted by the card model; the
  **log-ratio** is log(true world's weight / mean weight over the drawn
  worlds and the true one): above 0, the model leans toward the truth;
  0, it tells nothing.  And whether weighting changes **pimc's choice**:
  every legal card valued in each drawn world as pimc values it (the game
  item, then the thirds, double dummy), the best card by the plain mean
  against the best by the weighted mean (cards with one legal option
  left out).
- **a call** (once the other has called): the same log-ratio with the
  call model over ``--samples`` worlds of his view before the auction.

The games are an arena results file's (``--results FILE``, both games of
every deal) or played here by two bots from a seed (``--a``, ``--b``,
specs as ``kosolve arena`` takes them).  The table has a row a trick
(1 to 16, the play's; a card of trick t is decided with t - 1 tricks
done) and one for the auction.

    python benchmarks/inference.py --games 4 --a pimc --b pimc --seed 0 --samples 20
    python benchmarks/inference.py --results match.jsonl --samples 20 --weight 0.5
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence

from kosolve.analysis.report import Analyser
from kosolve.analysis.solving import solve
from kosolve.batch.results import read_question, read_results
from kosolve.model.cards import Card
from kosolve.model.deal import Deal
from kosolve.model.dealt import Dealt
from kosolve.model.dealt_file import parse_dealt_file
from kosolve.model.game import DEFAULT_RULES, TRICKS_PER_GAME, Rules
from kosolve.model.scoring import game_item
from kosolve.play.arena import bot_seed, dealer_deal, play_game
from kosolve.play.bots import make_bot
from kosolve.play.game import Decision, Game
from kosolve.review.records import rules_of
from kosolve.sampling.inference import DEFAULT_CALL_WEIGHT, DEFAULT_CARD_WEIGHT, Inference
from kosolve.sampling.worlds import random_worlds, sample_worlds

AUCTION = 0
"""The table's row of the calls (the tricks are 1 to 16)."""


def played_games(a: str, b: str, games: int, seed: int, rules: Rules, analyser: Analyser) -> Iterator[Game]:
    """``games`` games of the realistic dealer's deals from ``seed``, the
    bots in turn the forehand (as the arena seats them)."""
    bots = (make_bot(a, rules, analyser), make_bot(b, rules, analyser))
    for number in range(1, games + 1):
        dealt = dealer_deal(seed, number)
        order = (bots[0], bots[1]) if number % 2 else (bots[1], bots[0])
        game, forfeit = play_game(dealt, order, ("x", "y"), bot_seed(seed, number), rules)
        if forfeit is None and game.deal is not None:
            yield game


def recorded_games(path: str, limit: int | None) -> tuple[Rules, list[tuple[Dealt, list[int]]]]:
    """The deals as dealt and each game's choices of an arena results
    file (played ones only: both passed or forfeited games are left out)."""
    rules = rules_of(read_question(path), path)
    found = []
    for record in read_results(path):
        report = record.get("report")
        if not isinstance(report, dict):
            continue
        dealt = parse_dealt_file(report["deal"], path, rules=rules).dealt
        for game in report["games"]:
            if game.get("forfeit") is None and game.get("contract") is not None:
                found.append((dealt, [int(move["choice"]) for move in game["moves"]]))
    return rules, found[:limit]


def replayed(dealt: Dealt, choices: Sequence[int], rules: Rules) -> Iterator[tuple[Game, Decision]]:
    """Each decision of the game of ``choices``, with the game before it."""
    game = Game(dealt, rules)
    for choice in choices:
        yield game, game.decision()
        game.choose(choice)


def log_ratio(true: float, drawn: Sequence[float]) -> float:
    """log(true weight / mean weight over the drawn worlds and the true one)."""
    return math.log(true * (len(drawn) + 1) / (math.fsum(drawn) + true))


def pimc_card(
    values: Sequence[dict[Card, int]], weights: Sequence[float], contract: str, declarer: bool, win: int
) -> Card:
    """pimc's card: the best mean game item, then the best mean thirds,
    then the first in card order, with each world weighted."""
    sign = 1 if declarer else -1

    def key(card: Card) -> tuple[float, float, int]:
        points = math.fsum(w * game_item(contract, v[card] >= win, False) for w, v in zip(weights, values, strict=True))
        thirds = math.fsum(w * v[card] for w, v in zip(weights, values, strict=True))
        return sign * points, sign * thirds, -card

    return max(values[0], key=key)


class Table:
    """The figures by row: log-ratios, and pimc's choices changed."""

    def __init__(self) -> None:
        self.ratios: dict[int, list[float]] = defaultdict(list)
        self.changed: dict[int, list[bool]] = defaultdict(list)

    def print(self) -> None:
        print(f"{'trick':>7} {'decisions':>9} {'mean log-ratio':>14} {'> 0':>6} {'< 0':>6} {'cards':>6} {'changed':>8}")
        for row in range(TRICKS_PER_GAME + 1):
            ratios, changed = self.ratios.get(row, []), self.changed.get(row, [])
            if not ratios:
                continue
            name = "auction" if row == AUCTION else str(row)
            mean = math.fsum(ratios) / len(ratios)
            above = sum(r > 1e-12 for r in ratios) / len(ratios)
            below = sum(r < -1e-12 for r in ratios) / len(ratios)
            share = f"{100 * sum(changed) / len(changed):7.1f}%" if changed else f"{'-':>8}"
            shares = f"{100 * above:5.1f}% {100 * below:5.1f}%"
            print(f"{name:>7} {len(ratios):9d} {mean:14.4f} {shares} {len(changed):6d} {share}")


def measure(
    game: Game, decision: Decision, args: argparse.Namespace, model: Inference, analyser: Analyser, table: Table
) -> None:
    """The figures of one decision, from what its seat knows."""
    knows = decision.knowledge
    other = 1 - decision.seat
    seed = args.seed * 1_000_003 + len(game.moves)
    if decision.kind == "bid":
        if other not in [index % 2 for index in range(len(knows.calls))]:
            return  # he has not called yet
        drawn = [w for w in random_worlds(knows.auction, args.samples, seed) if isinstance(w, Dealt)]
        weights = [model.weight(misses=model.call_misses(w, other, knows.calls)) for w in drawn]
        true = model.weight(misses=model.call_misses(game.dealt, other, knows.calls))
        table.ratios[AUCTION].append(log_ratio(true, weights))
        return
    view = knows.seat_view
    if decision.kind != "play" or view is None or not view.played_by(other):
        return
    deal = game.deal
    assert deal is not None
    solver, rules = analyser.solver, game.rules
    worlds = [w for w in sample_worlds(view, args.samples, seed) if isinstance(w, Deal)]
    weights = [model.weight(model.card_blunders(w, other, solver, rules)) for w in worlds]
    true = model.weight(model.card_blunders(deal, other, solver, rules))
    row = len(view.play) // 2 + 1
    table.ratios[row].append(log_ratio(true, weights))
    if len(decision.options) > 1:
        values = [
            {m.card: m.thirds for m in solve(w.position(), solver=solver, rules=rules, with_line=False).moves}
            for w in worlds
        ]
        declarer = decision.seat == deal.declarer
        plain = pimc_card(values, [1.0] * len(values), deal.contract, declarer, rules.win_thirds)
        leaning = pimc_card(values, weights, deal.contract, declarer, rules.win_thirds)
        table.changed[row].append(plain != leaning)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--results", metavar="FILE", help="an arena results file's games (else games played here)")
    parser.add_argument("--games", type=int, default=4, help="games to play here, or the most to read")
    parser.add_argument("--a", default="pimc", help="bot A's spec (played here)")
    parser.add_argument("--b", default="pimc", help="bot B's spec (played here)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=20, help="worlds drawn a decision")
    parser.add_argument("--weight", type=float, default=DEFAULT_CARD_WEIGHT, help="the card weight")
    parser.add_argument("--call-weight", type=float, default=DEFAULT_CALL_WEIGHT)
    args = parser.parse_args()
    model = Inference(card_weight=args.weight, call_weight=args.call_weight)
    analyser = Analyser()
    started = time.perf_counter()
    if args.results:
        rules, recorded = recorded_games(args.results, args.games)
        games = [(dealt, choices) for dealt, choices in recorded]
        source = f"{len(games)} games of {args.results}"
    else:
        rules = DEFAULT_RULES
        played = list(played_games(args.a, args.b, args.games, args.seed, rules, analyser))
        games = [(g.dealt, [m.choice for m in g.moves]) for g in played]
        took = time.perf_counter() - started
        source = f"{len(games)} games of {args.a} against {args.b}, seed {args.seed} (played in {took:.0f} s)"
    table = Table()
    for dealt, choices in games:
        for game, decision in replayed(dealt, choices, rules):
            measure(game, decision, args, model, analyser, table)
    print(
        f"{source}; {args.samples} worlds a decision; card weight {model.card_weight:g}, call weight"
        f" {model.call_weight:g}, depth {model.depth}; {time.perf_counter() - started:.0f} s in all"
    )
    table.print()


if __name__ == "__main__":
    main()
