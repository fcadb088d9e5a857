"""A deal: the contract, who declares, both hands, the piles and the play so
far, as a play file gives it (format version 1).

A play file is a JSON object::

    {"version": 1, "contract": "dreiblatt", "declarer": "forehand",
     "hands": {"forehand": ["Sk", "XXI", ...], "dealer": ["HK", ...]},
     "piles": {"forehand": [...], "dealer": [...]},
     "laid": {"forehand": [...], "dealer": [...]},
     "leader": "forehand",
     "announcements": [{"by": "forehand", "what": "pagat", "when": "before"}],
     "play": ["XIV", "XX", ...]}

``piles``, ``laid``, ``leader`` (default forehand), ``announcements`` and
``play`` are optional.  ``laid`` (a whole game with its piles only) names
the cards of each pile that its player put there himself, all but the
talon cards left to the defender, so that the held bonuses are exact.  An
announcement names its seat, what is announced (see
:data:`kosolve.model.announcements.ANNOUNCEMENTS`) and ``when`` (before or
after the talon is exposed; a Solo has no ``when``), and may carry
``"kontra": true``.  The file is checked against the rules that hold
whatever the rule options (a declarer's goal announced by the defender, a
timing missing, the same announcement twice); a defender's bird or Valat
and a Kontra depend on rule options and are judged when the hand is
settled (:func:`kosolve.analysis.scoring.settle`).

This module reads play files only; :mod:`kosolve.model.files` reads every
kind of file, a deal as dealt giving its play position too.  Every error
names the file and the field in one line:

>>> deal = parse_play_file({"version": 1, "contract": "solo", "declarer": "forehand",
...                         "hands": {"forehand": ["HK"], "dealer": ["HQ"]}}, "deal.json")
>>> deal.position().declarer_thirds()
0
>>> parse_play_file({"version": 1, "contract": "solo", "declarer": "forehand",
...                  "hands": {"forehand": ["HK"], "dealer": ["H10"]}}, "deal.json")
Traceback (most recent call last):
...
kosolve.model.deal.DealError: deal.json: hands.dealer[0]: unknown card 'H10' (did you mean H1?)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Final

from kosolve.model.announcements import Announcement, announcement_to_json
from kosolve.model.cards import ALL_CARDS, N_CARDS, Card, Hand, card_name, hand_names
from kosolve.model.game import (
    CONTRACTS,
    FOREHAND,
    SEATS,
    TALON_CARDS_TAKEN,
    TALON_SIZE,
    TRICKS_PER_GAME,
    IllegalMoveError,
    Position,
    Seat,
    seat_name,
    trick_number_of,
)
from kosolve.model.jsonfile import FieldParser, FileError, seats_to_json
from kosolve.model.quoting import describe
from kosolve.model.reprs import counted

FORMAT_VERSION: Final = 1
"""The play file format this module reads and writes."""

KEYS: Final = ("version", "contract", "declarer", "hands", "piles", "laid", "leader", "announcements", "play")
"""The keys of a play file, in the order :func:`deal_to_json` writes them."""
_REQUIRED: Final = ("version", "contract", "declarer", "hands")


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
    announcements: tuple[Announcement, ...] = ()
    """The announcements made before play."""
    laid: tuple[Hand, Hand] | None = None
    """The cards of each seat's pile that he put there himself (his
    discards, the declarer's lay-away, personal cards not picked up), when
    known: all but the talon cards left to the defender.  The held bonuses
    count a player's own cards (docs/rules.md §5.3), so they are exact
    with it; a deal as dealt knows it, a play file may give it."""
    source: str = field(default="", compare=False)
    """The name of the file it was read from, for headings and messages."""

    def __repr__(self) -> str:
        """A summary; :func:`deal_to_json` writes the whole deal.

        >>> from kosolve.model.files import load_deal
        >>> load_deal("examples/played.json")
        <Deal examples/played.json: zweiblatt by the forehand, 16 cards each at trick 1, piles, 7 cards played>
        """
        parts = [
            f"{self.contract} by the {seat_name(self.declarer)}",
            f"{self.hands[FOREHAND].bit_count()} cards each at trick {self.first_trick}",
            "piles" if self.piles is not None else "no piles",
        ]
        if self.announcements:
            parts.append(counted(len(self.announcements), "announcement"))
        if self.play:
            parts.append(f"{counted(len(self.play), 'card')} played")
        name = f" {self.source}" if self.source else ""
        return f"<Deal{name}: {', '.join(parts)}>"

    def svg(self) -> str:
        """Both hands by suit after the play, as an SVG picture.

        >>> from kosolve.model.files import load_deal
        >>> load_deal("examples/played.json").svg().count('class="card"')
        25
        """
        played = f"after {counted(len(self.play), 'card')}" if self.play else f"at trick {self.first_trick}"
        return self.position().svg(f"{self.contract} by the {seat_name(self.declarer)}, {played}")

    def _repr_svg_(self) -> str:
        """The picture a notebook shows (:meth:`svg`)."""
        return self.svg()

    def position(self, at: int | None = None) -> Position:
        """The position after the first ``at`` cards of the play (all of it
        by default).  Raises :class:`IllegalMoveError` naming the trick of
        an illegal card."""
        position = Position(self.hands, declarer=self.declarer, leader=self.leader, piles=self.piles)
        for index in range(len(self.play[:at])):
            self._push(position, index)
        return position

    def positions(self, start: int = 0) -> Iterator[Position]:
        """The position before each card of the play from card ``start``
        on, then the position after the last card: the play pushed one card
        at a time, where :meth:`position` of each would replay it from the
        first card every time.  Each position is a copy of its own, kept
        as it is when the walk goes on.

        >>> from kosolve.model.files import load_deal
        >>> deal = load_deal("examples/played.json")
        >>> walk = list(deal.positions(5))
        >>> [len(position.move_stack) for position in walk], [position.trick_number for position in walk]
        ([5, 6, 7], [3, 4, 4])
        >>> walk[-1].hands == deal.position().hands
        True
        """
        position = self.position(start)
        for index in range(len(position.move_stack), len(self.play)):
            yield position.copy()
            self._push(position, index)
        yield position

    def _push(self, position: Position, index: int) -> None:
        """Play card ``index`` of the play on ``position``, an illegal card
        named with its trick."""
        card = self.play[index]
        try:
            position.push(card)
        except IllegalMoveError as error:
            raise IllegalMoveError(
                f"card {index + 1} ({card_name(card)}, trick {trick_number_of(index, self.first_trick)}): {error}"
            ) from None

    @property
    def first_trick(self) -> int:
        """The number (1 to 16) of the first trick of these hands: a whole
        game starts at trick 1, an ending of four cards each at trick 13.

        >>> from kosolve.model.cards import parse_hand
        >>> Deal("solo", FOREHAND, (parse_hand(["HK", "H4"]), parse_hand(["HQ", "I"]))).first_trick
        15
        """
        return TRICKS_PER_GAME + 1 - self.hands[FOREHAND].bit_count()


class DealError(FileError):
    """A deal file that cannot be read or breaks the format or the rules;
    the message is one line naming the file and the field."""


class _PlayFileParser(FieldParser):
    error_type = DealError
    format_version = FORMAT_VERSION

    def check_hands(self, hands: tuple[Hand, Hand]) -> None:
        counts = [hand.bit_count() for hand in hands]
        for seat in SEATS:
            if not 1 <= counts[seat] <= TRICKS_PER_GAME:
                raise self.error(
                    f"hands.{seat_name(seat)}",
                    f"{counts[seat]} cards (a hand holds 1 to {TRICKS_PER_GAME} cards when play starts)",
                )
        if counts[0] != counts[1]:
            raise self.error("hands", f"unequal hands: forehand holds {counts[0]} cards, dealer {counts[1]}")

    def check_piles(self, hands: tuple[Hand, Hand], piles: tuple[Hand, Hand]) -> None:
        missing = ALL_CARDS & ~(hands[0] | hands[1] | piles[0] | piles[1])
        if missing:
            held = N_CARDS - missing.bit_count()
            names = ", ".join(hand_names(missing))
            raise self.error(
                "piles", f"hands and piles hold {held} of the {N_CARDS} cards, they must hold all (missing {names})"
            )

    def laid(self, data: Mapping[str, object], deal: Deal) -> tuple[Hand, Hand]:
        """Each pile's own cards: within the pile, the declarer's whole pile
        (a talon card he took is in his hand or laid away by him), the
        defender's all but the talon cards left to him."""
        if deal.piles is None or deal.first_trick != 1:
            raise self.error("laid", "needs a whole game with its piles (the piles at trick 1)")
        value = data["laid"]
        if not isinstance(value, Mapping):
            raise self.error("laid", f"expected an object with forehand and dealer, got {describe(value)}")
        # A parser of its own: its cards are the piles' cards again.
        own = _PlayFileParser(self.source).seats(data, "laid")
        defender = 1 - deal.declarer
        left = TALON_SIZE - TALON_CARDS_TAKEN[deal.contract]
        for seat in SEATS:
            stray = own[seat] & ~deal.piles[seat]
            if stray:
                name = card_name(next(card for card in range(N_CARDS) if stray >> card & 1))
                raise self.error(f"laid.{seat_name(seat)}", f"{name} is not in the {seat_name(seat)}'s pile")
        if own[deal.declarer] != deal.piles[deal.declarer]:
            raise self.error(
                f"laid.{seat_name(deal.declarer)}", "the declarer's pile is all his own (the talon cards he took)"
            )
        if (deal.piles[defender] & ~own[defender]).bit_count() != left:
            raise self.error(
                f"laid.{seat_name(defender)}",
                f"leaves {(deal.piles[defender] & ~own[defender]).bit_count()} cards of the defender's pile to the"
                f" talon, but a {deal.contract} leaves him {left}",
            )
        return own

    def deal(self, data: object) -> Deal:
        if not isinstance(data, Mapping):
            raise self.error("", f"expected a JSON object (a deal), got {describe(data)}")
        self.keys("", data, KEYS, f"unknown key (a deal has {', '.join(KEYS)})")
        self.required(data, _REQUIRED)
        self.version(data)
        contract = self.choice(data, "contract", CONTRACTS, "contract")
        declarer = self.seat(data, "declarer")
        leader = self.seat(data, "leader") if "leader" in data else FOREHAND
        hands = self.seats(data, "hands")
        self.check_hands(hands)
        piles = None
        if "piles" in data:
            piles = self.seats(data, "piles")
            self.check_piles(hands, piles)
        announcements: tuple[Announcement, ...] = ()
        if "announcements" in data:
            announcements = self.announcements(data["announcements"], contract, declarer)
        deal = Deal(contract, declarer, hands, piles, leader, announcements=announcements, source=self.source)
        if "laid" in data:
            deal = replace(deal, laid=self.laid(data, deal))
        if "play" not in data:
            return deal
        play = self.play(data["play"], deal.position())
        return replace(deal, play=play)


def parse_play_file(data: object, source: str) -> Deal:
    """The deal described by ``data``, a parsed play file; ``source`` names
    the file in the messages of :class:`DealError`.

    >>> data = {"version": 1, "contract": "dreiblatt", "declarer": "dealer",
    ...         "hands": {"forehand": ["HK", "H4"], "dealer": ["HQ", "I"]},
    ...         "play": ["HK", "HQ"]}
    >>> deal = parse_play_file(data, "ending.json")
    >>> hand_names(deal.hands[1]), len(deal.play)
    (['I', 'HQ'], 2)
    >>> parse_play_file(dict(data, play=["HK", "I"]), "ending.json")
    Traceback (most recent call last):
    ...
    kosolve.model.deal.DealError: ending.json: play[1]: trick 15: I is illegal on HK: the dealer must follow suit
    """
    return _PlayFileParser(source).deal(data)


def deal_to_json(deal: Deal) -> dict[str, object]:
    """The deal file object of ``deal``, with canonical names; it reads back
    as the same deal.

    >>> from kosolve.model.cards import parse_hand
    >>> deal = Deal("solo", FOREHAND, (parse_hand(["HK", "I"]), parse_hand(["HQ", "XX"])))
    >>> deal_to_json(deal)["hands"]
    {'forehand': ['I', 'HK'], 'dealer': ['XX', 'HQ']}
    >>> parse_play_file(deal_to_json(deal), "copy") == deal
    True
    """
    data: dict[str, object] = {
        "version": FORMAT_VERSION,
        "contract": deal.contract,
        "declarer": seat_name(deal.declarer),
        "hands": seats_to_json(deal.hands),
    }
    if deal.piles is not None:
        data["piles"] = seats_to_json(deal.piles)
    if deal.laid is not None:
        data["laid"] = seats_to_json(deal.laid)
    data["leader"] = seat_name(deal.leader)
    if deal.announcements:
        data["announcements"] = [announcement_to_json(announcement) for announcement in deal.announcements]
    if deal.play:
        data["play"] = [card_name(card) for card in deal.play]
    return data


__all__ = ["FORMAT_VERSION", "KEYS", "Deal", "DealError", "deal_to_json", "parse_play_file"]
