"""Which announcements each player can still make: a double-dummy search of
its own for each (docs/rules.md §5).

Birds and Valat are goals on the tricks, searched for both players; the
point targets (win, Absolut, Panzer) and the holding conditions are for the
declarer; a bird or Valat together with the game win asks for both by one
strategy, as a declarer who announces both needs.

>>> from kosolve.model.cards import parse_hand, card_name
>>> from kosolve.model.game import DEALER, FOREHAND, Position
>>> position = Position((parse_hand(["I", "XXI"]), parse_hand(["HK", "H4"])), declarer=FOREHAND)
>>> table = feasibility(position)
>>> table.feasible(FOREHAND, "pagat"), table.feasible(FOREHAND, "valat"), table.feasible(DEALER, "valat")
(True, True, False)
>>> [card_name(c) for c in table.get(FOREHAND, "pagat").line]
['XXI', 'H4', 'I', 'HK']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from kosolve.analysis.solving import new_solver
from kosolve.engine import BIRD, VALAT, Solver
from kosolve.model.announcements import ABSOLUT_THIRDS, BIRDS, PANZER_THIRDS, Bird
from kosolve.model.cards import KINGS, TRULL, Card, Hand, card_name
from kosolve.model.game import (
    DEFAULT_RULES,
    SEATS,
    TRICKS_PER_GAME,
    Position,
    Rules,
    Seat,
    SeatLike,
    as_seat,
    seat_name,
)
from kosolve.model.reprs import readable_repr

TRICK_TARGETS: Final = (*(bird.name for bird in BIRDS), "valat")
"""Targets on the tricks, searched for both players."""
POINT_TARGETS: Final = ("win", "absolut", "panzer", "without_trull", "without_kings")
"""Targets of the declarer alone: point targets and holding conditions."""


class GoalError(ValueError):
    """A goal that does not exist, or that this player or position cannot ask for."""


@dataclass(frozen=True)
class Goal:
    """Something a player may force: a ``target`` of :data:`TRICK_TARGETS`
    or :data:`POINT_TARGETS`, and for the declarer a trick target together
    with the game win (``with_win``), as a declarer who announces both needs.

    >>> parse_goal("pagat_win")
    Goal(target='pagat', with_win=True)
    >>> parse_goal("pagat_win").name, parse_goal("valat").on_tricks
    ('pagat_win', True)
    """

    target: str
    with_win: bool = False

    def __post_init__(self) -> None:
        if self.target not in TRICK_TARGETS and self.target not in POINT_TARGETS:
            raise GoalError(f"unknown goal {self.target!r}")
        if self.with_win and self.target not in TRICK_TARGETS:
            raise GoalError(f"{self.target} cannot be asked for together with the win")

    @property
    def name(self) -> str:
        """The goal's name in tables and JSON: ``pagat``, ``valat_win``, ``absolut``."""
        return f"{self.target}_win" if self.with_win else self.target

    @property
    def on_tricks(self) -> bool:
        """Whether it is a bird or the Valat (searched for either player)."""
        return self.target in TRICK_TARGETS

    @property
    def bird(self) -> Bird | None:
        """The bird it asks for, if it is one."""
        return next((bird for bird in BIRDS if bird.name == self.target), None)

    def __str__(self) -> str:
        return self.name


def parse_goal(name: str) -> Goal:
    """The goal of that name (:attr:`Goal.name`).

    >>> parse_goal("absolut")
    Goal(target='absolut', with_win=False)
    """
    target = name.removesuffix("_win") if name.endswith("_win") and name != "win" else name
    return Goal(target, with_win=target != name)


TRICK_GOALS: Final = tuple(Goal(target) for target in TRICK_TARGETS)
"""Goals on the tricks, searched for both players."""
DECLARER_GOALS: Final = (
    *(Goal(target) for target in POINT_TARGETS),
    *(Goal(target, with_win=True) for target in TRICK_TARGETS),
)
"""Goals of the declarer alone: point targets, holding conditions, and a
trick goal together with the game win."""


@dataclass(frozen=True)
class Feasibility:
    """Whether ``seat`` can force ``goal``, and a line that shows it: one on
    which he reaches it whatever the other does, or one on which the other
    stops it whatever he does (up to the trick that decides a trick goal)."""

    seat: Seat
    goal: Goal
    feasible: bool
    line: tuple[Card, ...]
    known: bool = True
    """False when the answer depends on cards the position does not know:
    Without Trull or Without kings in an ending whose declarer could force
    the win, judged on his 16 cards at trick 1 (docs/rules.md §5).
    ``feasible`` is then False."""

    def __repr__(self) -> str:
        return readable_repr(self, cards=("line",))


@dataclass(frozen=True)
class FeasibilityTable:
    """Every goal for both players."""

    rows: tuple[Feasibility, ...]

    def get(self, seat: SeatLike, goal: Goal | str) -> Feasibility:
        """The row of ``seat`` (a name or an int) and ``goal``;
        :class:`KeyError` when the table has none (a declarer's goal for the
        defender, a point goal without the piles)."""
        seat = as_seat(seat)
        goal = _as_goal(goal)
        for row in self.rows:
            if row.seat == seat and row.goal == goal:
                return row
        raise KeyError(f"no {goal.name!r} for the {seat_name(seat)}")

    def feasible(self, seat: SeatLike, goal: Goal | str) -> bool | None:
        """Whether ``seat`` can force ``goal``; None when that is unknown
        (:attr:`Feasibility.known`)."""
        row = self.get(seat, goal)
        return row.feasible if row.known else None

    def goals(self) -> list[Goal]:
        """The goals in table order, each once."""
        return list(dict.fromkeys(row.goal for row in self.rows))

    def to_json(self) -> dict[str, dict[str, bool | None]]:
        """``{"forehand": {"pagat": true, ...}, "dealer": {...}}``, null where unknown."""
        return {
            seat_name(seat): {r.goal.name: self.feasible(seat, r.goal) for r in self.rows if r.seat == seat}
            for seat in SEATS
        }

    def lines_json(self) -> dict[str, dict[str, list[str]]]:
        """The line behind each answer, in card names, where there is one."""
        return {
            seat_name(seat): {
                r.goal.name: [card_name(c) for c in r.line] for r in self.rows if r.seat == seat and r.line
            }
            for seat in SEATS
        }


def starting_hands(position: Position) -> tuple[Hand, Hand]:
    """The hands before the first card of the position's play."""
    start = position.copy()
    while start.move_stack:
        start.pop()
    return start.hands[0], start.hands[1]


def _as_goal(goal: Goal | str) -> Goal:
    return goal if isinstance(goal, Goal) else parse_goal(goal)


def goal_thirds(goal: Goal, rules: Rules) -> int:
    """The declarer's final thirds that a point goal asks for."""
    return {"absolut": ABSOLUT_THIRDS, "panzer": PANZER_THIRDS}.get(goal.target, rules.win_thirds)


def solve_goal(
    position: Position,
    seat: SeatLike,
    goal: Goal | str,
    *,
    solver: Solver | None = None,
    rules: Rules = DEFAULT_RULES,
    with_line: bool = True,
) -> Feasibility:
    """Whether ``seat`` can force ``goal`` from ``position``: one of
    :data:`TRICK_GOALS` for either player, or (for the declarer, with the
    piles known) one of :data:`DECLARER_GOALS`.

    Valat counts the tricks of the position's play too: a player who lost
    one there cannot make it.
    """
    seat = as_seat(seat)
    goal = _as_goal(goal)
    solver = solver or new_solver()
    led = position.led
    args = (position.hands[0], position.hands[1], position.leader)
    if (goal.with_win or not goal.on_tricks) and seat != position.declarer:
        raise GoalError(f"{goal.name} is a goal of the declarer")
    if goal.on_tricks:
        need = rules.win_thirds - _declarer_thirds(position) if goal.with_win else 0
        call = solver.goal_line if with_line else _no_line(solver.goal_feasible)
        bird = goal.bird
        if bird is None:
            if position.tricks_won[seat] < len(position.move_stack) // 2:
                return Feasibility(seat, goal, False, ())
            feasible, line = call(*args, seat, led, goal=VALAT, need=need)
        else:
            feasible, line = call(*args, seat, led, goal=BIRD, bird=bird.card, trick=bird.trick, need=need)
        return Feasibility(seat, goal, feasible, tuple(line))
    search = (*args, position.declarer, led)
    holding = _holding(goal, position)
    need = goal_thirds(goal, rules) - _declarer_thirds(position)
    reached = holding is not False and solver.reaches(*search, need=need)
    shown = tuple(solver.line(*search)) if with_line and not position.is_over() else ()
    return Feasibility(seat, goal, reached and holding is True, shown, known=holding is not None or not reached)


def _holding(goal: Goal, position: Position) -> bool | None:
    """Whether the declarer's 16 cards at trick 1 meet the goal's holding
    condition; None when the position starts later and its hand holds none of
    the cards (they may have gone in the tricks before)."""
    cards = {"without_trull": TRULL, "without_kings": KINGS}.get(goal.target)
    if cards is None:
        return True
    start = starting_hands(position)[position.declarer]
    if start & cards:
        return False
    return True if start.bit_count() == TRICKS_PER_GAME else None


def _declarer_thirds(position: Position) -> int:
    if position.piles is None:
        raise GoalError("point goals need the piles")
    return position.declarer_thirds()


def _no_line(feasible: Callable[..., bool]) -> Callable[..., tuple[bool, list[Card]]]:
    return lambda *args, **kwargs: (feasible(*args, **kwargs), [])


def feasibility(
    position: Position,
    *,
    solver: Solver | None = None,
    rules: Rules = DEFAULT_RULES,
    declarer_goals: bool = True,
) -> FeasibilityTable:
    """Solve every goal of docs/rules.md §5 for both players in ``position``
    (only the birds and the Valat without ``declarer_goals``).

    Point targets need the piles; without them the declarer's goals are
    left out.  The held bonuses are facts, not goals: see
    :func:`kosolve.analysis.scoring.held_bonuses`.
    """
    solver = solver or new_solver()
    rows = [solve_goal(position, seat, goal, solver=solver, rules=rules) for seat in SEATS for goal in TRICK_GOALS]
    if position.piles is not None and declarer_goals:
        declarer = position.declarer
        # One optimal line shows every point goal, made or not.
        line = solve_goal(position, declarer, "win", solver=solver, rules=rules).line
        for goal in DECLARER_GOALS:
            row = solve_goal(position, declarer, goal, solver=solver, rules=rules, with_line=goal.on_tricks)
            rows.append(row if goal.on_tricks else replace(row, line=line))
    return FeasibilityTable(tuple(rows))


@dataclass(frozen=True)
class LineBonus:
    """A bird or the Valat that a line of play makes, and whether its maker
    could force it: when not, the line makes it only because the other
    player lets it through."""

    seat: Seat
    goal: Goal
    forceable: bool

    def to_json(self) -> dict[str, object]:
        return {"by": seat_name(self.seat), "what": self.goal.name, "forceable": self.forceable}


def line_bonuses(
    position: Position,
    line: tuple[Card, ...],
    table: FeasibilityTable | None = None,
    *,
    solver: Solver | None = None,
    rules: Rules = DEFAULT_RULES,
) -> tuple[LineBonus, ...]:
    """The birds and the Valat that ``line``, played on from ``position``,
    makes, each with whether its maker can force it from ``position``: read
    from ``table`` when given, searched otherwise.  A line optimal for
    card points alone may make a bird the other player could stop: the
    points search does not care about birds.

    >>> from kosolve.model.cards import parse_hand, parse_card
    >>> from kosolve.model.game import DEALER
    >>> position = Position((parse_hand(["I", "HK"]), parse_hand(["HQ", "H4"])), declarer=DEALER)
    >>> line = tuple(parse_card(name) for name in ["HK", "H4", "I", "HQ"])
    >>> [(bonus.seat, bonus.goal.name, bonus.forceable) for bonus in line_bonuses(position, line)]
    [(0, 'pagat', True), (0, 'valat', True)]
    """
    tricks = position.line_tricks(line)
    made: list[tuple[Seat, Goal]] = []
    for trick in tricks:
        for seat, card in trick.played():
            bird = next((b for b in BIRDS if b.card == card and b.trick == trick.number), None)
            if bird is not None and trick.winner == seat:
                made.append((seat, Goal(bird.name)))
    if tricks and tricks[-1].number == TRICKS_PER_GAME and tricks[-1].winner is not None:
        won = [position.tricks_won[seat] + sum(trick.winner == seat for trick in tricks) for seat in SEATS]
        made += [(seat, Goal("valat")) for seat in SEATS if not won[1 - seat]]
    solver = solver or new_solver()

    def forceable(seat: Seat, goal: Goal) -> bool:
        if table is not None:
            return table.get(seat, goal).feasible
        return solve_goal(position, seat, goal, solver=solver, rules=rules, with_line=False).feasible

    return tuple(LineBonus(seat, goal, forceable(seat, goal)) for seat, goal in made)
