"""Whole deals played part of the way, for the tests of the score search
and of its tables."""

from __future__ import annotations

import random
from dataclasses import replace

from kosolve.dealing import deal_game
from kosolve.model.announcements import BIRD_NAMES, Announcement
from kosolve.model.deal import Deal


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
