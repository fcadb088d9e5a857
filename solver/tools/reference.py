"""A slow, plain minimax over card names, written straight from docs/rules.md §1,
§2 and §4, to hold the fast search to.

It shares no code with the rest of kosolve on purpose: a card's suit, rank
and value are read off its canonical name here, and the game tree is searched
in full, without pruning and without treating any two cards as equivalent.
Only positions already met are remembered.  Use it on small endings only.

Seats are the strings ``"forehand"`` and ``"dealer"``.  Values are the
declarer's *future* thirds: what he takes in the trick on the table and in
every trick still to come, with the declarer maximising and the other player
minimising.

>>> reference_value(["HK", "H4"], ["HQ", "I"], leader="forehand", declarer="forehand")
23
>>> reference_move_values(["HK", "H4"], ["HQ", "I"], leader="forehand", declarer="forehand")
{'HK': 23, 'H4': 0}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import Final


class ReferenceInputError(ValueError):
    """A card name or position the reference does not take."""


SEATS: Final = ("forehand", "dealer")

TAROCK: Final = "T"
"""The suit of the tarocks, as :func:`suit` gives it."""

# Written high to low, as docs/rules.md §1 lists them.
_RED_HIGH_TO_LOW: Final = ("K", "Q", "C", "J", "1", "2", "3", "4")
_BLACK_HIGH_TO_LOW: Final = ("K", "Q", "C", "J", "10", "9", "8", "7")
_TAROCK_NAMES: Final = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI",
                        "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "Sk")  # fmt: skip
_ROMAN_DIGITS: Final = {"I": 1, "V": 5, "X": 10}
_SKUS_NUMBER: Final = 22
_TRULL: Final = ("I", "XXI", "Sk")
_FACE_VALUES: Final = {"K": 5, "Q": 4, "C": 3, "J": 2}


def _roman(numeral: str) -> int:
    """The number a Roman numeral writes, I to XXI.

    >>> [_roman(n) for n in ("I", "IV", "IX", "XIV", "XIX", "XXI")]
    [1, 4, 9, 14, 19, 21]
    >>> [_roman(n) for n in _TAROCK_NAMES[:-1]] == list(range(1, 22))
    True
    """
    total = 0
    for here, after in zip(numeral, [*numeral[1:], ""], strict=True):
        digit = _ROMAN_DIGITS[here]
        # A smaller digit before a larger one is subtracted (IV, IX, XIX).
        total += -digit if after and _ROMAN_DIGITS[after] > digit else digit
    return total


def all_card_names() -> list[str]:
    """The canonical names of all 54 cards, spelt out from docs/rules.md §1.

    >>> names = all_card_names(); len(names), names[0], names[-1]
    (54, 'HK', 'Sk')
    """
    suits = [letter + rank for letter in "HD" for rank in _RED_HIGH_TO_LOW]
    suits += [letter + rank for letter in "SC" for rank in _BLACK_HIGH_TO_LOW]
    return suits + list(_TAROCK_NAMES)


_DECK_ORDER: Final = all_card_names()


def check_name(name: str) -> str:
    """``name`` itself if it is the canonical name of a card, else ValueError.

    >>> check_name("D1")
    'D1'
    >>> check_name("D10")
    Traceback (most recent call last):
    ...
    kosolve.tools.reference.ReferenceInputError: not a canonical card name: 'D10'
    """
    if name in _TAROCK_NAMES:
        return name
    if len(name) >= 2 and name[0] in "HD" and name[1:] in _RED_HIGH_TO_LOW:
        return name
    if len(name) >= 2 and name[0] in "SC" and name[1:] in _BLACK_HIGH_TO_LOW:
        return name
    raise ReferenceInputError(f"not a canonical card name: {name!r}")


@cache
def suit(name: str) -> str:
    """``"T"`` for a tarock, else the suit letter H, D, S or C.

    >>> suit("XIV"), suit("Sk"), suit("CJ"), suit("H1")
    ('T', 'T', 'C', 'H')
    """
    return TAROCK if check_name(name) in _TAROCK_NAMES else name[0]


@cache
def rank(name: str) -> int:
    """A number that orders the cards of one suit: higher beats lower.

    Tarocks are numbered by their Roman numeral and the Sküs is 22; suit cards
    count up from 1 for the lowest (4 in red, 7 in black) to 8 for the king.

    >>> rank("Sk"), rank("XXI"), rank("I")
    (22, 21, 1)
    >>> rank("HK"), rank("H1"), rank("H4"), rank("S10"), rank("S7")
    (8, 4, 1, 4, 1)
    """
    if suit(name) == TAROCK:
        return _SKUS_NUMBER if name == "Sk" else _roman(name)
    order = _RED_HIGH_TO_LOW if name[0] in "HD" else _BLACK_HIGH_TO_LOW
    return len(order) - order.index(name[1:])


@cache
def card_value(name: str) -> int:
    """The counting value: 5 for kings and the trull, 4 queens, 3 cavaliers,
    2 jacks, 1 every other card (docs/rules.md §2).

    >>> [card_value(n) for n in ("SK", "Sk", "XXI", "I", "II", "DQ", "CC", "HJ", "H1", "S10")]
    [5, 5, 5, 5, 1, 4, 3, 2, 1, 1]
    """
    if suit(name) == TAROCK:
        return 5 if name in _TRULL else 1
    return _FACE_VALUES.get(name[1:], 1)


def pile_thirds(names: Iterable[str]) -> int:
    """What a pile counts in thirds: every card its value less 2/3.

    >>> pile_thirds(all_card_names())
    210
    """
    return sum(3 * card_value(name) - 2 for name in names)


def trick_thirds(first: str, second: str) -> int:
    """What a trick of two cards is worth to its winner, in thirds.

    >>> trick_thirds("HK", "Sk"), trick_thirds("H4", "S7")
    (26, 2)
    """
    return pile_thirds([first, second])


def points(thirds: int) -> int:
    """Thirds rounded to points: 1/3 rounds down, 2/3 rounds up.

    >>> [points(t) for t in (105, 106, 107)]
    [35, 35, 36]
    """
    whole, rest = divmod(thirds, 3)
    return whole + (1 if rest == 2 else 0)


def legal_cards(hand: Iterable[str], led: str | None) -> set[str]:
    """The cards of ``hand`` that may be played: any card to lead; on a led
    card, its suit if held, else a tarock if held, else any card.

    >>> sorted(legal_cards(["HK", "XX", "S7"], "H4"))
    ['HK']
    >>> sorted(legal_cards(["XX", "II", "S7"], "H4"))
    ['II', 'XX']
    >>> sorted(legal_cards(["S7", "CK"], "XX"))
    ['CK', 'S7']
    """
    cards = set(hand)
    if led is None:
        return cards
    same_suit = {name for name in cards if suit(name) == suit(led)}
    if same_suit:
        return same_suit
    tarocks = {name for name in cards if suit(name) == TAROCK}
    if tarocks:
        return tarocks
    return cards


def trick_winner(led: str, reply: str) -> int:
    """0 if the led card takes the trick, 1 if the reply does: the higher
    tarock wins; with no tarock in the trick, the higher card of the led suit.

    >>> trick_winner("HK", "H4"), trick_winner("HK", "I"), trick_winner("H4", "SK")
    (0, 1, 0)
    """
    if suit(led) == TAROCK and suit(reply) == TAROCK:
        return 1 if rank(reply) > rank(led) else 0
    if suit(reply) == TAROCK:
        return 1
    if suit(reply) == suit(led) and rank(reply) > rank(led):
        return 1
    return 0


def other(seat: str) -> str:
    """The other seat.

    >>> other("forehand")
    'dealer'
    """
    return SEATS[1 - SEATS.index(seat)]


Hands = tuple[frozenset[str], frozenset[str]]
"""The forehand's and the dealer's cards."""


def play(hands: Hands, leader: str, led: str | None, card: str, declarer: str) -> tuple[Hands, str, str | None, int]:
    """Play ``card`` for the side to move.

    Returns the hands after it, the leader and the led card of the trick then
    in progress, and the thirds the card gave the declarer (the trick's
    worth if it completed a trick the declarer won, else 0).  An illegal card
    is a ValueError.

    >>> hands = (frozenset({"HK"}), frozenset({"I"}))
    >>> play(hands, "forehand", None, "HK", "dealer")
    ((frozenset(), frozenset({'I'})), 'forehand', 'HK', 0)
    >>> play((frozenset(), frozenset({"I"})), "forehand", "HK", "I", "dealer")
    ((frozenset(), frozenset()), 'dealer', None, 26)
    """
    mover = leader if led is None else other(leader)
    hand = hands[SEATS.index(mover)]
    if card not in legal_cards(hand, led):
        raise ReferenceInputError(f"{card} is not a legal card for the {mover} (holding {sorted(hand)}, led {led})")
    rest = hand - {card}
    after: Hands = (rest, hands[1]) if mover == "forehand" else (hands[0], rest)
    if led is None:
        return after, leader, card, 0
    winner = other(leader) if trick_winner(led, card) == 1 else leader
    gain = trick_thirds(led, card) if winner == declarer else 0
    return after, winner, None, gain


def _check(forehand: Iterable[str], dealer: Iterable[str], leader: str, declarer: str, led: str | None) -> Hands:
    fh = [check_name(name) for name in forehand]
    dl = [check_name(name) for name in dealer]
    if leader not in SEATS or declarer not in SEATS:
        raise ReferenceInputError(f"seats are 'forehand' or 'dealer', not {leader!r} / {declarer!r}")
    everything = fh + dl + ([check_name(led)] if led is not None else [])
    if len(set(everything)) != len(everything):
        raise ReferenceInputError("a card is named twice")
    lead_count, follow_count = (len(fh), len(dl)) if leader == "forehand" else (len(dl), len(fh))
    if lead_count + (1 if led is not None else 0) != follow_count:
        raise ReferenceInputError("the leader must hold as many cards as the follower, one fewer with a card led")
    return frozenset(fh), frozenset(dl)


def _future(declarer: str) -> Callable[[Hands, str, str | None], int]:
    """The minimax value function for one declarer, remembering positions."""

    @cache
    def future(hands: Hands, leader: str, led: str | None) -> int:
        if led is None and not (hands[0] or hands[1]):
            return 0
        mover = leader if led is None else other(leader)
        values = []
        for card in legal_cards(hands[SEATS.index(mover)], led):
            after, next_leader, next_led, gain = play(hands, leader, led, card, declarer)
            values.append(gain + future(after, next_leader, next_led))
        return max(values) if mover == declarer else min(values)

    return future


def reference_move_values(
    forehand: Iterable[str], dealer: Iterable[str], leader: str, declarer: str, led: str | None = None
) -> dict[str, int]:
    """For every legal card of the side to move, the declarer's future thirds
    after playing it, counting what that card's trick gives if it completes
    one.

    >>> reference_move_values(["I"], ["XX"], leader="forehand", declarer="dealer")
    {'I': 14}
    >>> reference_move_values(["S7"], ["HK", "XX"], leader="forehand", declarer="dealer", led="I")
    {'XX': 28}
    """
    hands = _check(forehand, dealer, leader, declarer, led)
    mover = leader if led is None else other(leader)
    future = _future(declarer)
    result = {}
    for card in sorted(legal_cards(hands[SEATS.index(mover)], led), key=_DECK_ORDER.index):
        after, next_leader, next_led, gain = play(hands, leader, led, card, declarer)
        result[card] = gain + future(after, next_leader, next_led)
    return result


def reference_value(
    forehand: Iterable[str], dealer: Iterable[str], leader: str, declarer: str, led: str | None = None
) -> int:
    """The declarer's future thirds with best play by both sides.

    >>> reference_value(["S7"], ["SK"], leader="forehand", declarer="dealer")
    14
    >>> reference_value([], ["SK"], leader="forehand", declarer="forehand", led="S7")
    0
    """
    hands = _check(forehand, dealer, leader, declarer, led)
    return _future(declarer)(hands, leader, led)


BIRD_TRICKS = {"I": 16, "II": 15, "III": 14, "IV": 13}
"""The trick each bird must win itself (docs/rules.md §5)."""


def reference_goal(
    forehand: Iterable[str],
    dealer: Iterable[str],
    leader: str,
    owner: str,
    led: str | None = None,
    *,
    goal: str,
    need: int = 0,
) -> bool:
    """Whether ``owner`` can force ``goal`` against every defence.

    ``goal`` is ``"valat"`` (he wins every trick still to play) or a bird,
    ``"I"`` to ``"IV"`` (that card of his wins its trick, 16 to 13, itself).
    With ``need`` > 0 he must also take at least ``need`` more thirds, by the
    same strategy.  Trick numbers count back from the last: with k cards in
    each hand the trick about to start is trick 17 - k.

    >>> reference_goal(["I", "XXI"], ["HK", "H4"], "forehand", "forehand", goal="I")
    True
    >>> reference_goal(["I", "HK"], ["XX", "H4"], "forehand", "forehand", goal="I")
    False
    >>> reference_goal(["I", "XXI"], ["HK", "H4"], "forehand", "forehand", goal="valat", need=40)
    True
    >>> reference_goal(["I", "XXI"], ["HK", "H4"], "forehand", "forehand", goal="valat", need=41)
    False
    """
    hands = _check(forehand, dealer, leader, owner, led)
    if goal != "valat":
        bird_trick = BIRD_TRICKS[goal]
        if goal not in hands[SEATS.index(owner)] and not (led == goal and leader == owner):
            return False

    # The most thirds the owner can take on lines that keep the goal, or
    # None when the other player can break it.
    @cache
    def best(hands: Hands, leader: str, led: str | None, met: bool) -> int | None:
        if led is None and not (hands[0] or hands[1]):
            return 0 if goal == "valat" or met else None
        mover = leader if led is None else other(leader)
        trick = 17 - len(hands[SEATS.index(other(leader))]) if led is not None else 0
        outcomes: list[int | None] = []
        for card in legal_cards(hands[SEATS.index(mover)], led):
            after, next_leader, next_led, gain = play(hands, leader, led, card, owner)
            now_met = met
            if led is not None:  # the card completed a trick, won by next_leader
                if goal == "valat" and next_leader != owner:
                    outcomes.append(None)
                    continue
                if goal in (led, card):
                    if trick != bird_trick or next_leader != owner:
                        outcomes.append(None)
                        continue
                    now_met = True
            rest = best(after, next_leader, next_led, now_met)
            outcomes.append(None if rest is None else gain + rest)
        kept = [o for o in outcomes if o is not None]
        if mover == owner:
            return max(kept) if kept else None
        return None if len(kept) < len(outcomes) else min(kept)

    result = best(hands, leader, led, False)
    return result is not None and result >= need
