"""The rewards an environment's finished game should give, worked out from
the game of :mod:`kosolve.play.game` alone, for the tests of both
environments: each seat's game points taken from the settlement's items
(each to its seat, as much from the other), not from its totals."""

from __future__ import annotations

from dataclasses import replace

from kosolve.analysis.netscore import net_score
from kosolve.play.game import Game


def replayed_rewards(game: Game, reward: str) -> list[float]:
    """The (forehand, dealer) rewards of the finished ``game`` under ``reward``."""
    assert game.over
    points = [0, 0]
    for item in game.settlement.items if game.settlement else ():
        points[item.to] += item.points
        points[1 - item.to] -= item.points
    if reward == "win":
        return [float((p > 0) - (p < 0)) for p in points]
    if reward == "regret":
        deal = game.deal
        best = (
            0
            if deal is None
            else net_score(replace(deal, play=()), rules=game.rules, with_points_line=False, with_line=False).score
        )
        best_by_seat = [best, -best] if deal is None or deal.declarer == 0 else [-best, best]
        return [float(p - b) for p, b in zip(points, best_by_seat, strict=True)]
    return [float(p) for p in points]
