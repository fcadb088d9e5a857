"""A deal file that gives the deal as dealt (docs/deal-files.md, "A deal as
dealt"): the key ``dealt`` in place of ``hands``, ``piles`` and ``leader``.

::

    {"version": 1,
     "dealt": {"talon": ["HQ", "CQ", "H4", "D2", "HC", "SC"],
               "forehand": {"hand": [16 cards], "personal": [8], "discards": [8 of hand]},
               "dealer": {...}},
     "contract": "zweiblatt", "declarer": "dealer",
     "exchange": {"take": ["H4", "D2"], "lay_away": ["D3", "H3"]},
     "announcements": [], "play": []}

``contract``, ``declarer`` and ``exchange`` are optional; with all three
the file has a play position (:meth:`DealtFile.play_deal`), and
:func:`kosolve.model.files.load_deal` reads it as it reads a play file.
The discards and lay-aways are judged by the discard variant of the rules
(:attr:`kosolve.model.game.Rules.discard`).  The module sits above
:mod:`kosolve.model.deal` and :mod:`kosolve.model.dealt`, and
:mod:`kosolve.model.files` above it.

>>> from kosolve.model.dealt import lay_aways
>>> hands = (mask_of(range(6, 22)), mask_of(range(22, 38)))
>>> personal = (mask_of(range(38, 46)), mask_of(range(46, 54)))
>>> discards = tuple(next(lay_aways(hand, 8)) for hand in hands)
>>> OPEN = Dealt(tuple(range(6)), hands, personal, discards)
>>> data = dealt_to_json(DealtFile(OPEN))
>>> sorted(data), parse_dealt_file(data, "open.json").dealt == OPEN
(['dealt', 'version'], True)
>>> parse_dealt_file(data, "open.json").play_deal()
Traceback (most recent call last):
...
kosolve.model.deal.DealError: open.json: contract: required key missing to play (a deal as dealt without a bid ...)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Final

from kosolve.model.announcements import Announcement, announcement_to_json
from kosolve.model.cards import Card, Hand, card_name, hand_names, mask_of
from kosolve.model.deal import FORMAT_VERSION, Deal, DealError
from kosolve.model.dealt import HAND_SIZE, PERSONAL_SIZE, Dealt, Exchange, discard_problem
from kosolve.model.game import CONTRACTS, DEFAULT_RULES, SEAT_NAMES, SEATS, TALON_SIZE, Rules, Seat, seat_name
from kosolve.model.jsonfile import FieldParser
from kosolve.model.quoting import describe
from kosolve.model.reprs import counted

DEALT_KEY: Final = "dealt"
"""The key that makes a deal file a deal as dealt."""
KEYS: Final = ("version", DEALT_KEY, "contract", "declarer", "exchange", "announcements", "play")
"""The keys of a deal as dealt, in the order :func:`dealt_to_json` writes them."""
_PLAY_KEYS: Final = ("contract", "declarer", "exchange")
"""What a deal as dealt needs for a play position."""
_POSITION_KEYS: Final = ("hands", "piles", "leader")
"""The keys of a play file that a deal as dealt derives instead."""
_DEALT_KEYS: Final = ("talon", *SEAT_NAMES)
_SEAT_KEYS: Final = ("hand", "personal", "discards", "picked_up")
_EXCHANGE_KEYS: Final = ("take", "lay_away")
_NO_BID: Final = "a deal as dealt without a bid has no play position"


@dataclass(frozen=True)
class DealtFile:
    """A deal file read as a deal as dealt: the ``dealt`` deal and what the
    file adds, each None or empty when not given."""

    dealt: Dealt
    contract: str | None = None
    declarer: Seat | None = None
    exchange: Exchange | None = None
    announcements: tuple[Announcement, ...] = ()
    play: tuple[Card, ...] = ()
    discard: str = DEFAULT_RULES.discard
    """The discard variant the file was judged by."""
    source: str = field(default="", compare=False)
    """The file's name in messages."""

    @property
    def declared(self) -> tuple[Seat, str, Exchange] | None:
        """The declarer, contract and exchange the file names, when it
        names all three: the bid whose cost the exchange table values."""
        if self.contract is None or self.declarer is None or self.exchange is None:
            return None
        return self.declarer, self.contract, self.exchange

    def play_deal(self) -> Deal:
        """The play position at trick 1 (:meth:`Dealt.play_deal`), with the
        announcements and the play; a file without a contract, declarer or
        exchange raises :class:`DealError` naming the missing key."""
        for key in _PLAY_KEYS:
            if getattr(self, key) is None:
                raise _DealtParser(self.source).error(key, f"required key missing to play ({_NO_BID})")
        assert self.contract is not None and self.declarer is not None and self.exchange is not None
        deal = self.dealt.play_deal(
            self.contract,
            self.declarer,
            self.exchange,
            announcements=self.announcements,
            play=self.play,
            variant=self.discard,
        )
        return replace(deal, source=self.source)

    def __repr__(self) -> str:
        """A summary; :func:`dealt_to_json` writes the whole deal.

        >>> from kosolve.model.files import load_dealt_file
        >>> load_dealt_file("examples/dealt.json")
        <DealtFile examples/dealt.json: dealt, zweiblatt by the dealer taking CK CC>
        >>> load_dealt_file("examples/dealt-open.json")
        <DealtFile examples/dealt-open.json: dealt, no bid>
        """
        if self.contract is None or self.declarer is None:
            bid = "no bid"
        else:
            bid = f"{self.contract} by the {seat_name(self.declarer)}"
            if self.exchange is not None:
                taken = " ".join(card_name(card) for card in self.exchange.take)
                bid += f" taking {taken}" if taken else " taking nothing"
        played = f", {counted(len(self.play), 'card')} played" if self.play else ""
        name = f" {self.source}" if self.source else ""
        return f"<DealtFile{name}: dealt, {bid}{played}>"


class _DealtParser(FieldParser):
    """The parser of a deal as dealt: its talon, seats and exchange, and a
    play file's announcements and play."""

    error_type = DealError
    format_version = FORMAT_VERSION

    def sequence(self, field: str, value: object, size: int, what: str) -> tuple[Card, ...]:
        """Exactly ``size`` distinct cards in their order, none of them seen
        in an earlier holding (as :meth:`FieldParser.holding` reads them)."""
        cards = self.distinct_cards(field, value)
        if len(cards) != size:
            raise self.error(field, f"{counted(len(cards), 'card')} ({what} {size})")
        return tuple(cards)

    def among(self, field: str, value: object, within: Hand, where: str) -> tuple[Card, ...]:
        """Distinct cards in their order, each among ``within`` (named
        ``where``): a part of cards already read, so not counted as seen."""
        cards: list[Card] = []
        for index, item in enumerate(self.card_array(field, value)):
            place = f"{field}[{index}]"
            card = self.card(place, item)
            if card in cards:
                raise self.error(place, f"{card_name(card)} is also at {field}[{cards.index(card)}]")
            if not within >> card & 1:
                raise self.error(place, f"{card_name(card)} is not among {where}")
            cards.append(card)
        return tuple(cards)

    def dealt(self, value: object, variant: str) -> Dealt:
        if not isinstance(value, Mapping):
            raise self.error(DEALT_KEY, f"expected an object with talon, forehand and dealer, got {describe(value)}")
        self.keys(DEALT_KEY, value, _DEALT_KEYS, f"unknown key (dealt has {', '.join(_DEALT_KEYS)})")
        self.required(value, _DEALT_KEYS, DEALT_KEY)
        talon = self.sequence(f"{DEALT_KEY}.talon", value["talon"], TALON_SIZE, "the talon holds")
        # Every card once in all: the sizes add up to 54 and no card is seen twice.
        seats = [self.seat_cards(f"{DEALT_KEY}.{name}", value[name]) for name in SEAT_NAMES]
        for name, seat in zip(SEAT_NAMES, seats, strict=True):
            problem = discard_problem(*seat, variant)
            if problem is not None:
                key, message = problem
                raise self.error(f"{DEALT_KEY}.{name}.{key}", message)
        forehand, dealer = seats
        personal = (forehand[1], dealer[1])
        picked = (forehand[3], dealer[3])
        return Dealt(
            talon, (forehand[0], dealer[0]), personal, (forehand[2], dealer[2]), None if picked == personal else picked
        )

    def seat_cards(self, field: str, value: object) -> tuple[Hand, Hand, Hand, Hand]:
        """A seat's hand, personal cards, discards and the personal cards he picked up."""
        if not isinstance(value, Mapping):
            raise self.error(field, f"expected an object with hand, personal and discards, got {describe(value)}")
        self.keys(field, value, _SEAT_KEYS, f"unknown key (a seat has {', '.join(_SEAT_KEYS)})")
        self.required(value, _SEAT_KEYS[:3], field)
        hand = mask_of(self.sequence(f"{field}.hand", value["hand"], HAND_SIZE, "a hand is dealt"))
        personal = mask_of(self.sequence(f"{field}.personal", value["personal"], PERSONAL_SIZE, "personal cards are"))
        # Any of his own cards here; which of them the variant lets go is
        # discard_problem's to say, with the rule.
        discards = mask_of(self.among(f"{field}.discards", value["discards"], hand | personal, "his cards"))
        picked_up = personal
        if "picked_up" in value:
            picked_up = mask_of(self.among(f"{field}.picked_up", value["picked_up"], personal, "his personal cards"))
        return hand, personal, discards, picked_up

    def exchange(self, value: object, dealt: Dealt, contract: str, declarer: Seat, variant: str) -> Exchange:
        if not isinstance(value, Mapping):
            raise self.error("exchange", f"expected an object with take and lay_away, got {describe(value)}")
        self.keys("exchange", value, _EXCHANGE_KEYS, "unknown key (an exchange has take and lay_away)")
        self.required(value, _EXCHANGE_KEYS, "exchange")
        taken = self.among("exchange.take", value["take"], mask_of(dealt.talon), "the talon cards")
        pool = dealt.held(declarer) | mask_of(taken)
        lay_away = self.among("exchange.lay_away", value["lay_away"], pool, "the declarer's cards and those taken")
        exchange = Exchange(taken, mask_of(lay_away))
        problem = dealt.exchange_problem(contract, declarer, exchange, variant)
        if problem is not None:
            key, _, message = problem.partition(": ")
            raise self.error(f"exchange.{key}", message)
        return exchange

    def dealt_file(self, data: object, rules: Rules) -> DealtFile:
        if not isinstance(data, Mapping):
            raise self.error("", f"expected a JSON object (a deal), got {describe(data)}")
        if DEALT_KEY not in data and "hands" in data:
            raise self.error(DEALT_KEY, "required key missing: this is a play file (hands, piles), not a deal as dealt")
        for key in _POSITION_KEYS:
            if key in data:
                raise self.error(key, "not beside dealt (a deal as dealt derives hands, piles and leader)")
        self.keys("", data, KEYS, f"unknown key (a deal as dealt has {', '.join(KEYS)})")
        self.version(data)
        if DEALT_KEY not in data:
            raise self.error(DEALT_KEY, "required key missing")
        dealt = self.dealt(data[DEALT_KEY], rules.discard)
        contract = self.choice(data, "contract", CONTRACTS, "contract") if "contract" in data else None
        declarer = self.seat(data, "declarer") if "declarer" in data else None
        for key in ("exchange", "announcements"):
            if key in data and (contract is None or declarer is None):
                missing = "contract" if contract is None else "declarer"
                raise self.error(key, f"needs contract and declarer ({missing} missing)")
        exchange = None
        if "exchange" in data:
            assert contract is not None and declarer is not None
            exchange = self.exchange(data["exchange"], dealt, contract, declarer, rules.discard)
        announcements: tuple[Announcement, ...] = ()
        if "announcements" in data:
            assert contract is not None and declarer is not None
            announcements = self.announcements(data["announcements"], contract, declarer)
        file = DealtFile(dealt, contract, declarer, exchange, announcements, (), rules.discard, self.source)
        if "play" not in data:
            return file
        if exchange is None:
            raise self.error("play", "needs the exchange (the hands at trick 1 follow from it)")
        deal = file.play_deal()
        play = self.play(data["play"], deal.position())
        return DealtFile(dealt, contract, declarer, exchange, announcements, play, rules.discard, self.source)


def parse_dealt_file(data: object, source: str, *, rules: Rules = DEFAULT_RULES) -> DealtFile:
    """The deal as dealt described by ``data``, a parsed deal file, its
    discards and exchange judged by the discard variant of ``rules``;
    ``source`` names the file in the messages of :class:`DealError`."""
    return _DealtParser(source).dealt_file(data, rules)


def dealt_to_json(file: DealtFile) -> dict[str, object]:
    """The deal file object of ``file``, with canonical names; it reads back
    as the same deal as dealt (under the same discard variant).

    >>> from kosolve.model.dealt import lay_aways
    >>> hands = (mask_of(range(6, 22)), mask_of(range(22, 38)))
    >>> personal = (mask_of(range(38, 46)), mask_of(range(46, 54)))
    >>> discards = tuple(next(lay_aways(hand, 8)) for hand in hands)
    >>> file = DealtFile(Dealt(tuple(range(6)), hands, personal, discards), "solo", 0, Exchange((), 0))
    >>> parse_dealt_file(dealt_to_json(file), "copy") == file
    True
    """
    dealt = file.dealt
    seats: dict[str, object] = {}
    for seat in SEATS:
        cards: dict[str, object] = {
            "hand": hand_names(dealt.hands[seat]),
            "personal": hand_names(dealt.personal[seat]),
            "discards": hand_names(dealt.discards[seat]),
        }
        if dealt.picked(seat) != dealt.personal[seat]:
            cards["picked_up"] = hand_names(dealt.picked(seat))
        seats[seat_name(seat)] = cards
    data: dict[str, object] = {
        "version": FORMAT_VERSION,
        DEALT_KEY: {"talon": [card_name(card) for card in dealt.talon], **seats},
    }
    if file.contract is not None:
        data["contract"] = file.contract
    if file.declarer is not None:
        data["declarer"] = seat_name(file.declarer)
    if file.exchange is not None:
        data["exchange"] = {
            "take": [card_name(card) for card in file.exchange.take],
            "lay_away": hand_names(file.exchange.lay_away),
        }
    if file.announcements:
        data["announcements"] = [announcement_to_json(announcement) for announcement in file.announcements]
    if file.play:
        data["play"] = [card_name(card) for card in file.play]
    return data


__all__ = ["DEALT_KEY", "KEYS", "DealtFile", "dealt_to_json", "parse_dealt_file"]
