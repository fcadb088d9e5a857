"""A deal: the contract, who declares, both hands, the piles and the play so
far, as read from a deal file (format version 1).

>>> from kosolve.cards import parse_hand
>>> deal = Deal("solo", FOREHAND, (parse_hand(["HK"]), parse_hand(["HQ"])))
>>> deal.position().declarer_thirds()
0
"""

from __future__ import annotations

from dataclasses import dataclass

from kosolve.cards import Card, Hand, card_name
from kosolve.game import FOREHAND, IllegalMoveError, Position, Seat


@dataclass(frozen=True)
class Deal:
    """A fully known deal, as of the start of play or of an ending."""

    contract: str
    """dreiblatt, zweiblatt, einblatt or solo."""
    declarer: Seat
    hands: tuple[Hand, Hand]
    """The cards each seat holds when play starts (forehand, dealer)."""
    piles: tuple[Hand, Hand] | None = None
    """The cards already counted for each seat, or None when unknown."""
    leader: Seat = FOREHAND
    """The seat that leads the first trick of these hands."""
    play: tuple[Card, ...] = ()
    """The cards played so far, in order."""

    def position(self, at: int | None = None) -> Position:
        """The position after the first ``at`` cards of the play (all of it
        by default).  Raises :class:`IllegalMoveError` naming the trick of
        an illegal card."""
        position = Position(self.hands, declarer=self.declarer, leader=self.leader, piles=self.piles)
        for index, card in enumerate(self.play[:at]):
            try:
                position.push(card)
            except IllegalMoveError as error:
                raise IllegalMoveError(
                    f"card {index + 1} ({card_name(card)}, trick {index // 2 + 1}): {error}"
                ) from None
        return position
