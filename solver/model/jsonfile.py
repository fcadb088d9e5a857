"""Reading kosolve's files: the JSON under every kind (deal files, deals as
dealt, seat views, a batch's lines and a web request's body), with the
limits that keep a hostile file harmless, and the parser every kind's
reader builds on, whose errors name the file and the field in one line.

A file is UTF-8 JSON (a byte order mark allowed), at most
:data:`MAX_FILE_BYTES`, numbers of at most 40 digits, no ``NaN`` or
``Infinity``; a key given twice is remembered (:class:`JSONObject`) so that
the parser can refuse it by name, where a plain dict keeps the last value.

>>> import io
>>> read_json(io.BytesIO(b'{"version": 1, "version": 1}'), "deal.json").twice
'version'
>>> read_json(io.BytesIO(b"[" * 100_000), "<stdin>")
Traceback (most recent call last):
...
kosolve.model.jsonfile.FileError: <stdin>: broken JSON: nested too deep (a deal nests 3 levels)
>>> FieldParser("deal.json").card("play[0]", "H10")
Traceback (most recent call last):
...
kosolve.model.jsonfile.FileError: deal.json: play[0]: unknown card 'H10' (did you mean H1?)
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import IO, ClassVar, Final

from kosolve.model.announcements import ANNOUNCEMENTS, TIMINGS, Announcement, announcement_problems
from kosolve.model.cards import Card, CardError, Hand, card_name, hand_names, mask_of, parse_card
from kosolve.model.game import SEAT_NAMES, SEATS, IllegalMoveError, Position, Seat, seat_name
from kosolve.model.quoting import describe, member, quote, source_name
from kosolve.model.reprs import counted

MAX_FILE_BYTES: Final = 64 << 20
"""The largest file read (a real one is a few KB): reading stops there, so
that a device or a runaway pipe given as the file is refused rather than
exhausting memory."""
_MAX_DIGITS: Final = 40
"""The longest number a file may hold: no field needs more, and Python
refuses to read integers past 4300 digits anyway."""
_FUTURE_VERSIONS: Final = 1000
"""Versions below this may be a later format, the others are no version."""
_ANNOUNCEMENT_KEYS: Final = ("by", "what", "when", "kontra")


class FileError(ValueError):
    """A file that cannot be read or breaks its format or the rules; the
    message is one line naming the file and the field.  Each kind of file
    has its own subclass (:class:`~kosolve.model.deal.DealError`,
    :class:`~kosolve.model.view.ViewError`)."""


class JSONObject(dict[str, object]):
    """A JSON object as read from a file, remembering its first key given
    twice (a dict keeps only the last value), so that a parser can name the
    object's field."""

    twice: str | None = None


def _members(pairs: list[tuple[str, object]]) -> JSONObject:
    members = JSONObject(pairs)
    if len(members) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                members.twice = key
                break
            seen.add(key)
    return members


class _Unreadable(FileError):
    """Raised from the JSON reader's hooks, which do not know the source."""


def _constant(name: str) -> object:
    raise _Unreadable(f"broken JSON: {name} is not a JSON value")


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > _MAX_DIGITS:
        raise _Unreadable(f"a number of {digits} digits (no field of a deal needs more than {_MAX_DIGITS})")
    return int(text)


def parse_json(data: bytes, source: str, error: type[FileError] = FileError) -> object:
    """The JSON value in ``data``, the bytes of the file named ``source``,
    read as every file is (the size limit, UTF-8, keys given twice
    remembered, the number and nesting limits); any problem is an
    ``error`` naming ``source``."""
    shown = source_name(source)
    if len(data) > MAX_FILE_BYTES:
        raise error(f"{shown}: more than {MAX_FILE_BYTES >> 20} MB, too large for a deal file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        raise error(f"{shown}: not UTF-8 text (byte {problem.start}: {problem.reason})") from None
    try:
        return json.loads(text, object_pairs_hook=_members, parse_constant=_constant, parse_int=_integer)
    except json.JSONDecodeError as problem:
        raise error(f"{shown}: line {problem.lineno}, column {problem.colno}: broken JSON: {problem.msg}") from None
    except RecursionError:
        raise error(f"{shown}: broken JSON: nested too deep (a deal nests 3 levels)") from None
    except _Unreadable as problem:
        raise error(f"{shown}: {problem}") from None


def read_json(file: IO[bytes], source: str, error: type[FileError] = FileError) -> object:
    """The JSON value in the open binary ``file`` (read by :func:`parse_json`,
    at most one byte past the size limit)."""
    try:
        data = file.read(MAX_FILE_BYTES + 1)
    except OSError as problem:
        reason = problem.strerror or type(problem).__name__
        raise error(f"{source_name(source)}: cannot read the file: {reason}") from None
    return parse_json(data, source, error)


def load_json(path: str | os.PathLike[str], error: type[FileError] = FileError) -> object:
    """The JSON value in the file at ``path``; a file that cannot be opened
    is an ``error`` too."""
    source = os.fspath(path)
    try:
        with open(path, "rb") as file:
            return read_json(file, source, error)
    except OSError as problem:
        reason = problem.strerror or type(problem).__name__
        raise error(f"{source_name(source)}: cannot read the file: {reason}") from None


class FieldParser:
    """The base of every file's parser: it names the file (``source``) and
    the field in each error, of the kind's class :attr:`error_type`, and
    remembers where each card was first seen, to name both places of a
    card given twice."""

    error_type: ClassVar[type[FileError]] = FileError
    format_version: ClassVar[int] = 1
    """The format version this kind of file has."""

    def __init__(self, source: str) -> None:
        self.source = source_name(source)
        self.seen: dict[Card, str] = {}

    def error(self, field: str, message: str) -> FileError:
        """The error at ``field`` (the file itself when empty)."""
        return self.error_type(f"{self.source}: {field}: {message}" if field else f"{self.source}: {message}")

    def keys(self, field: str, value: Mapping[str, object], allowed: tuple[str, ...], message: str) -> None:
        """Refuse a key of the object at ``field`` given twice, not a string,
        or not ``allowed`` (saying ``message``)."""
        if isinstance(value, JSONObject) and value.twice is not None:
            raise self.error(member(field, value.twice), "key given twice")
        for key in value:
            if not isinstance(key, str):
                raise self.error(field, f"a key is {describe(key)}, not a string")
            if key not in allowed:
                raise self.error(member(field, key), message)

    def required(self, data: Mapping[str, object], keys: tuple[str, ...], field: str = "") -> None:
        for key in keys:
            if key not in data:
                raise self.error(member(field, key), "required key missing")

    def version(self, data: Mapping[str, object]) -> None:
        wanted = self.format_version
        if "version" not in data:
            raise self.error("version", "required key missing")
        version = data["version"]
        if type(version) is int and 0 <= version < _FUTURE_VERSIONS and version != wanted:
            raise self.error("version", f"unsupported version {version} (this kosolve reads version {wanted})")
        if type(version) is not int or version != wanted:
            raise self.error("version", f"expected the number {wanted}, got {describe(version)}")

    def choice(self, data: Mapping[str, object], key: str, choices: tuple[str, ...], what: str) -> str:
        return self.word(key, data[key], choices, what)

    def seat(self, data: Mapping[str, object], key: str) -> Seat:
        return SEAT_NAMES.index(self.choice(data, key, SEAT_NAMES, "seat"))

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
        """A holding for each seat: ``{"forehand": [...], "dealer": [...]}``."""
        value = data[key]
        if not isinstance(value, Mapping):
            raise self.error(key, f"expected an object with forehand and dealer, got {describe(value)}")
        self.keys(key, value, SEAT_NAMES, "unknown seat (expected forehand and dealer)")
        for name in SEAT_NAMES:
            if name not in value:
                raise self.error(key, f"{name} missing (give both forehand and dealer)")
        forehand, dealer = (self.holding(f"{key}.{name}", value[name]) for name in SEAT_NAMES)
        return forehand, dealer

    def announcement(self, field: str, value: object) -> Announcement:
        if not isinstance(value, Mapping):
            raise self.error(field, f"expected an object with by, what and when, got {describe(value)}")
        has = ", ".join(_ANNOUNCEMENT_KEYS)
        self.keys(field, value, _ANNOUNCEMENT_KEYS, f"unknown key (an announcement has {has})")
        self.required(value, ("by", "what"), field)
        by = SEAT_NAMES.index(self.word(f"{field}.by", value["by"], SEAT_NAMES, "seat"))
        what = self.word(f"{field}.what", value["what"], ANNOUNCEMENTS, "announcement")
        when = self.word(f"{field}.when", value["when"], TIMINGS, "timing") if "when" in value else None
        kontra = value.get("kontra", False)
        if not isinstance(kontra, bool):
            raise self.error(f"{field}.kontra", f"expected true or false, got {describe(kontra)}")
        return Announcement(by, what, when, kontra)

    def announcements(self, value: object, contract: str, declarer: Seat) -> tuple[Announcement, ...]:
        """The announcements, checked against the rules that hold whatever
        the rule options (:func:`~kosolve.model.announcements.announcement_problems`)."""
        if not isinstance(value, list):
            raise self.error("announcements", f"expected an array of announcements, got {describe(value)}")
        announcements = [self.announcement(f"announcements[{index}]", item) for index, item in enumerate(value)]
        problems = announcement_problems(announcements, contract, declarer)
        if problems:
            index, key, message = problems[0]
            raise self.error(f"announcements[{index}].{key}", message)
        return tuple(announcements)

    def play(self, value: object, position: Position) -> tuple[Card, ...]:
        """The cards of the play, each legal in turn from ``position`` (a
        deal's before its play), which they are played on."""
        items = self.card_array("play", value)
        room = position.hands[0].bit_count() + position.hands[1].bit_count()
        if len(items) > room:
            raise self.error("play", f"{counted(len(items), 'card')} played, but the hands hold only {room}")
        cards = [self.card(f"play[{index}]", item) for index, item in enumerate(items)]
        played: dict[Card, int] = {}
        for index, card in enumerate(cards):
            field = f"play[{index}]: trick {position.trick_number}"
            if card in played:
                raise self.error(field, f"{card_name(card)} was already played at play[{played[card]}]")
            try:
                position.push(card)
            except IllegalMoveError as error:
                raise self.error(field, str(error)) from None
            played[card] = index
        return tuple(cards)


def seats_to_json(holdings: tuple[Hand, Hand]) -> dict[str, list[str]]:
    """A holding for each seat as a file writes it, the cards in the hand
    diagram's order."""
    return {seat_name(seat): hand_names(holdings[seat]) for seat in SEATS}


__all__ = [
    "MAX_FILE_BYTES",
    "FieldParser",
    "FileError",
    "JSONObject",
    "load_json",
    "parse_json",
    "read_json",
    "seats_to_json",
]
