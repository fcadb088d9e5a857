"""Inference: a world's weight from how likely the other's observed
decisions are in it, under one documented model of his play
(docs/inference.md).

Every world a seat view allows is equally likely by the cards alone
(:mod:`~kosolve.sampling.worlds`).  But the other chose his cards and his
calls from his hand, and in some worlds his choices make more sense than
in others.  The model:

- **His cards**: a softened double-dummy player.  Each of his last
  ``depth`` cards that loses value double dummy in a world (the mover's
  final thirds with best play drop: the card's value is not the best
  card's, the value of the position before it) multiplies the world's
  weight by ``card_weight``.  A forced card never loses value.
- **His calls**: the realistic dealer's bidding model
  (:func:`~kosolve.dealing.bid` of :func:`~kosolve.dealing.hand_strength`
  of his 16 cards after the pick-up): the most he would play is that
  contract, ``limit``.  Each of his calls the model would not make
  multiplies the weight by ``call_weight``: a bid above ``limit``, a hold
  of a contract above it, and a pass while what stands is below it (or
  nothing stands: the model always bids at least a Dreiblatt, so an
  opening pass is a miss in every world and changes no world's weight
  against another's).

So a world's weight is ``card_weight ** blunders * call_weight ** misses``
(:meth:`Inference.weight`); a weight of 1 is no inference.

>>> import random
>>> from kosolve.dealing import deal_as_dealt
>>> from kosolve.model.game import DEALER
>>> dealt = deal_as_dealt(random.Random(3))
>>> Inference().call_misses(dealt, DEALER, ["dreiblatt", "solo"]), Inference().weight(blunders=1, misses=2)
(1, 0.03125)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from kosolve.analysis.solving import search_args
from kosolve.dealing import bid, hand_strength
from kosolve.engine import Solver
from kosolve.model.auction import HOLD, OPENING, PASS, AuctionState, Outcome, after_call, auction_calls
from kosolve.model.cards import Card
from kosolve.model.deal import Deal
from kosolve.model.dealt import Dealt
from kosolve.model.game import CONTRACTS, Position, Rules, Seat
from kosolve.model.view import SeatView
from kosolve.sampling.worlds import random_worlds, sample_worlds

DEFAULT_CARD_WEIGHT: Final = 0.5
"""A world's weight per card of his that lost value in it.  A half: the
players kosolve meets (its bots, a club player) play their double-dummy
best card most of the time but far from always (the benchmark's player
three times in four, docs/review.md), so one lapse halves a world's
chance, and a world where four of his last cards were lapses counts a
sixteenth: it leans hard on his play without ruling any world out."""
DEFAULT_CALL_WEIGHT: Final = 0.25
"""A world's weight per call of his that the bidding model would not make.
Lower than the cards' weight: a call is one coarse decision about the
whole hand, which a player gets wrong less often than a card, and a
strength estimate near a threshold still leaves the wrong side a
quarter."""
DEFAULT_DEPTH: Final = 4
"""How many of his last cards weigh a world: a trick's worth and more of
his recent play, which is what a player remembers best; older cards are
less telling once the hands have changed (and each costs a search)."""


class InferenceError(ValueError):
    """An inference that cannot be made: a weight outside (0, 1], a
    negative depth, a call that is not legal, a view of the wrong kind."""


@dataclass(frozen=True)
class Inference:
    """The model's weights (see the module text): ``card_weight`` per card
    of his last ``depth`` that lost value, ``call_weight`` per call the
    bidding model would not make; 1 weighs nothing.

    >>> Inference(card_weight=1.5)
    Traceback (most recent call last):
    ...
    kosolve.sampling.inference.InferenceError: card_weight must be above 0 and at most 1, not 1.5
    """

    card_weight: float = DEFAULT_CARD_WEIGHT
    call_weight: float = DEFAULT_CALL_WEIGHT
    depth: int = DEFAULT_DEPTH

    def __post_init__(self) -> None:
        for name, value in (("card_weight", self.card_weight), ("call_weight", self.call_weight)):
            if not 0 < value <= 1:
                raise InferenceError(f"{name} must be above 0 and at most 1, not {value}")
        if self.depth < 0:
            raise InferenceError(f"depth must be at least 0, not {self.depth}")

    @property
    def weighs_cards(self) -> bool:
        """Whether his cards can change a world's weight: with a weight of
        1 or no card checked, no search need be made."""
        return self.card_weight < 1 and self.depth > 0

    def card_blunders(self, world: Deal, other: Seat, solver: Solver, rules: Rules) -> int:
        """How many of ``other``'s last :attr:`depth` cards of ``world``'s
        play lost value double dummy in it: a card loses value when its
        value (the declarer's final thirds with best play after it) is not
        the best card's for its mover (the most thirds for the declarer,
        the fewest for the defender), which is the value of the position
        before it.  ``solver`` keeps its table warm across worlds; the
        answer does not depend on what it holds, nor on ``rules`` (the
        thirds are the same under every rule option)."""
        if self.depth == 0 or not world.play:
            return 0
        walk = list(world.positions())
        mine = [index for index, position in enumerate(walk[:-1]) if position.turn == other]
        return sum(not _keeps_value(solver, walk[index], walk[index + 1]) for index in mine[-self.depth :])

    def call_misses(self, world: Dealt, other: Seat, calls: Sequence[str]) -> int:
        """How many of ``other``'s calls in the auction ``calls`` (both
        seats', in order, the forehand's first) the bidding model would not
        make with his 16 cards after the pick-up in ``world``."""
        limit = CONTRACTS.index(bid(hand_strength(world.held(other))))
        state: AuctionState | Outcome = OPENING
        misses = 0
        for index, call in enumerate(calls):
            if not isinstance(state, AuctionState):
                raise InferenceError(f"calls[{index}]: {call!r} comes after the auction ended")
            if call not in auction_calls(state):
                raise InferenceError(f"calls[{index}]: {call!r} is not a legal call here")
            misses += state.turn == other and not _model_may_call(state, call, limit)
            state = after_call(state, call)
        return misses

    def weight(self, blunders: int = 0, misses: int = 0) -> float:
        """A world's weight: :attr:`card_weight` per blunder times
        :attr:`call_weight` per miss."""
        return float(self.card_weight**blunders * self.call_weight**misses)


def _keeps_value(solver: Solver, before: Position, after: Position) -> bool:
    """Whether the card played from ``before`` to ``after`` keeps the value
    of ``before``: one search of ``before``'s value, then one null-window
    test of ``after`` (can the card's value reach it?), cheaper than
    valuing every legal card and the same answer.  A forced card always
    keeps it."""
    if len(before.legal_moves) == 1:
        return True
    # The hand's last card is forced, so a card with a choice leaves play to value.
    assert not after.is_over()
    best = before.declarer_thirds() + solver.value(*search_args(before))
    need = best - after.declarer_thirds()
    if before.turn == before.declarer:
        # His card's value is at most the best: it keeps it when it reaches it.
        return solver.reaches(*search_args(after), need=need)
    # The defender's card's value is at least the best: kept unless it reaches more.
    return not solver.reaches(*search_args(after), need=need + 1)


def _model_may_call(state: AuctionState, call: str, limit: int) -> bool:
    """Whether the bidding model, willing to play contracts up to index
    ``limit``, may make ``call`` at ``state``: any bid or hold up to it
    (he may bid up step by step, docs/rules.md §3.4), a pass only once the
    contract standing is at least it."""
    if call == PASS:
        return state.standing is not None and state.standing >= limit
    if call == HOLD:
        assert state.standing is not None, "a hold needs a contract standing"
        return state.standing <= limit
    return CONTRACTS.index(call) <= limit


def weighted_play_worlds(
    view: SeatView, count: int, seed: int, inference: Inference, solver: Solver, rules: Rules
) -> list[tuple[Deal, float]]:
    """The worlds :func:`~kosolve.sampling.worlds.sample_worlds` draws from
    ``view`` (after the auction) with ``count`` and ``seed``, each with its
    weight by the other's cards (:meth:`Inference.card_blunders`),
    normalised so that the weights sum to the number of worlds: an
    unweighted mean's formula applies as it is."""
    if view.before_auction:
        raise InferenceError("a view before the auction has no play: its worlds are weighed by the calls")
    worlds = [world for world in sample_worlds(view, count, seed) if isinstance(world, Deal)]
    if not inference.weighs_cards:
        return [(world, 1.0) for world in worlds]
    weights = [inference.weight(inference.card_blunders(world, view.other, solver, rules)) for world in worlds]
    scale = len(worlds) / math.fsum(weights)
    return [(world, weight * scale) for world, weight in zip(worlds, weights, strict=True)]


def weighted_auction_worlds(
    view: SeatView,
    calls: Sequence[str],
    count: int,
    seed: int,
    inference: Inference,
    talon: tuple[Card, ...] | None = None,
    pool: int = 8,
) -> list[Dealt]:
    """``count`` worlds of ``view`` before the play (with the ``talon`` as
    exposed, or unseen) that lean toward hands that fit the other's
    ``calls``: ``count * pool`` worlds drawn by
    :func:`~kosolve.sampling.worlds.random_worlds` from ``seed``, then
    ``count`` of them drawn again, with replacement, each with probability
    in proportion to its weight by the calls (sampling importance
    resampling: a world that fits well may come twice, and that is its
    weight).  The worlds come equally weighted.  When every world weighs
    the same (no call of his, a call weight of 1, or his calls fit or miss
    alike everywhere) they are the first ``count`` drawn, the worlds
    ``random_worlds(view, count, seed, talon)`` gives."""
    if not view.before_auction:
        raise InferenceError("a view after the auction has no calls to weigh: its worlds are weighed by the cards")
    if count < 1 or pool < 1:
        raise InferenceError(f"count and pool must be at least 1, not {count} and {pool}")
    drawn = count if inference.call_weight == 1 else count * pool
    worlds = [world for world in random_worlds(view, drawn, seed, talon) if isinstance(world, Dealt)]
    weights = [inference.weight(misses=inference.call_misses(world, view.other, calls)) for world in worlds]
    if len(set(weights)) == 1:
        return worlds[:count]
    # Its own stream, apart from the draw's.
    rng = random.Random(f"weighted_auction_worlds {seed}")
    return rng.choices(worlds, weights=weights, k=count)


__all__ = [
    "DEFAULT_CALL_WEIGHT",
    "DEFAULT_CARD_WEIGHT",
    "DEFAULT_DEPTH",
    "Inference",
    "InferenceError",
    "weighted_auction_worlds",
    "weighted_play_worlds",
]
