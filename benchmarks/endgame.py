"""The endgame search (docs/endgame.md) against perfect-information Monte
Carlo, on the last tricks of played games.

Games are dealt as the arena deals them and played by two bots (the
heuristic bot by default, ``--bot pimc`` for pimc's own play); each card
of the last ``--tricks`` tricks is a position, seen from the seat to play
with every world of its view when there are at most ``--worlds`` (and two
or more legal cards).  In each, with the double-dummy leaf the pimc bot
would use there (the net score while a bonus is open, else the game
item; then the thirds):

- depth 1 is pimc's card (the tests check it card for card);
- the full depth is exact against an omniscient opponent: its values are
  each card's exact value, and the gain is what αμ's card (full depth,
  depth 2) is worth above pimc's there;
- the true world's gain is the double-dummy value of the deal as dealt
  after αμ's card less after pimc's, in game points and in thirds.

    python benchmarks/endgame.py --games 40
    python benchmarks/endgame.py --games 20 --bot pimc --tricks 3 --worlds 30
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass

from kosolve.analysis.report import Analyser
from kosolve.model.cards import Card
from kosolve.model.deal import Deal
from kosolve.model.game import DEFAULT_RULES, TRICKS_PER_GAME
from kosolve.model.view import SeatView
from kosolve.play.arena import dealer_deal
from kosolve.play.bots import bonus_open, make_bot
from kosolve.play.game import Game
from kosolve.play.player import ask
from kosolve.sampling.endgame import THIRDS_SCALE, dd_leaf, endgame_choice
from kosolve.sampling.worlds import all_worlds, world_space


@dataclass
class Measured:
    """One position: its worlds, each search's card and seconds, the
    exact value of each card (the full depth's) and the true world's
    value after each card."""

    worlds: int
    cards: dict[str, Card]
    seconds: dict[str, float]
    exact: dict[Card, float]
    true_value: dict[Card, int]


def positions(games: int, bot: str, tricks: int, most: int, seed: int) -> list[tuple[SeatView, Deal]]:
    """The view of the seat to play at each card of the last ``tricks``
    tricks of ``games`` games, with the deal as dealt, when the view allows
    2 to ``most`` worlds and two or more cards."""
    found = []
    analyser = Analyser()
    for number in range(1, games + 1):
        game = Game(dealer_deal(seed, number))
        players = [make_bot(bot, DEFAULT_RULES, analyser) for _ in range(2)]
        for seat, player in enumerate(players):
            player.start(number, seat)
        while not game.over:
            decision = game.decision()
            view, deal = decision.knowledge.seat_view, game.deal
            if (
                view is not None
                and deal is not None
                and len(view.play) >= 2 * (TRICKS_PER_GAME - tricks)
                and len(decision.options) > 1
                and 2 <= world_space(view).worlds <= most
            ):
                found.append((view, deal))
            ask(players[decision.seat], decision, game)
    return found


def measure(view: SeatView, deal: Deal, analyser: Analyser) -> Measured:
    worlds = [world for world in all_worlds(view) if isinstance(world, Deal)]
    by_net = bonus_open(view.announcements, view.play, view.pile | view.other_pile)
    leaf = dd_leaf(worlds, view.view, DEFAULT_RULES, analyser.solver, by_net, analyser.score_solver)
    full = view.hand.bit_count()
    cards, seconds = {}, {}
    exact: dict[Card, float] = {}
    for name, depth in (("pimc", 1), ("depth 2", 2), ("full", full)):
        start = time.perf_counter()
        choice = endgame_choice(worlds, None, depth, leaf)
        seconds[name] = time.perf_counter() - start
        cards[name] = choice.card
        exact = choice.values
    true_leaf = dd_leaf([deal], view.view, DEFAULT_RULES, analyser.solver, by_net, analyser.score_solver)
    position = deal.position()
    true_value = {}
    for card in exact:
        position.push(card)
        true_value[card] = true_leaf(0, position)
        position.pop()
    return Measured(len(worlds), cards, seconds, exact, true_value)


def split(value: int) -> tuple[int, int]:
    """A leaf value as (game points, thirds) for the seat: both negated
    for the defender, whose value is the declarer's negated."""
    sign = -1 if value < 0 else 1
    points, thirds = divmod(sign * value, THIRDS_SCALE)
    return sign * points, sign * thirds


def split_mean(gain: float, worlds: int) -> tuple[float, float]:
    """A difference of two means over ``worlds`` equal worlds of leaf
    values as (game points, thirds): the game points' mean moves in steps
    of 1/worlds, each far larger than the thirds' at most 210."""
    steps = round(gain * worlds / THIRDS_SCALE)
    return steps / worlds, gain - steps * THIRDS_SCALE / worlds


def report(measured: list[Measured]) -> None:
    count = len(measured)
    print(f"positions: {count}, mean worlds {statistics.mean(m.worlds for m in measured):.1f}")
    for name in ("depth 2", "full"):
        differs = sum(1 for m in measured if m.cards[name] != m.cards["pimc"])
        gains = [m.exact[m.cards[name]] - m.exact[m.cards["pimc"]] for m in measured]
        better, worse = sum(1 for g in gains if g > 0), sum(1 for g in gains if g < 0)
        exact = [split_mean(g, m.worlds) for g, m in zip(gains, measured, strict=True)]
        true = [
            (a[0] - b[0], a[1] - b[1])
            for a, b in ((split(m.true_value[m.cards[name]]), split(m.true_value[m.cards["pimc"]])) for m in measured)
        ]
        print(
            f"{name}: card differs from pimc's in {differs} ({100 * differs / count:.1f}%), "
            f"exact value better in {better}, worse in {worse}; mean gain a position, exact: "
            f"{statistics.mean(p for p, _ in exact):+.4f} game points, "
            f"{statistics.mean(t for _, t in exact):+.3f} thirds; "
            f"true world: {statistics.mean(p for p, _ in true):+.4f} game points, "
            f"{statistics.mean(t for _, t in true):+.3f} thirds"
        )
    for name in ("pimc", "depth 2", "full"):
        times = [m.seconds[name] for m in measured]
        print(
            f"time {name}: mean {statistics.mean(times) * 1000:.1f} ms, "
            f"median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--bot", default="heuristic", help="the bot that plays both seats (a spec)")
    parser.add_argument("--tricks", type=int, default=4, help="the last tricks whose cards are positions")
    parser.add_argument("--worlds", type=int, default=30, help="the most worlds a position may have")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    found = positions(args.games, args.bot, args.tricks, args.worlds, args.seed)
    print(f"{args.games} games by {args.bot}, {time.perf_counter() - start:.1f} s; last {args.tricks} tricks")
    analyser = Analyser()
    report([measure(view, deal, analyser) for view, deal in found])


if __name__ == "__main__":
    main()
