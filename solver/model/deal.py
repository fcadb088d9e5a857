"""A deal: the contract, who declares, both hands, the piles and the play so
far, as read from a deal file (format version 1).

A deal file is a JSON object::

    {"version": 1, "contract": "dreiblatt", "declarer": "forehand",
     "hands": {"forehand": ["Sk", "XXI", ...], "dealer": ["HK", ...]},
     "piles": {"forehand": [...], "dealer": [...]},
     "leader": "forehand",
     "announcements": [{"by": "forehand", "what": "pagat", "when": "before"}],
     "play": ["XIV", "XX", ...]}

``piles``, ``leader`` (default forehand), ``announcements`` and ``play``
are optional.  An announcement names its seat, what is announced (see
:data:`kosolve.model.announcements.ANNOUNCEMENTS`) and ``when`` (before or after the
talon is exposed; a Solo has no ``when``), and may carry ``"kontra": true``.
The file is checked against the rules that hold whatever the rule options
(a declarer's goal announced by the defender, a timing missing, the same
announcement twice); a defender's bird or Valat and a Kontra depend on rule
options and are judged when the hand is settled (:func:`kosolve.analysis.scoring.settle`).

Every error names the file and the field in one line:

>>> deal = parse_deal({"version": 1, "contract": "solo", "declarer": "forehand",
...                    "hands": {"forehand": ["HK"], "dealer": ["HQ"]}}, "deal.json")
>>> deal.position().declarer_thirds()
0
>>> parse_deal({"version": 1, "contract": "solo", "declarer": "forehand",
...             "hands": {"forehand": ["HK"], "dealer": ["H10"]}}, "deal.json")
Traceback (most recent call last):
...
kosolve.model.deal.DealError: deal.json: hands.dealer[0]: unknown card 'H10' (did you mean H1?)
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import IO, Final

from kosolve.model.announcements import ANNOUNCEMENTS, TIMINGS, Announcement, announcement_problems
from kosolve.model.cards import ALL_CARDS, N_CARDS, Card, CardError, Hand, card_name, hand_names, mask_of, parse_card
from kosolve.model.game import (
    CONTRACTS,
    DEFAULT_RULES,
    FOREHAND,
    SEAT_NAMES,
    SEATS,
    TRICKS_PER_GAME,
    IllegalMoveError,
    Position,
    Rules,
    Seat,
    seat_name,
)
from kosolve.model.quoting import describe, member, quote, source_name
from kosolve.model.reprs import readable_repr

FORMAT_VERSION: Final = 1
"""The deal file format this module reads and writes."""

KEYS: Final = ("version", "contract", "declarer", "hands", "piles", "leader", "announcements", "play")
"""The keys of a deal file, in the order :func:`deal_to_json` writes them."""
_REQUIRED: Final = ("version", "contract", "declarer", "hands")
DEALT_KEY: Final = "dealt"
"""The key that makes a deal file a deal as dealt (:mod:`kosolve.model.dealt_file`)."""
_ANNOUNCEMENT_KEYS: Final = ("by", "what", "when", "kontra")
_FUTURE_VERSIONS: Final = 1000
"""Versions below this may be a later format, the others are no version."""
MAX_FILE_BYTES: Final = 64 << 20
"""The largest deal file read (a real one is a few KB): reading stops
there, so that a device or a runaway pipe given as the file is refused
rather than exhausting memory."""
_MAX_DIGITS: Final = 40
"""The longest number a deal file may hold: no field needs more, and
Python refuses to read integers past 4300 digits anyway."""


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
    own_discards: tuple[Hand, Hand] | None = None
    """The cards of each seat's pile that were his own before play (his
    discards, and the declarer's lay-away), when the deal is known as dealt
    (:mod:`kosolve.model.dealt`); a play file's piles cannot tell them from
    the talon cards left to the defender."""

    def __repr__(self) -> str:
        return readable_repr(self, cards=("play",), hands=("hands", "piles", "own_discards"))

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

    @property
    def first_trick(self) -> int:
        """The number (1 to 16) of the first trick of these hands: a whole
        game starts at trick 1, an ending of four cards each at trick 13.

        >>> from kosolve.model.cards import parse_hand
        >>> Deal("solo", FOREHAND, (parse_hand(["HK", "H4"]), parse_hand(["HQ", "I"]))).first_trick
        15
        """
        return TRICKS_PER_GAME + 1 - self.hands[FOREHAND].bit_count()


class DealError(ValueError):
    """A deal file that cannot be read or breaks the format or the rules;
    the message is one line naming the file and the field."""


class _Members(dict[str, object]):
    """A JSON object as read from a file, remembering its first key given
    twice (a dict keeps only the last value), so that the parser can name
    the object's field."""

    twice: str | None = None


def _members(pairs: list[tuple[str, object]]) -> _Members:
    members = _Members(pairs)
    if len(members) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                members.twice = key
                break
            seen.add(key)
    return members


class _Parser:
    """Parses one deal object; holds the source name for the messages and
    where each card was first seen, to name both places of a card given
    twice."""

    def __init__(self, source: str) -> None:
        self.source = source_name(source)
        self.seen: dict[Card, str] = {}

    def error(self, field: str, message: str) -> DealError:
        """The error at ``field`` (the deal itself when empty)."""
        return DealError(f"{self.source}: {field}: {message}" if field else f"{self.source}: {message}")

    def keys(self, field: str, value: Mapping[str, object], allowed: tuple[str, ...], message: str) -> None:
        """Refuse a key of the object at ``field`` given twice, not a string,
        or not ``allowed`` (saying ``message``)."""
        if isinstance(value, _Members) and value.twice is not None:
            raise self.error(member(field, value.twice), "key given twice")
        for key in value:
            if not isinstance(key, str):
                raise self.error(field, f"a key is {describe(key)}, not a string")
            if key not in allowed:
                raise self.error(member(field, key), message)

    def choice(self, data: Mapping[str, object], key: str, choices: tuple[str, ...], what: str) -> str:
        return self.word(key, data[key], choices, what)

    def word(self, field: str, value: object, choices: tuple[str, ...], what: str) -> str:
        if not isinstance(value, str):
            raise self.error(field, f"expected a string, got {describe(value)}")
        # Letter case is the one leeway, and only in ASCII: str.lower() would
        # also fold look-alikes such as the Kelvin sign into plain letters.
        name = value.lower() if value.isascii() else value
        if name not in choices:
            expected = ", ".join(choices[:-1]) + " or " + choices[-1]
            raise self.error(field, f"unknown {what} {quote(value)} (expected {expected})")
        return name

    def card(self, field: str, value: object) -> Card:
        if not isinstance(value, str):
            raise self.error(field, f"expected a card name, got {describe(value)}")
        try:
            return parse_card(value)
        except CardError as error:
            raise self.error(field, str(error)) from None

    def card_array(self, field: str, value: object) -> list[object]:
        """The array of card names at ``field``, its names not yet read."""
        if not isinstance(value, list):
            raise self.error(field, f"expected an array of card names, got {describe(value)}")
        return value

    def distinct_cards(self, field: str, value: object) -> list[Card]:
        """A list of cards in its order, none of them seen in an earlier holding."""
        cards = []
        # Card by card, so that a file of millions of names stops at the
        # first one given twice.
        for index, item in enumerate(self.card_array(field, value)):
            place = f"{field}[{index}]"
            card = self.card(place, item)
            if card in self.seen:
                raise self.error(place, f"{card_name(card)} is also at {self.seen[card]}")
            self.seen[card] = place
            cards.append(card)
        return cards

    def holding(self, field: str, value: object) -> Hand:
        """A list of distinct cards, none of them seen in an earlier holding."""
        return mask_of(self.distinct_cards(field, value))

    def seats(self, data: Mapping[str, object], key: str) -> tuple[Hand, Hand]:
        value = data[key]
        if not isinstance(value, Mapping):
            raise self.error(key, f"expected an object with forehand and dealer, got {describe(value)}")
        self.keys(key, value, SEAT_NAMES, "unknown seat (expected forehand and dealer)")
        for name in SEAT_NAMES:
            if name not in value:
                raise self.error(key, f"{name} missing (give both forehand and dealer)")
        forehand, dealer = (self.holding(f"{key}.{name}", value[name]) for name in SEAT_NAMES)
        return forehand, dealer

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

    def announcement(self, field: str, value: object) -> Announcement:
        if not isinstance(value, Mapping):
            raise self.error(field, f"expected an object with by, what and when, got {describe(value)}")
        has = ", ".join(_ANNOUNCEMENT_KEYS)
        self.keys(field, value, _ANNOUNCEMENT_KEYS, f"unknown key (an announcement has {has})")
        for key in ("by", "what"):
            if key not in value:
                raise self.error(f"{field}.{key}", "required key missing")
        by = SEAT_NAMES.index(self.word(f"{field}.by", value["by"], SEAT_NAMES, "seat"))
        what = self.word(f"{field}.what", value["what"], ANNOUNCEMENTS, "announcement")
        when = self.word(f"{field}.when", value["when"], TIMINGS, "timing") if "when" in value else None
        kontra = value.get("kontra", False)
        if not isinstance(kontra, bool):
            raise self.error(f"{field}.kontra", f"expected true or false, got {describe(kontra)}")
        return Announcement(by, what, when, kontra)

    def announcements(self, value: object, contract: str, declarer: Seat) -> tuple[Announcement, ...]:
        if not isinstance(value, list):
            raise self.error("announcements", f"expected an array of announcements, got {describe(value)}")
        announcements = [self.announcement(f"announcements[{index}]", item) for index, item in enumerate(value)]
        problems = announcement_problems(announcements, contract, declarer)
        if problems:
            index, key, message = problems[0]
            raise self.error(f"announcements[{index}].{key}", message)
        return tuple(announcements)

    def play(self, value: object, position: Position, first_trick: int) -> tuple[Card, ...]:
        items = self.card_array("play", value)
        room = position.hands[0].bit_count() + position.hands[1].bit_count()
        if len(items) > room:
            raise self.error("play", f"{len(items)} cards played, but the hands hold only {room}")
        cards = [self.card(f"play[{index}]", item) for index, item in enumerate(items)]
        played: dict[Card, int] = {}
        for index, card in enumerate(cards):
            field = f"play[{index}]: trick {first_trick + index // 2}"
            if card in played:
                raise self.error(field, f"{card_name(card)} was already played at play[{played[card]}]")
            try:
                position.push(card)
            except IllegalMoveError as error:
                raise self.error(field, str(error)) from None
            played[card] = index
        return tuple(cards)

    def version(self, data: Mapping[str, object]) -> None:
        if "version" not in data:
            raise self.error("version", "required key missing")
        version = data["version"]
        if type(version) is int and 0 <= version < _FUTURE_VERSIONS and version != FORMAT_VERSION:
            raise self.error("version", f"unsupported version {version} (this kosolve reads version {FORMAT_VERSION})")
        if type(version) is not int or version != FORMAT_VERSION:
            raise self.error("version", f"expected the number {FORMAT_VERSION}, got {describe(version)}")

    def deal(self, data: object) -> Deal:
        if not isinstance(data, Mapping):
            raise self.error("", f"expected a JSON object (a deal), got {describe(data)}")
        self.keys("", data, KEYS, f"unknown key (a deal has {', '.join(KEYS)})")
        for key in _REQUIRED:
            if key not in data:
                raise self.error(key, "required key missing")
        self.version(data)
        contract = self.choice(data, "contract", CONTRACTS, "contract")
        declarer = SEAT_NAMES.index(self.choice(data, "declarer", SEAT_NAMES, "seat"))
        leader = SEAT_NAMES.index(self.choice(data, "leader", SEAT_NAMES, "seat")) if "leader" in data else FOREHAND
        hands = self.seats(data, "hands")
        self.check_hands(hands)
        piles = None
        if "piles" in data:
            piles = self.seats(data, "piles")
            self.check_piles(hands, piles)
        announcements: tuple[Announcement, ...] = ()
        if "announcements" in data:
            announcements = self.announcements(data["announcements"], contract, declarer)
        deal = Deal(contract, declarer, hands, piles, leader, announcements=announcements)
        if "play" not in data:
            return deal
        position = Position(hands, declarer=declarer, leader=leader, piles=piles)
        play = self.play(data["play"], position, deal.first_trick)
        return Deal(contract, declarer, hands, piles, leader, play, announcements)


def parse_deal(data: object, source: str, *, rules: Rules = DEFAULT_RULES) -> Deal:
    """The deal described by ``data``, a parsed deal file; ``source`` names
    the file in the messages of :class:`DealError`.  A deal as dealt (the
    key ``dealt``, :mod:`kosolve.model.dealt_file`) gives its play position,
    its discards judged by ``rules``.

    >>> data = {"version": 1, "contract": "dreiblatt", "declarer": "dealer",
    ...         "hands": {"forehand": ["HK", "H4"], "dealer": ["HQ", "I"]},
    ...         "play": ["HK", "HQ"]}
    >>> deal = parse_deal(data, "ending.json")
    >>> hand_names(deal.hands[1]), len(deal.play)
    (['I', 'HQ'], 2)
    >>> parse_deal(dict(data, play=["HK", "I"]), "ending.json")
    Traceback (most recent call last):
    ...
    kosolve.model.deal.DealError: ending.json: play[1]: trick 15: I is illegal on HK: the dealer must follow suit
    """
    if isinstance(data, Mapping) and DEALT_KEY in data:
        # Imported here, not at the top: dealt_file builds on this module's
        # parser and Deal (through dealt.py), so a module-level import would
        # make the model's import graph cyclic.  deal.py stays the lower
        # module; only this call reaches up, once the modules are loaded.
        from kosolve.model.dealt_file import parse_dealt_file

        return parse_dealt_file(data, source, rules=rules).play_deal()
    return _Parser(source).deal(data)


class _Unreadable(DealError):
    """Raised from the JSON reader's hooks, which do not know the source."""


def _constant(name: str) -> object:
    raise _Unreadable(f"broken JSON: {name} is not a JSON value")


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > _MAX_DIGITS:
        raise _Unreadable(f"a number of {digits} digits (no field of a deal needs more than {_MAX_DIGITS})")
    return int(text)


def read_deal(file: IO[bytes], source: str, *, rules: Rules = DEFAULT_RULES) -> Deal:
    """The deal in the open binary ``file`` (UTF-8 JSON, a byte order mark
    allowed), named ``source`` in the messages of :class:`DealError`; the
    standard input is read this way.

    >>> import io
    >>> read_deal(io.BytesIO(b'{"version": 1, "version": 1}'), "<stdin>")
    Traceback (most recent call last):
    ...
    kosolve.model.deal.DealError: <stdin>: version: key given twice
    >>> read_deal(io.BytesIO(b"[" * 100_000), "<stdin>")
    Traceback (most recent call last):
    ...
    kosolve.model.deal.DealError: <stdin>: broken JSON: nested too deep (a deal nests 3 levels)
    """
    return parse_deal(read_json(file, source), source, rules=rules)


def read_json(file: IO[bytes], source: str) -> object:
    """The JSON value in the open binary ``file``, read as a deal file is
    (the size limit, UTF-8, keys given twice remembered, the number and
    nesting limits); any problem is a :class:`DealError` naming ``source``."""
    shown = source_name(source)
    try:
        data = file.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise DealError(f"{shown}: cannot read the file: {error.strerror or type(error).__name__}") from None
    if len(data) > MAX_FILE_BYTES:
        raise DealError(f"{shown}: more than {MAX_FILE_BYTES >> 20} MB, too large for a deal file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise DealError(f"{shown}: not UTF-8 text (byte {error.start}: {error.reason})") from None
    try:
        parsed = json.loads(text, object_pairs_hook=_members, parse_constant=_constant, parse_int=_integer)
    except json.JSONDecodeError as error:
        raise DealError(f"{shown}: line {error.lineno}, column {error.colno}: broken JSON: {error.msg}") from None
    except RecursionError:
        raise DealError(f"{shown}: broken JSON: nested too deep (a deal nests 3 levels)") from None
    except _Unreadable as error:
        raise DealError(f"{shown}: {error}") from None
    return parsed


def load_deal(path: str | os.PathLike[str], *, rules: Rules = DEFAULT_RULES) -> Deal:
    """The deal in the file at ``path``.  A file that is missing, not JSON
    or not a valid deal raises :class:`DealError` naming the file; a deal as
    dealt is read as :func:`parse_deal` reads it.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "deal.json").write_text('{"version": 1,\\n "contract": }')
    >>> load_deal(folder / "deal.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kosolve.model.deal.DealError: .../deal.json: line 2, column 14: broken JSON: Expecting value
    >>> load_deal(folder)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kosolve.model.deal.DealError: ...: cannot read the file: Is a directory
    """
    return parse_deal(load_json(path), os.fspath(path), rules=rules)


def load_json(path: str | os.PathLike[str]) -> object:
    """The JSON value in the file at ``path``, read by :func:`read_json`; a
    file that cannot be opened is a :class:`DealError` too."""
    source = os.fspath(path)
    try:
        with open(path, "rb") as file:
            return read_json(file, source)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise DealError(f"{source_name(source)}: cannot read the file: {reason}") from None


def deal_to_json(deal: Deal) -> dict[str, object]:
    """The deal file object of ``deal``, with canonical names; it reads back
    as the same deal.

    >>> from kosolve.model.cards import parse_hand
    >>> deal = Deal("solo", FOREHAND, (parse_hand(["HK", "I"]), parse_hand(["HQ", "XX"])))
    >>> deal_to_json(deal)["hands"]
    {'forehand': ['I', 'HK'], 'dealer': ['XX', 'HQ']}
    >>> parse_deal(deal_to_json(deal), "copy") == deal
    True
    """
    data: dict[str, object] = {
        "version": FORMAT_VERSION,
        "contract": deal.contract,
        "declarer": seat_name(deal.declarer),
        "hands": {seat_name(seat): hand_names(deal.hands[seat]) for seat in SEATS},
    }
    if deal.piles is not None:
        data["piles"] = {seat_name(seat): hand_names(deal.piles[seat]) for seat in SEATS}
    data["leader"] = seat_name(deal.leader)
    if deal.announcements:
        data["announcements"] = [_announcement_to_json(announcement) for announcement in deal.announcements]
    if deal.play:
        data["play"] = [card_name(card) for card in deal.play]
    return data


def _announcement_to_json(announcement: Announcement) -> dict[str, object]:
    data: dict[str, object] = {"by": seat_name(announcement.by), "what": announcement.what}
    if announcement.when is not None:
        data["when"] = announcement.when
    if announcement.kontra:
        data["kontra"] = True
    return data


__all__ = [
    "DEALT_KEY",
    "FORMAT_VERSION",
    "KEYS",
    "MAX_FILE_BYTES",
    "Deal",
    "DealError",
    "deal_to_json",
    "load_deal",
    "load_json",
    "parse_deal",
    "read_deal",
    "read_json",
]
