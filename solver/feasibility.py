"""Which announcements each player can still make: a double-dummy search of
its own for each (RULES.md §5).

Birds and Valat are goals on the tricks, searched for both players; the
point targets (win, Absolut, Panzer) and the holding conditions are for the
declarer; a bird or Valat together with the game win asks for both by one
strategy, as a declarer who announces both needs.

>>> from kosolve.cards import parse_hand, card_name
>>> from kosolve.game import DEALER, FOREHAND, Position
>>> position = Position((parse_hand(["I", "XXI"]), parse_hand(["HK", "H4"])), declarer=FOREHAND)
>>> table = feasibility(position)
>>> table.feasible(FOREHAND, "pagat"), table.feasible(FOREHAND, "valat"), table.feasible(DEALER, "valat")
(True, True, False)
>>> [card_name(c) for c in table.get(FOREHAND, "pagat").line]
['XXI', 'H4', 'I', 'HK']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from kosolve._search import BIRD, VALAT, Solver
from kosolve.analysis import DEFAULT_RULES, new_solver
from kosolve.cards import KINGS, TRULL, Card, Hand, card_name
from kosolve.game import SEATS, TRICKS_PER_GAME, Position, Rules, Seat, seat_name
from kosolve.scoring import (
    ABSOLUT_POINTS,
    BIRD_CARDS,
    BIRD_NAMES,
    BIRD_TRICKS,
    HELD,
    PANZER_POINTS,
    held_bonuses,
    thirds_for_points,
)

BIRDS: Final = {name: (BIRD_CARDS[name], BIRD_TRICKS[name]) for name in BIRD_NAMES}
"""Each bird and the trick it must win itself."""
ABSOLUT_THIRDS: Final = thirds_for_points(ABSOLUT_POINTS)
PANZER_THIRDS: Final = thirds_for_points(PANZER_POINTS)

TRICK_GOALS: Final = (*BIRDS, "valat")
"""Goals on the tricks, searched for both players."""
DECLARER_GOALS: Final = (
    "win",
    "absolut",
    "panzer",
    "without_trull",
    "without_kings",
    *(f"{goal}_win" for goal in TRICK_GOALS),
)
"""Goals of the declarer alone: point targets, holding conditions, and a
trick goal together with the game win."""


@dataclass(frozen=True)
class Feasibility:
    """Whether ``seat`` can force ``goal``, and a line that shows it: one on
    which he reaches it whatever the other does, or one on which the other
    stops it whatever he does (up to the trick that decides a trick goal)."""

    seat: Seat
    goal: str
    feasible: bool
    line: tuple[Card, ...]


@dataclass(frozen=True)
class FeasibilityTable:
    """Every goal for both players."""

    rows: tuple[Feasibility, ...]

    def get(self, seat: Seat, goal: str) -> Feasibility:
        for row in self.rows:
            if row.seat == seat and row.goal == goal:
                return row
        raise KeyError(f"no {goal!r} for the {seat_name(seat)}")

    def feasible(self, seat: Seat, goal: str) -> bool:
        return self.get(seat, goal).feasible

    def goals(self) -> list[str]:
        """The goals in table order, each once."""
        return list(dict.fromkeys(row.goal for row in self.rows))

    def to_json(self) -> dict[str, dict[str, bool]]:
        """``{"forehand": {"pagat": true, ...}, "dealer": {...}}``."""
        return {seat_name(seat): {r.goal: r.feasible for r in self.rows if r.seat == seat} for seat in SEATS}

    def lines_json(self) -> dict[str, dict[str, list[str]]]:
        """The line behind each answer, in card names, where there is one."""
        return {
            seat_name(seat): {r.goal: [card_name(c) for c in r.line] for r in self.rows if r.seat == seat and r.line}
            for seat in SEATS
        }


def starting_hands(position: Position) -> tuple[Hand, Hand]:
    """The hands before the first card of the position's play."""
    start = position.copy()
    while start.move_stack:
        start.pop()
    return start.hands[0], start.hands[1]


POINT_GOALS: Final = ("win", "absolut", "panzer", "without_trull", "without_kings")


def goal_thirds(goal: str, rules: Rules) -> int:
    """The declarer's final thirds that a point goal asks for."""
    return {"absolut": ABSOLUT_THIRDS, "panzer": PANZER_THIRDS}.get(goal, rules.win_thirds)


def solve_goal(
    position: Position,
    seat: Seat,
    goal: str,
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
    solver = solver or new_solver()
    led = position.led
    args = (position.hands[0], position.hands[1], position.leader)
    trick_goal = goal.removesuffix("_win")
    if trick_goal in TRICK_GOALS:
        with_win = goal != trick_goal
        if with_win and seat != position.declarer:
            raise ValueError(f"{goal} is a goal of the declarer")
        need = rules.win_thirds - _declarer_thirds(position) if with_win else 0
        if trick_goal == "valat":
            if position.tricks_won[seat] < len(position.move_stack) // 2:
                return Feasibility(seat, goal, False, ())
            call = solver.goal_line if with_line else _no_line(solver.goal_feasible)
            feasible, line = call(*args, seat, led, goal=VALAT, need=need)
        else:
            bird, trick = BIRDS[trick_goal]
            call = solver.goal_line if with_line else _no_line(solver.goal_feasible)
            feasible, line = call(*args, seat, led, goal=BIRD, bird=bird, trick=trick, need=need)
        return Feasibility(seat, goal, feasible, tuple(line))
    if goal not in POINT_GOALS:
        raise ValueError(f"unknown goal {goal!r}")
    if seat != position.declarer:
        raise ValueError(f"{goal} is a goal of the declarer")
    search = (*args, position.declarer, led)
    start = starting_hands(position)[position.declarer]
    holding_ok = not (goal == "without_trull" and start & TRULL) and not (goal == "without_kings" and start & KINGS)
    feasible = holding_ok and solver.reaches(*search, need=goal_thirds(goal, rules) - _declarer_thirds(position))
    shown = tuple(solver.line(*search)) if with_line and not position.is_over() else ()
    return Feasibility(seat, goal, feasible, shown)


def _declarer_thirds(position: Position) -> int:
    if position.piles is None:
        raise ValueError("point goals need the piles")
    return position.declarer_thirds()


def _no_line(feasible: Callable[..., bool]) -> Callable[..., tuple[bool, list[Card]]]:
    return lambda *args, **kwargs: (feasible(*args, **kwargs), [])


def feasibility(
    position: Position,
    *,
    solver: Solver | None = None,
    rules: Rules = DEFAULT_RULES,
) -> FeasibilityTable:
    """Solve every goal of RULES.md §5 for both players in ``position``.

    Point targets need the piles; without them the declarer's goals are
    left out.  With the piles of a whole game, the held bonuses (Trull,
    Four Kings, Four Birds) are read off the cards: ``True`` for the player
    who holds one.
    """
    solver = solver or new_solver()
    rows = [solve_goal(position, seat, goal, solver=solver, rules=rules) for seat in SEATS for goal in TRICK_GOALS]
    if position.piles is not None:
        declarer = position.declarer
        # One optimal line shows every point goal, made or not.
        line = solve_goal(position, declarer, "win", solver=solver, rules=rules).line
        for goal in DECLARER_GOALS:
            row = solve_goal(position, declarer, goal, solver=solver, rules=rules, with_line=goal not in POINT_GOALS)
            rows.append(row if goal not in POINT_GOALS else Feasibility(declarer, goal, row.feasible, line))
        start = starting_hands(position)
        if start[0].bit_count() == start[1].bit_count() == TRICKS_PER_GAME:
            held = held_bonuses(start, position.piles)
            rows += [Feasibility(seat, name, (seat, name) in held, ()) for seat in SEATS for name in HELD]
    return FeasibilityTable(tuple(rows))
