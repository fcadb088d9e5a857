"""An endgame search without strategy fusion: αμ (Cazenave and Ventos,
"The αμ search algorithm for the game of Bridge", 2019) over the worlds of
a seat view (docs/endgame.md).

Perfect-information Monte Carlo values each card in each world as if the
seat could see that world's cards, and so may count on playing a
different card later in worlds it cannot tell apart (strategy fusion).
αμ searches the worlds together instead:

- at the seat's own nodes ("Max") it plays the same card in every world
  of the node, since it cannot tell them apart.  Each card leads to a
  *front*: the Pareto-maximal vectors of values, one entry a world, that
  some strategy of Max reaches against the other's best replies.  The
  node's front is the union of its cards' fronts, reduced to the
  Pareto-maximal vectors;
- at the other's nodes ("Min") he is assumed to know the world and to
  choose his card in each world on its own: the *omniscient opponent*,
  which is pessimistic, since the other does not see the seat's hand.
  Once his card is played the seat sees it, so the worlds split by the
  card.  The node's front is every pointwise minimum of one vector of each
  card's front (a card illegal in a world does not constrain it there),
  reduced to the Pareto-maximal vectors.

Depth ``M`` counts Max's cards: when ``M`` are played, or the hand is
over, each world is valued by the caller's leaf (the double-dummy value
of that world's position for Max).  ``M = 1`` is perfect-information
Monte Carlo; with ``M`` at least Max's cards left the search is exact
against an omniscient opponent.  At the root each card's value is the best
weighted mean over its front.

The forehand (Max, declaring) leads with II, HQ and H1 and cannot tell
whether the dealer holds XXI, HC and HJ or XXI, HJ and D4.  Led, the II
falls to the XXI and the dealer leads HJ: in the first world the forehand
should duck it (his HQ then takes the HC), in the second take it (his H1
then takes the D4); he cannot tell which, so the II is worth 14 thirds,
not the 15½ of a guess right in both worlds that Monte Carlo counts on:

>>> from kosolve.analysis.solving import new_solver, solve
>>> from kosolve.model.cards import card_name, parse_hand
>>> from kosolve.model.game import FOREHAND
>>> solver = new_solver()
>>> def thirds(world, position):  # the declarer's thirds with best play: a double-dummy leaf
...     return solve(position, solver=solver, with_moves=False, with_line=False).thirds
>>> his = (["XXI", "HC", "HJ"], ["XXI", "HJ", "D4"])
>>> worlds = [Deal("dreiblatt", FOREHAND, (parse_hand(["II", "HQ", "H1"]), parse_hand(h))) for h in his]
>>> for depth in (1, 3):
...     choice = endgame_choice(worlds, None, depth, thirds)
...     print(card_name(choice.card), {card_name(card): value for card, value in choice.values.items()})
II {'II': 15.5, 'HQ': 15.0, 'H1': 7.0}
HQ {'II': 14.0, 'HQ': 15.0, 'H1': 7.0}
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from kosolve.analysis.netscore import net_score
from kosolve.analysis.solving import search_args
from kosolve.engine import ScoreSolver, Solver
from kosolve.model.announcements import BIRDS
from kosolve.model.cards import Card, cards_of
from kosolve.model.deal import Deal
from kosolve.model.game import Position, Rules, Seat
from kosolve.model.scoring import game_item

THIRDS_SCALE: Final = 1 << 16
"""The leaf of :func:`dd_leaf` is ``game points × THIRDS_SCALE + thirds``.
The Monte Carlo bot compares the mean game points first and the mean
thirds only on a tie (``kosolve.play.bots``); a declarer's thirds lie in
0–210, so any mean over up to 312 equally weighted worlds keeps that
order (with 1024 it would hold for 4 worlds only)."""

Leaf: TypeAlias = Callable[[int, Position], int]
"""``leaf(world, position)``: Max's value in world number ``world`` at
``position`` (which may be the end of the hand)."""
_Vector: TypeAlias = tuple[float, ...]
"""One value a world of a node, in the node's world order; ``math.inf``
where a world is not constrained (yet) at a Min node."""
_Front: TypeAlias = list[_Vector]
_BIRD_TRICKS: Final = {bird.card: bird.trick for bird in BIRDS}
_BIRD_MASK: Final = sum(1 << card for card in _BIRD_TRICKS)


@dataclass(frozen=True)
class EndgameChoice:
    """The card αμ chooses, each legal card's value and the search's size."""

    card: Card
    """The chosen card: the best value, on a tie the lowest card number
    (as the Monte Carlo bot breaks its ties)."""
    values: dict[Card, float]
    """Each legal card's best weighted mean value for Max over its front."""
    nodes: int
    """The nodes searched (each a position with its set of worlds)."""


def _dominated(vector: _Vector, front: _Front) -> bool:
    """Whether some vector of ``front`` is at least ``vector`` in every world."""
    return any(all(a >= b for a, b in zip(other, vector, strict=True)) for other in front)


def _pareto(vectors: _Front) -> _Front:
    """The Pareto-maximal vectors of ``vectors``, each once.  A vector that
    dominates another has at least its unconstrained worlds and, with as
    many, a larger finite sum, so it comes first in this order."""

    def order(vector: _Vector) -> tuple[int, float]:
        finite = [value for value in vector if value != math.inf]
        return len(vector) - len(finite), sum(finite)

    kept: _Front = []
    for vector in sorted(set(vectors), key=order, reverse=True):
        if not _dominated(vector, kept):
            kept.append(vector)
    return kept


class _Search:
    """One αμ search: the worlds' positions, pushed and popped together,
    the leaf values and the fronts of positions already searched."""

    def __init__(self, worlds: Sequence[Deal], leaf: Leaf) -> None:
        self.positions = [world.position() for world in worlds]
        self.leaf = leaf
        self.max_seat = self.positions[0].turn
        self.root = len(self.positions[0].move_stack)
        self.nodes = 0
        self.leaves: dict[tuple[int, tuple[object, ...]], int] = {}
        self.fronts: dict[tuple[tuple[object, ...], tuple[int, ...], int], _Front] = {}

    def key(self, world: int) -> tuple[object, ...]:
        """What the position of ``world`` (every world of a node has played
        the same cards) holds that a value may depend on: the cards played
        since the root (which with the root's hands give both hands), the
        card on the table, the leader, each side's thirds and tricks, and
        each bird played in its own trick with the seat that took it.  Two
        orders of the same tricks reach the same key."""
        position = self.positions[world]
        played = 0
        stack = position.move_stack
        for index in range(self.root, len(stack)):
            played |= 1 << stack[index]
        birds = []
        # Only tricks since the root differ between the nodes of one search.
        if played & _BIRD_MASK:
            for trick in position.tricks[self.root // 2 :]:
                if trick.winner is not None:
                    birds += [(card, trick.winner) for card in trick.cards if _BIRD_TRICKS.get(card) == trick.number]
        return (
            played,
            position.led,
            position.leader,
            tuple(position.trick_thirds),
            tuple(position.tricks_won),
            tuple(sorted(birds)),
        )

    def leaf_vector(self, worlds: tuple[int, ...], key: tuple[object, ...]) -> _Vector:
        values = []
        for world in worlds:
            value = self.leaves.get((world, key))
            if value is None:
                value = self.leaves[world, key] = self.leaf(world, self.positions[world])
            values.append(value)
        return tuple(values)

    def push(self, worlds: Sequence[int], card: Card) -> None:
        for world in worlds:
            self.positions[world].push(card)

    def pop(self, worlds: Sequence[int]) -> None:
        for world in worlds:
            self.positions[world].pop()

    def node(self, worlds: tuple[int, ...], depth: int, alpha: _Front | None = None) -> _Front:
        """The front of the position every world of ``worlds`` has reached,
        with ``depth`` cards of Max left to search.  A Min node stops once
        each of its vectors is dominated by ``alpha`` (the front its Max
        parent has so far): it can add nothing there, and its front is
        then not the exact one, so it is not kept."""
        self.nodes += 1
        first = self.positions[worlds[0]]
        key = self.key(worlds[0])
        # With one world left Max sees it: its value is the leaf's, a double-dummy value.
        if depth == 0 or first.is_over() or len(worlds) == 1:
            return [self.leaf_vector(worlds, key)]
        table_key = (key, worlds, depth)
        front = self.fronts.get(table_key)
        if front is not None:
            return front
        if first.turn == self.max_seat:
            front = self.max_node(worlds, depth)
        else:
            front, exact = self.min_node(worlds, depth, alpha)
            if not exact:
                return front
        self.fronts[table_key] = front
        return front

    def max_node(self, worlds: tuple[int, ...], depth: int) -> _Front:
        legal = self.positions[worlds[0]].legal_moves.mask()
        # Max's hand is the same in every world: he holds what he sees.
        assert all(self.positions[w].legal_moves.mask() == legal for w in worlds)
        front: _Front = []
        for card in cards_of(legal):
            self.push(worlds, card)
            child = self.node(worlds, depth - 1, front)
            self.pop(worlds)
            front = _pareto(front + child)
        return front

    def min_node(self, worlds: tuple[int, ...], depth: int, alpha: _Front | None) -> tuple[_Front, bool]:
        """The front, and whether it is exact (not cut by ``alpha``)."""
        splits: dict[Card, list[int]] = {}
        for slot, world in enumerate(worlds):
            for card in cards_of(self.positions[world].legal_moves.mask()):
                splits.setdefault(card, []).append(slot)
        front: _Front = [(math.inf,) * len(worlds)]
        for card, slots in splits.items():
            subset = tuple(worlds[slot] for slot in slots)
            self.push(subset, card)
            child = self.node(subset, depth)
            self.pop(subset)
            combined = []
            for vector in child:
                # The card constrains only the worlds where he holds it.
                spread = [math.inf] * len(worlds)
                for slot, value in zip(slots, vector, strict=True):
                    spread[slot] = value
                combined += [tuple(map(min, old, spread)) for old in front]
            front = _pareto(combined)
            if alpha and all(_dominated(vector, alpha) for vector in front):
                return front, False
        return front, True


def _mean(vector: _Vector, weights: Sequence[float] | None) -> float:
    if weights is None:
        return sum(vector) / len(vector)
    return math.fsum(w * v for w, v in zip(weights, vector, strict=True)) / math.fsum(weights)


def endgame_choice(worlds: Sequence[Deal], weights: Sequence[float] | None, depth: int, leaf: Leaf) -> EndgameChoice:
    """The card of αμ with ``depth`` cards of Max (the seat to move in every
    world of ``worlds``, deals that agree on all that seat sees and on the
    play so far) against an omniscient opponent, and each legal card's
    best weighted mean value over its front (``weights`` a world, equal
    when None).  ``leaf(world, position)`` is Max's value in that world,
    a double-dummy value: a node left with one world takes the leaf's value
    at once.  Ties go to the lowest card number."""
    if not worlds:
        raise ValueError("an endgame search needs at least one world")
    if depth < 1:
        raise ValueError(f"the depth counts Max's cards and must be at least 1, not {depth}")
    if weights is not None and len(weights) != len(worlds):
        raise ValueError(f"{len(weights)} weights for {len(worlds)} worlds")
    search = _Search(worlds, leaf)
    everyone = tuple(range(len(worlds)))
    legal = search.positions[0].legal_moves.mask()
    assert all(p.legal_moves.mask() == legal for p in search.positions), "the worlds differ in Max's hand"
    values: dict[Card, float] = {}
    for card in cards_of(legal):
        search.push(everyone, card)
        # No cut at the root: every card's value is asked for.
        front = search.node(everyone, depth - 1)
        search.pop(everyone)
        values[card] = max(_mean(vector, weights) for vector in front)
    card = max(values, key=lambda c: (values[c], -c))
    return EndgameChoice(card, values, search.nodes)


def dd_leaf(
    worlds: Sequence[Deal],
    seat: Seat,
    rules: Rules,
    solver: Solver,
    by_net: bool,
    score_solver: ScoreSolver | None = None,
) -> Leaf:
    """The double-dummy leaf of :func:`endgame_choice` for ``seat``: the
    declarer's game points with best play × :data:`THIRDS_SCALE` + his
    final thirds, negated for the defender; the game points are the net
    score's with ``by_net`` (the score search, on ``score_solver``, one
    framed by ``solver`` when not given; whole games with their piles),
    else the game item's, won or lost by the thirds.  The same values
    the Monte Carlo bot gives a card (``kosolve.play.bots``), so that
    ``depth = 1`` chooses its card."""
    if by_net and score_solver is None:
        score_solver = ScoreSolver(points=solver)

    def leaf(world: int, position: Position) -> int:
        deal = worlds[world]
        thirds = position.declarer_thirds()
        if not position.is_over():
            thirds += solver.value(*search_args(position))
        if by_net:
            assert score_solver is not None
            score = net_score(deal, position, rules=rules, solver=score_solver, with_points_line=False, with_line=False)
            points = score.score
        else:
            points = game_item(deal.contract, thirds >= rules.win_thirds, False)
        value = points * THIRDS_SCALE + thirds
        return value if seat == deal.declarer else -value

    return leaf


__all__ = ["THIRDS_SCALE", "EndgameChoice", "Leaf", "dd_leaf", "endgame_choice"]
