"""Cards and hands of the 54-card Tarock pack, as plain integers.

A :data:`Card` is an ``int`` from 0 to 53 and a :data:`Hand` is an ``int``
bitmask with bit ``c`` set for card ``c``.  The layout puts every suit in a
byte and the tarocks above them, so that within a suit (and within the
tarocks) a higher bit is always a higher card::

    bits  0..7    hearts     H4 H3 H2 H1 HJ HC HQ HK
    bits  8..15   diamonds   D4 D3 D2 D1 DJ DC DQ DK
    bits 16..23   spades     S7 S8 S9 S10 SJ SC SQ SK
    bits 24..31   clubs      C7 C8 C9 C10 CJ CC CQ CK
    bits 32..53   tarocks    I II ... XXI Sk

>>> parse_card("XXI")
52
>>> card_name(HK)
'HK'
>>> hand_names(parse_hand(["H4", "Sk", "HK", "XX"]))
['Sk', 'XX', 'HK', 'H4']
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Iterator
from typing import Final, TypeAlias

from kosolve.model.quoting import quote

Card: TypeAlias = int
Hand: TypeAlias = int
Suit: TypeAlias = int

HEARTS: Final = 0
DIAMONDS: Final = 1
SPADES: Final = 2
CLUBS: Final = 3
TAROCK: Final = 4
SUITS: Final = (HEARTS, DIAMONDS, SPADES, CLUBS, TAROCK)
SUIT_LETTERS: Final = ("H", "D", "S", "C", "T")
SUIT_NAMES: Final = ("hearts", "diamonds", "spades", "clubs", "tarocks")
SUIT_SYMBOLS: Final = ("♥", "♦", "♠", "♣", "T")

N_CARDS: Final = 54
ALL_CARDS: Final[Hand] = (1 << N_CARDS) - 1

RED_RANKS: Final = ("4", "3", "2", "1", "J", "C", "Q", "K")
"""Red suit ranks from low to high: the "1" is the highest pip."""
BLACK_RANKS: Final = ("7", "8", "9", "10", "J", "C", "Q", "K")
"""Black suit ranks from low to high."""
TAROCK_NAMES: Final = (
    "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI",
    "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "Sk",
)  # fmt: skip
"""Tarock names from the Pagat (I) up to the Sküs."""

CARD_NAMES: Final[tuple[str, ...]] = tuple(
    [f"{letter}{rank}" for letter, ranks in zip("HD", (RED_RANKS, RED_RANKS), strict=True) for rank in ranks]
    + [f"{letter}{rank}" for letter, ranks in zip("SC", (BLACK_RANKS, BLACK_RANKS), strict=True) for rank in ranks]
    + list(TAROCK_NAMES)
)
"""Canonical name of every card, indexed by card."""

_FACE_VALUES: Final = {"K": 5, "Q": 4, "C": 3, "J": 2}


def _value(card: Card) -> int:
    name = CARD_NAMES[card]
    if card >= 32:
        return 5 if name in ("I", "XXI", "Sk") else 1
    return _FACE_VALUES.get(name[1:], 1)


CARD_VALUES: Final[tuple[int, ...]] = tuple(_value(c) for c in range(N_CARDS))
"""Counting value of every card: 5 for kings and the trull, 4, 3, 2 for
queens, cavaliers, jacks, 1 for every other card."""

SUIT_MASKS: Final[tuple[Hand, ...]] = (0xFF, 0xFF << 8, 0xFF << 16, 0xFF << 24, ((1 << 22) - 1) << 32)
"""The cards of each suit, indexed by suit; the last entry is the tarocks."""

(H4, H3, H2, H1, HJ, HC, HQ, HK,
 D4, D3, D2, D1, DJ, DC, DQ, DK,
 S7, S8, S9, S10, SJ, SC, SQ, SK,
 C7, C8, C9, C10, CJ, CC, CQ, CK) = range(32)  # fmt: skip
PAGAT: Final = 32
UHU: Final = 33
PELIKAN: Final = 34
QUAPIL: Final = 35
MOND: Final = 52
SKUS: Final = 53

KINGS: Final[Hand] = (1 << HK) | (1 << DK) | (1 << SK) | (1 << CK)
TRULL: Final[Hand] = (1 << PAGAT) | (1 << MOND) | (1 << SKUS)
BIRD_CARDS: Final[Hand] = (1 << PAGAT) | (1 << UHU) | (1 << PELIKAN) | (1 << QUAPIL)

_ALIASES: Final = {"SKUS": SKUS, "SKIS": SKUS, "PAGAT": PAGAT, "MOND": MOND}
_SKUS_SPELLINGS: Final = ("Sküs", "sküs", "SKÜS")
"""The card's own name, with its umlaut as one precomposed letter (U+00FC):
the one spelling beyond ASCII, since it is how a Tarock player writes it."""
"""Other names of the trull cards, matched in any letter case."""


class CardError(ValueError):
    """A card name that names no card, or a hand that holds a card twice."""


def parse_card(name: str) -> Card:
    """The card with the given name.

    Canonical names are accepted in any ASCII letter case where that is not
    ambiguous (``SK`` is the king of spades, ``Sk`` the Sküs), and so are
    the spellings Sküs, Skus, Skis, Pagat and Mond of the trull.  Nothing
    else is: no white space, no suit symbols, no look-alike letters (a long
    s, a Kelvin sign, full-width letters); the error names the cards such a
    name resembles.

    >>> parse_card("Sk") == parse_card("skus") == parse_card("Sküs") == SKUS, parse_card("SK") == SK
    (True, True)
    >>> parse_card("s10") == S10, parse_card("xxi") == MOND
    (True, True)
    >>> parse_card("10S")
    Traceback (most recent call last):
    ...
    kosolve.model.cards.CardError: unknown card '10S' (did you mean S10?)
    >>> parse_card("\u017f10")
    Traceback (most recent call last):
    ...
    kosolve.model.cards.CardError: unknown card '\\u017f10' (did you mean S10?)
    >>> parse_card("HA")
    Traceback (most recent call last):
    ...
    kosolve.model.cards.CardError: unknown card 'HA' (hearts are HK HQ HC HJ H1 H2 H3 H4)
    """
    card = _BY_NAME.get(name)
    if card is not None:
        return card
    if name in _SKUS_SPELLINGS:
        return SKUS
    # Letter case is folded for ASCII only: str.upper() would also turn a
    # long s into S and a dotless i into I.
    if name.isascii():
        upper = name.upper()
        if upper == "SK":
            raise CardError(f"ambiguous card {quote(name)}: write SK for the king of spades, Sk for the Sküs")
        card = _ALIASES.get(upper, _BY_NAME.get(upper))
        if card is not None:
            return card
    raise CardError(f"unknown card {quote(name)}{_suggestion(name)}")


_BY_NAME: Final = {name: card for card, name in enumerate(CARD_NAMES)}


def _spellings() -> dict[str, tuple[str, ...]]:
    spellings: dict[str, tuple[str, ...]] = {}
    for name in CARD_NAMES:
        spellings[name.upper()] = (*spellings.get(name.upper(), ()), name)
    for alias, card in _ALIASES.items():
        spellings[alias] = (CARD_NAMES[card],)
    return spellings


_SPELLINGS: Final = _spellings()
"""Every accepted spelling in upper case, with the canonical names it may
mean (both SK and Sk for "SK")."""
_FOLD_LIMIT: Final = 12
"""Names longer than this (folded) resemble no card; the longest is PAGAT."""
_SIMILAR: Final = 0.6
"""The least :class:`difflib.SequenceMatcher` ratio of a suggestion."""


def _fold(name: str) -> str:
    # What a misspelt name imitates, in ASCII capitals: NFKC maps the long
    # s, the Kelvin sign and full-width letters to their plain letters,
    # NFKD then splits off accents (Sküs), which are dropped.
    text = unicodedata.normalize("NFKC", name[: 4 * _FOLD_LIMIT]).upper()
    for symbol, letter in zip(SUIT_SYMBOLS[:4], SUIT_LETTERS[:4], strict=True):
        text = text.replace(symbol, letter)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return "".join(text.split())


def _resembled(key: str) -> tuple[str, ...]:
    if key in _SPELLINGS:
        return _SPELLINGS[key]
    # The commonest slip: the rank before the suit letter (10S, KH).
    if key[-1] in SUIT_LETTERS[:4] and key[-1] + key[:-1] in _SPELLINGS:
        return _SPELLINGS[key[-1] + key[:-1]]
    if key.isdigit() and 1 <= int(key) <= len(TAROCK_NAMES) - 1:
        return (TAROCK_NAMES[int(key) - 1],)
    # A name's first letter is rarely the slip: a suit letter or the start
    # of a numeral keeps HX among the hearts rather than near X.
    candidates = [spelling for spelling in _SPELLINGS if spelling[0] == key[0]] or list(_SPELLINGS)
    ratios = {spelling: difflib.SequenceMatcher(None, key, spelling).ratio() for spelling in candidates}
    best = max(ratios.values())
    if best < _SIMILAR:
        return ()
    names = [name for spelling, ratio in ratios.items() if ratio == best for name in _SPELLINGS[spelling]]
    return tuple(dict.fromkeys(names))


def _suggestion(name: str) -> str:
    """What an unknown card name resembles, as a parenthesis to its message:
    the nearest canonical names, else the cards of the suit it starts with,
    else nothing."""
    key = _fold(name)
    if not key or len(key) > _FOLD_LIMIT:
        return ""
    names = _resembled(key)
    if names:
        return f" (did you mean {' or '.join(names)}?)"
    if key[0] in SUIT_LETTERS[:4]:
        suit = SUIT_LETTERS.index(key[0])
        return f" ({SUIT_NAMES[suit]} are {' '.join(hand_names(SUIT_MASKS[suit]))})"
    return ""


def card_name(card: Card) -> str:
    """The canonical name of a card.

    >>> card_name(SKUS), card_name(PAGAT), card_name(S10)
    ('Sk', 'I', 'S10')
    """
    return CARD_NAMES[card]


def suit_of(card: Card) -> Suit:
    """The suit of a card, :data:`TAROCK` for the tarocks.

    >>> suit_of(DQ) == DIAMONDS, suit_of(UHU) == TAROCK
    (True, True)
    """
    return TAROCK if card >= 32 else card >> 3


def card_value(card: Card) -> int:
    """The counting value of a card (1 to 5).

    >>> card_value(HK), card_value(SKUS), card_value(UHU), card_value(CJ)
    (5, 5, 1, 2)
    """
    return CARD_VALUES[card]


def cards_of(hand: Hand) -> Iterator[Card]:
    """The cards of a hand from the highest bit down: tarocks from the Sküs,
    then clubs, spades, diamonds and hearts, each from its king.

    >>> [card_name(c) for c in cards_of((1 << HK) | (1 << H4) | (1 << MOND))]
    ['XXI', 'HK', 'H4']
    """
    while hand:
        card = hand.bit_length() - 1
        yield card
        hand ^= 1 << card


def mask_of(cards: Iterable[Card]) -> Hand:
    """The hand holding the given cards.

    >>> mask_of([PAGAT, SKUS]) == (1 << 32) | (1 << 53)
    True
    """
    hand = 0
    for card in cards:
        hand |= 1 << card
    return hand


def parse_hand(names: Iterable[str]) -> Hand:
    """The hand holding the named cards; naming a card twice is an error.

    >>> parse_hand(["Sk", "XXI", "I"]) == TRULL
    True
    >>> parse_hand(["HK", "hk"])
    Traceback (most recent call last):
    ...
    kosolve.model.cards.CardError: card 'hk' named twice
    >>> parse_hand(["sk"])
    Traceback (most recent call last):
    ...
    kosolve.model.cards.CardError: ambiguous card 'sk': write SK for the king of spades, Sk for the Sküs
    """
    hand = 0
    for name in names:
        bit = 1 << parse_card(name)
        if hand & bit:
            raise CardError(f"card {quote(name)} named twice")
        hand |= bit
    return hand


DISPLAY_ORDER: Final = (TAROCK, HEARTS, DIAMONDS, SPADES, CLUBS)
"""The order in which hands are shown: tarocks first, then the suits."""


def hand_names(hand: Hand) -> list[str]:
    """The canonical names of a hand's cards, tarocks first in rank order,
    then hearts, diamonds, spades and clubs, each from its king down.

    >>> hand_names(parse_hand(["S7", "I", "HK", "Sk", "D1"]))
    ['Sk', 'I', 'HK', 'D1', 'S7']
    """
    return [card_name(c) for c in hand_cards(hand)]


def hand_cards(hand: Hand) -> list[Card]:
    """A hand's cards in the order :func:`hand_names` names them, the order
    the text report and the JSON list a set of cards in.

    >>> [card_name(c) for c in hand_cards(parse_hand(["H4", "XX", "HK"]))]
    ['XX', 'HK', 'H4']
    """
    return [c for suit in DISPLAY_ORDER for c in cards_of(hand & SUIT_MASKS[suit])]


def thirds_of(hand: Hand) -> int:
    """What a pile of cards counts, in thirds of a point: three times the
    value sum, less two for every card (docs/rules.md §2).

    >>> thirds_of(ALL_CARDS)
    210
    >>> thirds_of(parse_hand(["HK", "HC", "V"]))  # 9 - 2 = 7 points
    21
    """
    return sum(3 * CARD_VALUES[c] - 2 for c in cards_of(hand))


def points_of(thirds: int) -> int:
    """Points rounded from thirds: a third rounds down, two thirds round up.

    >>> [points_of(t) for t in (105, 106, 107, 108)]
    [35, 35, 36, 36]
    """
    return (thirds + 1) // 3


def thirds_for_points(points: int) -> int:
    """The least thirds that :func:`points_of` rounds to ``points``.

    >>> thirds_for_points(36), thirds_for_points(40), thirds_for_points(50)
    (107, 119, 149)
    """
    return 3 * points - 1
