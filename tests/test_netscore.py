"""The score-optimal search against a brute-force minimax that settles
every finished hand with kosolve.analysis.scoring.settle."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from kosolve.analysis.netscore import net_score
from kosolve.analysis.scoring import settle
from kosolve.model.announcements import BIRD_NAMES, Announcement
from kosolve.model.deal import Deal
from kosolve.model.game import Position, Rules
from kosolve.tools.dealing import deal_game

RULE_SETS = [Rules(), Rules(silent_bird_penalty=True)]


def brute_force(deal: Deal, position: Position, rules: Rules) -> int:
    """The declarer's net score with best play, every finished hand settled."""
    if position.is_over():
        return settle(replace(deal, play=tuple(position.move_stack)), rules).totals[deal.declarer]
    values = []
    for card in list(position.legal_moves):
        position.push(card)
        values.append(brute_force(deal, position, rules))
        position.pop()
    return max(values) if position.turn == deal.declarer else min(values)


def late_deal(rng: random.Random, tricks_left: int) -> Deal:
    """A whole deal with announcements, played at random down to
    ``tricks_left`` tricks."""
    deal = deal_game(rng)
    options = [*BIRD_NAMES, "valat", "absolut"]
    when = None if deal.contract == "solo" else rng.choice(["before", "after"])
    announced = tuple(Announcement(deal.declarer, what, when) for what in rng.sample(options, rng.randint(0, 2)))
    deal = replace(deal, announcements=announced)
    position = deal.position()
    while position.hands[0].bit_count() > tricks_left or position.trick:
        position.push(rng.choice(list(position.legal_moves)))
    return replace(deal, play=tuple(position.move_stack))


@pytest.mark.parametrize("seed", range(24))
def test_net_score_agrees_with_settling_every_ending(seed: int) -> None:
    rng = random.Random(seed)
    deal = late_deal(rng, rng.randint(1, 4))
    rules = RULE_SETS[seed % 2]
    result = net_score(deal, rules=rules)
    assert result.score == brute_force(deal, deal.position(), rules)
    finished = replace(deal, play=deal.play + result.line)
    assert settle(finished, rules).totals[deal.declarer] == result.score


def test_the_score_optimal_line_can_differ_from_the_point_optimal_one() -> None:
    differing = 0
    for seed in range(60):
        deal = late_deal(random.Random(1000 + seed), 4)
        result = net_score(deal)
        differing += result.score != result.points_line_score
    assert differing > 0
