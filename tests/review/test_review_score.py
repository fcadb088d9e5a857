"""The review in score mode: each card compared by the declarer's net game
points (announcements made), every world's value the library's net score
after the card, averaged as the thirds are; the verdicts follow the net
points."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from support.games import late_deal

from kosolve.analysis.netscore import net_score
from kosolve.model.deal import Deal
from kosolve.model.view import view_of
from kosolve.review.judging import review
from kosolve.sampling.worlds import all_worlds


def played_to_the_end(seed: int) -> Deal:
    rng = random.Random(seed)
    deal = late_deal(rng, 3)
    position = deal.position()
    while not position.is_over():
        position.push(rng.choice(list(position.legal_moves)))
    return replace(deal, play=tuple(position.move_stack))


def net_after(world: Deal, card: int) -> int:
    position = world.position()
    position.push(card)
    return net_score(world, position, with_points_line=False, with_line=False).score


@pytest.mark.parametrize("seed", range(4))
def test_score_mode_averages_the_net_score_of_every_world(seed: int) -> None:
    deal = played_to_the_end(seed)
    start = len(deal.play) - 6
    result = review(deal, samples=100_000, jobs=1, start=start, score=True)
    assert result.to_json()["by"] == "net"
    for judged in result.cards:
        if judged.forced:
            continue
        worlds = [w for w in all_worlds(view_of(deal, judged.seat, judged.index)) if isinstance(w, Deal)]
        dealt = replace(deal, play=deal.play[: judged.index])
        sign = 1 if judged.seat == deal.declarer else -1
        means = {}
        for move in judged.moves:
            expected = sum(net_after(w, move.card) for w in worlds) / len(worlds)
            assert move.mean_net == pytest.approx(expected, abs=1e-9)
            assert move.dd_net == net_after(dealt, move.card)
            means[move.card] = sign * expected
        assert judged.knew_loss == pytest.approx(max(means.values()) - means[judged.card], abs=1e-9)
        dd = {m.card: sign * (m.dd_net or 0) for m in judged.moves}
        assert judged.dd_loss == max(dd.values()) - dd[judged.card]
        assert "dd_loss_net" in judged.to_json(score=True)
