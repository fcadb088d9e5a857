"""The deal as it was dealt (docs/rules.md §3): the talon in its order, each
player's 16 face-up hand cards, 8 personal cards and 8 discards, and what
follows from them: the talon choices of each contract, the legal
lay-aways, and the play position once a contract and an exchange are
chosen.

>>> from kosolve.model.cards import hand_names, parse_hand
>>> [[card_name(c) for c in take] for take in talon_choices("zweiblatt", (0, 1, 2, 3, 4, 5))]
[['H4', 'H3'], ['H2', 'H1'], ['HJ', 'HC']]
>>> pool = parse_hand(["HK", "HQ", "H4", "V", "VI"])
>>> [hand_names(laid) for laid in lay_aways(pool, 2)]
[['HQ', 'H4']]
>>> [hand_names(laid) for laid in lay_aways(pool, 3)]
[['VI', 'HQ', 'H4'], ['V', 'HQ', 'H4']]
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from kosolve.model.announcements import Announcement
from kosolve.model.cards import KINGS, SUIT_MASKS, TAROCK, TRULL, Card, Hand, card_name, cards_of, mask_of
from kosolve.model.deal import Deal
from kosolve.model.game import FOREHAND, TALON_CARDS_TAKEN, TALON_SIZE, Seat
from kosolve.model.reprs import counted, readable_repr

HAND_SIZE: Final = 16
PERSONAL_SIZE: Final = 8
DISCARD_SIZE: Final = 8

KEPT: Final[Hand] = KINGS | TRULL
"""Cards that may never be laid away (docs/rules.md §3.3)."""
TAROCKS: Final[Hand] = SUIT_MASKS[TAROCK]


class ExchangeError(ValueError):
    """A talon choice or lay-away the rules do not allow."""


def talon_choices(contract: str, talon: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    """The groups of talon cards the declarer of ``contract`` may take, each
    in talon order (docs/rules.md §3.5): the top or bottom three, the top,
    middle or bottom pair, any one card, or none in a Solo.

    >>> talon_choices("dreiblatt", (10, 11, 12, 13, 14, 15))
    ((10, 11, 12), (13, 14, 15))
    >>> talon_choices("solo", (10, 11, 12, 13, 14, 15))
    ((),)
    """
    taken = TALON_CARDS_TAKEN[contract]
    if taken == 0:
        return ((),)
    return tuple(tuple(talon[start : start + taken]) for start in range(0, TALON_SIZE, taken))


def _free(variant: str) -> bool:
    """Whether ``variant`` lets tarocks other than the trull go freely: the
    easy and tactical variants name kings and trull cards as their only
    restriction (docs/rules.md §3.3)."""
    return variant in ("easy", "tactical")


def lay_away_problem(cards: Hand, laid: Hand, variant: str = "classic") -> str | None:
    """Why laying away ``laid`` from ``cards`` breaks the discard rules of
    ``variant``, or None when it is legal (docs/rules.md §3.3): the cards
    must be among ``cards`` and no king or trull card may go; in the
    classic and medium variants tarocks only when there are too few other
    cards, then exactly as many as are missing.  The same rules govern the
    declarer's lay-away after the talon exchange.

    >>> from kosolve.model.cards import parse_hand
    >>> cards = parse_hand(["HK", "HQ", "H4", "V", "VI"])
    >>> lay_away_problem(cards, parse_hand(["HQ", "H4"])) is None
    True
    >>> lay_away_problem(cards, parse_hand(["HK", "H4"]))
    'HK may not be laid away (no kings, no trull cards)'
    >>> lay_away_problem(cards, parse_hand(["H4", "V"]))
    'lays away 1 tarock(s) but may lay away tarocks only for want of other cards (0 needed)'
    >>> lay_away_problem(cards, parse_hand(["H4", "V"]), "easy") is None
    True
    """
    if laid & ~cards:
        return f"{card_name(next(cards_of(laid & ~cards)))} is not among the cards held"
    if laid & KEPT:
        return f"{card_name(next(cards_of(laid & KEPT)))} may not be laid away (no kings, no trull cards)"
    if _free(variant):
        return None
    plain = (cards & ~TAROCKS & ~KEPT).bit_count()
    needed = max(0, laid.bit_count() - plain)
    tarocks = (laid & TAROCKS).bit_count()
    if tarocks != needed:
        return f"lays away {tarocks} tarock(s) but may lay away tarocks only for want of other cards ({needed} needed)"
    return None


def lay_aways(cards: Hand, count: int, variant: str = "classic") -> Iterator[Hand]:
    """Every legal way to lay away ``count`` of ``cards`` under ``variant``
    (see :func:`lay_away_problem`), each once: any cards but kings and
    trull cards in the easy and tactical variants; else the plain cards (no
    kings) when there are enough, else all of them and the missing number
    of tarocks other than the trull.

    >>> from kosolve.model.cards import parse_hand
    >>> len(list(lay_aways(parse_hand(["HK", "HQ", "H4", "V", "VI"]), 2, "tactical")))
    6
    """
    if _free(variant):
        for chosen in itertools.combinations(cards_of(cards & ~KEPT), count):
            yield mask_of(chosen)
        return
    plain = cards & ~TAROCKS & ~KEPT
    if plain.bit_count() >= count:
        for chosen in itertools.combinations(cards_of(plain), count):
            yield mask_of(chosen)
        return
    spare = cards_of(cards & TAROCKS & ~KEPT)
    for chosen in itertools.combinations(spare, count - plain.bit_count()):
        yield plain | mask_of(chosen)


def discard_problem(
    hand: Hand, personal: Hand, discards: Hand, picked_up: Hand, variant: str
) -> tuple[str, str] | None:
    """Why a seat's discard breaks ``variant`` (docs/rules.md §3.3), as the
    field at fault (``discards`` or ``picked_up``) and the message, or None
    when it is legal.  ``picked_up`` is the personal cards he picked up.

    >>> from kosolve.model.cards import parse_hand
    >>> hand = parse_hand(["HK", "HQ", "H4", "V"])
    >>> discard_problem(hand, parse_hand(["D4"]), parse_hand(["V"]), parse_hand(["D4"]), "medium")
    ('discards', 'V may not be laid away (the medium discard lays away plain suit cards only)')
    """
    laid = discards.bit_count()
    pool = hand | personal if variant == "tactical" else hand
    if discards & ~pool:
        where = "hand or personal cards" if variant == "tactical" else "hand cards"
        return "discards", f"{card_name(next(cards_of(discards & ~pool)))} is not among the {where}"
    if picked_up & ~personal:
        return "picked_up", f"{card_name(next(cards_of(picked_up & ~personal)))} is not among the personal cards"
    if variant == "medium":
        plain = hand & ~TAROCKS & ~KEPT
        if discards & ~plain:
            card = card_name(next(cards_of(discards & ~plain)))
            return "discards", f"{card} may not be laid away (the medium discard lays away plain suit cards only)"
        if laid != min(DISCARD_SIZE, plain.bit_count()):
            return "discards", (
                f"{laid} card(s) laid away, but the medium discard lays away as many plain suit cards"
                f" (no kings) as he can, up to {DISCARD_SIZE}: {min(DISCARD_SIZE, plain.bit_count())}"
            )
    elif variant == "easy":
        if laid > DISCARD_SIZE:
            return "discards", f"{counted(laid, 'card')} laid away (the easy discard lays away at most {DISCARD_SIZE})"
    elif laid != DISCARD_SIZE:
        return "discards", f"{laid} card(s) laid away (the {variant} discard lays away {DISCARD_SIZE})"
    problem = lay_away_problem(pool, discards, variant)
    if problem is not None:
        return "discards", problem
    wanted = laid if variant in ("medium", "easy") else PERSONAL_SIZE
    if picked_up.bit_count() != wanted:
        if variant in ("medium", "easy"):
            rule = f"as many as laid away: {wanted} (picked_up names them)"
        else:
            rule = f"all of them: {wanted}"
        return "picked_up", f"{picked_up.bit_count()} personal card(s) picked up, the {variant} discard picks up {rule}"
    return None


@dataclass(frozen=True)
class Exchange:
    """The declarer's talon exchange: the talon cards he ``take``-s, in talon
    order, and the cards he lays away (as many, from his hand and the
    taken cards)."""

    take: tuple[Card, ...]
    lay_away: Hand

    def __repr__(self) -> str:
        return readable_repr(self, cards=("take",), hands=("lay_away",))


@dataclass(frozen=True)
class Dealt:
    """A deal as dealt: the ``talon`` (top first), and per seat (forehand,
    dealer) the 16 face-up ``hands``, the 8 ``personal`` cards dealt face
    down, and the ``discards`` laid away (8 of the hand in the classic
    variant; docs/rules.md §3.3 for the others)."""

    talon: tuple[Card, ...]
    hands: tuple[Hand, Hand]
    personal: tuple[Hand, Hand]
    discards: tuple[Hand, Hand]
    picked_up: tuple[Hand, Hand] | None = None
    """The personal cards each seat picked up, when some were left (the
    medium and easy variants); None: all of them.  The ones left lie
    unseen in his pile."""

    def __repr__(self) -> str:
        return readable_repr(self, cards=("talon",), hands=("hands", "personal", "discards", "picked_up"))

    def picked(self, seat: Seat) -> Hand:
        """The personal cards ``seat`` picked up."""
        return self.personal[seat] if self.picked_up is None else self.picked_up[seat]

    def held(self, seat: Seat) -> Hand:
        """The 16 cards ``seat`` holds after the discard, before any exchange."""
        return (self.hands[seat] | self.picked(seat)) & ~self.discards[seat]

    def laid(self, seat: Seat) -> Hand:
        """The cards of ``seat``'s pile from the discard: his discards and
        the personal cards he left."""
        return self.discards[seat] | self.personal[seat] & ~self.picked(seat)

    def exchange_problem(
        self, contract: str, declarer: Seat, exchange: Exchange, variant: str = "classic"
    ) -> str | None:
        """Why ``exchange`` is not one the declarer of ``contract`` may make
        under the discard ``variant``, or None when it is; the message starts
        with the field at fault (``take:`` or ``lay_away:``)."""
        choices = talon_choices(contract, self.talon)
        if exchange.take not in choices:
            allowed = " or ".join("[" + " ".join(card_name(c) for c in take) + "]" for take in choices)
            return f"take: a {contract} takes {allowed}"
        count = len(exchange.take)
        if exchange.lay_away.bit_count() != count:
            return f"lay_away: lays away {exchange.lay_away.bit_count()} card(s), as many as taken: {count}"
        problem = lay_away_problem(self.held(declarer) | mask_of(exchange.take), exchange.lay_away, variant)
        return None if problem is None else f"lay_away: {problem}"

    def play_deal(
        self,
        contract: str,
        declarer: Seat,
        exchange: Exchange,
        *,
        announcements: tuple[Announcement, ...] = (),
        play: tuple[Card, ...] = (),
        variant: str = "classic",
    ) -> Deal:
        """The deal at trick 1 after ``exchange`` (checked by
        :meth:`exchange_problem`): the declarer's pile is his discards and
        the lay-away, the defender's his discards and the talon cards not
        taken; the forehand leads.  Each seat's own discards are kept, so
        the held bonuses are read exactly."""
        problem = self.exchange_problem(contract, declarer, exchange, variant)
        if problem is not None:
            raise ExchangeError(problem)
        defender = 1 - declarer
        taken = mask_of(exchange.take)
        hands = [self.held(FOREHAND), self.held(1 - FOREHAND)]
        hands[declarer] = (hands[declarer] | taken) & ~exchange.lay_away
        piles = [0, 0]
        piles[declarer] = self.laid(declarer) | exchange.lay_away
        piles[defender] = self.laid(defender) | mask_of(self.talon) & ~taken
        own = [0, 0]
        own[declarer] = piles[declarer]
        own[defender] = self.laid(defender)
        return Deal(
            contract,
            declarer,
            (hands[0], hands[1]),
            piles=(piles[0], piles[1]),
            leader=FOREHAND,
            play=play,
            announcements=announcements,
            laid=(own[0], own[1]),
        )


__all__ = [
    "DISCARD_SIZE",
    "HAND_SIZE",
    "KEPT",
    "PERSONAL_SIZE",
    "Dealt",
    "Exchange",
    "ExchangeError",
    "discard_problem",
    "lay_away_problem",
    "lay_aways",
    "talon_choices",
]
