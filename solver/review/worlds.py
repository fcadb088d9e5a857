"""Which worlds a card of the play is judged in, and what one world says.

Before card ``i`` its player saw a seat view
(:func:`~kosolve.model.view.view_of`); every world that fits it is judged
when there are at most ``samples`` of them, else ``samples`` drawn from the
seed ``seed + i`` (:func:`~kosolve.sampling.worlds.sample_worlds`, the
worlds ``kosolve odds --seed SEED+i`` draws from that view).  A decision's
tasks are the world that was dealt, then those worlds; a worker values the
mover's legal cards in each (:func:`judge_world`) and, with inference,
counts the other's last :data:`INFER_DEPTH` cards that lost value in it
(:meth:`~kosolve.sampling.inference.Inference.card_blunders`, the one
owner of the model, docs/inference.md).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Final

from kosolve.analysis.netscore import net_scores_after
from kosolve.analysis.report import Analyser
from kosolve.analysis.solving import solve
from kosolve.model.cards import Card, Hand, hand_cards, mask_of
from kosolve.model.deal import Deal
from kosolve.model.game import Rules, Seat
from kosolve.model.view import SeatView, view_of
from kosolve.sampling.inference import DEFAULT_DEPTH, Inference
from kosolve.sampling.worlds import sample_worlds, solving_order, world_space

INFER_DEPTH: Final = DEFAULT_DEPTH
"""With inference, how many of the other's last cards weigh a world: the
model's (:data:`~kosolve.sampling.inference.DEFAULT_DEPTH`)."""


@dataclass(frozen=True)
class WorldMoves:
    """One world's values of the mover's legal cards, in card order: the
    declarer's final thirds and, with ``score``, his net game points."""

    thirds: tuple[int, ...]
    net: tuple[int, ...] | None
    nodes: int
    ms: float
    """The time the worker took for the world."""
    blunders: int = 0
    """How many of the other's checked cards lost value double dummy here."""


@dataclass(frozen=True)
class WorldTask:
    """One world of one decision, as a worker takes it: the world (its play
    up to the decision), the mover's legal ``cards``, and with
    ``inference`` the other's last cards are checked in it."""

    deal: Deal
    cards: tuple[Card, ...]
    rules: Rules
    score: bool
    inference: Inference | None = None


def judge_world(analyser: Analyser, task: WorldTask) -> WorldMoves:
    """The task for one world of one decision: each of the mover's legal
    cards valued after the world's play, and how many of the other's
    checked cards lost value double dummy in this world."""
    deal, cards, rules = task.deal, task.cards, task.rules
    started = time.perf_counter()
    position = deal.position()
    solver = analyser.solver
    nodes_before = solver.stats["nodes"]
    solution = solve(position, solver=solver, rules=rules, with_moves=True, with_line=False)
    values = dict((m.card, m.thirds) for m in solution.moves)
    net = None
    score_nodes = 0
    if task.score:
        results = net_scores_after(deal, position, cards, rules=rules, solver=analyser.score_solver)
        net = tuple(result.score for result in results)
        score_nodes = sum(result.nodes for result in results)
    blunders = 0
    if task.inference is not None:
        blunders = task.inference.card_blunders(deal, 1 - position.turn, solver, rules)
    ms = (time.perf_counter() - started) * 1000
    nodes = solver.stats["nodes"] - nodes_before + score_nodes
    return WorldMoves(tuple(values[card] for card in cards), net, nodes, ms, blunders)


@dataclass(frozen=True)
class Decision:
    """One card of the play to judge, and the worlds of its player's view."""

    index: int
    trick: int
    seat: Seat
    card: Card
    legal: tuple[Card, ...]
    view: SeatView
    worlds: int
    """How many worlds fit the view."""
    samples: int
    """How many of them are judged."""
    seed: int

    @property
    def forced(self) -> bool:
        return len(self.legal) == 1


def decisions(deal: Deal, start: int, samples: int, seed: int, taken: Hand | None) -> list[Decision]:
    """Every card of ``deal``'s play from ``start`` on, with its player's
    view before it and how many of its worlds are judged (none for a
    forced card); ``taken`` as :func:`~kosolve.model.view.view_of` takes it."""
    found = []
    # The last position, after the play, has no card to judge.
    for index, position in enumerate(list(deal.positions(start))[:-1], start):
        seat, card = position.turn, deal.play[index]
        legal = tuple(hand_cards(mask_of(position.legal_moves)))
        view = view_of(deal, seat, index, taken=taken)
        worlds = world_space(view).worlds
        solved = 0 if len(legal) == 1 else min(worlds, samples)
        found.append(Decision(index, position.trick_number, seat, card, legal, view, worlds, solved, seed + index))
    return found


def tasks(
    deal: Deal, judged: Sequence[Decision], rules: Rules, score: bool, inference: Inference | None
) -> Iterator[WorldTask]:
    """Each decision's world that was dealt, then its worlds, as the pool
    takes them; with ``inference``, each world checks the other's last cards."""
    for decision in judged:
        yield WorldTask(replace(deal, play=deal.play[: decision.index]), decision.legal, rules, score)
        worlds = [w for w in sample_worlds(decision.view, decision.samples, decision.seed) if isinstance(w, Deal)]
        # Solved in order as the odds solve theirs; the sums are exactly
        # rounded, so the order changes no verdict.
        worlds.sort(key=lambda world: solving_order(world, 1 - decision.seat))
        for world in worlds:
            yield WorldTask(world, decision.legal, rules, score, inference)


__all__ = ["INFER_DEPTH", "Decision", "WorldMoves", "WorldTask", "decisions", "judge_world", "tasks"]
