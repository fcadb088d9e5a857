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

from dataclasses import dataclass
from typing import Final

from kosolve._search import BIRD, VALAT, Solver
from kosolve.analysis import DEFAULT_RULES, new_solver
from kosolve.cards import KINGS, PAGAT, PELIKAN, QUAPIL, TRULL, UHU, Card, Hand
from kosolve.game import SEATS, Position, Rules, Seat, seat_name

NO_CARD: Final = -1

BIRDS: Final = {"pagat": (PAGAT, 16), "uhu": (UHU, 15), "pelikan": (PELIKAN, 14), "quapil": (QUAPIL, 13)}
"""Each bird and the trick it must win itself."""
ABSOLUT_THIRDS: Final = 119
"""40 points."""
PANZER_THIRDS: Final = 149
"""50 points."""

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


def starting_hands(position: Position) -> tuple[Hand, Hand]:
    """The hands before the first card of the position's play."""
    start = position.copy()
    while start.move_stack:
        start.pop()
    return start.hands[0], start.hands[1]


def feasibility(
    position: Position,
    *,
    solver: Solver | None = None,
    rules: Rules = DEFAULT_RULES,
) -> FeasibilityTable:
    """Solve every goal of RULES.md §5 for both players in ``position``.

    Point targets need the piles; without them the declarer's point goals
    (and the goals that include the win) are left out.  Valat counts the
    tricks of the position's play too: a player who lost one there cannot
    make it.
    """
    solver = solver or new_solver()
    led = position.trick[0] if position.trick else NO_CARD
    args = (position.hands[0], position.hands[1], position.leader)
    rows: list[Feasibility] = []
    completed = len(position.move_stack) // 2

    def trick_goal(seat: Seat, goal: str, with_win: bool = False) -> Feasibility:
        name = f"{goal}_win" if with_win else goal
        # A need of no more thirds leaves the goal alone to search.
        need = rules.win_thirds - position.declarer_thirds() if with_win else 0
        if goal == "valat":
            if position.tricks_won[seat] < completed:
                return Feasibility(seat, name, False, ())
            feasible, line = solver.goal_line(*args, seat, led, goal=VALAT, need=need)
        else:
            bird, trick = BIRDS[goal]
            feasible, line = solver.goal_line(*args, seat, led, goal=BIRD, bird=bird, trick=trick, need=need)
        return Feasibility(seat, name, feasible, tuple(line))

    for seat in SEATS:
        rows.extend(trick_goal(seat, goal) for goal in TRICK_GOALS)
    if position.piles is not None:
        declarer = position.declarer
        base = position.declarer_thirds()
        search = (*args, declarer, led)
        line = tuple(solver.line(*search)) if not position.is_over() else ()
        start = starting_hands(position)[declarer]

        def points_goal(name: str, thirds: int, holding_ok: bool = True) -> Feasibility:
            feasible = holding_ok and solver.reaches(*search, need=thirds - base)
            return Feasibility(declarer, name, feasible, line)

        rows.append(points_goal("win", rules.win_thirds))
        rows.append(points_goal("absolut", ABSOLUT_THIRDS))
        rows.append(points_goal("panzer", PANZER_THIRDS))
        rows.append(points_goal("without_trull", rules.win_thirds, not start & TRULL))
        rows.append(points_goal("without_kings", rules.win_thirds, not start & KINGS))
        rows.extend(trick_goal(declarer, goal, with_win=True) for goal in TRICK_GOALS)
    return FeasibilityTable(tuple(rows))
