"""The odds from one seat: every sampled world solved exactly, summarised.

After the play: for each legal card of the viewer (when he is to move) the
mean of the declarer's final thirds over the worlds, its 95% confidence
interval and the probability that the declarer wins after it; for the
position, the probability that the declarer wins, the mean thirds and
points, and how often each bird and the Valat can still be forced by each
player.  Before the auction: for the viewer as declarer, each contract's
probability of winning and its mean game points, each world valued with
its own best talon choice and lay-away.

With an :class:`~kosolve.sampling.inference.Inference` each world after
the play is weighted by how likely the other's last cards are in it
(docs/inference.md), in the worker that solves it, and every figure is a
weighted mean; its interval counts the worlds by the weights' effective
sample size (:func:`estimate`).  A view before the auction holds no calls,
so there the worlds stay unweighted.

The values come from the library's orchestration, one
:class:`~kosolve.analysis.report.Analyser` per worker
(:class:`~kosolve.analysis.pool.WorkerPool`); the worlds are drawn in
this process from the seed alone and the results combined in world order,
so the numbers do not depend on the number of jobs.

>>> from kosolve.model.files import load_view
>>> result = odds(load_view("examples/views/trick4.json"), samples=50, seed=0, jobs=1)
>>> result.exact, result.worlds, result.samples, result.to_json()["p_win"]
(True, 45, 45, 0.9333)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, TypeVar

from kosolve.analysis.exchange import declared_row
from kosolve.analysis.goals import TRICK_GOALS
from kosolve.analysis.pool import WorkerPool
from kosolve.analysis.report import Analyser, Options
from kosolve.analysis.solving import DEFAULT_BUDGET_MB
from kosolve.model.announcements import check_announcements
from kosolve.model.cards import Card, card_name, hand_cards, mask_of, points_of
from kosolve.model.deal import Deal
from kosolve.model.dealt import Dealt
from kosolve.model.game import CONTRACTS, DEFAULT_RULES, SEATS, Rules, Seat, seat_name
from kosolve.model.reprs import readable_repr
from kosolve.model.scoring import game_item
from kosolve.model.view import SeatView
from kosolve.sampling.inference import Inference
from kosolve.sampling.worlds import sample_worlds, solving_order, world_space

FORMAT_VERSION: Final = 1
"""The version of the JSON object :meth:`Odds.to_json` writes (docs/odds.md)."""
DEFAULT_SAMPLES: Final = 200
SOLVING_BLOCK: Final = 4096
"""Worlds are handed to the workers in blocks of this many, each block in
the order of the other seat's cards (:func:`_in_solving_order`)."""
RUNS_A_WORKER: Final = 4
"""Worlds after the play go to the workers in runs that follow each other
in that order, about this many runs a worker (so that they finish
together): each worker's table serves the next of its own worlds."""
Z95: Final = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""
Result = TypeVar("Result")
Part = TypeVar("Part")
GOAL_NAMES: Final = tuple(goal.name for goal in TRICK_GOALS)
"""The goals whose odds are given for each player: the birds and the Valat."""


@dataclass(frozen=True)
class WorldValue:
    """What one world after the play is worth: the declarer's final thirds
    with best play, after each legal card of the viewer (when he is to
    move), which trick goals each player can force there, and with
    inference its weight by the other's cards."""

    thirds: int
    moves: tuple[tuple[Card, int], ...]
    feasible: tuple[tuple[Seat, str, bool], ...]
    weight: float = 1.0
    """The world's weight (:meth:`~kosolve.sampling.inference.Inference.weight`
    of the other's blunders in it); 1 without inference."""


@dataclass(frozen=True)
class ContractValue:
    """One contract for the declarer in one world before the auction, with
    that world's best talon choice and lay-away."""

    contract: str
    thirds: int
    won: bool
    game_points: int


@dataclass(frozen=True)
class Estimate:
    """A mean over the worlds with its 95% confidence interval (the mean
    itself when every world was solved; None from a single sample)."""

    mean: float
    ci95: tuple[float, float] | None

    def to_json(self) -> dict[str, object]:
        return {"mean": _round(self.mean), "ci95": None if self.ci95 is None else [_round(x) for x in self.ci95]}


@dataclass(frozen=True)
class CardOdds:
    """One legal card of the viewer: the declarer's final thirds after it
    and the probability that the declarer wins."""

    card: Card
    thirds: Estimate
    p_win: float

    def __repr__(self) -> str:
        return readable_repr(self, cards=("card",))

    def to_json(self) -> dict[str, object]:
        return {
            "card": card_name(self.card),
            "mean_thirds": _round(self.thirds.mean),
            "ci95": None if self.thirds.ci95 is None else [_round(x) for x in self.thirds.ci95],
            "p_win": _round(self.p_win),
        }


@dataclass(frozen=True)
class ContractOdds:
    """One contract for the viewer as declarer, before the auction."""

    contract: str
    p_win: float
    game_points: Estimate

    def to_json(self) -> dict[str, object]:
        return {
            "contract": self.contract,
            "p_win": _round(self.p_win),
            "mean_game_points": _round(self.game_points.mean),
            "ci95": None if self.game_points.ci95 is None else [_round(x) for x in self.game_points.ci95],
        }


@dataclass(frozen=True)
class Odds:
    """The summary of :func:`odds`.  ``values`` holds each world's result,
    in world order, for statistics of one's own."""

    view: SeatView
    worlds: int
    """How many worlds are consistent with the view."""
    exact: bool
    """Whether every world was solved: then the means are exact."""
    samples: int
    seed: int
    win_thirds: int
    thirds: Estimate | None
    """The declarer's final thirds (None before the auction)."""
    mean_points: float | None
    p_win: float | None
    cards: tuple[CardOdds, ...]
    feasible: tuple[tuple[Seat, str, float], ...]
    contracts: tuple[ContractOdds, ...]
    values: tuple[WorldValue, ...] | tuple[tuple[ContractValue, ...], ...] = field(repr=False)
    inference: Inference | None = None
    """The model the worlds were weighted by (after the play); None: every
    world alike."""
    effective_samples: float | None = None
    """With inference, the weights' effective sample size,
    (sum of weights)^2 / sum of squared weights: how many equally weighted
    worlds would tell as much."""

    @property
    def to_move(self) -> Seat | None:
        return self.view.to_move

    def best_card_by_mean(self) -> Card | None:
        """The card the viewer plays for the best mean: the most thirds for
        the declarer, the fewest for the defender (the first in the hand's
        order among equals)."""
        return self._best(lambda c: c.thirds.mean)

    def best_card_by_win(self) -> Card | None:
        """The card with the best chance for the viewer's side to win."""
        return self._best(lambda c: c.p_win)

    def _best(self, key: Callable[[CardOdds], float]) -> Card | None:
        if not self.cards:
            return None
        sign = 1 if self.view.view == self.view.declarer else -1
        return max(self.cards, key=lambda c: sign * key(c)).card

    def feasible_json(self) -> dict[str, dict[str, float]] | None:
        """The shares of :attr:`feasible` by seat; None before the auction,
        when the hand is over, and when not asked for."""
        if not self.feasible:
            return None
        return {seat_name(s): {g: _round(p) for seat, g, p in self.feasible if seat == s} for s in SEATS}

    def to_json(self) -> dict[str, object]:
        """The JSON object of ``kosolve odds --json`` (docs/odds.md), without the file name."""
        best_mean, best_win = self.best_card_by_mean(), self.best_card_by_win()
        return {
            "format": FORMAT_VERSION,
            "view": seat_name(self.view.view),
            "to_move": None if self.to_move is None else seat_name(self.to_move),
            "worlds": self.worlds,
            "exact": self.exact,
            "samples": self.samples,
            "seed": self.seed,
            "win_thirds": self.win_thirds,
            "mean_thirds": None if self.thirds is None else _round(self.thirds.mean),
            "ci95": None if self.thirds is None or self.thirds.ci95 is None else [_round(x) for x in self.thirds.ci95],
            "mean_points": None if self.mean_points is None else _round(self.mean_points),
            "p_win": None if self.p_win is None else _round(self.p_win),
            "cards": [c.to_json() for c in self.cards],
            "best_by_mean": None if best_mean is None else card_name(best_mean),
            "best_by_win": None if best_win is None else card_name(best_win),
            "feasible": self.feasible_json(),
            "contracts": [c.to_json() for c in self.contracts],
            **self._inference_json(),
        }

    def _inference_json(self) -> dict[str, object]:
        """The ``inference`` key: the model used, only when one was."""
        if self.inference is None:
            return {}
        assert self.effective_samples is not None
        model = {
            "card_weight": self.inference.card_weight,
            "depth": self.inference.depth,
            "effective_samples": _round(self.effective_samples),
        }
        return {"inference": model}


def _round(value: float) -> float:
    return round(value, 4)


def estimate(values: Sequence[float], exact: bool, weights: Sequence[float] | None = None) -> Estimate:
    """The mean of ``values`` and its normal 95% interval; with ``weights``
    the weighted mean, whose interval takes the weights' effective sample
    size, n = (sum of weights)^2 / sum of squared weights, for the count
    (the interval of :func:`~kosolve.review.statistics.interval`; equal
    weights give the plain one).

    >>> estimate([1, 2, 3, 4], exact=False)
    Estimate(mean=2.5, ci95=(1.2348..., 3.7651...))
    >>> estimate([1, 2], exact=True)
    Estimate(mean=1.5, ci95=(1.5, 1.5))
    >>> estimate([1, 2, 3, 4], exact=False, weights=[1, 1, 1, 0.25])
    Estimate(mean=2.15..., ci95=(0.96..., 3.34...))
    """
    if weights is not None and any(weight != weights[0] for weight in weights):
        return weighted_estimate(values, weights, exact)
    n = len(values)
    mean = math.fsum(values) / n
    if exact:
        return Estimate(mean, (mean, mean))
    if n < 2:
        return Estimate(mean, None)
    spread = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * spread / math.sqrt(n)
    return Estimate(mean, (mean - half, mean + half))


def weighted_estimate(values: Sequence[float], weights: Sequence[float], exact: bool) -> Estimate:
    """:func:`estimate` with the weighted formula, whatever the
    ``weights`` (the review's interval asks it of equal weights other
    than 1 too)."""
    total = math.fsum(weights)
    mean = math.fsum(w * v for w, v in zip(weights, values, strict=True)) / total
    if exact:
        return Estimate(mean, (mean, mean))
    n = effective_size(weights)
    if n <= 1:
        return Estimate(mean, None)
    spread = math.fsum(w * (v - mean) ** 2 for w, v in zip(weights, values, strict=True)) / total
    half = Z95 * math.sqrt(spread * n / (n - 1)) / math.sqrt(n)
    return Estimate(mean, (mean - half, mean + half))


def effective_size(weights: Sequence[float]) -> float:
    """The effective sample size of weighted worlds, (sum of weights)^2 /
    sum of squared weights: their count when they weigh alike, less the
    more the weights differ.

    >>> effective_size([1, 1, 1]), effective_size([1, 0.5, 0.5, 0])
    (3.0, 2.6666666666666665)
    """
    return math.fsum(weights) ** 2 / math.fsum(w * w for w in weights)


def value_world(analyser: Analyser, item: tuple[Deal, Rules, bool, bool]) -> WorldValue:
    """The task for one world after the play: its value, each legal card's
    value when ``moves`` asks, and the trick goals (the feasibility table)
    when ``goals`` does."""
    deal, rules, moves, goals = item
    options = Options(
        rules=rules, moves=moves, feasibility=goals, postmortem=False, score=False, settle=False, declarer_goals=False
    )
    report = analyser.analyse(deal, options)
    table = report.feasibility
    feasible: tuple[tuple[Seat, str, bool], ...] = ()
    if table is not None:
        feasible = tuple((seat, name, bool(table.feasible(seat, name))) for seat in SEATS for name in GOAL_NAMES)
    return WorldValue(report.solution.thirds, tuple((m.card, m.thirds) for m in report.solution.moves), feasible)


def value_worlds(
    analyser: Analyser, item: tuple[tuple[Deal, ...], Rules, bool, bool, Inference | None, Seat]
) -> tuple[WorldValue, ...]:
    """The task for a run of worlds after the play: :func:`value_world` of
    each, one after the other on one analyser; with an inference, each
    world weighted by the other seat's cards in it (on the same warm
    table, so the weight travels with the value)."""
    run, rules, moves, goals, inference, other = item
    values = []
    for world in run:
        value = value_world(analyser, (world, rules, moves, goals))
        if inference is not None:
            blunders = inference.card_blunders(world, other, analyser.solver, rules)
            value = replace(value, weight=inference.weight(blunders))
        values.append(value)
    return tuple(values)


def value_contracts(analyser: Analyser, item: tuple[Dealt, Seat, Rules]) -> tuple[ContractValue, ...]:
    """The task for one world before the auction: each contract for the
    viewer as declarer with that world's best exchange (value only)."""
    dealt, declarer, rules = item
    values = []
    for contract in CONTRACTS:
        # The row he would pick, not every talon choice's best.
        best = declared_row(dealt, declarer, contract, rules=rules, solver=analyser.solver)
        values.append(ContractValue(contract, best.thirds, best.won, game_item(contract, best.won, best.valat)))
    return tuple(values)


def odds(
    view: SeatView,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    jobs: int | None = None,
    *,
    rules: Rules = DEFAULT_RULES,
    tt_mb: float = DEFAULT_BUDGET_MB,
    feasibility: bool = True,
    progress: Callable[[int, int], None] | None = None,
    inference: Inference | None = None,
) -> Odds:
    """The odds from ``view``: ``samples`` worlds drawn from ``seed`` (every
    world when there are no more), solved on ``jobs`` processes (all cores
    by default), summarised; after the play, the birds and the Valat of
    both players are searched in each world unless ``feasibility`` is
    False (they cost more than every card's value at trick 1).  With
    ``inference`` each world after the play is weighted by the other's
    last cards (docs/inference.md) and the figures are weighted means; a
    view before the auction holds no calls, and its worlds stay alike.
    ``progress(done, total)`` is called as worlds are solved.  Raises :class:`~kosolve.sampling.worlds.NoWorldError`
    when no world fits the view, and
    :class:`~kosolve.model.announcements.AnnouncementError` when the rule
    options do not allow its announcements."""
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    if view.contract is not None and view.declarer is not None:
        # Refused here once, not by every world in a worker.
        check_announcements(view.announcements, view.contract, view.declarer, rules)
    space = world_space(view)
    exact = space.worlds <= samples
    total = min(space.worlds, samples)
    # Drawn as the workers take them: a million worlds are never all in memory.
    origin: list[int] = []
    worlds = _in_solving_order(sample_worlds(view, samples, seed), 1 - view.view, origin)
    parts = _Parts()
    with WorkerPool(jobs, tt_mb, items=total) as pool:
        if view.before_auction:
            items_b = ((w, view.view, rules) for w in worlds if isinstance(w, Dealt))
            solved_b = ((origin[i], r) for i, r in pool.imap_unordered(value_contracts, items_b))
            results_b = _collect(solved_b, total, progress, parts.contracts)
            auction = _auction_odds(view, space.worlds, exact, seed, rules, results_b)
            if inference is None:
                return auction
            return replace(auction, inference=inference, effective_samples=float(auction.samples))
        moves = view.to_move == view.view
        size = max(1, total // (RUNS_A_WORKER * pool.jobs))
        runs = _runs((w for w in worlds if isinstance(w, Deal)), size)
        # Weighing by cards that cannot change a weight would be searches for nothing.
        weigh = inference if inference is not None and inference.weighs_cards else None
        items_a = ((run, rules, moves, feasibility, weigh, view.other) for run in runs)
        solved_a = (
            (origin[i * size + j], value)
            for i, values in pool.imap_unordered(value_worlds, items_a)
            for j, value in enumerate(values)
        )
        results_a = _collect(solved_a, total, progress, parts.world)
        return _play_odds(view, space.worlds, exact, seed, rules, results_a, inference)


def _runs(worlds: Iterator[Deal], size: int) -> Iterator[tuple[Deal, ...]]:
    """``worlds`` in tuples of ``size`` (the last may be shorter)."""
    run: list[Deal] = []
    for world in worlds:
        run.append(world)
        if len(run) == size:
            yield tuple(run)
            run = []
    if run:
        yield tuple(run)


def _in_solving_order(worlds: Iterator[Deal | Dealt], other: Seat, origin: list[int]) -> Iterator[Deal | Dealt]:
    """``worlds`` in blocks of :data:`SOLVING_BLOCK`, each sorted by
    :func:`~kosolve.sampling.worlds.solving_order` of the ``other`` seat.
    Appends to ``origin`` each world's index in ``worlds``, in the order
    given."""
    block: list[Deal | Dealt] = []

    def sorted_block() -> Iterator[Deal | Dealt]:
        start = len(origin)
        order = sorted(range(len(block)), key=lambda i: solving_order(block[i], other))
        origin.extend(start + i for i in order)
        yield from (block[i] for i in order)
        block.clear()

    for world in worlds:
        block.append(world)
        if len(block) == SOLVING_BLOCK:
            yield from sorted_block()
    yield from sorted_block()


class _Parts:
    """One copy of each part of the worlds' values: each value comes from a
    worker as copies of its own, but a million worlds repeat a few
    thousand (card, thirds) pairs, goal answers and contract values
    (1.9 KB a world after the play without this, 0.35 KB with it)."""

    def __init__(self) -> None:
        self._pool: dict[object, object] = {}

    def _one(self, part: Part) -> Part:
        return self._pool.setdefault(part, part)  # type: ignore[return-value]

    def world(self, value: WorldValue) -> WorldValue:
        moves = tuple(self._one(move) for move in value.moves)
        return WorldValue(value.thirds, moves, tuple(self._one(goal) for goal in value.feasible), value.weight)

    def contracts(self, values: tuple[ContractValue, ...]) -> tuple[ContractValue, ...]:
        return tuple(self._one(value) for value in values)


def _collect(
    results: Iterator[tuple[int, Result]],
    total: int,
    progress: Callable[[int, int], None] | None,
    keep: Callable[[Result], Result],
) -> list[Result]:
    """The results in world order, each as ``keep`` makes it, reporting
    progress as they come."""
    found: dict[int, Result] = {}
    for index, result in results:
        found[index] = keep(result)
        if progress is not None:
            progress(len(found), total)
    return [found[index] for index in range(total)]


def _play_odds(
    view: SeatView,
    worlds: int,
    exact: bool,
    seed: int,
    rules: Rules,
    values: list[WorldValue],
    inference: Inference | None,
) -> Odds:
    win = rules.win_thirds
    weights = [v.weight for v in values]
    total = math.fsum(weights)

    def share(hits: Iterator[bool]) -> float:
        # Uniform weights give the plain count over n, to the last bit.
        return math.fsum(w for w, hit in zip(weights, hits, strict=True) if hit) / total

    cards = []
    if values and values[0].moves:
        by_card = [dict(v.moves) for v in values]
        for card in hand_cards(mask_of(c for c, _ in values[0].moves)):
            after = [moves[card] for moves in by_card]
            cards.append(CardOdds(card, estimate(after, exact, weights), share(t >= win for t in after)))
    # Not asked for, or a finished hand with nothing left to force: none is given.
    made = [{(seat, name): forced for seat, name, forced in v.feasible} for v in values]
    feasible = tuple(
        (seat, name, share(m[(seat, name)] for m in made)) for seat in SEATS for name in GOAL_NAMES if all(made)
    )
    thirds = [v.thirds for v in values]
    return Odds(
        view=view,
        worlds=worlds,
        exact=exact,
        samples=len(values),
        seed=seed,
        win_thirds=win,
        thirds=estimate(thirds, exact, weights),
        mean_points=math.fsum(w * points_of(t) for w, t in zip(weights, thirds, strict=True)) / total,
        p_win=share(t >= win for t in thirds),
        cards=tuple(cards),
        feasible=feasible,
        contracts=(),
        values=tuple(values),
        inference=inference,
        effective_samples=None if inference is None else effective_size(weights),
    )


def _auction_odds(
    view: SeatView, worlds: int, exact: bool, seed: int, rules: Rules, values: list[tuple[ContractValue, ...]]
) -> Odds:
    n = len(values)
    contracts = tuple(
        ContractOdds(
            contract,
            sum(v[index].won for v in values) / n,
            estimate([v[index].game_points for v in values], exact),
        )
        for index, contract in enumerate(CONTRACTS)
    )
    return Odds(
        view=view,
        worlds=worlds,
        exact=exact,
        samples=n,
        seed=seed,
        win_thirds=rules.win_thirds,
        thirds=None,
        mean_points=None,
        p_win=None,
        cards=(),
        feasible=(),
        contracts=contracts,
        values=tuple(values),
    )


__all__ = [
    "DEFAULT_SAMPLES",
    "FORMAT_VERSION",
    "CardOdds",
    "ContractOdds",
    "ContractValue",
    "Estimate",
    "Odds",
    "WorldValue",
    "effective_size",
    "estimate",
    "odds",
    "value_contracts",
    "value_world",
    "weighted_estimate",
]
