"""Deals with conditions: a small language of conditions over each seat's
cards and the auction's outcome, and the dealer that keeps the deals
meeting one (``kosolve deal --where``, docs/statistics.md).

A condition is read by a parser of its own and compiled to Python
closures; nothing of it reaches :func:`eval`, and only the names, seat
attributes and operators listed below exist::

    >>> import random
    >>> rich = where("forehand.tarocks >= 10 and 'I' in forehand.hand")
    >>> rich
    Condition("forehand.tarocks >= 10 and 'I' in forehand.hand")
    >>> kept = list(dealt_where(random.Random(1), rich, count=2))
    >>> [(rich(file), tried) for file, tried in kept]
    [(True, 10), (True, 11)]

The names: ``forehand``, ``dealer``, ``declarer`` and ``defender`` (the
seats), ``contract`` (``'dreiblatt'``, ``'zweiblatt'``, ``'einblatt'`` or
``'solo'``) and ``talon`` (its six cards).  A seat's attributes:
``hand`` (his 16 cards), ``tarocks``, ``kings``, ``trull`` (how many of
Pagat, Mond and Sküs), ``birds`` (how many of I to IV), ``hearts``,
``diamonds``, ``spades``, ``clubs`` (the cards of each suit), ``voids``
(suits without a card) and ``points`` (the card points of his 16 cards,
thirds as fractions: 23.333...).  The operators: ``or``, ``and``,
``not``, the comparisons ``== != < <= > >=`` (chained as in Python:
``8 <= dealer.tarocks <= 10``), ``in`` and ``not in`` (a card name in a
hand), ``+`` and ``-`` of numbers, and parentheses.  Literals: numbers,
strings in single or double quotes, ``true`` and ``false``.

A seat's hand is his 16 cards as the deal is written: at trick 1 (the
declarer's after his talon exchange) by default, as dealt (after the
pick-up, before the exchange) with ``as_dealt``, as ``kosolve deal
--dealt`` writes them.  A condition that cannot be read raises
:class:`WhereError`, whose message says at which character.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Final

from kosolve.dealing.dealer import deal_bid
from kosolve.model.cards import (
    BIRD_CARDS,
    CARD_NAMES,
    KINGS,
    SUIT_MASKS,
    SUIT_NAMES,
    TAROCK,
    TRULL,
    Hand,
    mask_of,
    parse_card,
    thirds_of,
)
from kosolve.model.deal import Deal
from kosolve.model.dealt_file import DealtFile
from kosolve.model.game import CONTRACTS, DEFAULT_RULES, FOREHAND, Seat

Value = bool | int | float | str
"""What an expression yields for one deal (a hand is its bitmask)."""


@dataclass(frozen=True)
class Facts:
    """What a condition reads of one deal: each seat's 16 cards (by seat),
    the declarer, the contract and the talon."""

    hands: tuple[Hand, Hand]
    declarer: Seat
    contract: str
    talon: Hand | None
    """None for a play file, which does not say which cards were the talon."""

    @classmethod
    def of(cls, file: DealtFile, as_dealt: bool = False) -> Facts:
        """The facts of a deal as dealt with its bid and exchange: the
        hands at trick 1, or as dealt with ``as_dealt``."""
        dealt = file.dealt
        assert file.declarer is not None and file.contract is not None, "a deal of the dealer has its bid"
        hands = [dealt.held(FOREHAND), dealt.held(1 - FOREHAND)]
        if not as_dealt and file.exchange is not None:
            seat = file.declarer
            hands[seat] = (hands[seat] | mask_of(file.exchange.take)) & ~file.exchange.lay_away
        return cls((hands[0], hands[1]), file.declarer, file.contract, mask_of(dealt.talon))

    @classmethod
    def of_deal(cls, deal: Deal) -> Facts:
        """The facts of a play file of a whole game: its hands at trick 1
        (whatever it played since), no talon."""
        if deal.first_trick != 1:
            raise ValueError(f"a condition reads whole games; this one starts at trick {deal.first_trick}")
        return cls(deal.hands, deal.declarer, deal.contract, None)


Compiled = Callable[[Facts], Value]

# The types an expression can have, checked before any deal is dealt.
NUMBER: Final = "a number"
STRING: Final = "a string"
BOOLEAN: Final = "true or false"
HAND: Final = "a hand"
SEAT: Final = "a seat"

SEATS_BY_NAME: Final[dict[str, Callable[[Facts], Seat]]] = {
    "forehand": lambda facts: FOREHAND,
    "dealer": lambda facts: 1 - FOREHAND,
    "declarer": lambda facts: facts.declarer,
    "defender": lambda facts: 1 - facts.declarer,
}
"""The seats a condition names, each the seat it is in a deal's facts."""
NAMES: Final = (*SEATS_BY_NAME, "contract", "talon")
"""The names a condition may use."""


def _count(mask: Hand) -> Callable[[Hand], int]:
    return lambda hand: (hand & mask).bit_count()


_SUITS: Final = {SUIT_NAMES[suit]: SUIT_MASKS[suit] for suit in range(TAROCK + 1)}
_ATTRIBUTES: Final[dict[str, tuple[str, Callable[[Hand], Value]]]] = {
    "hand": (HAND, lambda hand: hand),
    **{name: (NUMBER, _count(mask)) for name, mask in _SUITS.items()},
    "kings": (NUMBER, _count(KINGS)),
    "trull": (NUMBER, _count(TRULL)),
    "birds": (NUMBER, _count(BIRD_CARDS)),
    "voids": (NUMBER, lambda hand: sum(not hand & SUIT_MASKS[suit] for suit in range(TAROCK))),
    "points": (NUMBER, lambda hand: thirds_of(hand) / 3),
}
MAX_NESTING: Final = 40
"""The deepest a condition nests parentheses, ``not`` and ``-``: deep
enough for anyone, shallow enough for the parser's recursion."""
ATTRIBUTES: Final = tuple(_ATTRIBUTES)
"""The attributes of a seat."""
MEASURES: Final[dict[str, Callable[[Hand], Value]]] = {name: read for name, (_, read) in _ATTRIBUTES.items()}
"""What each attribute reads of a seat's 16 cards (a hand is its mask):
for a caller that wants the figures, not a condition (``kosolve stats``)."""

_TOKEN: Final = re.compile(
    r"""\s*(?:
    (?P<number>[0-9]+(?:\.[0-9]+)?)
    |(?P<string>'[^']*'|"[^"]*")
    |(?P<name>[A-Za-z_][A-Za-z_0-9]*)
    |(?P<operator>==|!=|<=|>=|<|>|\+|-|\(|\)|\.)
    )""",
    re.VERBOSE,
)
_KEYWORDS: Final = ("and", "or", "not", "in", "true", "false")
_COMPARISONS: Final = ("==", "!=", "<", "<=", ">", ">=")
_ORDER: Final[dict[str, Callable[[Value, Value], bool]]] = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,  # type: ignore[operator]
    "<=": lambda a, b: a <= b,  # type: ignore[operator]
    ">": lambda a, b: a > b,  # type: ignore[operator]
    ">=": lambda a, b: a >= b,  # type: ignore[operator]
}


class WhereError(ValueError):
    """A condition that cannot be read: the message names the character
    (from 1) where the trouble is."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(f"at character {position}: {message}")
        self.position = position


@dataclass(frozen=True)
class _Token:
    kind: str
    text: str
    position: int
    """From 1, as a person counts."""


def _tokens(text: str) -> list[_Token]:
    tokens = []
    place = 0
    while place < len(text):
        found = _TOKEN.match(text, place)
        if found is None or found.end() == place:
            rest = text[place:].lstrip()
            if not rest:
                break
            where_at = len(text) - len(rest) + 1
            raise WhereError(f"{rest[0]!r} is not part of the language", where_at)
        kind = found.lastgroup
        assert kind is not None
        tokens.append(_Token(kind, found.group(kind), found.start(kind) + 1))
        place = found.end()
    tokens.append(_Token("end", "", len(text) + 1))
    return tokens


@dataclass(frozen=True)
class _Typed:
    """A compiled piece of a condition, its type and where it starts."""

    run: Compiled
    type: str
    position: int
    literal: str | None = None
    """The text of a string literal, to check it against what it is compared with."""


class _Parser:
    """A recursive descent over the tokens, one method a level of precedence:
    or, and, not, comparison, sum, atom."""

    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.place = 0
        self.depth = 0

    def nested(self, token: _Token) -> None:
        """One level deeper (a parenthesis, a ``not``, a ``-``), refused
        past :data:`MAX_NESTING`: each level is a call of the parser."""
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise WhereError(f"nested deeper than {MAX_NESTING} levels", token.position)

    @property
    def token(self) -> _Token:
        return self.tokens[self.place]

    def take(self, *texts: str) -> _Token | None:
        token = self.token
        if token.kind in ("operator", "name") and token.text in texts:
            self.place += 1
            return token
        return None

    def condition(self) -> _Typed:
        whole = self.disjunction()
        if self.token.kind != "end":
            raise WhereError(f"{self.token.text!r} where the condition should end", self.token.position)
        self.boolean(whole, "the condition")
        return whole

    def boolean(self, part: _Typed, role: str) -> None:
        if part.type != BOOLEAN:
            raise WhereError(f"{role} must be true or false, not {part.type}", part.position)

    def disjunction(self) -> _Typed:
        return self.joined("or", self.conjunction, any)

    def conjunction(self) -> _Typed:
        return self.joined("and", self.negation, all)

    def joined(self, word: str, operand: Callable[[], _Typed], combine: Callable[[Iterator[Value]], bool]) -> _Typed:
        """Operands joined by ``word`` (``or``, ``and``), each true or false."""
        first = operand()
        parts = [first]
        while self.take(word):
            parts.append(operand())
        if len(parts) == 1:
            return first
        for part in parts:
            self.boolean(part, f"each side of {word!r}")
        runs = tuple(part.run for part in parts)
        return _Typed(lambda facts: combine(run(facts) for run in runs), BOOLEAN, first.position)

    def negation(self) -> _Typed:
        token = self.take("not")
        if token is None:
            return self.comparison()
        self.nested(token)
        inner = self.negation()
        self.depth -= 1
        self.boolean(inner, "what 'not' negates")
        run = inner.run
        return _Typed(lambda facts: not run(facts), BOOLEAN, token.position)

    def comparison(self) -> _Typed:
        left = self.sum()
        tests: list[Compiled] = []
        while True:
            token = self.token
            if self.take(*_COMPARISONS):
                right = self.sum()
                tests.append(self.compare(left, token, right))
            elif self.take("in"):
                right = self.sum()
                tests.append(self.membership(left, right, negated=False))
            elif token.text == "not" and self.tokens[self.place + 1].text == "in":
                self.place += 2
                right = self.sum()
                tests.append(self.membership(left, right, negated=True))
            else:
                break
            # Chained as in Python: a < b < c is a < b and b < c.
            left = right
        if not tests:
            return left
        if len(tests) == 1:
            return _Typed(tests[0], BOOLEAN, left.position)
        chain = tuple(tests)
        return _Typed(lambda facts: all(test(facts) for test in chain), BOOLEAN, left.position)

    def compare(self, left: _Typed, operator: _Token, right: _Typed) -> Compiled:
        if left.type != right.type:
            raise WhereError(f"{operator.text!r} compares {left.type} with {right.type}", operator.position)
        if operator.text not in ("==", "!=") and left.type != NUMBER:
            raise WhereError(f"{operator.text!r} orders numbers, not {left.type}", operator.position)
        if left.type == HAND:
            raise WhereError(f"{operator.text!r} cannot compare hands: ask 'CARD in' one", operator.position)
        sides = [left, right]
        for place, (one, other) in enumerate(((left, right), (right, left))):
            if one.literal is not None and other.literal is None and other.type == STRING:
                sides[place] = self.contract_named(one)
        test, first, second = _ORDER[operator.text], sides[0].run, sides[1].run
        return lambda facts: test(first(facts), second(facts))

    def contract_named(self, literal: _Typed) -> _Typed:
        """The contract a string compared with ``contract`` names, in any
        letter case as the command line takes it; a misspelt one would keep
        nothing, so it is refused."""
        assert literal.literal is not None
        name = literal.literal.lower()
        if name not in CONTRACTS:
            raise WhereError(f"{literal.literal!r} is not a contract ({', '.join(CONTRACTS)})", literal.position)
        return _Typed(lambda facts: name, STRING, literal.position, literal=name)

    def membership(self, card: _Typed, hand: _Typed, negated: bool) -> Compiled:
        if hand.type != HAND:
            raise WhereError(f"'in' looks for a card in a hand, not in {hand.type}", hand.position)
        if card.literal is None:
            raise WhereError(f"'in' needs a card's name in quotes before it, not {card.type}", card.position)
        try:
            bit = 1 << parse_card(card.literal)
        except ValueError:
            raise WhereError(
                f"{card.literal!r} is not a card (named as in deal files: {CARD_NAMES[-1]}, XXI ... I, HK ... C7)",
                card.position,
            ) from None
        cards = hand.run
        if negated:
            return lambda facts: not cards(facts) & bit  # type: ignore[operator]
        return lambda facts: bool(cards(facts) & bit)  # type: ignore[operator]

    def sum(self) -> _Typed:
        first = self.atom()
        terms: list[tuple[int, Compiled]] = []
        while (token := self.take("+", "-")) is not None:
            term = self.atom()
            for part in (first, term):
                if part.type != NUMBER:
                    raise WhereError(f"{token.text!r} adds numbers, not {part.type}", part.position)
            terms.append((1 if token.text == "+" else -1, term.run))
        if not terms:
            return first
        return _Typed(_total(first.run, tuple(terms)), NUMBER, first.position)

    def atom(self) -> _Typed:
        token = self.token
        self.place += 1
        if token.kind == "number":
            try:
                number: Value = float(token.text) if "." in token.text else int(token.text)
            except ValueError:
                # Past Python's 4,300 digits of a whole number.
                raise WhereError(f"a number of {len(token.text):,} digits is too long", token.position) from None
            return _Typed(lambda facts: number, NUMBER, token.position)
        if token.kind == "string":
            text = token.text[1:-1]
            return _Typed(lambda facts: text, STRING, token.position, literal=text)
        if token.text == "(":
            self.nested(token)
            inner = self.disjunction()
            if self.take(")") is None:
                raise WhereError(f"expected ')' to close the '(' at character {token.position}", self.token.position)
            self.depth -= 1
            return inner
        if token.text == "-":
            self.nested(token)
            negated = self.atom()
            self.depth -= 1
            if negated.type != NUMBER:
                raise WhereError(f"'-' negates numbers, not {negated.type}", negated.position)
            run = negated.run
            return _Typed(lambda facts: -run(facts), NUMBER, token.position)  # type: ignore[operator]
        if token.kind == "name" and token.text in ("true", "false"):
            truth = token.text == "true"
            return _Typed(lambda facts: truth, BOOLEAN, token.position)
        if token.kind == "name" and token.text not in _KEYWORDS:
            return self.name(token)
        shown = "the end of the condition" if token.kind == "end" else repr(token.text)
        raise WhereError(f"expected a value, got {shown}", token.position)

    def name(self, token: _Token) -> _Typed:
        if token.text == "contract":
            return _Typed(lambda facts: facts.contract, STRING, token.position)
        if token.text == "talon":
            return _Typed(partial(_talon, token.position), HAND, token.position)
        seat = SEATS_BY_NAME.get(token.text)
        if seat is None:
            raise WhereError(f"unknown name {token.text!r} (the names: {', '.join(NAMES)})", token.position)
        if self.take(".") is None:
            return _Typed(seat, SEAT, token.position)
        attribute = self.token
        self.place += 1
        known = _ATTRIBUTES.get(attribute.text) if attribute.kind == "name" else None
        if known is None:
            raise WhereError(
                f"a seat has no {attribute.text or 'attribute'!r} (its attributes: {', '.join(ATTRIBUTES)})",
                attribute.position,
            )
        kind, read = known
        return _Typed(lambda facts: read(facts.hands[seat(facts)]), kind, token.position)


def _talon(position: int, facts: Facts) -> Hand:
    if facts.talon is None:
        raise WhereError("'talon': a play file does not say which cards were the talon", position)
    return facts.talon


def _total(first: Compiled, terms: tuple[tuple[int, Compiled], ...]) -> Compiled:
    """A sum of numbers added in a loop, not a closure a term: a long sum
    must not run into Python's recursion limit."""

    def run(facts: Facts) -> Value:
        total = first(facts)
        for sign, term in terms:
            total += sign * term(facts)  # type: ignore[operator]
        return total

    return run


class Condition:
    """A condition read from ``text`` (see the module text), callable on a
    deal as dealt with its bid: whether the deal meets it."""

    def __init__(self, text: str, as_dealt: bool = False) -> None:
        self.text = text
        self.as_dealt = as_dealt
        self._run = _Parser(text).condition().run

    def __repr__(self) -> str:
        dealt = ", as_dealt=True" if self.as_dealt else ""
        return f"Condition({self.text!r}{dealt})"

    def __call__(self, file: DealtFile) -> bool:
        return self.holds(Facts.of(file, self.as_dealt))

    def holds(self, facts: Facts) -> bool:
        """Whether the deal of ``facts`` meets the condition (a play file's
        too: :meth:`Facts.of_deal`); one that names the talon of a play
        file raises :class:`WhereError`."""
        return bool(self._run(facts))


def where(text: str, as_dealt: bool = False) -> Condition:
    """The condition ``text``, over the hands at trick 1 or, with
    ``as_dealt``, as dealt; raises :class:`WhereError`."""
    return Condition(text, as_dealt)


def dealt_where(
    rng: random.Random,
    keep: Callable[[DealtFile], bool],
    *,
    count: int | None = None,
    tries: int | None = None,
    contract: str | None = None,
    declarer: Seat | None = None,
    discard: str = DEFAULT_RULES.discard,
) -> Iterator[tuple[DealtFile, int]]:
    """The deals of :func:`~kosolve.dealing.dealer.deal_bid` from ``rng``
    that ``keep`` (a :class:`Condition` or any predicate), each with the
    number of deals tried so far: exactly the deals of the dealer without
    a condition, filtered.  Stops after ``count`` deals kept or ``tries``
    deals tried (None: no bound)."""
    tried = kept = 0
    while (count is None or kept < count) and (tries is None or tried < tries):
        file = deal_bid(rng, contract, declarer, discard)
        tried += 1
        if keep(file):
            kept += 1
            yield file, tried


__all__ = [
    "ATTRIBUTES",
    "MEASURES",
    "NAMES",
    "SEATS_BY_NAME",
    "Condition",
    "Facts",
    "WhereError",
    "dealt_where",
    "where",
]
