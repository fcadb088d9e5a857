"""Bounds from look-alike positions (_lookalike.pxd): two positions whose
cards in play have the same holders rank by rank in every suit differ in
value by at most what their i-th cards differ.  Checked against that
definition written out plainly, and the principle itself against the
reference's values on random endings."""

from __future__ import annotations

import random

from kosolve.engine._testing import _py_lookalike_bounds
from kosolve.model.cards import CARD_NAMES
from kosolve.tools import reference

SUITS = [list(range(8 * s, 8 * s + 8)) for s in range(4)] + [list(range(32, 54))]


def mask(cards: list[int]) -> int:
    return sum(1 << card for card in cards)


def look_alikes(rng: random.Random, per_hand: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """Two positions of ``per_hand`` cards a hand with the same number of
    cards in each suit and the same holder at each rank: the forehand's and
    the dealer's cards of each."""
    counts = [0] * 5
    for _ in range(2 * per_hand):
        counts[rng.choice([s for s in range(5) if counts[s] < len(SUITS[s])])] += 1
    holders = rng.sample([0] * per_hand + [1] * per_hand, 2 * per_hand)
    positions = []
    for _ in range(2):
        cards = [c for s in range(5) for c in sorted(rng.sample(SUITS[s], counts[s]))]
        positions.append(
            (
                [c for c, h in zip(cards, holders, strict=True) if h == 0],
                [c for c, h in zip(cards, holders, strict=True) if h == 1],
            )
        )
    (fa, da), (fb, db) = positions
    return fa, da, fb, db


def expected_shift(stored: list[int], now: list[int]) -> tuple[int, int]:
    """(up, down) in points: over the i-th cards of each suit, what this
    position's is worth more, and less, than the stored one's."""
    up = down = 0
    for suit in SUITS:
        a = sorted(c for c in stored if c in suit)
        b = sorted(c for c in now if c in suit)
        for x, y in zip(a, b, strict=True):
            va, vb = reference.card_value(CARD_NAMES[x]), reference.card_value(CARD_NAMES[y])
            up += max(0, vb - va)
            down += max(0, va - vb)
    return up, down


def test_the_shift_follows_the_definition() -> None:
    rng = random.Random(31)
    for _ in range(1500):
        fa, da, fb, db = look_alikes(rng, rng.randint(1, 11))
        thirds = reference.pile_thirds([CARD_NAMES[c] for c in fa + da])
        lower = rng.randint(0, thirds)
        upper = rng.randint(lower, thirds)
        up, down = expected_shift(fa + da, fb + db)
        got = _py_lookalike_bounds(mask(fa), mask(da), mask(fb), mask(db), lower, upper)
        assert got == (lower - 3 * down, upper + 3 * up), (fa, da, fb, db)


def test_positions_that_differ_in_holders_do_not_look_alike() -> None:
    fa, da = [0, 8], [1, 9]  # H4 D4 against H3 D3
    assert _py_lookalike_bounds(mask(fa), mask(da), mask(da), mask(fa), 0, 4) is None


def value(forehand: list[int], dealer: list[int], leader: str, declarer: str) -> int:
    names = [CARD_NAMES[c] for c in forehand], [CARD_NAMES[c] for c in dealer]
    return reference.reference_value(names[0], names[1], leader=leader, declarer=declarer)


def test_look_alikes_differ_in_value_by_at_most_the_shift() -> None:
    """The principle, on the reference's values: every look-alike pair's
    values lie within the shift of each other."""
    rng = random.Random(32)
    shifted = 0
    for _ in range(150):
        per_hand = rng.randint(2, 4)
        fa, da, fb, db = look_alikes(rng, per_hand)
        leader, declarer = rng.choice(["forehand", "dealer"]), rng.choice(["forehand", "dealer"])
        up, down = expected_shift(fa + da, fb + db)
        before, after = value(fa, da, leader, declarer), value(fb, db, leader, declarer)
        assert before - 3 * down <= after <= before + 3 * up, (fa, da, fb, db, leader, declarer)
        shifted += up + down > 0
    assert shifted > 100
