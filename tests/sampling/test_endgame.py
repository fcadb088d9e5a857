"""The endgame search without strategy fusion (αμ, docs/endgame.md): at
depth 1 it is the Monte Carlo bot, card for card; at full depth its value
of each first card is the best a strategy of the seat (a card for each
sequence of cards it has seen) reaches against the other's best reply in
each world, which a brute force over every such strategy finds too; and
where the Monte Carlo bot's card is worse than that, it finds the better."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest
from support.views import played_deal

from kosolve.analysis.netscore import net_scores_after
from kosolve.analysis.report import Analyser
from kosolve.analysis.scoring import settle
from kosolve.analysis.solving import solve
from kosolve.dealing import random_ending
from kosolve.model.cards import Card, cards_of, mask_of, parse_hand
from kosolve.model.deal import Deal
from kosolve.model.game import DEFAULT_RULES, FOREHAND, GAME_VALUES, Position, Seat
from kosolve.model.view import SeatView, view_of
from kosolve.play.bots import PimcBot, bonus_open
from kosolve.sampling.endgame import THIRDS_SCALE, dd_leaf, endgame_choice
from kosolve.sampling.worlds import all_worlds, world_space

ANALYSER = Analyser(tt_mb=16)
"""One set of tables for every search here: they change no answer."""
Strategy = dict[tuple[Card, ...], Card]
"""A card for each sequence of cards the seat has seen when it is to play."""
MOST_STRATEGIES = 3000
"""The most strategies the brute force tries for one ending."""


def endings(seed: int, count: int, tricks: tuple[int, ...], most_worlds: int) -> Iterator[tuple[SeatView, list[Deal]]]:
    """``count`` views of the seat to play, each with ``tricks`` tricks
    left (one of them, at random, and half of the time in the middle of
    a trick), at least two worlds and at most ``most_worlds``, and at least
    two legal cards: realistic deals played at random, and every world
    of the view."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        cards = 32 - 2 * rng.choice(tricks) + rng.randrange(2)
        deal, taken = played_deal(rng, cards)
        seat = deal.position().turn
        view = view_of(deal, seat, taken=taken if rng.random() < 0.5 else None)
        if not 2 <= world_space(view).worlds <= most_worlds or len(deal.position().legal_moves) < 2:
            continue
        worlds = [world for world in all_worlds(view) if isinstance(world, Deal)]
        found += 1
        yield view, worlds


def by_net(view: SeatView) -> bool:
    """Whether the Monte Carlo bot chooses this card by the net score."""
    return bonus_open(view.announcements, view.play, view.pile | view.other_pile)


def pimc_card(view: SeatView, worlds: list[Deal]) -> Card:
    """The Monte Carlo bot's card: with at least as many samples as worlds
    it values every world of the view, these."""
    bot = PimcBot(samples=len(worlds), bonus_samples=len(worlds), analyser=ANALYSER)
    return bot._card(view, list(worlds[0].position().legal_moves))


def dd_values(deal: Deal, seat: Seat, net: bool) -> dict[Card, int]:
    """Each legal card's double-dummy value for ``seat``: the declarer's
    game item (or net score) × THIRDS_SCALE + his thirds, from the solver's
    values of the cards (and the score search after each)."""
    position = deal.position()
    thirds = {move.card: move.thirds for move in solve(position, solver=ANALYSER.solver, with_line=False).moves}
    if net:
        nets = net_scores_after(deal, position, list(thirds), solver=ANALYSER.score_solver)
        points = {card: score.score for card, score in zip(thirds, nets, strict=True)}
    else:
        points = {card: game_points(deal, value) for card, value in thirds.items()}
    sign = 1 if seat == deal.declarer else -1
    return {card: sign * (points[card] * THIRDS_SCALE + thirds[card]) for card in thirds}


def test_one_world_is_double_dummy() -> None:
    """With one world the search sees the cards: each card's value is its
    double-dummy value, the game item (or the net score) and then the
    thirds, and the card is the Monte Carlo bot's."""
    for view, worlds in endings(1, 6, (3, 4), 40):
        deal = worlds[0]
        for net in (False, True):
            leaf = dd_leaf([deal], view.view, DEFAULT_RULES, ANALYSER.solver, net, ANALYSER.score_solver)
            choice = endgame_choice([deal], None, 2, leaf)
            assert choice.values == dd_values(deal, view.view, net)
            if net == by_net(view):
                assert choice.card == pimc_card(view, [deal])


def test_depth_one_is_the_monte_carlo_bot() -> None:
    """At depth 1 each world is valued double dummy after the seat's card,
    as the Monte Carlo bot values it: each card's value is its mean double
    dummy value, and the card is the bot's, ties included."""
    for view, worlds in endings(2, 12, (3, 4), 40):
        net = by_net(view)
        leaf = dd_leaf(worlds, view.view, DEFAULT_RULES, ANALYSER.solver, net, ANALYSER.score_solver)
        choice = endgame_choice(worlds, None, 1, leaf)
        each = [dd_values(world, view.view, net) for world in worlds]
        assert choice.values == {card: sum(values[card] for values in each) / len(worlds) for card in choice.values}
        assert choice.card == pimc_card(view, worlds)


def game_points(deal: Deal, thirds: int) -> int:
    """The declarer's game item, won or lost by his thirds (no Valat)."""
    game = GAME_VALUES[deal.contract]
    return game if thirds >= DEFAULT_RULES.win_thirds else -game


def terminal_value(deal: Deal, position: Position, seat: Seat, net: bool) -> int:
    """What the hand played out is worth to ``seat``: the declarer's game
    item or net score (the hand settled) × THIRDS_SCALE + his thirds."""
    thirds = position.declarer_thirds()
    if net:
        points = settle(replace(deal, play=tuple(position.move_stack)), DEFAULT_RULES).totals[deal.declarer]
    else:
        points = game_points(deal, thirds)
    value = points * THIRDS_SCALE + thirds
    return value if seat == deal.declarer else -value


def strategies(positions: dict[int, Position], seat: Seat) -> list[Strategy]:
    """Every strategy of ``seat`` from here (the worlds' positions, which
    have seen the same cards), only for the sequences it can reach: at its
    own turn each card it may play; at the other's, every card he plays
    in some world is a sequence of its own, and a strategy takes one
    strategy after each."""
    position = next(iter(positions.values()))
    if position.is_over():
        return [{}]
    seen = tuple(position.move_stack)
    if position.turn == seat:
        found = []
        for card in position.legal_moves:
            for each in positions.values():
                each.push(card)
            found += [{**after, seen: card} for after in strategies(positions, seat)]
            for each in positions.values():
                each.pop()
        return found
    parts = []
    for card in sorted({card for each in positions.values() for card in each.legal_moves}):
        holding = {world: each for world, each in positions.items() if card in each.legal_moves}
        for each in holding.values():
            each.push(card)
        parts.append(strategies(holding, seat))
        for each in holding.values():
            each.pop()
    return [
        {key: card for part in combination for key, card in part.items()} for combination in itertools.product(*parts)
    ]


Terminal = Callable[[int, Position], int]
"""What a hand played out is worth to the seat, in world number ``world``."""


def terminal_of(worlds: list[Deal], seat: Seat, net: bool) -> Terminal:
    """:func:`terminal_value` in each of ``worlds``, by its number."""
    return lambda world, position: terminal_value(worlds[world], position, seat, net)


def brute_force(worlds: list[Deal], weights: list[float], seat: Seat, terminal: Terminal) -> dict[Card, float] | None:
    """For each first card, the best weighted mean over the worlds of any
    strategy of ``seat`` that starts with it, each world against the
    other's best reply there (he sees every card); None when there are more
    than :data:`MOST_STRATEGIES`, too many to try in a test."""
    positions = {index: world.position() for index, world in enumerate(worlds)}
    root = tuple(positions[0].move_stack)
    every = strategies(positions, seat)
    if len(every) > MOST_STRATEGIES:
        return None
    ends: dict[tuple[int, tuple[Card, ...]], int] = {}

    def against_best_reply(world: int, position: Position, strategy: Strategy) -> int:
        if position.is_over():
            key = (world, tuple(position.move_stack))
            if key not in ends:
                ends[key] = terminal(world, position)
            return ends[key]
        moves = [strategy[tuple(position.move_stack)]] if position.turn == seat else list(position.legal_moves)
        values = []
        for card in moves:
            position.push(card)
            values.append(against_best_reply(world, position, strategy))
            position.pop()
        return min(values)

    best: dict[Card, float] = {}
    for strategy in every:
        outcome = [against_best_reply(index, positions[index], strategy) for index in positions]
        mean = sum(w * v for w, v in zip(weights, outcome, strict=True)) / sum(weights)
        card = strategy[root]
        best[card] = max(best.get(card, mean), mean)
    return best


@pytest.mark.parametrize("net", [False, True])
def test_full_depth_is_the_best_strategy(net: bool) -> None:
    """Searched to the end, each first card's value is the best weighted
    mean of the seat's strategies that start with it, each against the
    other's best reply in each world."""
    rng = random.Random(3)
    tried = 0
    for view, worlds in endings(4 + net, 12, (2, 3), 6):
        weights = [float(rng.randint(1, 4)) for _ in worlds]
        exact = brute_force(worlds, weights, view.view, terminal_of(worlds, view.view, net))
        if exact is None:
            continue
        leaf = dd_leaf(worlds, view.view, DEFAULT_RULES, ANALYSER.solver, net, ANALYSER.score_solver)
        assert endgame_choice(worlds, weights, 3, leaf).values == pytest.approx(exact, rel=1e-12)
        tried += 1
    assert tried >= 8


Vector = dict[int, float]
"""A value a world, by the world's number."""


def pareto(vectors: list[Vector]) -> list[Vector]:
    """The vectors no other is at least in every world and above in one."""

    def beaten(vector: Vector) -> bool:
        return any(other != vector and all(other[w] >= vector[w] for w in vector) for other in vectors)

    kept: list[Vector] = []
    for vector in vectors:
        if not beaten(vector) and vector not in kept:
            kept.append(vector)
    return kept


def reference_front(positions: dict[int, Position], seat: Seat, depth: int, leaf: Terminal) -> list[Vector]:
    """αμ as the paper writes it, with neither a table nor a cut: at the
    seat's turn the union of its cards' fronts, at the other's every
    pointwise minimum of one vector a card (a world where he does not hold
    the card is not constrained by it), Pareto-maximal."""
    position = next(iter(positions.values()))
    if depth == 0 or position.is_over():
        return [{world: leaf(world, each) for world, each in positions.items()}]
    if position.turn == seat:
        union: list[Vector] = []
        for card in position.legal_moves:
            for each in positions.values():
                each.push(card)
            union += reference_front(positions, seat, depth - 1, leaf)
            for each in positions.values():
                each.pop()
        return pareto(union)
    front: list[Vector] = [dict.fromkeys(positions, math.inf)]
    for card in sorted({card for each in positions.values() for card in each.legal_moves}):
        holding = {world: each for world, each in positions.items() if card in each.legal_moves}
        for each in holding.values():
            each.push(card)
        child = reference_front(holding, seat, depth, leaf)
        for each in holding.values():
            each.pop()
        front = pareto([{w: min(old[w], new.get(w, math.inf)) for w in old} for old in front for new in child])
    return front


@pytest.mark.parametrize("depth", [2, 4])
def test_the_search_is_the_papers(depth: int) -> None:
    """On endings of 3 and 4 tricks, at depth 2 and searched to the end,
    each card's value is the reference's: the tables of positions already
    searched and the cut at the other's turn change no value."""
    for view, worlds in endings(20 + depth, 15, (3, 4), 12):
        leaf = dd_leaf(worlds, view.view, DEFAULT_RULES, ANALYSER.solver, by_net(view), ANALYSER.score_solver)
        choice = endgame_choice(worlds, None, depth, leaf)
        positions = {index: world.position() for index, world in enumerate(worlds)}
        expected = {}
        for card in positions[0].legal_moves:
            for each in positions.values():
                each.push(card)
            front = reference_front(positions, view.view, depth - 1, leaf)
            for each in positions.values():
                each.pop()
            expected[card] = max(sum(vector.values()) / len(worlds) for vector in front)
        assert choice.values == expected


def thirds_leaf(world: int, position: Position) -> int:
    """The declarer's thirds with best play, for the endings without piles."""
    return solve(position, solver=ANALYSER.solver, with_moves=False, with_line=False).thirds


def test_strategy_fusion_misleads_the_monte_carlo_bot() -> None:
    """The forehand leads with II, HQ and H1, the dealer holds XXI and HJ
    and either HC or D4.  After the II falls to the XXI and the HJ comes
    back, the forehand must duck in one world and take in the other, and
    cannot tell them apart: Monte Carlo, which counts on the right guess in
    each, leads the II; the search leads the HQ, 15 thirds in both."""
    his = (["XXI", "HC", "HJ"], ["XXI", "HJ", "D4"])
    worlds = [Deal("dreiblatt", FOREHAND, (parse_hand(["II", "HQ", "H1"]), parse_hand(hand))) for hand in his]
    pimc = endgame_choice(worlds, None, 1, thirds_leaf)
    exact = endgame_choice(worlds, None, 3, thirds_leaf)
    assert (pimc.card, exact.card) == (parse_hand(["II"]).bit_length() - 1, parse_hand(["HQ"]).bit_length() - 1)
    assert pimc.values[pimc.card] == 15.5
    assert exact.values == {**pimc.values, pimc.card: 14.0}


def variants(rng: random.Random, tricks: int) -> tuple[Seat, list[Deal]]:
    """A random ending (:func:`~kosolve.dealing.random_ending`) at a trick
    boundary, the leader to play, and up to six worlds he cannot tell
    apart: the other's hand drawn from his cards and as many of his pile's,
    the rest of them in his pile."""
    ending = random_ending(rng, tricks)
    assert ending.piles is not None
    seat, other = ending.leader, 1 - ending.leader
    pool = [*cards_of(ending.hands[other]), *rng.sample(list(cards_of(ending.piles[other])), tricks)]
    his = ending.hands[other] | ending.piles[other]
    worlds = []
    for hand in sorted({mask_of(rng.sample(pool, tricks)) for _ in range(rng.randint(2, 6))}):
        hands, piles = [0, 0], [0, 0]
        hands[seat], piles[seat] = ending.hands[seat], ending.piles[seat]
        hands[other], piles[other] = hand, his & ~hand
        worlds.append(Deal(ending.contract, ending.declarer, (hands[0], hands[1]), (piles[0], piles[1]), seat))
    return seat, worlds


def monte_carlo_card(worlds: list[Deal], seat: Seat) -> Card:
    """The card of the best mean game item and then mean thirds over the
    worlds, each card valued double dummy in each world: the Monte Carlo
    bot's rule, from the solver's values of each card."""
    sums: dict[Card, list[int]] = {}
    for world in worlds:
        for move in solve(world.position(), solver=ANALYSER.solver, with_line=False).moves:
            entry = sums.setdefault(move.card, [0, 0])
            entry[0] += game_points(world, move.thirds)
            entry[1] += move.thirds
    sign = 1 if seat == worlds[0].declarer else -1
    return max(sums, key=lambda card: (sign * sums[card][0], sign * sums[card][1], -card))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_where_monte_carlo_is_fused_the_search_is_not(seed: int) -> None:
    """A seeded search over random endings of 3 tricks for one where the
    Monte Carlo card is worse than the best against the omniscient
    opponent (by the brute force): the search's card is the best."""
    rng = random.Random(seed)
    for _ in range(500):
        seat, worlds = variants(rng, 3)
        if len(worlds) < 2 or len(worlds[0].position().legal_moves) < 2:
            continue
        leaf = dd_leaf(worlds, seat, DEFAULT_RULES, ANALYSER.solver, False)
        monte_carlo = monte_carlo_card(worlds, seat)
        choice = endgame_choice(worlds, None, 3, leaf)
        if choice.card == monte_carlo:
            continue
        exact = brute_force(worlds, [1.0] * len(worlds), seat, terminal_of(worlds, seat, False))
        if exact is not None and exact[monte_carlo] < max(exact.values()):
            assert exact[choice.card] == max(exact.values())
            return
    pytest.fail("no ending where strategy fusion misleads the Monte Carlo card")
