"""What one player knows: the seat view (format version 1, docs/views.md).

At the table nobody sees the other hand.  A seat view holds what the
player in one seat (the ``view``) knows: his own 16 cards at trick 1 and
his pile, the cards he saw go to the other (talon cards, tarocks laid away
face up), the announcements and the play so far::

    {"version": 1, "view": "forehand", "contract": "dreiblatt",
     "declarer": "dealer", "leader": "forehand",
     "hand": [16 cards], "pile": [his pile],
     "other": {"pile": [seen in the other's pile], "holds": [seen to be his]},
     "announcements": [], "play": ["XIV", ...]}

In a Solo nobody sees the talon: its six cards go face down to the
defender's pile (docs/rules.md §3.5).  A Solo view then says
``"talon_unseen": 6`` (after ``pile``): the defender's ``pile`` lists only
his 8 discards, and the declarer's ``other.pile`` only the defender's
tarocks laid away face up.  A view without the key saw everything it lists
(an older Solo file that lists the talon means what it says).

Before the auction a view has no ``contract`` and ``declarer`` (nor
announcements or play): ``hand`` is his 16 cards after picking up the
personal cards and ``pile`` his 8 discards.

Errors name the file and the field in one line, as a deal file's do:

>>> parse_view({"version": 1, "view": "forehand", "hand": ["HK"], "pile": []}, "view.json")
Traceback (most recent call last):
...
kosolve.model.view.ViewError: view.json: hand: 1 card (a seat view holds the 16 cards at trick 1)

Which worlds a view allows is :mod:`kosolve.sampling`'s business: this
module reads, checks and writes the view, and makes one from a deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Final

from kosolve.model.announcements import Announcement, announcement_to_json
from kosolve.model.cards import (
    ALL_CARDS,
    KINGS,
    SUIT_MASKS,
    SUIT_NAMES,
    TAROCK,
    Card,
    Hand,
    card_name,
    cards_of,
    hand_names,
    mask_of,
    suit_of,
)
from kosolve.model.deal import Deal
from kosolve.model.dealt import DISCARD_SIZE, HAND_SIZE, Dealt
from kosolve.model.game import (
    CONTRACTS,
    FOREHAND,
    TALON_CARDS_TAKEN,
    TALON_SIZE,
    TRICKS_PER_GAME,
    OptionError,
    Seat,
    SeatLike,
    Trick,
    as_seat,
    legal_replies,
    seat_name,
    trick_number_of,
    tricks_of,
)
from kosolve.model.jsonfile import FieldParser, FileError
from kosolve.model.quoting import describe
from kosolve.model.reprs import counted, readable_repr

FORMAT_VERSION: Final = 1
"""The seat view format this module reads and writes."""

KEYS: Final = (
    "version", "view", "contract", "declarer", "leader", "hand", "pile", "talon_unseen", "other", "announcements",
    "play",
)  # fmt: skip
"""The keys of a seat view, in the order :func:`view_to_json` writes them."""
OTHER_KEYS: Final = ("pile", "holds")
_REQUIRED: Final = ("version", "view", "hand", "pile")
_AFTER_AUCTION: Final = ("declarer", "announcements", "play")
"""Keys only a view with a contract may have."""
TALON_UNSEEN: Final = (0, TALON_SIZE)
"""The values ``talon_unseen`` may take: the talon is seen whole or not at
all (in a Solo nobody sees it, docs/rules.md §3.5)."""
TAROCKS: Final[Hand] = SUIT_MASKS[TAROCK]
SEEN_IN_PILES: Final[Hand] = TAROCKS | KINGS
"""Cards that never lie face down among a player's discards: kings and
trull cards are never laid away and a tarock laid away is shown
(docs/rules.md §3.3), so such a card in a pile is a talon card or a face-up
tarock, seen by both; except in a Solo, whose talon cards lie face down in
the defender's pile, unseen (:attr:`SeatView.talon_unseen`)."""
FACE_DOWN: Final[Hand] = ALL_CARDS & ~SEEN_IN_PILES
"""The cards that may lie face down among a player's discards: plain suit
cards, no kings.  (A Solo's face-down talon cards may be any cards.)"""
PACK_PILES: Final = 2 * DISCARD_SIZE + TALON_SIZE
"""The cards in the two piles together at trick 1: 22."""


class ViewError(FileError):
    """A seat view that cannot be read or breaks the format; the message is
    one line naming the file and the field."""


def pile_size(contract: str, declarer: bool) -> int:
    """The cards of a pile at trick 1 (docs/rules.md §3.6): 8 and the talon
    cards the declarer took, or 8 and those left to the defender.

    >>> pile_size("dreiblatt", True), pile_size("einblatt", False), pile_size("solo", False)
    (11, 13, 14)
    """
    taken = TALON_CARDS_TAKEN[contract]
    return DISCARD_SIZE + (taken if declarer else TALON_SIZE - taken)


@dataclass(frozen=True)
class Played:
    """One card of a view's play: who played it, and the card it answered
    (None when it led)."""

    seat: Seat
    card: Card
    led: Card | None

    def __repr__(self) -> str:
        return readable_repr(self, cards=("card", "led"))


@dataclass(frozen=True)
class SeatView:
    """What the player in seat ``view`` knows (see the module text).

    >>> from kosolve.model.files import load_view
    >>> view = load_view("examples/views/trick4.json")
    >>> view.before_auction, seat_name(view.view), seat_name(view.to_move)
    (False, 'forehand', 'forehand')
    """

    view: Seat
    hand: Hand
    """His 16 cards at trick 1 (before the auction: after the pick-up)."""
    pile: Hand
    """His pile: his discards and the lay-away or the talon cards left to him."""
    other_pile: Hand = 0
    """Cards seen to lie in the other's pile."""
    other_holds: Hand = 0
    """Cards seen to be the other's, in hand or pile (talon cards the declarer took)."""
    contract: str | None = None
    """None before the auction."""
    declarer: Seat | None = None
    leader: Seat = FOREHAND
    announcements: tuple[Announcement, ...] = ()
    play: tuple[Card, ...] = ()
    talon_unseen: int = 0
    """How many talon cards the viewer has not seen: 6 in a Solo (nobody
    sees its talon, which goes face down to the defender's pile), else 0.
    They lie in the defender's pile at trick 1: for the declarer they are
    unseen cards of the other's pile (``other_pile`` lists only the
    defender's face-up tarocks), for the defender unseen cards of his own
    pile (``pile`` lists only the cards he laid there, his discards)."""
    source: str = field(default="", compare=False)
    """The name of the file it was read from, for headings and messages
    (as :attr:`kosolve.model.deal.Deal.source`); empty for a view made."""

    def __repr__(self) -> str:
        """A summary; :func:`view_to_json` writes the whole view.

        >>> from kosolve.model.files import load_view
        >>> load_view("examples/views/auction.json")
        <SeatView examples/views/auction.json: the forehand's view before the auction>
        """
        name = f" {self.source}" if self.source else ""
        if self.contract is None or self.declarer is None:
            return f"<SeatView{name}: the {seat_name(self.view)}'s view before the auction>"
        played = f"{counted(len(self.play), 'card')} played"
        bid = f"{self.contract} by the {seat_name(self.declarer)}"
        talon = f", {counted(self.talon_unseen, 'talon card')} unseen" if self.talon_unseen else ""
        return f"<SeatView{name}: the {seat_name(self.view)}'s view, {bid}{talon}, {played}>"

    @property
    def other(self) -> Seat:
        return 1 - self.view

    @property
    def before_auction(self) -> bool:
        return self.contract is None

    @property
    def talon_with_other(self) -> bool:
        """Whether the unseen talon cards (:attr:`talon_unseen`) lie in the
        other's pile: the viewer is the declarer.  Otherwise they lie in
        the viewer's own pile."""
        return self.talon_unseen > 0 and self.declarer == self.view

    @property
    def own_pile_size(self) -> int:
        """How many cards this player's pile holds at trick 1: ``pile`` and
        the unseen talon cards in it, when he is a Solo's defender."""
        return self.pile.bit_count() + (0 if self.talon_with_other else self.talon_unseen)

    @property
    def other_pile_size(self) -> int:
        """How many cards the other's pile holds at trick 1: the piles'
        22 less this player's (:attr:`own_pile_size`), unseen talon cards
        included; before the auction his 8 discards."""
        return DISCARD_SIZE if self.before_auction else PACK_PILES - self.own_pile_size

    @property
    def other_discards(self) -> int:
        """How many cards of the other's pile at trick 1 he laid there
        himself, or did as far as the view knows: his pile less the
        unseen talon cards in it."""
        return self.other_pile_size - (self.talon_unseen if self.talon_with_other else 0)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The play trick by trick (from trick 1), the one on the table last."""
        return tricks_of(self.play, self.leader)

    def played(self) -> tuple[Played, ...]:
        """The play card by card, with who played each and what it answered."""
        return tuple(
            Played(seat, card, None if index == 0 else trick.cards[0])
            for trick in self.tricks
            for index, (seat, card) in enumerate(trick.played())
        )

    def played_by(self, seat: Seat) -> Hand:
        """The cards ``seat`` has played."""
        return mask_of(p.card for p in self.played() if p.seat == seat)

    @property
    def to_move(self) -> Seat | None:
        """The seat to play next; None when the hand is over, and before the
        auction."""
        if self.before_auction or len(self.play) == 2 * TRICKS_PER_GAME:
            return None
        tricks = self.tricks
        if not tricks:
            return self.leader
        last = tricks[-1]
        return 1 - last.leader if last.winner is None else last.winner


class _ViewParser(FieldParser):
    """The parser of a seat view: cards, seats, the announcements and their
    messages are read as a deal file's."""

    error_type = ViewError
    format_version = FORMAT_VERSION

    def view(self, data: object) -> SeatView:
        if not isinstance(data, Mapping):
            raise self.error("", f"expected a JSON object (a seat view), got {describe(data)}")
        self.keys("", data, KEYS, f"unknown key (a seat view has {', '.join(KEYS)})")
        self.required(data, _REQUIRED)
        self.version(data)
        view = self.seat(data, "view")
        contract = self.choice(data, "contract", CONTRACTS, "contract") if "contract" in data else None
        declarer = None
        if contract is None:
            for key in _AFTER_AUCTION:
                if key in data:
                    raise self.error(
                        key, "a view before the auction (no contract) has no declarer, announcements or play"
                    )
        elif "declarer" not in data:
            raise self.error("declarer", "required key missing (a view with a contract names the declarer)")
        else:
            declarer = self.seat(data, "declarer")
        leader = self.seat(data, "leader") if "leader" in data else FOREHAND
        hand = self.holding("hand", data["hand"])
        if hand.bit_count() != HAND_SIZE:
            raise self.error(
                "hand", f"{counted(hand.bit_count(), 'card')} (a seat view holds the {HAND_SIZE} cards at trick 1)"
            )
        pile = self.holding("pile", data["pile"])
        talon = self.talon_unseen(data, contract)
        if contract is None:
            wanted, role = DISCARD_SIZE, "before the auction"
        else:
            wanted = pile_size(contract, declarer == view) - (0 if declarer == view else talon)
            role = f"of the {'declarer' if declarer == view else 'defender'} in a {contract}"
            if talon:
                role += " (less the talon cards unseen)" if declarer != view else " (the talon unseen)"
        if pile.bit_count() != wanted:
            raise self.error("pile", f"{counted(pile.bit_count(), 'card')} (the pile {role} holds {wanted})")
        other_pile, other_holds = self.other(data.get("other", {}), contract is None)
        if talon:
            self.talon_hidden(other_pile, other_holds)
        announcements: tuple[Announcement, ...] = ()
        if contract is not None and declarer is not None and "announcements" in data:
            announcements = self.announcements(data["announcements"], contract, declarer)
        known = SeatView(
            view,
            hand,
            pile,
            other_pile,
            other_holds,
            contract,
            declarer,
            leader,
            announcements,
            talon_unseen=talon,
            source=self.source,
        )
        if "play" not in data:
            return known
        return replace(known, play=self.view_play(data["play"], known))

    def talon_unseen(self, data: Mapping[str, object], contract: str | None) -> int:
        """The ``talon_unseen`` key: 0 or 6, and 6 only in a Solo."""
        if "talon_unseen" not in data:
            return 0
        value = data["talon_unseen"]
        if type(value) is not int:
            raise self.error("talon_unseen", f"expected the number 0 or {TALON_SIZE}, got {describe(value)}")
        if value not in TALON_UNSEEN:
            raise self.error(
                "talon_unseen", f"{value} (the talon is seen whole or not at all: 0 or {TALON_SIZE} cards unseen)"
            )
        if value and contract != "solo":
            which = "before the auction" if contract is None else f"in a {contract}"
            raise self.error(
                "talon_unseen", f"{value} talon cards unseen {which} (only a solo hides the talon after the auction)"
            )
        return value

    def talon_hidden(self, other_pile: Hand, other_holds: Hand) -> None:
        """With the talon unseen the other's cards seen are only his tarocks
        laid away face up."""
        if other_pile & ~TAROCKS:
            card = card_name(next(cards_of(other_pile & ~TAROCKS)))
            raise self.error(
                "other.pile",
                f"{card}: with the talon unseen only tarocks laid away face up are seen in the other's pile",
            )
        if other_holds:
            card = card_name(next(cards_of(other_holds)))
            raise self.error("other.holds", f"{card}: in a solo no card is seen to be the other's (he took no talon)")

    def other(self, value: object, before_auction: bool) -> tuple[Hand, Hand]:
        if not isinstance(value, Mapping):
            raise self.error("other", f"expected an object with pile and holds, got {describe(value)}")
        self.keys("other", value, OTHER_KEYS, "unknown key (other has pile and holds)")
        pile = self.holding("other.pile", value.get("pile", []))
        holds = self.holding("other.holds", value.get("holds", []))
        if before_auction and pile & ~TAROCKS:
            card = card_name(next(cards_of(pile & ~TAROCKS)))
            raise self.error("other.pile", f"{card}: before the auction only tarocks laid away face up are seen")
        if before_auction and holds:
            raise self.error("other.holds", "before the auction no card of the other's is seen")
        return pile, holds

    def view_play(self, value: object, known: SeatView) -> tuple[Card, ...]:
        items = self.card_array("play", value)
        if len(items) > 2 * TRICKS_PER_GAME:
            raise self.error("play", f"{counted(len(items), 'card')} played, but a game has {2 * TRICKS_PER_GAME}")
        cards = tuple(self.card(f"play[{index}]", item) for index, item in enumerate(items))
        problem = play_problem(replace(known, play=cards))
        if problem is not None:
            index, message = problem
            raise self.error(f"play[{index}]: trick {trick_number_of(index)}", message)
        return cards


def play_problem(view: SeatView) -> tuple[int, str] | None:
    """The first card of ``view``'s play that no deal consistent with the
    rest of the view could have seen played, as its index in the play and
    what is wrong; None when there is none.

    Besides the cards themselves (each once, the viewer's own from his hand
    and legal, the other's not where the viewer holds or saw them), the
    play reveals the other's hand: a suit he showed out of (or, not
    trumping, the tarocks) he holds no more, so he cannot play it later;
    and the unseen kings, trull cards and tarocks not seen in his pile are
    surely in his hand (none lies face down among his discards,
    :data:`SEEN_IN_PILES`), so he cannot show out of their suit while one of
    them is left.  With talon cards unseen (a Solo) no unseen card is surely
    his: any may lie face down in the talon part of the defender's pile;
    whether the talon can take all that must lie there is the sampler's
    question (:func:`kosolve.sampling.worlds.world_space`).

    >>> from kosolve.model.cards import parse_card
    >>> from kosolve.model.files import load_view
    >>> view = load_view("examples/views/trick4.json")
    >>> play_problem(view) is None
    True
    >>> play_problem(replace(view, play=view.play[:4] + (parse_card("SQ"),)))
    (4, 'SQ is played by the dealer, who showed out of spades at trick 2')
    """
    unseen = ALL_CARDS & ~(view.hand | view.pile)
    played_by_other = mask_of(p.card for p in view.played() if p.seat == view.other)
    # His for sure and never played: the cards he must still hold at the end.
    kept = 0 if view.talon_unseen else unseen & ~view.other_pile & ~FACE_DOWN & ~played_by_other
    remaining = view.hand
    where: dict[Card, int] = {}
    voids: dict[int, int] = {}  # each suit the other showed out of, and the trick that showed it
    lies = ((view.pile, "in the viewer's pile"), (view.other_pile, "in the other's pile"))
    for index, played in enumerate(view.played()):
        card = played.card
        trick = trick_number_of(index)
        mover = seat_name(played.seat)
        if card in where:
            return index, f"{card_name(card)} was already played at play[{where[card]}]"
        where[card] = index
        if played.seat == view.view:
            if not remaining >> card & 1:
                return index, f"{card_name(card)} is not in the {mover}'s hand (the viewer's)"
            if played.led is not None and not legal_replies(remaining, played.led) >> card & 1:
                return index, (
                    f"{card_name(card)} is illegal on {card_name(played.led)}:"
                    f" the {mover} must follow suit, else play a tarock"
                )
            remaining &= ~(1 << card)
            continue
        if view.hand >> card & 1:
            return index, f"{card_name(card)} is played by the {mover} but is in the viewer's hand"
        for mask, what in lies:
            if mask >> card & 1:
                return index, f"{card_name(card)} is played by the {mover} but lies {what}"
        suit = suit_of(card)
        if suit in voids:
            shown_out = f"showed out of {SUIT_NAMES[suit]} at trick {voids[suit]}"
            return index, f"{card_name(card)} is played by the {mover}, who {shown_out}"
        if played.led is None or suit == suit_of(played.led):
            continue
        led = suit_of(played.led)
        shown = (led,) if TAROCK in (suit, led) else (led, TAROCK)
        for void in shown:
            voids.setdefault(void, trick)
            held = kept & SUIT_MASKS[void]
            if held:
                duty = "follow suit" if void == led else "play a tarock"
                return index, (
                    f"{card_name(card)} is illegal on {card_name(played.led)}: the {mover} holds"
                    f" {card_name(next(cards_of(held)))} (no king, trull card or tarock lies face down"
                    f" in a pile) and must {duty}"
                )
    return None


def parse_view(data: object, source: str) -> SeatView:
    """The seat view described by ``data``, a parsed view file; ``source``
    names the file in the messages of :class:`ViewError`."""
    return _ViewParser(source).view(data)


def view_to_json(view: SeatView) -> dict[str, object]:
    """The view file object of ``view``, with canonical names; it reads back
    as the same view.

    >>> from kosolve.model.files import load_view
    >>> view = load_view("examples/views/trick4.json")
    >>> parse_view(view_to_json(view), "copy") == view
    True
    """
    data: dict[str, object] = {"version": FORMAT_VERSION, "view": seat_name(view.view)}
    if view.contract is not None and view.declarer is not None:
        data["contract"] = view.contract
        data["declarer"] = seat_name(view.declarer)
    data["leader"] = seat_name(view.leader)
    data["hand"] = hand_names(view.hand)
    data["pile"] = hand_names(view.pile)
    if view.talon_unseen:
        data["talon_unseen"] = view.talon_unseen
    data["other"] = {"pile": hand_names(view.other_pile), "holds": hand_names(view.other_holds)}
    if view.contract is not None:
        data["announcements"] = [announcement_to_json(a) for a in view.announcements]
        data["play"] = [card_name(card) for card in view.play]
    return data


class SeatViewError(OptionError):
    """A deal that gives no seat view: an ending, a deal without piles, a
    position (``at``) beyond its play."""


def view_of(deal: Deal, seat: SeatLike, at: int | None = None, *, taken: Hand | None = None) -> SeatView:
    """The view the player in ``seat`` had after the first ``at`` cards of
    ``deal``'s play (all of it by default).  Kings, trull cards and tarocks
    in the other's pile are seen (:data:`SEEN_IN_PILES`); when the deal
    knows its discards (a deal as dealt) the talon cards left to the
    defender are seen too, and ``taken``, the talon cards the declarer
    took, are seen by the defender to be the declarer's.

    In a Solo nobody sees the talon (:attr:`SeatView.talon_unseen` is 6):
    the declarer sees of the defender's pile only the tarocks he laid away
    face up (from ``laid``; with no ``laid``, nothing), and the defender
    sees of his own pile only his discards.  A Solo deal without ``laid``
    cannot tell the defender's discards from the talon: the defender's view
    then lists his whole pile, as seen (``talon_unseen`` 0), and so does the
    declarer's when the defender's pile holds more kings, trull cards and
    tarocks than the six talon cards could (some were laid away face up,
    but which is unknown).

    >>> from kosolve.model.files import load_deal
    >>> view = view_of(load_deal("examples/whole-deal.json"), FOREHAND, at=0)
    >>> view.hand.bit_count(), view.other_pile_size
    (16, 11)
    """
    seat = as_seat(seat)
    if deal.first_trick != 1:
        raise SeatViewError(f"the deal starts at trick {deal.first_trick}; a seat view starts at trick 1")
    if deal.piles is None:
        raise SeatViewError("the deal has no piles; a seat view needs the player's pile")
    if at is not None and at > len(deal.play):
        raise SeatViewError(f"{at} is beyond the play, which has {counted(len(deal.play), 'card')}", "at", given=True)
    other = 1 - seat
    pile = deal.piles[seat]
    other_pile = deal.piles[other] & SEEN_IN_PILES
    holds = 0
    talon = 0
    solo = TALON_CARDS_TAKEN[deal.contract] == 0
    if solo and seat == deal.declarer:
        if deal.laid is not None:
            talon, other_pile = TALON_SIZE, deal.piles[other] & deal.laid[other] & TAROCKS
        elif other_pile.bit_count() <= TALON_SIZE:
            talon, other_pile = TALON_SIZE, 0
    elif solo and deal.laid is not None:
        talon, pile = TALON_SIZE, deal.laid[seat]
    else:
        if seat == deal.declarer and deal.laid is not None:
            other_pile |= deal.piles[other] & ~deal.laid[other]
        if seat != deal.declarer and taken is not None:
            holds = taken & ~other_pile
    return SeatView(
        seat,
        deal.hands[seat],
        pile,
        other_pile,
        holds,
        deal.contract,
        deal.declarer,
        deal.leader,
        deal.announcements,
        deal.play[:at],
        talon,
    )


def auction_view(dealt: Dealt, seat: SeatLike) -> SeatView:
    """The view the player in ``seat`` had before the auction: his 16 cards
    after the pick-up, his 8 discards, the other's tarocks laid away face
    up (the classic discard, docs/rules.md §3.3)."""
    seat = as_seat(seat)
    if dealt.laid(seat).bit_count() != DISCARD_SIZE:
        raise SeatViewError(
            f"the {seat_name(seat)} laid away {counted(dealt.laid(seat).bit_count(), 'card')};"
            f" a view before the auction needs the classic discard of {DISCARD_SIZE}"
        )
    return SeatView(seat, dealt.held(seat), dealt.laid(seat), dealt.laid(1 - seat) & TAROCKS)


__all__ = [
    "FACE_DOWN",
    "FORMAT_VERSION",
    "KEYS",
    "SEEN_IN_PILES",
    "TALON_UNSEEN",
    "Played",
    "SeatView",
    "SeatViewError",
    "ViewError",
    "auction_view",
    "parse_view",
    "pile_size",
    "play_problem",
    "view_of",
    "view_to_json",
]
