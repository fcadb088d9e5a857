"""The tables of the searches: their sizes are checked before any
arithmetic on them, and the solver refuses impossible positions."""

from __future__ import annotations

import math

import pytest

from kosolve.engine._search import Solver
from kosolve.engine._table import MAX_TABLE_MB, MIN_TABLE_MB, TableSizeError, buckets_for
from kosolve.model.cards import parse_hand
from kosolve.model.game import FOREHAND, NO_CARD
from kosolve.tools.dealing import deal_games

BAD_SIZES = [0.0, -1.0, MIN_TABLE_MB / 2, 0.0001, MAX_TABLE_MB * 2, 1e13, math.inf, math.nan]


@pytest.mark.parametrize("mb", BAD_SIZES)
def test_sizes_outside_the_range_are_refused(mb: float) -> None:
    with pytest.raises(TableSizeError, match="KB to"):
        buckets_for(mb)
    with pytest.raises(TableSizeError):
        Solver(tt_mb=mb)
    with pytest.raises(TableSizeError):
        Solver(tt_mb=8, goal_tt_mb=mb)


def test_a_size_is_rounded_down_to_a_power_of_two_of_buckets() -> None:
    assert buckets_for(MIN_TABLE_MB) == 16
    assert buckets_for(8) == buckets_for(12) == 8 * 1024 * 1024 // 64
    assert buckets_for(MAX_TABLE_MB) == MAX_TABLE_MB * 1024 * 1024 // 64
    assert Solver(tt_mb=3).stats["tt_bytes"] == 2 * 1024 * 1024


def test_the_goal_table_is_at_most_8_mb_unless_asked() -> None:
    assert Solver(tt_mb=64).goal_tt_mb == 8
    assert Solver(tt_mb=2).goal_tt_mb == 2
    assert Solver(tt_mb=64, goal_tt_mb=1).goal_tt_mb == 1


OWN, OTHER = parse_hand(["HK", "H4"]), parse_hand(["HQ", "I"])
D4 = parse_hand(["D4"]).bit_length() - 1


@pytest.mark.parametrize(
    ("forehand", "dealer", "leader", "declarer", "led", "message"),
    [
        (OWN, OWN, FOREHAND, FOREHAND, NO_CARD, "disjoint"),
        (OWN | 1 << 60, OTHER, FOREHAND, FOREHAND, NO_CARD, "disjoint"),
        (OWN, OTHER, 2, FOREHAND, NO_CARD, "seats"),
        (OWN, OTHER, FOREHAND, -1, NO_CARD, "seats"),
        (OWN, parse_hand(["HQ"]), FOREHAND, FOREHAND, NO_CARD, "as many cards"),
        (parse_hand(["HK"]), OTHER, FOREHAND, FOREHAND, parse_hand(["HQ"]).bit_length() - 1, "neither hand"),
        (parse_hand(["HK"]), OTHER, FOREHAND, FOREHAND, 60, "neither hand"),
        (OWN, OTHER, FOREHAND, FOREHAND, D4, "one card fewer"),
    ],
)
def test_the_solver_refuses_impossible_positions(
    forehand: int, dealer: int, leader: int, declarer: int, led: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Solver(tt_mb=1).value(forehand, dealer, leader, declarer, led)


def test_the_smallest_table_gives_the_same_value() -> None:
    # Sixteen buckets: nearly every store evicts another position.
    position = deal_games(1, 11)[0].position()
    args = (position.hands[0], position.hands[1], position.leader, position.declarer)
    assert Solver(tt_mb=MIN_TABLE_MB).value(*args) == Solver().value(*args)
