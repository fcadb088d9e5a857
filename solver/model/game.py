"""The rules of play: seats, contracts, following suit, trick winners, and a
mutable :class:`Position` with ``push``/``pop`` and a ``legal_moves`` view.

>>> from kosolve.model.cards import parse_hand, card_name
>>> pos = Position((parse_hand(["HK", "XX"]), parse_hand(["H4", "I"])), declarer=FOREHAND)
>>> [card_name(c) for c in pos.legal_moves]
['HK', 'XX']
>>> pos.push_name("HK"); [card_name(c) for c in pos.legal_moves]
['H4']
>>> pos.push_name("H4"); pos.leader == FOREHAND, pos.trick_thirds[FOREHAND]
(True, 14)
>>> pos.push_name("XX"); pos.tricks
(Trick(number=15, leader=0, cards=('HK', 'H4'), winner=0), Trick(number=16, leader=0, cards=('XX',), winner=None))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Final, TypeAlias, overload

from kosolve.model.cards import (
    CARD_VALUES,
    SUIT_MASKS,
    TAROCK,
    Card,
    Hand,
    card_name,
    cards_of,
    hand_names,
    parse_card,
    suit_of,
    thirds_of,
)
from kosolve.model.quoting import quote
from kosolve.model.svg import hands_svg

Seat: TypeAlias = int
FOREHAND: Final = 0
DEALER: Final = 1
SEATS: Final = (FOREHAND, DEALER)
SEAT_NAMES: Final = ("forehand", "dealer")

CONTRACTS: Final = ("dreiblatt", "zweiblatt", "einblatt", "solo")
GAME_VALUES: Final = {"dreiblatt": 3, "zweiblatt": 6, "einblatt": 9, "solo": 12}
TALON_CARDS_TAKEN: Final = {"dreiblatt": 3, "zweiblatt": 2, "einblatt": 1, "solo": 0}
TALON_SIZE: Final = 6
"""The talon's cards (docs/rules.md §3.2): those the declarer does not
take lie in the defender's pile."""

DISCARD_VARIANTS: Final = ("classic", "medium", "easy", "tactical")
"""The discard variants (docs/rules.md §3.3), classic the default."""

TRICKS_PER_GAME: Final = 16
NO_CARD: Final = -1
"""The led card of a position at a trick boundary, as the search takes it."""


class IllegalMoveError(ValueError):
    """A card that the player to move may not play."""


class OptionError(ValueError):
    """A problem an option decides: ``option`` names it as its field (of
    :class:`Rules`, or of the analyses' options), which each front end shows
    its own way (the command line as its switch, ``--kontra``).  With
    ``given`` the option as given is at fault (a position beyond the play);
    without, the option is the remedy (a Kontra needs ``kontra`` on)."""

    def __init__(self, message: str, option: str | None = None, given: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.option = option
        self.given = given

    def __str__(self) -> str:
        return self.shown(lambda option: option, "rule option")

    def shown(self, name_of: Callable[[str], str], remedy: str = "use") -> str:
        """The message, the option named by ``name_of``: before it when the
        option given is at fault, after it (``(use --kontra)``) when the
        option would allow what is refused."""
        if self.option is None:
            return self.message
        if self.given:
            return f"{name_of(self.option)}: {self.message}"
        return f"{self.message} ({remedy} {name_of(self.option)})"

    def __reduce__(self) -> tuple[type[OptionError], tuple[str, str | None, bool]]:
        # Raised in a worker process, it is pickled back with its fields.
        return type(self), (self.message, self.option, self.given)


class RulesError(OptionError):
    """A rule option set to a value the rules do not know."""

    def __init__(self, message: str, option: str | None = None, given: bool = True) -> None:
        super().__init__(message, option, given)


class SeatError(ValueError):
    """A name that names no seat."""


def parse_seat(name: str) -> Seat:
    """The seat with the given name.

    >>> parse_seat("dealer") == DEALER
    True
    """
    try:
        return SEAT_NAMES.index(name)
    except ValueError:
        raise SeatError(f"unknown seat {quote(name)} (expected forehand or dealer)") from None


SeatLike: TypeAlias = Seat | str
"""A seat as a caller may give it: the int of :data:`SEATS` or its name."""


def as_seat(seat: SeatLike) -> Seat:
    """``seat`` as the model's int: a seat's name (``"forehand"``,
    ``"dealer"``) is read, an int of :data:`SEATS` kept.

    >>> as_seat("dealer") == as_seat(DEALER) == DEALER
    True
    >>> as_seat(2)
    Traceback (most recent call last):
    ...
    kosolve.model.game.SeatError: unknown seat 2 (expected forehand or dealer, or 0 or 1)
    """
    if isinstance(seat, str):
        return parse_seat(seat)
    if seat in SEATS and not isinstance(seat, bool):
        return seat
    raise SeatError(f"unknown seat {seat!r} (expected forehand or dealer, or 0 or 1)")


def seat_name(seat: Seat) -> str:
    """The name of a seat: ``"forehand"`` or ``"dealer"``."""
    return SEAT_NAMES[seat]


def _option(default: object, help: str, choices: tuple[object, ...] = ()) -> Any:
    """A rule option's field: its default, what it does (the help each front
    end shows: the command line's switch, the web page's label) and, unless
    it is a switch on or off, the values it takes."""
    return field(default=default, metadata={"help": help, "choices": choices})


@dataclass(frozen=True)
class Rules:
    """The rule options (docs/rules.md §8): who wins (§2), and what the
    settling allows and counts (§5, §6).  Every default is the rules'
    decision; each field says what it does and, unless it is on or off,
    which values it takes (the command line makes its switches of them).

    >>> Rules().win_thirds, Rules(win_thirds=106).win_thirds, Rules().discard
    (107, 106, 'classic')
    >>> Rules(discard="lazy")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kosolve.model.game.RulesError: discard: 'lazy' is not one of the rule option's values (classic, medium, ...)
    """

    win_thirds: int = _option(
        107,
        "the thirds the declarer needs to win: 107 (36 points) or 106 (35⅓ points accepted)",
        (107, 106),
    )
    """The declarer wins the game with at least this many thirds: 107 (36
    points) by default, 106 where 35⅓ points are accepted."""
    silent_bird_penalty: bool = _option(False, "a silent bird played in its trick and beaten costs its silent value")
    """Whether a silent bird played in its trick and beaten costs its silent
    value (to the player who beat it)."""
    defender_announcements: bool = _option(False, "the defender may announce a bird or the Valat")
    """Whether the defender may announce a bird or the Valat."""
    kontra: bool = _option(False, "a Kontra on an announcement doubles it")
    """Whether an announcement may carry a Kontra, which doubles it."""
    discard: str = _option(
        "classic", "the discard variant, which decides the cards a deal as dealt may lay away", DISCARD_VARIANTS
    )
    """The discard variant (:data:`DISCARD_VARIANTS`): which cards a player
    may lay away before play and in the talon exchange.  The play search
    does not depend on it; it judges deals as dealt and realistic dealing."""

    def __post_init__(self) -> None:
        for option in fields(self):
            choices = option.metadata["choices"]
            value = getattr(self, option.name)
            if choices and value not in choices:
                names = [str(choice) for choice in choices]
                shown = quote(value) if isinstance(value, str) else repr(value)
                values = f"{', '.join(names[:-1])} or {names[-1]}"
                raise RulesError(f"{shown} is not one of the rule option's values ({values})", option.name)


DEFAULT_RULES: Final = Rules()
"""The rules as decided, every option at its default."""


def legal_replies(hand: Hand, led: Card) -> Hand:
    """The cards of ``hand`` that may answer the card ``led``: the led suit if
    held, else a tarock if held, else any card.

    >>> from kosolve.model.cards import parse_hand, hand_names, HK
    >>> hand_names(legal_replies(parse_hand(["XX", "S7", "C7"]), HK))
    ['XX']
    """
    follow = hand & SUIT_MASKS[suit_of(led)]
    if follow:
        return follow
    trumps = hand & SUIT_MASKS[TAROCK]
    return trumps if trumps else hand


def reply_wins(led: Card, reply: Card) -> bool:
    """Whether ``reply`` beats the card ``led``: the higher tarock wins, and
    with no tarock in the trick the higher card of the led suit.

    >>> from kosolve.model.cards import HK, H4, PAGAT, SK
    >>> reply_wins(HK, H4), reply_wins(HK, PAGAT), reply_wins(H4, SK)
    (False, True, False)
    """
    if suit_of(reply) == TAROCK:
        return suit_of(led) != TAROCK or reply > led
    return suit_of(reply) == suit_of(led) and reply > led


def trick_thirds(first: Card, second: Card) -> int:
    """What a trick of two cards is worth to its winner, in thirds.

    >>> from kosolve.model.cards import HK, SKUS
    >>> trick_thirds(HK, SKUS)  # 10 - 4/3 points
    26
    """
    return 3 * (CARD_VALUES[first] + CARD_VALUES[second]) - 4


def trick_number_of(index: int, first_trick: int = 1) -> int:
    """The number of the trick that card ``index`` (from 0) of a play falls
    in, two cards a trick, the play starting at trick ``first_trick`` (a
    whole game's, and a seat view's, at 1).  Every count of tricks from
    cards played is this one.

    >>> trick_number_of(0), trick_number_of(7), trick_number_of(2, first_trick=15)
    (1, 4, 16)
    """
    return first_trick + index // 2


@dataclass(frozen=True)
class Trick:
    """One trick of a play: its ``number`` (1 to 16), the seat that
    ``leader`` led it, its ``cards`` in the order played (one while it is
    on the table) and its ``winner`` (None while it is on the table)."""

    number: int
    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat | None

    def __repr__(self) -> str:
        cards = tuple(card_name(card) for card in self.cards)
        return f"Trick(number={self.number}, leader={self.leader}, cards={cards}, winner={self.winner})"

    def played(self) -> tuple[tuple[Seat, Card], ...]:
        """``(seat, card)`` for each card, the lead first."""
        return tuple((self.leader if index == 0 else 1 - self.leader, card) for index, card in enumerate(self.cards))

    @property
    def thirds(self) -> int:
        """What the trick is worth to its winner (0 while it is on the table)."""
        return trick_thirds(*self.cards) if self.winner is not None else 0


def trick_to_json(trick: Trick) -> dict[str, object]:
    """A trick as an answer gives it: its number, leader, cards in play
    order, winner (None while on the table) and the thirds it is worth to
    him (0 while on the table).

    >>> trick_to_json(Trick(15, FOREHAND, (parse_card("HK"), parse_card("I")), DEALER))
    {'number': 15, 'leader': 'forehand', 'cards': ['HK', 'I'], 'winner': 'dealer', 'thirds': 26}
    """
    return {
        "number": trick.number,
        "leader": seat_name(trick.leader),
        "cards": [card_name(card) for card in trick.cards],
        "winner": None if trick.winner is None else seat_name(trick.winner),
        "thirds": trick.thirds,
    }


def tricks_of(cards: Sequence[Card], leader: Seat, first_trick: int = 1) -> tuple[Trick, ...]:
    """``cards`` played from a trick boundary, ``leader`` leading the first
    trick (number ``first_trick``), grouped into tricks: the winner of each
    leads the next.  The rules of play are not checked; the cards need no
    hands, so a seat view's play is grouped as a position's is.

    >>> from kosolve.model.cards import parse_hand, hand_cards
    >>> tricks_of([parse_card(name) for name in ["HK", "I", "S7"]], FOREHAND, first_trick=15)
    (Trick(number=15, leader=0, cards=('HK', 'I'), winner=1), Trick(number=16, leader=1, cards=('S7',), winner=None))
    """
    tricks = []
    for start in range(0, len(cards), 2):
        pair = tuple(cards[start : start + 2])
        number = trick_number_of(start, first_trick)
        if len(pair) == 1:
            tricks.append(Trick(number, leader, pair, None))
            break
        winner = 1 - leader if reply_wins(*pair) else leader
        tricks.append(Trick(number, leader, pair, winner))
        leader = winner
    return tuple(tricks)


class LegalMoves(Sequence[Card]):
    """A live view of the cards the player to move may play, lowest bit
    first."""

    def __init__(self, position: Position) -> None:
        self._position = position

    def mask(self) -> Hand:
        pos = self._position
        hand = pos.hands[pos.turn]
        return legal_replies(hand, pos.trick[0]) if pos.trick else hand

    def __iter__(self) -> Iterator[Card]:
        return reversed(list(cards_of(self.mask())))

    def __len__(self) -> int:
        return self.mask().bit_count()

    @overload
    def __getitem__(self, index: int) -> Card: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Card]: ...

    def __getitem__(self, index: int | slice) -> Card | Sequence[Card]:
        return list(self)[index]

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 64 and bool(self.mask() >> card & 1)

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(card_name(c) for c in self)})>"


class Position:
    """A position of play: both hands, the trick on the table, who leads, and
    what each player has counted so far.

    ``piles`` are the cards already counted for each player before play
    (discards and talon cards); ``None`` means they are unknown and the
    counting covers the tricks only.
    """

    def __init__(
        self,
        hands: tuple[Hand, Hand],
        *,
        declarer: Seat,
        leader: Seat = FOREHAND,
        piles: tuple[Hand, Hand] | None = None,
    ) -> None:
        self.hands = list(hands)
        self.declarer = declarer
        self.leader = leader
        self.piles = piles
        self.first_trick = TRICKS_PER_GAME + 1 - hands[leader].bit_count()
        """The number of the trick these hands start at (1 for a whole game)."""
        self.trick: list[Card] = []
        self.trick_thirds = [0, 0]
        self.tricks_won = [0, 0]
        self.move_stack: list[Card] = []
        self._leaders: list[Seat] = []

    @property
    def turn(self) -> Seat:
        """The seat to play the next card."""
        return self.leader if not self.trick else 1 - self.leader

    @property
    def led(self) -> Card:
        """The card on the table, or :data:`NO_CARD` at a trick boundary."""
        return self.trick[0] if self.trick else NO_CARD

    @property
    def trick_number(self) -> int:
        """The number of the trick the next card falls in: the one on the
        table, else the next to be led (one past the last when the hand is
        over)."""
        return trick_number_of(len(self.move_stack), self.first_trick)

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The tricks played since these hands started, the one on the
        table last, as python-chess keeps its move stack."""
        start = self._leaders[0] if self._leaders else self.leader
        return tricks_of(self.move_stack, start, self.first_trick)

    def line_tricks(self, line: Sequence[Card]) -> tuple[Trick, ...]:
        """The tricks of ``line`` played on from here: the one on the table
        first, when there is one (its lead played before the line)."""
        after = self.copy()
        for card in line:
            after.push(card)
        return after.tricks[self.trick_number - self.first_trick :]

    def is_over(self) -> bool:
        return not self.trick and not (self.hands[0] | self.hands[1])

    def push(self, card: Card) -> None:
        """Play ``card`` for the player to move.

        Raises :class:`IllegalMoveError` with the rule it breaks."""
        seat = self.turn
        hand = self.hands[seat]
        if not hand >> card & 1:
            raise IllegalMoveError(f"{card_name(card)} is not in the {seat_name(seat)}'s hand")
        if self.trick and card not in self.legal_moves:
            led = self.trick[0]
            if hand & SUIT_MASKS[suit_of(led)]:
                rule = "must follow suit" if suit_of(led) != TAROCK else "must follow a tarock lead with a tarock"
            else:
                rule = "cannot follow suit and must play a tarock"
            raise IllegalMoveError(f"{card_name(card)} is illegal on {card_name(led)}: the {seat_name(seat)} {rule}")
        self.hands[seat] = hand & ~(1 << card)
        self.move_stack.append(card)
        self._leaders.append(self.leader)
        if not self.trick:
            self.trick.append(card)
            return
        led = self.trick.pop()
        winner = 1 - self.leader if reply_wins(led, card) else self.leader
        self.trick_thirds[winner] += trick_thirds(led, card)
        self.tricks_won[winner] += 1
        self.leader = winner

    def push_name(self, name: str) -> None:
        self.push(parse_card(name))

    def pop(self) -> Card:
        """Take back the last card played."""
        card = self.move_stack.pop()
        leader = self._leaders.pop()
        if self.trick:
            self.hands[leader] |= 1 << card
            self.trick.clear()
        else:
            self.hands[1 - leader] |= 1 << card
            led = self.move_stack[-1]
            winner = self.leader
            self.trick_thirds[winner] -= trick_thirds(led, card)
            self.tricks_won[winner] -= 1
            self.trick.append(led)
        self.leader = leader
        return card

    def declarer_thirds(self) -> int:
        """The declarer's thirds so far: his pile (when known) and his tricks."""
        pile = thirds_of(self.piles[self.declarer]) if self.piles is not None else 0
        return pile + self.trick_thirds[self.declarer]

    def copy(self) -> Position:
        hands = (self.hands[0], self.hands[1])
        other = Position(hands, declarer=self.declarer, leader=self.leader, piles=self.piles)
        other.first_trick = self.first_trick
        other.trick = list(self.trick)
        other.trick_thirds = list(self.trick_thirds)
        other.tricks_won = list(self.tricks_won)
        other.move_stack = list(self.move_stack)
        other._leaders = list(self._leaders)
        return other

    def __repr__(self) -> str:
        hands = ", ".join(f"{seat_name(s)}={' '.join(hand_names(self.hands[s]))}" for s in SEATS)
        table = f", table={card_name(self.trick[0])}" if self.trick else ""
        return f"<Position {hands}, leader={seat_name(self.leader)}{table}>"

    def svg(self, title: str | None = None) -> str:
        """Both hands by suit as an SVG picture (:mod:`kosolve.model.svg`),
        under ``title`` (by default: the trick and who plays)."""
        if title is None:
            table = f"; {card_name(self.trick[0])} on the table" if self.trick else ""
            title = f"trick {self.trick_number}, the {seat_name(self.turn)} to play{table}"
        rows: list[tuple[str, Hand, dict[str, str]]] = [(seat_name(s), self.hands[s], {}) for s in (DEALER, FOREHAND)]
        return hands_svg(rows, title)

    def _repr_svg_(self) -> str:
        """The picture a notebook shows (:meth:`svg`)."""
        return self.svg()
