"""Solving positions: the Python API that the command line mirrors.

>>> from kosolve.model.cards import parse_hand, card_name
>>> from kosolve.model.game import FOREHAND, Position
>>> position = Position((parse_hand(["HK", "H4"]), parse_hand(["HQ", "I"])), declarer=FOREHAND)
>>> solution = solve(position)
>>> solution.thirds, solution.points, solution.result
(23, 8, None)
>>> [(card_name(m.card), m.thirds) for m in solution.moves]
[('H4', 0), ('HK', 23)]
>>> [card_name(c) for c in solution.line]
['HK', 'HQ', 'H4', 'I']
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Final

from kosolve.engine import DEFAULT_TT_MB, GOAL_TT_MB, MAX_TABLE_MB, MIN_TABLE_MB, SCORE_TT_MB, Solver, TableSizeError
from kosolve.model.cards import Card, card_name, hand_cards, mask_of, parse_card, points_of
from kosolve.model.game import DEFAULT_RULES, Position, Rules, Seat, seat_name
from kosolve.model.reprs import counted


@dataclass(frozen=True)
class MoveValue:
    """A legal card of the side to move and the declarer's final thirds after it.

    Its ``repr`` names the card and round-trips:

    >>> MoveValue("XIV", 107)
    MoveValue(card='XIV', thirds=107)
    >>> MoveValue("XIV", 107) == MoveValue(parse_card("XIV"), 107)
    True
    """

    card: Card
    thirds: int

    def __init__(self, card: Card | str, thirds: int) -> None:
        object.__setattr__(self, "card", parse_card(card) if isinstance(card, str) else card)
        object.__setattr__(self, "thirds", thirds)

    def __repr__(self) -> str:
        return f"MoveValue(card={card_name(self.card)!r}, thirds={self.thirds!r})"


@dataclass(frozen=True)
class SearchStats:
    """What a solve cost: nodes searched (cards played in the search),
    wall time, and transposition-table use."""

    nodes: int
    ms: float
    tt_probes: int
    tt_hits: int
    tt_stores: int
    tt_entries: int


@dataclass(frozen=True)
class Solution:
    """The double-dummy answer for a position, from the declarer's side."""

    declarer: Seat
    to_move: Seat | None
    """The seat to play the next card; None when the hand is over."""
    thirds: int
    """The declarer's final thirds with best play: piles (when known), tricks
    taken so far and the tricks to come."""
    win_thirds: int | None
    """The thirds the declarer needs to win; None when the piles are unknown."""
    moves: tuple[MoveValue, ...]
    """Every legal card of the side to move, lowest first."""
    line: tuple[Card, ...]
    """An optimal line of play to the end of the hand."""
    stats: SearchStats

    def __repr__(self) -> str:
        """A summary: the value, the cards to play and the line's length.

        >>> from kosolve.model.files import load_deal
        >>> solve(load_deal("examples/ending.json").position())
        <Solution: 111 thirds (37 points), won; 4 cards for the forehand to play, a line of 8 cards>
        """
        if self.to_move is None:
            return f"<Solution: {self.value_text}; the hand is over>"
        mover = f"{counted(len(self.moves), 'card')} for the {seat_name(self.to_move)} to play"
        return f"<Solution: {self.value_text}; {mover}, a line of {counted(len(self.line), 'card')}>"

    @property
    def value_text(self) -> str:
        """The value in a few words: ``111 thirds (37 points), won``."""
        return f"{self.thirds} thirds ({self.points} points)" + (f", {self.result}" if self.result else "")

    @property
    def points(self) -> int:
        """The declarer's final points, rounded (docs/rules.md §2)."""
        return points_of(self.thirds)

    @property
    def result(self) -> str | None:
        """``"won"`` or ``"lost"`` for the declarer; None without piles."""
        if self.win_thirds is None:
            return None
        return "won" if self.thirds >= self.win_thirds else "lost"

    @property
    def best_cards(self) -> tuple[Card, ...]:
        """The cards of the side to move that keep the value."""
        return tuple(m.card for m in self.moves if m.thirds == self.thirds)

    def to_json(self) -> dict[str, object]:
        """The JSON object of the command line's ``--json`` output
        (docs/json.md); ``moves`` in the hand diagram's order, as every set
        of cards there."""
        thirds = {m.card: m.thirds for m in self.moves}
        return {
            "declarer": seat_name(self.declarer),
            "to_move": None if self.to_move is None else seat_name(self.to_move),
            "value": {"thirds": self.thirds, "points": self.points},
            "result": self.result,
            "moves": [{"card": card_name(card), "thirds": thirds[card]} for card in hand_cards(mask_of(thirds))],
            "line": [card_name(c) for c in self.line],
            "stats": {
                "nodes": self.stats.nodes,
                "ms": round(self.stats.ms, 3),
                "tt_probes": self.stats.tt_probes,
                "tt_hits": self.stats.tt_hits,
                "tt_stores": self.stats.tt_stores,
                "tt_entries": self.stats.tt_entries,
            },
        }


DEFAULT_BUDGET_MB: Final = 4 * DEFAULT_TT_MB
"""The memory of all the tables of a run by default: the main table gets
its default size (8 MB: its 14 MB share rounds down), the goal table 2 MB
and the score tables 16 MB (made only when a deal needs the net score)."""
MIN_BUDGET_MB: Final = 64 * MIN_TABLE_MB
"""The least budget: a half for the score search, which needs sixteen
of the smallest tables (its own, its frame's point table and the four bird
goal tables take 8, 4 and 1 each), a quarter for the goal table and the rest
for the main table (the tests use budgets this small to force heavy
replacement; the command line asks for at least 1 MB)."""
MAX_BUDGET_MB: Final = MAX_TABLE_MB


@dataclass(frozen=True)
class TableBudget:
    """How the memory of a run's tables is split: a quarter for the goal
    table and a half for the score search's tables, each at most its useful
    size (their entries count for one goal, or one way of scoring, only;
    the score search, which needs far more positions than a points solve,
    is made only when a deal needs it), the rest for the main table.  Each table rounds its
    share down to a power-of-two number of buckets, so together they never
    take more than the budget.

    >>> TableBudget.split(32)
    TableBudget(main_mb=14.0, goal_mb=2.0, score_mb=16.0)
    >>> TableBudget.split(4)
    TableBudget(main_mb=1.0, goal_mb=1.0, score_mb=2.0)
    >>> TableBudget.split(256)
    TableBudget(main_mb=238.0, goal_mb=2.0, score_mb=16.0)
    """

    main_mb: float
    goal_mb: float
    score_mb: float

    @classmethod
    def split(cls, total_mb: float) -> TableBudget:
        """The split of ``total_mb`` megabytes; :class:`TableSizeError`
        outside [MIN_BUDGET_MB, MAX_BUDGET_MB]."""
        if not MIN_BUDGET_MB <= total_mb <= MAX_BUDGET_MB:
            raise TableSizeError(
                f"the tables take {MIN_BUDGET_MB * 1024:g} KB to {MAX_BUDGET_MB:g} MB in all, not {total_mb:g} MB"
            )
        goal = min(total_mb / 4, GOAL_TT_MB)
        score = min(total_mb / 2, SCORE_TT_MB)
        return cls(main_mb=total_mb - goal - score, goal_mb=goal, score_mb=score)


def new_solver(tt_mb: float = DEFAULT_BUDGET_MB, threads: int = 1) -> Solver:
    """A solver whose main and goal tables take their shares of a budget of
    ``tt_mb`` megabytes (:class:`TableBudget`); reuse it across positions to
    keep its tables warm.  ``threads`` search a large position together over
    the same tables (docs/search.md); the answers are the same for any
    number, the time is not."""
    budget = TableBudget.split(tt_mb)
    return Solver(tt_mb=budget.main_mb, goal_tt_mb=budget.goal_mb, threads=threads)


def search_args(position: Position) -> tuple[int, int, int, int, int]:
    """The arguments the :class:`Solver` takes for ``position``: both hands,
    the leader, the declarer and the card on the table."""
    return position.hands[0], position.hands[1], position.leader, position.declarer, position.led


def solve(
    position: Position,
    *,
    solver: Solver | None = None,
    rules: Rules = DEFAULT_RULES,
    with_moves: bool = True,
    with_line: bool = True,
    threads: int = 1,
) -> Solution:
    """Solve ``position`` exactly: its value, the value of every legal card
    of the side to move and an optimal line.  Pass a ``solver`` to reuse its
    transposition table (its own ``threads`` then apply); the answer does
    not depend on what it holds, nor on the number of threads."""
    solver = solver or new_solver(threads=threads)
    args = search_args(position)
    before = solver.stats
    start = time.perf_counter()
    base = position.declarer_thirds()
    moves: tuple[MoveValue, ...] = ()
    if position.is_over():
        future = 0
    elif with_moves:
        moves = tuple(MoveValue(card, base + value) for card, value in solver.move_values(*args))
        pick = max if position.turn == position.declarer else min
        future = pick(m.thirds for m in moves) - base
    else:
        future = solver.value(*args)
    line = tuple(solver.line(*args)) if with_line and not position.is_over() else ()
    elapsed = (time.perf_counter() - start) * 1000
    after = solver.stats
    stats = SearchStats(
        nodes=after["nodes"] - before["nodes"],
        ms=elapsed,
        tt_probes=after["tt_probes"] - before["tt_probes"],
        tt_hits=after["tt_hits"] - before["tt_hits"],
        tt_stores=after["tt_stores"] - before["tt_stores"],
        tt_entries=after["tt_entries"],
    )
    return Solution(
        declarer=position.declarer,
        to_move=None if position.is_over() else position.turn,
        thirds=base + future,
        win_thirds=rules.win_thirds if position.piles is not None else None,
        moves=moves,
        line=line,
        stats=stats,
    )
