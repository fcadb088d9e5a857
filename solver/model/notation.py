"""A deal file in one line (docs/deal-files.md, "One line"), as FEN writes a
chess position and PBN a bridge deal: to paste, to put in a link.

A play file::

    kd1:CONTRACT:DECLARER:LEADER:FOREHAND/DEALER:PILES:LAID:ANNOUNCEMENTS:PLAY

A deal as dealt::

    kt1:TALON:FOREHAND:DEALER:CONTRACT:DECLARER:EXCHANGE:ANNOUNCEMENTS:PLAY

Cards are their canonical names joined by ``.``, in the hand diagram's
order (the play and the talon in their own order); a pair of seats is
``forehand/dealer``; a missing part is ``-`` (no piles, no contract); a
seat as dealt is ``HAND/PERSONAL/DISCARDS`` or ``.../PICKED_UP``; the
exchange is ``TAKE/LAY_AWAY``; each announcement is
``BY+WHAT+WHEN`` (``+k`` with a Kontra), joined by ``,``.  The line is
read back through the deal file's own reader, so a bad line is one message
naming the part at fault, as a bad file is, and quoting at most
:data:`~kosolve.model.quoting.QUOTE_LIMIT` characters of it.

>>> from dataclasses import replace
>>> from kosolve.model.files import load_deal
>>> deal = replace(load_deal("examples/ending.json"), piles=None)
>>> text = to_notation(deal)
>>> text
'kd1:dreiblatt:forehand:forehand:XVIII.XV.HK.HQ/XVI.XIII.XII.CK:-:-::'
>>> parse_notation(text) == deal
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from kosolve.model.announcements import Announcement
from kosolve.model.cards import Card, Hand, card_name, hand_names
from kosolve.model.deal import Deal, deal_to_json
from kosolve.model.dealt_file import DealtFile, dealt_to_json
from kosolve.model.files import parse_file
from kosolve.model.game import DEFAULT_RULES, SEAT_NAMES, Rules, seat_name
from kosolve.model.jsonfile import FileError
from kosolve.model.quoting import quote

PLAY_TAG: Final = "kd1"
DEALT_TAG: Final = "kt1"
NONE: Final = "-"
SOURCE: Final = "notation"


class NotationError(FileError):
    """A line that is not kosolve's notation; the message names the part."""


def _cards(cards: Sequence[Card]) -> str:
    return ".".join(card_name(c) for c in cards)


def _hand(hand: Hand) -> str:
    return ".".join(hand_names(hand))


def _pair(pair: tuple[Hand, Hand] | None) -> str:
    return NONE if pair is None else f"{_hand(pair[0])}/{_hand(pair[1])}"


def _announcements(announcements: Sequence[Announcement]) -> str:
    parts = []
    for a in announcements:
        fields = [seat_name(a.by), a.what, a.when or NONE, *(["k"] if a.kontra else [])]
        parts.append("+".join(fields))
    return ",".join(parts)


def to_notation(file: Deal | DealtFile) -> str:
    """``file`` in one line (see the module text)."""
    if isinstance(file, Deal):
        return ":".join(
            [
                PLAY_TAG,
                file.contract,
                seat_name(file.declarer),
                seat_name(file.leader),
                _pair(file.hands),
                _pair(file.piles),
                _pair(file.laid),
                _announcements(file.announcements),
                _cards(file.play),
            ]
        )
    dealt = file.dealt
    seats = []
    for seat in (0, 1):
        parts = [_hand(dealt.hands[seat]), _hand(dealt.personal[seat]), _hand(dealt.discards[seat])]
        if dealt.picked_up is not None:
            parts.append(_hand(dealt.picked_up[seat]))
        seats.append("/".join(parts))
    exchange = NONE if file.exchange is None else f"{_cards(file.exchange.take)}/{_hand(file.exchange.lay_away)}"
    return ":".join(
        [
            DEALT_TAG,
            _cards(dealt.talon),
            *seats,
            file.contract or NONE,
            NONE if file.declarer is None else seat_name(file.declarer),
            exchange,
            _announcements(file.announcements),
            _cards(file.play),
        ]
    )


def _names(text: str) -> list[str]:
    return [name for name in text.split(".") if name]


def _seats(text: str, part: str) -> dict[str, list[str]]:
    halves = text.split("/")
    if len(halves) != 2:
        raise NotationError(f"{SOURCE}: {part}: expected two seats, forehand/dealer, got {quote(text)}")
    return dict(zip(SEAT_NAMES, (_names(h) for h in halves), strict=True))


def _announcement_json(text: str) -> list[dict[str, object]]:
    found: list[dict[str, object]] = []
    for item in filter(None, text.split(",")):
        fields = item.split("+")
        if len(fields) not in (3, 4) or (len(fields) == 4 and fields[3] != "k"):
            raise NotationError(f"{SOURCE}: announcements: expected BY+WHAT+WHEN[+k], got {quote(item)}")
        data: dict[str, object] = {"by": fields[0], "what": fields[1]}
        if fields[2] != NONE:
            data["when"] = fields[2]
        if len(fields) == 4:
            data["kontra"] = True
        found.append(data)
    return found


def _play_json(parts: list[str]) -> dict[str, object]:
    if len(parts) != 9:
        raise NotationError(f"{SOURCE}: a play file's line has 9 parts joined by ':', not {len(parts)}")
    _, contract, declarer, leader, hands, piles, laid, announcements, play = parts
    data: dict[str, object] = {
        "version": 1,
        "contract": contract,
        "declarer": declarer,
        "hands": _seats(hands, "hands"),
    }
    if piles != NONE:
        data["piles"] = _seats(piles, "piles")
    if laid != NONE:
        data["laid"] = _seats(laid, "laid")
    data["leader"] = leader
    data["announcements"] = _announcement_json(announcements)
    data["play"] = _names(play)
    return data


def _dealt_json(parts: list[str]) -> dict[str, object]:
    if len(parts) != 9:
        raise NotationError(f"{SOURCE}: a deal as dealt's line has 9 parts joined by ':', not {len(parts)}")
    _, talon, forehand, dealer, contract, declarer, exchange, announcements, play = parts
    dealt: dict[str, object] = {"talon": _names(talon)}
    for name, text in zip(SEAT_NAMES, (forehand, dealer), strict=True):
        fields = text.split("/")
        if len(fields) not in (3, 4):
            raise NotationError(f"{SOURCE}: {name}: expected HAND/PERSONAL/DISCARDS[/PICKED_UP], got {quote(text)}")
        seat: dict[str, object] = dict(zip(("hand", "personal", "discards"), map(_names, fields), strict=False))
        if len(fields) == 4:
            seat["picked_up"] = _names(fields[3])
        dealt[name] = seat
    data: dict[str, object] = {"version": 1, "dealt": dealt}
    if contract != NONE:
        data["contract"] = contract
    if declarer != NONE:
        data["declarer"] = declarer
    if exchange != NONE:
        take, _, lay_away = exchange.partition("/")
        data["exchange"] = {"take": _names(take), "lay_away": _names(lay_away)}
    # A deal as dealt without a bid may not name announcements or play, even empty.
    if announcements:
        data["announcements"] = _announcement_json(announcements)
    if play:
        data["play"] = _names(play)
    return data


def parse_notation(text: str, rules: Rules = DEFAULT_RULES) -> Deal | DealtFile:
    """The deal file a line of :func:`to_notation` writes; a bad line is a
    :class:`NotationError` (or the deal file reader's error, naming its field)."""
    parts = text.strip().split(":")
    tag = parts[0]
    if tag == PLAY_TAG:
        data = _play_json(parts)
    elif tag == DEALT_TAG:
        data = _dealt_json(parts)
    else:
        raise NotationError(f"{SOURCE}: expected a line starting {PLAY_TAG}: or {DEALT_TAG}:, got {quote(text)}")
    read = parse_file(data, SOURCE, rules=rules)
    assert isinstance(read, Deal | DealtFile)
    return read


def notation_json(text: str, rules: Rules = DEFAULT_RULES) -> dict[str, object]:
    """The deal file's JSON object of a line (what a page loads)."""
    read = parse_notation(text, rules)
    return deal_to_json(read) if isinstance(read, Deal) else dealt_to_json(read)


__all__ = ["DEALT_TAG", "PLAY_TAG", "NotationError", "notation_json", "parse_notation", "to_notation"]
