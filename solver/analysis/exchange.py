"""The exchange table (docs/exchange.md): for a deal as dealt, each player
as declarer, each contract and each talon choice it allows, the best legal
lay-away and its double-dummy result; and for each contract the
announcements the declarer could make with some exchange.

Everything is exact: every legal lay-away is valued, and a lay-away is
left out only when a search proves it cannot matter.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Final

from kosolve.analysis.goals import DECLARER_GOALS, TRICK_GOALS, Goal, goal_thirds
from kosolve.analysis.solving import new_solver
from kosolve.engine import BIRD, Solver
from kosolve.model.announcements import Bird
from kosolve.model.cards import (
    CARD_VALUES,
    KINGS,
    SUIT_MASKS,
    SUITS,
    TRULL,
    Card,
    Hand,
    card_name,
    cards_of,
    hand_names,
    mask_of,
    points_of,
    thirds_of,
)
from kosolve.model.dealt import Dealt, Exchange, lay_aways, talon_choices
from kosolve.model.game import (
    CONTRACTS,
    DEFAULT_RULES,
    FOREHAND,
    SEATS,
    TALON_SIZE,
    Rules,
    Seat,
    seat_name,
)
from kosolve.model.reprs import readable_repr
from kosolve.model.scoring import game_item

MAKEABLE_GOALS: Final = (*TRICK_GOALS, *DECLARER_GOALS)
"""The announcements asked about per contract: each bird and the Valat,
the point targets and holding conditions, each bird or Valat with the win."""

ROWS: Final = len(SEATS) * sum(len(talon_choices(contract, tuple(range(TALON_SIZE)))) for contract in CONTRACTS)
"""The rows of every exchange table: each declarer's talon choices, 2 + 3
+ 6 + 1 (``kosolve exchange --row N`` counts them from 1)."""


class ExchangeTableError(ValueError):
    """A question the exchange table has no answer to."""


def takes_every_trick(future: int, hands: tuple[Hand, Hand]) -> bool:
    """Whether a declarer who takes ``future`` thirds of the tricks still to
    play from ``hands`` takes all of them: every trick is worth at least 2
    thirds to its winner, so he does exactly when he takes every third in
    play."""
    return future == thirds_of(hands[0] | hands[1])


def value_exchange(
    dealt: Dealt, contract: str, declarer: Seat, exchange: Exchange, *, solver: Solver | None = None
) -> tuple[int, bool]:
    """The declarer's final thirds with best play after one ``exchange``, and
    whether he can force every trick: what a row says of its best
    lay-away, for any one (the file's own, say)."""
    position = dealt.play_deal(contract, declarer, exchange).position()
    hands = (position.hands[0], position.hands[1])
    future = (solver or new_solver()).value(*hands, FOREHAND, declarer)
    return position.declarer_thirds() + future, takes_every_trick(future, hands)


@dataclass(frozen=True)
class ExchangeRow:
    """One talon choice of one contract for one declarer: the best legal
    lay-away (the first in :func:`~kosolve.model.dealt.lay_aways` order
    among the best) and the declarer's double-dummy result with it."""

    declarer: Seat
    contract: str
    take: tuple[Card, ...]
    """The talon cards taken, in talon order."""
    lay_away: Hand
    thirds: int
    """The declarer's final thirds with best play: his pile (discards and
    lay-away) and the tricks."""
    valat: bool
    """Whether he can force every trick."""
    win_thirds: int
    lay_aways: int
    """How many legal lay-aways this talon choice has."""
    best_lay_aways: int
    """How many of them reach :attr:`thirds`."""

    def __repr__(self) -> str:
        return readable_repr(self, cards=("take",), hands=("lay_away",))

    @property
    def exchange(self) -> Exchange:
        return Exchange(self.take, self.lay_away)

    @property
    def points(self) -> int:
        """The final points, rounded (docs/rules.md §2)."""
        return points_of(self.thirds)

    @property
    def won(self) -> bool:
        return self.thirds >= self.win_thirds

    @property
    def result(self) -> str:
        return "won" if self.won else "lost"

    @property
    def game_points(self) -> int:
        """The game item from the declarer's side (:func:`~kosolve.model.scoring.game_item`)."""
        return game_item(self.contract, self.won, self.valat)

    def to_json(self) -> dict[str, object]:
        return {
            "declarer": seat_name(self.declarer),
            "contract": self.contract,
            "take": [card_name(c) for c in self.take],
            "lay_away": hand_names(self.lay_away),
            "thirds": self.thirds,
            "points": self.points,
            "result": self.result,
            "valat": self.valat,
            "game_points": self.game_points,
            "lay_aways": self.lay_aways,
            "best_lay_aways": self.best_lay_aways,
        }


@dataclass(frozen=True)
class Makeable:
    """Whether the declarer of ``contract`` could force ``goal`` with some
    legal exchange, and one that makes it (None when none does)."""

    declarer: Seat
    contract: str
    goal: Goal
    exchange: Exchange | None

    @property
    def makeable(self) -> bool:
        return self.exchange is not None

    def to_json(self) -> dict[str, list[str]] | None:
        if self.exchange is None:
            return None
        return {"take": [card_name(c) for c in self.exchange.take], "lay_away": hand_names(self.exchange.lay_away)}


@dataclass(frozen=True)
class ExchangeStats:
    """What the table cost: nodes searched, wall time, and how many
    searches (point probes and exact values, goal searches) were run."""

    nodes: int
    ms: float
    point_searches: int
    goal_searches: int


@dataclass(frozen=True)
class ExchangeTable:
    """The rows of both declarers, all contracts and talon choices (in
    seat, contract and talon order), and the makeable announcements."""

    rows: tuple[ExchangeRow, ...]
    makeable: tuple[Makeable, ...]
    stats: ExchangeStats = field(compare=False)

    def rows_of(self, declarer: Seat, contract: str) -> tuple[ExchangeRow, ...]:
        """The talon choices of one declarer and contract."""
        rows = tuple(r for r in self.rows if r.declarer == declarer and r.contract == contract)
        if not rows:
            raise ExchangeTableError(f"no {contract!r} for the {seat_name(declarer)}")
        return rows

    def best(self, declarer: Seat, contract: str) -> ExchangeRow:
        """The talon choice with the most game points, then thirds (the
        first such in talon order)."""
        return max(self.rows_of(declarer, contract), key=lambda r: (r.game_points, r.thirds))

    def best_game_points(self) -> dict[tuple[Seat, str], int]:
        """Each declarer's and contract's game points with the best
        exchange: what the declarer can count on from the game item."""
        return {(r.declarer, r.contract): self.best(r.declarer, r.contract).game_points for r in self.rows}

    def makeable_exchange(self, declarer: Seat, contract: str, goal: Goal | str) -> Exchange | None:
        """An exchange with which ``declarer`` can force ``goal`` in
        ``contract``; None when no legal exchange makes it."""
        name = goal.name if isinstance(goal, Goal) else goal
        for entry in self.makeable:
            if entry.declarer == declarer and entry.contract == contract and entry.goal.name == name:
                return entry.exchange
        raise ExchangeTableError(f"no goal {name!r} for the {seat_name(declarer)} in {contract!r}")

    def to_json(self) -> dict[str, object]:
        """``{"exchange_table": [row, ...], "makeable": {seat: {contract:
        {goal: {"take", "lay_away"} or null}}}}`` (docs/exchange.md)."""
        makeable: dict[str, dict[str, dict[str, object]]] = {}
        for entry in self.makeable:
            by_contract = makeable.setdefault(seat_name(entry.declarer), {})
            by_contract.setdefault(entry.contract, {})[entry.goal.name] = entry.to_json()
        return {"exchange_table": [r.to_json() for r in self.rows], "makeable": makeable}


def _shape(hands: tuple[Hand, Hand], *, values: bool, bird: Card | None = None) -> tuple[int, ...]:
    """The position at trick 1 up to what decides its play: in each suit,
    the cards in play in rank order, each as its holder, with its value when
    ``values`` (thirds count), and the ``bird`` named.  Two positions of one
    shape map onto each other card for card, keeping suits, ranks, holders
    and what counts, so they have the same value and the same goals: the
    proof that one search serves both."""
    forehand = hands[FOREHAND]
    shape: list[int] = []
    for suit in SUITS:
        for card in cards_of((hands[0] | hands[1]) & SUIT_MASKS[suit]):
            holder = 0 if forehand >> card & 1 else 1
            code = 8 if card == bird else CARD_VALUES[card] if values else 0
            shape.append(2 * code + holder)
        shape.append(-1)
    return tuple(shape)


@dataclass
class _Bounds:
    """What the probes so far proved about a position's future thirds."""

    low: int
    high: int


@dataclass(frozen=True)
class _Option:
    """One legal lay-away of one talon choice, ready to search."""

    lay_away: Hand
    hands: tuple[Hand, Hand]
    pile: int
    """The declarer's pile thirds: discards and the lay-away."""
    bounds: _Bounds


@dataclass(frozen=True)
class _Choice:
    hand: Hand
    """The declarer's cards before the lay-away: held and taken."""
    options: tuple[_Option, ...]
    row: ExchangeRow


class _Searcher:
    """The searches of one table, with what each has proved, keyed by the
    position's shape so that no question is asked twice."""

    def __init__(self, solver: Solver) -> None:
        self.solver = solver
        self.bounds: dict[tuple[Seat, tuple[int, ...]], _Bounds] = {}
        self.goals: dict[tuple[object, ...], bool] = {}
        self.point_searches = 0
        self.goal_searches = 0

    def options(self, dealt: Dealt, declarer: Seat, take: tuple[Card, ...]) -> Iterator[_Option]:
        defender = 1 - declarer
        full = dealt.held(declarer) | mask_of(take)
        discards = thirds_of(dealt.discards[declarer])
        for laid in lay_aways(full, len(take)):
            hands = [0, 0]
            hands[declarer] = full & ~laid
            hands[defender] = dealt.held(defender)
            pair = (hands[0], hands[1])
            key = (declarer, _shape(pair, values=True))
            bounds = self.bounds.get(key)
            if bounds is None:
                bounds = self.bounds[key] = _Bounds(0, thirds_of(pair[0] | pair[1]))
            yield _Option(laid, pair, discards + thirds_of(laid), bounds)

    def reaches(self, option: _Option, declarer: Seat, need: int) -> bool:
        """Whether the declarer takes at least ``need`` future thirds,
        answered from the bounds when they decide it."""
        bounds = option.bounds
        if need <= bounds.low:
            return True
        if need > bounds.high:
            return False
        self.point_searches += 1
        if self.solver.reaches(*option.hands, FOREHAND, declarer, need=need):
            bounds.low = need
            return True
        bounds.high = need - 1
        return False

    def value(self, option: _Option, declarer: Seat, guess: int) -> int:
        bounds = option.bounds
        if bounds.low < bounds.high:
            self.point_searches += 1
            bounds.low = bounds.high = self.solver.value(*option.hands, FOREHAND, declarer, guess=guess)
        return bounds.low

    def known_goal(self, option: _Option, declarer: Seat, bird: Bird, need: int) -> bool | None:
        """What is known of :meth:`goal` without a search."""
        # A bird must win its trick itself: one he does not hold cannot.
        if not option.hands[declarer] >> bird.card & 1:
            return False
        return self.goals.get(self._goal_key(option, declarer, bird, need))

    @staticmethod
    def _goal_key(option: _Option, declarer: Seat, bird: Bird, need: int) -> tuple[object, ...]:
        # Without a thirds target only the tricks count, not what is in them.
        return (declarer, bird.card, need, _shape(option.hands, values=need > 0, bird=bird.card))

    def goal(self, option: _Option, declarer: Seat, bird: Bird, need: int) -> bool:
        """Whether the declarer forces ``bird`` (with ``need`` future thirds
        by the same strategy when ``need`` > 0)."""
        known = self.known_goal(option, declarer, bird, need)
        if known is None:
            self.goal_searches += 1
            known = self.goals[self._goal_key(option, declarer, bird, need)] = self.solver.goal_feasible(
                *option.hands, FOREHAND, declarer, goal=BIRD, bird=bird.card, trick=bird.trick, need=need
            )
        return known


def _best(searcher: _Searcher, declarer: Seat, options: tuple[_Option, ...]) -> int:
    """The most final thirds of any option.  Each option is first asked
    whether it reaches the best so far, which most do not (one null-window
    probe); one that does is asked whether it beats it, and only then
    valued.  Afterwards every option is either proved below the best or
    valued exactly, so the ties need no further search."""
    # Laying away the most valuable cards banks them: a strong first best.
    order = sorted(options, key=lambda o: -o.pile)
    first = order[0]
    best = first.pile + searcher.value(first, declarer, guess=-1)
    for option in order[1:]:
        need = best - option.pile
        if not searcher.reaches(option, declarer, need):
            continue
        # Failing here leaves the option valued exactly: a tie.
        if searcher.reaches(option, declarer, need + 1):
            best = option.pile + searcher.value(option, declarer, guess=need + 1)
    return best


def _row(
    declarer: Seat, contract: str, take: tuple[Card, ...], options: tuple[_Option, ...], best: int, rules: Rules
) -> ExchangeRow:
    """The row of one talon choice whose ``options`` reach at most ``best``
    final thirds, each of them valued exactly or proved below it (as
    :func:`_best` leaves them)."""
    tied = [o for o in options if o.bounds.low == o.bounds.high and o.pile + o.bounds.low == best]
    return ExchangeRow(
        declarer=declarer,
        contract=contract,
        take=take,
        lay_away=tied[0].lay_away,
        thirds=best,
        valat=takes_every_trick(best - tied[0].pile, tied[0].hands),
        win_thirds=rules.win_thirds,
        lay_aways=len(options),
        best_lay_aways=len(tied),
    )


def _choice(
    searcher: _Searcher, dealt: Dealt, declarer: Seat, contract: str, take: tuple[Card, ...], rules: Rules
) -> _Choice:
    options = tuple(searcher.options(dealt, declarer, take))
    row = _row(declarer, contract, take, options, _best(searcher, declarer, options), rules)
    return _Choice(dealt.held(declarer) | mask_of(take), options, row)


def _makeable(
    searcher: _Searcher, choices: list[_Choice], goal: Goal, alone: Exchange | None, rules: Rules
) -> Exchange | None:
    """One exchange of ``choices`` (one declarer and contract) that forces
    ``goal``, or None.  Point targets, the Valat and the holding conditions
    follow from the rows; a bird needs a goal search, on the lay-aways whose
    hand holds it, the rows' best first, stopping at the first that makes it.
    ``alone`` is the answer for the goal without the win, when it has one."""
    if goal.target == "valat":
        # A Valat gives the declarer every card but the defender's pile,
        # the same for every lay-away of a talon choice.
        found = next((c.row for c in choices if c.row.valat and (not goal.with_win or c.row.won)), None)
        return None if found is None else found.exchange
    if goal.bird is None:
        holding = {"without_trull": TRULL, "without_kings": KINGS}.get(goal.target, 0)
        need = goal_thirds(goal, rules)
        # Kings and trull cards are never laid away: the holding at trick 1
        # is fixed by the talon choice.
        found = next((c.row for c in choices if c.row.thirds >= need and not c.hand & holding), None)
        return None if found is None else found.exchange
    if goal.with_win and alone is None:
        return None
    candidates = [(c, o) for c in choices for o in c.options if o.lay_away == c.row.lay_away]
    candidates += [(c, o) for c in choices for o in c.options if o.lay_away != c.row.lay_away]
    for choice, option in candidates:
        need = rules.win_thirds - option.pile if goal.with_win else 0
        # Without the win's thirds in reach, the bird with the win is not;
        # nor where the bird alone was shown out of reach.
        if need > option.bounds.high or searcher.known_goal(option, choice.row.declarer, goal.bird, 0) is False:
            continue
        if searcher.goal(option, choice.row.declarer, goal.bird, max(need, 0)):
            return Exchange(choice.row.take, option.lay_away)
    return None


def declarer_rows(
    dealt: Dealt,
    declarer: Seat,
    *,
    rules: Rules = DEFAULT_RULES,
    solver: Solver | None = None,
    contracts: tuple[str, ...] = CONTRACTS,
) -> tuple[ExchangeRow, ...]:
    """The rows of :func:`exchange_table` for one ``declarer``, each of
    ``contracts`` (every contract by default) and talon choice, without the
    makeable announcements: the value of each contract to him with the
    best exchange, and nothing more (the odds before the auction ask this
    of every world; a review of a bid made asks it of one contract).

    >>> from kosolve.model.files import load_dealt_file
    >>> dealt = load_dealt_file("examples/dealt-open.json").dealt
    >>> rows = declarer_rows(dealt, FOREHAND)
    >>> rows == exchange_table(dealt).rows[: len(rows)], len(rows)
    (True, 12)
    """
    searcher = _Searcher(solver or new_solver())
    return tuple(
        _choice(searcher, dealt, declarer, contract, take, rules).row
        for contract in contracts
        for take in talon_choices(contract, dealt.talon)
    )


def best_game_items(
    dealt: Dealt,
    declarer: Seat,
    *,
    rules: Rules = DEFAULT_RULES,
    solver: Solver | None = None,
    contracts: tuple[str, ...] = CONTRACTS,
) -> tuple[int, ...]:
    """For each of ``contracts``, the game item of its row of
    :func:`declarer_rows` with the most thirds (the first in talon order
    among the best): what a bid asks, which is less than the row.  Where
    no lay-away can take every trick (one probe each, which fails at the
    first trick lost) the item is won or lost, and a lay-away that reaches
    the win decides it; only where one can take every trick is the row
    worked out.

    >>> from kosolve.model.files import load_dealt_file
    >>> dealt = load_dealt_file("examples/dealt-open.json").dealt
    >>> rows = declarer_rows(dealt, FOREHAND)
    >>> best_game_items(dealt, FOREHAND) == tuple(
    ...     max((r for r in rows if r.contract == c), key=lambda r: r.thirds).game_points for c in CONTRACTS
    ... )
    True
    """
    searcher = _Searcher(solver or new_solver())
    return tuple(
        _game_item(searcher, _contract_options(searcher, dealt, declarer, c), declarer, c, rules) for c in contracts
    )


def talon_choice_items(
    dealt: Dealt, declarer: Seat, contract: str, *, rules: Rules = DEFAULT_RULES, solver: Solver | None = None
) -> tuple[int, ...]:
    """The game item of each talon choice of ``contract`` with its best
    lay-away (its row's in :func:`declarer_rows`), in talon order, asked as
    :func:`best_game_items` asks it: what choosing the talon half needs.

    >>> from kosolve.model.files import load_dealt_file
    >>> dealt = load_dealt_file("examples/dealt-open.json").dealt
    >>> rows = declarer_rows(dealt, FOREHAND, contracts=("einblatt",))
    >>> talon_choice_items(dealt, FOREHAND, "einblatt") == tuple(r.game_points for r in rows)
    True
    """
    searcher = _Searcher(solver or new_solver())
    return tuple(
        _game_item(searcher, [choice], declarer, contract, rules)
        for choice in _contract_options(searcher, dealt, declarer, contract)
    )


def talon_choice_row(
    dealt: Dealt,
    declarer: Seat,
    contract: str,
    take: tuple[Card, ...],
    *,
    rules: Rules = DEFAULT_RULES,
    solver: Solver | None = None,
) -> ExchangeRow:
    """The row of :func:`declarer_rows` of one talon choice, ``take``."""
    return _choice(_Searcher(solver or new_solver()), dealt, declarer, contract, take, rules).row


def declared_row(
    dealt: Dealt, declarer: Seat, contract: str, *, rules: Rules = DEFAULT_RULES, solver: Solver | None = None
) -> ExchangeRow:
    """The row of :func:`declarer_rows` a declarer of ``contract`` picks:
    the best game item, then the most thirds, the first in talon order
    among the best.  Where no lay-away can take every trick it is the row
    with the most thirds, found with every lay-away of every talon choice
    probed against one best so far, without valuing each talon choice's
    best.

    >>> from kosolve.model.files import load_dealt_file
    >>> dealt = load_dealt_file("examples/dealt-open.json").dealt
    >>> rows = declarer_rows(dealt, FOREHAND, contracts=("einblatt",))
    >>> declared_row(dealt, FOREHAND, "einblatt") == max(rows, key=lambda r: (r.game_points, r.thirds))
    True
    """
    searcher = _Searcher(solver or new_solver())
    choices = _contract_options(searcher, dealt, declarer, contract)
    if _valat_possible(searcher, choices, declarer):
        rows = [_choice(searcher, dealt, declarer, contract, take, rules).row for take, _ in choices]
        return max(rows, key=lambda r: (r.game_points, r.thirds))
    return _best_row(searcher, choices, declarer, contract, rules)


def _valat_possible(searcher: _Searcher, choices: _Choices, declarer: Seat) -> bool:
    """Whether some lay-away of ``choices`` takes every trick: one probe
    each, which fails at the first trick lost."""
    return any(searcher.reaches(o, declarer, thirds_of(o.hands[0] | o.hands[1])) for _, os in choices for o in os)


def _game_item(searcher: _Searcher, choices: _Choices, declarer: Seat, contract: str, rules: Rules) -> int:
    """The game item of the row of ``choices`` with the most thirds."""
    if _valat_possible(searcher, choices, declarer):
        return _best_row(searcher, choices, declarer, contract, rules).game_points
    options = sorted((o for _, options in choices for o in options), key=lambda o: -o.pile)
    return game_item(contract, any(searcher.reaches(o, declarer, rules.win_thirds - o.pile) for o in options), False)


_Choices = list[tuple[tuple[Card, ...], tuple[_Option, ...]]]


def _contract_options(searcher: _Searcher, dealt: Dealt, declarer: Seat, contract: str) -> _Choices:
    """Each talon choice of ``contract`` with its lay-aways."""
    return [(take, tuple(searcher.options(dealt, declarer, take))) for take in talon_choices(contract, dealt.talon)]


def _best_row(searcher: _Searcher, choices: _Choices, declarer: Seat, contract: str, rules: Rules) -> ExchangeRow:
    """The row of ``choices`` (one contract's) with the most thirds, the
    first in talon order among the best."""
    best = _best(searcher, declarer, tuple(o for _, options in choices for o in options))
    # Every option is now valued exactly or proved below the best: the
    # first choice with an option at the best is the row.
    take, options = next(
        (take, options)
        for take, options in choices
        if any(o.bounds.low == o.bounds.high and o.pile + o.bounds.low == best for o in options)
    )
    return _row(declarer, contract, take, options, best, rules)


def exchange_table(
    dealt: Dealt,
    *,
    rules: Rules = DEFAULT_RULES,
    solver: Solver | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ExchangeTable:
    """The exchange table of ``dealt``: every player as declarer, every
    contract and talon choice, each with its best lay-away, and what each
    declarer could announce in each contract with some exchange.  Pass a
    ``solver`` to reuse its tables; the answer does not depend on what they
    hold.  ``progress(done, total)`` is called after each declarer and
    contract."""
    solver = solver or new_solver()
    searcher = _Searcher(solver)
    nodes = solver.stats["nodes"]
    start = time.perf_counter()
    rows: list[ExchangeRow] = []
    makeable: list[Makeable] = []
    total = len(SEATS) * len(CONTRACTS)
    for declarer in SEATS:
        for contract in CONTRACTS:
            takes = talon_choices(contract, dealt.talon)
            choices = [_choice(searcher, dealt, declarer, contract, take, rules) for take in takes]
            rows += [c.row for c in choices]
            found: dict[str, Exchange | None] = {}
            # MAKEABLE_GOALS asks each goal alone before it asks it with the win.
            for goal in MAKEABLE_GOALS:
                found[goal.name] = _makeable(searcher, choices, goal, found.get(goal.target), rules)
                makeable.append(Makeable(declarer, contract, goal, found[goal.name]))
            if progress is not None:
                progress(len(makeable) // len(MAKEABLE_GOALS), total)
    stats = ExchangeStats(
        nodes=solver.stats["nodes"] - nodes,
        ms=(time.perf_counter() - start) * 1000,
        point_searches=searcher.point_searches,
        goal_searches=searcher.goal_searches,
    )
    return ExchangeTable(tuple(rows), tuple(makeable), stats)


__all__ = [
    "MAKEABLE_GOALS",
    "ROWS",
    "ExchangeRow",
    "ExchangeStats",
    "ExchangeTable",
    "ExchangeTableError",
    "Makeable",
    "best_game_items",
    "declared_row",
    "declarer_rows",
    "exchange_table",
    "talon_choice_items",
    "talon_choice_row",
]
