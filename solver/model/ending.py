"""The position after part of a deal's play, as a deal of its own: an
ending that a deal file can hold and that solves to the same value.

>>> from kosolve.model.files import load_deal
>>> deal = load_deal("examples/played.json")
>>> ending = ending_deal(deal, at=4)
>>> ending.first_trick, ending.play, [hand.bit_count() for hand in ending.piles]
(3, (), [12, 14])
>>> ending.position().declarer_thirds() == deal.position(4).declarer_thirds()
True
"""

from __future__ import annotations

from dataclasses import replace

from kosolve.model.cards import Hand, mask_of
from kosolve.model.deal import Deal


class EndingError(ValueError):
    """A position that no deal file can hold: a hand already over."""


def ending_deal(deal: Deal, at: int | None = None) -> Deal:
    """The position after the first ``at`` cards of ``deal``'s play (all of
    it by default) as a deal that starts there: the hands then, the piles
    with the tricks taken so far added, the seat to lead, the
    announcements, and no play, except the card on the table when the
    position is inside a trick (a deal file starts at a lead, so the card
    is handed back and played again).

    Without piles the tricks taken so far are not in the ending: its value
    counts the tricks still to play only.
    """
    position = deal.position(at)
    if position.is_over():
        raise EndingError("the hand is over: no cards are left to play")
    taken: list[Hand] = [0, 0]
    for trick in position.tricks:
        if trick.winner is not None:
            taken[trick.winner] |= mask_of(trick.cards)
    hands = list(position.hands)
    for card in position.trick:
        hands[position.leader] |= 1 << card
    piles = None if deal.piles is None else (deal.piles[0] | taken[0], deal.piles[1] | taken[1])
    return replace(deal, hands=(hands[0], hands[1]), piles=piles, leader=position.leader, play=tuple(position.trick))


__all__ = ["EndingError", "ending_deal"]
