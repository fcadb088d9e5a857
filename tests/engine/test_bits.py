"""The bit gather and scatter under the table keys: the BMI2 instructions
(where the build uses them) and the plain-C fallback agree with a
definition written out bit by bit.  And the table key of the position after a
card leaves the hands, worked out from the key before, is the key of that
position."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from kosolve.engine._testing import (
    _py_gather_bits,
    _py_scatter_bits,
    _py_soft_gather_bits,
    _py_soft_scatter_bits,
    _py_tt_key,
    _py_tt_key_without,
)


def gather(x: int, mask: int) -> int:
    """The bits of ``x`` where ``mask`` is set, packed to the bottom."""
    result, k = 0, 0
    for i in range(64):
        if mask >> i & 1:
            result |= (x >> i & 1) << k
            k += 1
    return result


def scatter(x: int, mask: int) -> int:
    """The low bits of ``x`` spread to where ``mask`` is set."""
    result, k = 0, 0
    for i in range(64):
        if mask >> i & 1:
            result |= (x >> k & 1) << i
            k += 1
    return result


CASES = [(random.Random(seed).getrandbits(54), random.Random(seed + 1000).getrandbits(54)) for seed in range(300)]


@pytest.mark.parametrize("gather_bits", [_py_gather_bits, _py_soft_gather_bits])
def test_gather(gather_bits: Callable[[int, int], int]) -> None:
    for x, mask in [*CASES, (0, 0), ((1 << 54) - 1, (1 << 54) - 1), (0b1011, 0b1111_0000)]:
        assert gather_bits(x, mask) == gather(x, mask)


@pytest.mark.parametrize("scatter_bits", [_py_scatter_bits, _py_soft_scatter_bits])
def test_scatter(scatter_bits: Callable[[int, int], int]) -> None:
    for x, mask in [*CASES, (0, 0), ((1 << 54) - 1, (1 << 54) - 1), (0b1011, 0b1111_0000)]:
        assert scatter_bits(x, mask) == scatter(x, mask)


def test_key_without_a_card_is_the_key_of_the_smaller_position() -> None:
    rng = random.Random(12)
    for _ in range(500):
        cards = rng.sample(range(54), 2 * rng.randint(1, 16))
        half = len(cards) // 2
        forehand, dealer = sum(1 << c for c in cards[:half]), sum(1 << c for c in cards[half:])
        leader, declarer = rng.randint(0, 1), rng.randint(0, 1)
        for card in cards:
            smaller = _py_tt_key(forehand & ~(1 << card), dealer & ~(1 << card), leader, declarer)
            assert _py_tt_key_without(forehand, dealer, card, leader, declarer) == smaller, (forehand, dealer, card)
