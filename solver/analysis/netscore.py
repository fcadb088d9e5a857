"""Score-optimal analysis: the double-dummy value of the declarer's net game
points with the announcements made (docs/rules.md §5–§7), the declarer
maximising his net score and the defender minimising it, and a line that
reaches it.  It may differ from the point-optimal line: a declarer may give
up points to keep the Pagat back for the last trick.

The rules are not written twice: every way a hand can finish (which
thresholds the declarer's thirds reach, which birds won or lost their
tricks, who took every trick) is scored by :func:`kosolve.analysis.scoring.scorer`
before the search, which only looks the finished hands up.

In the bundled whole deal the dealer declares a Dreiblatt (3) and holds
four kings (1).  Some lines that are best for points let the forehand's
Pagat take the last trick, a silent 3 for him; played for the score, the
dealer stops it and still wins:

>>> from kosolve.model.files import load_deal
>>> deal = load_deal("examples/whole-deal.json")
>>> net_score(deal).score
4
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from kosolve.analysis.scoring import Outcome, scorer, scoring_facts, settle
from kosolve.analysis.solving import solve
from kosolve.engine import (
    BIRD_BEATEN,
    BIRD_BITS,
    BIRD_OPEN,
    BIRD_WON,
    LEAVES,
    STEPS,
    VALAT_DECLARER,
    VALAT_DEFENDER,
    ScoreSolver,
    Solver,
    leaf_index,
)
from kosolve.model.announcements import ABSOLUT_THIRDS, BIRDS, PANZER_THIRDS
from kosolve.model.cards import Card, card_name
from kosolve.model.deal import Deal
from kosolve.model.game import DEFAULT_RULES, SEATS, Position, Rules, Seat
from kosolve.model.reprs import readable_repr
from kosolve.model.scoring import ScoringError


@dataclass(frozen=True)
class NetScore:
    """The declarer's net game points with best play from the position."""

    score: int
    line: tuple[Card, ...]
    """A line of play that reaches it (empty when not asked for)."""
    points_line_score: int | None
    """What the point-optimal line of :func:`kosolve.analysis.solving.solve` scores,
    for comparison (None when not asked for).  Several lines may be best for
    points; this is the one that search returns."""
    nodes: int
    ms: float

    def __repr__(self) -> str:
        return readable_repr(self, cards=("line",))

    def to_json(self) -> dict[str, object]:
        return {
            "score": self.score,
            "line": [card_name(c) for c in self.line],
            "points_line_score": self.points_line_score,
            "stats": {"nodes": self.nodes, "ms": round(self.ms, 3)},
        }


@dataclass(frozen=True)
class _History:
    """What the play so far decided: the birds' states, whether one side has
    taken every trick, and who holds or played each bird."""

    birds: int
    valat: int
    holders: tuple[Seat | None, ...]


def _history(deal: Deal, position: Position) -> _History:
    holders = tuple(next((seat for seat in SEATS if deal.hands[seat] >> bird.card & 1), None) for bird in BIRDS)
    birds = 0
    valat = VALAT_DECLARER | VALAT_DEFENDER
    for trick in position.tricks:
        if trick.winner is None:
            continue
        valat &= VALAT_DECLARER if trick.winner == deal.declarer else VALAT_DEFENDER
        for seat, card in trick.played():
            for index, bird in enumerate(BIRDS):
                if card == bird.card and trick.number == bird.trick:
                    birds |= (BIRD_WON if seat == trick.winner else BIRD_BEATEN) << (BIRD_BITS * index)
    return _History(birds, valat, tuple(holders))


_LEAF_TABLES: dict[tuple[object, ...], tuple[int, ...]] = {}
"""Leaf tables by what they depend on: a bot asks the same table of every
card and world of a decision (building one settles 4,096 finished hands,
several milliseconds)."""
LEAF_TABLES_KEPT = 1024


def _leaf_table(deal: Deal, history: _History, rules: Rules) -> list[int]:
    """The declarer's net game points for every way the hand can finish, as
    the score search lays them out (:func:`kosolve.engine.leaf_index`)."""
    key = (scoring_facts(deal), history.holders, rules)
    leaf = _LEAF_TABLES.get(key)
    if leaf is None:
        if len(_LEAF_TABLES) >= LEAF_TABLES_KEPT:
            _LEAF_TABLES.clear()
        leaf = _LEAF_TABLES[key] = tuple(_build_leaf_table(deal, history, rules))
    return list(leaf)


def _build_leaf_table(deal: Deal, history: _History, rules: Rules) -> list[int]:
    """:func:`_leaf_table`, worked out."""
    win = rules.win_thirds
    thirds_of_step = (win - 1, win, ABSOLUT_THIRDS, PANZER_THIRDS)
    leaf = [0] * LEAVES
    settle_as = scorer(deal, rules)
    # The states each bird can end in, as the outcome's (made by, beaten by).
    by_state: list[dict[int, tuple[Seat | None, Seat | None]]] = [
        {BIRD_OPEN: (None, None), BIRD_WON: (holder, None), BIRD_BEATEN: (None, 1 - holder)}
        if holder is not None
        else {BIRD_OPEN: (None, None)}
        for holder in history.holders
    ]
    # Valat bits 0 and 3 (no one, or both, took every trick) settle alike: no Valat.
    valat_seats = {0: None, VALAT_DECLARER: deal.declarer, VALAT_DEFENDER: 1 - deal.declarer}
    for states in itertools.product(*by_state):
        birds = tuple(options[state] for options, state in zip(by_state, states, strict=True))
        code = sum(state << (BIRD_BITS * index) for index, state in enumerate(states))
        for steps, valat in itertools.product(range(STEPS + 1), valat_seats):
            outcome = Outcome(declarer_thirds=thirds_of_step[steps], valat=valat_seats[valat], birds=birds)
            leaf[leaf_index(steps, code, valat)] = settle_as(outcome).totals[deal.declarer]
            if not valat:
                leaf[leaf_index(steps, code, VALAT_DECLARER | VALAT_DEFENDER)] = leaf[leaf_index(steps, code, 0)]
    return leaf


_Query = tuple[int, int, int, int, int, list[int], int, int, list[int]]


def _query(deal: Deal, position: Position, rules: Rules) -> _Query:
    """The score search's arguments for ``position`` of ``deal``: the
    cards, the thirds still needed for each threshold, the birds' and the
    Valat's states so far and the leaf table."""
    if deal.first_trick != 1 or deal.piles is None:
        raise ScoringError("the net score needs a whole game with its piles")
    history = _history(deal, position)
    base = position.declarer_thirds()
    steps = [rules.win_thirds - base, ABSOLUT_THIRDS - base, PANZER_THIRDS - base]
    leaf = _leaf_table(deal, history, rules)
    hands = position.hands
    return (hands[0], hands[1], position.leader, deal.declarer, position.led, steps, history.birds, history.valat, leaf)


def net_score_at_least(
    deal: Deal,
    score: int,
    position: Position | None = None,
    *,
    rules: Rules = DEFAULT_RULES,
    solver: ScoreSolver | None = None,
) -> bool:
    """Whether the declarer's net score with best play from ``position``
    (the deal after its play by default) is at least ``score``: one
    null-window test of the search :func:`net_score` runs, for a decision
    that needs no more (whether an announcement loses in a world)."""
    position = position or deal.position()
    return (solver or ScoreSolver()).at_least(*_query(deal, position, rules), score=score)


def net_score(
    deal: Deal,
    position: Position | None = None,
    *,
    rules: Rules = DEFAULT_RULES,
    solver: ScoreSolver | None = None,
    with_points_line: bool = True,
    points_line: tuple[Card, ...] | None = None,
    points_solver: Solver | None = None,
    with_line: bool = True,
) -> NetScore:
    """The score-optimal value of ``position`` (the deal after its play by
    default) for a whole game with piles, and a line that reaches it.  Pass
    a ``solver`` to reuse its tables; its entries count only for queries
    that score finished hands alike (docs/search.md), so the answer never
    depends on them.  ``with_points_line``
    also scores a point-optimal line, to show where the two differ:
    ``points_line`` when given (the line a report shows; several lines may
    be best for points), else the one a search returns, on
    ``points_solver``'s tables when given (new ones of the default budget
    otherwise).  Without ``with_line`` only the score is searched for.

    The search is framed by the point search (docs/search.md): a
    ``solver`` kept across calls keeps its point table warm."""
    position = position or deal.position()
    started = time.perf_counter()
    solver = solver or ScoreSolver()
    nodes_before = solver.nodes
    value, line = solver.solve(*_query(deal, position, rules), with_line=with_line)
    if with_points_line and points_line is None:
        points_line = solve(position, solver=points_solver, with_moves=False).line
    return NetScore(
        score=value,
        line=tuple(line),
        points_line_score=_score_of_line(deal, position, points_line, rules)
        if with_points_line and points_line
        else None,
        nodes=solver.nodes - nodes_before,
        ms=(time.perf_counter() - started) * 1000,
    )


def net_scores_after(
    deal: Deal,
    position: Position,
    cards: Sequence[Card],
    *,
    rules: Rules = DEFAULT_RULES,
    solver: ScoreSolver | None = None,
) -> list[NetScore]:
    """The net score (:func:`net_score`, without a line) after each of
    ``cards``, legal moves from ``position``, is played: how a card is
    valued for the score, one search a card on ``solver``'s tables."""
    solver = solver or ScoreSolver()
    scores = []
    for card in cards:
        after = position.copy()
        after.push(card)
        scores.append(net_score(deal, after, rules=rules, solver=solver, with_points_line=False, with_line=False))
    return scores


def _score_of_line(deal: Deal, position: Position, line: tuple[Card, ...], rules: Rules) -> int:
    """The declarer's net score of the hand finished by ``line``: settled
    like any hand played to the end."""
    play = (*position.move_stack, *line)
    return settle(replace(deal, play=play), rules).totals[deal.declarer]
