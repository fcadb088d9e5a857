"""Every card of a played hand judged twice: by what the player knew, and
double dummy.

Before each card the mover saw a seat view (:func:`~kosolve.model.view.view_of`):
his cards, his pile, what he saw of the other's, the announcements and
the play so far.  The worlds consistent with it
(:func:`~kosolve.sampling.worlds.world_space`) are all solved when there
are at most ``samples`` of them, else ``samples`` drawn uniformly; the
worlds of card ``i`` are those ``kosolve odds --seed SEED+i`` draws from
the view before it, so a verdict can be looked at again from that view.
In each world every legal card of the mover is valued exactly (the
declarer's final thirds with best play after it), and the card played is
compared with his best card by the mean over the worlds: the **loss by
what he knew**.  Beside it stands the **double-dummy loss**: the same
comparison in the one world that was dealt (as the post-mortem makes it).

Each card gets a verdict from the two (:data:`VERDICTS`): ``best`` (best
by both), ``mistake`` (it lost by what he knew and double dummy),
``unlucky`` (best by what he knew, lost double dummy) and ``lucky`` (lost
by what he knew, best double dummy).  A card that was the only legal one
is ``forced`` and is not judged.  With ``score`` the cards are compared by
the declarer's net game points with score-optimal play (a search of its
own for every card in every world) instead of the thirds.

The worlds are drawn in this process from the seed alone and solved on a
:class:`~kosolve.analysis.pool.WorkerPool`, whose analysers keep their
tables warm from world to world and from card to card; the results are
combined in world order, so the figures do not depend on the jobs.

>>> from kosolve.model.files import load_deal
>>> result = review(load_deal("examples/played.json"), samples=20, jobs=1)
>>> [(c.index, card_name(c.card), c.verdict) for c in result.cards][:4]
[(0, 'DK', 'lucky'), (1, 'D2', 'forced'), (2, 'S10', 'lucky'), (3, 'XX', 'mistake')]
>>> result.cards[3].exact, result.cards[3].worlds, [card_name(c) for c in result.cards[3].best][:3]
(True, 11, ['XVII', 'XIV', 'XIII'])
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from kosolve.analysis.netscore import net_score
from kosolve.analysis.pool import WorkerPool
from kosolve.analysis.report import Analyser
from kosolve.analysis.solving import DEFAULT_BUDGET_MB, search_args, solve
from kosolve.engine import Solver
from kosolve.model.announcements import check_announcements
from kosolve.model.cards import Card, Hand, card_name, hand_cards, mask_of
from kosolve.model.deal import Deal
from kosolve.model.dealt_file import DealtFile
from kosolve.model.game import DEFAULT_RULES, SEATS, OptionError, Position, Rules, Seat, seat_name
from kosolve.model.reprs import counted
from kosolve.model.view import SeatView, view_of
from kosolve.sampling.odds import DEFAULT_SAMPLES, Z95
from kosolve.sampling.worlds import sample_worlds, world_space

FORMAT_VERSION: Final = 1
"""The version of the JSON object :meth:`Review.to_json` writes (docs/json.md)."""
VERDICTS: Final = ("best", "mistake", "unlucky", "lucky", "forced")
"""The verdicts, in the order the summaries count them."""
INFER_DEPTH: Final = 4
"""With inference, how many of the other's last cards weigh a world."""


class ReviewError(OptionError):
    """A review that cannot be made of the deal: no play, ``from`` at or
    beyond its end, fewer than one sample, a weight outside (0, 1]."""


@dataclass(frozen=True)
class ReviewStats:
    """What a review, or one card of it, cost: the worlds solved (the dealt
    one included), the search nodes, the time (a card's: its workers' time
    on its worlds; the review's: the wall time)."""

    worlds: int
    nodes: int
    ms: float

    def to_json(self) -> dict[str, object]:
        return {"worlds": self.worlds, "nodes": self.nodes, "ms": round(self.ms, 3)}


@dataclass(frozen=True)
class MoveJudgement:
    """One legal card of the mover over the worlds he could not tell apart,
    and in the world that was dealt."""

    card: Card
    mean_thirds: float
    """The declarer's mean final thirds after the card."""
    p_win: float
    """The share of the worlds in which the declarer wins after it."""
    dd_thirds: int
    """The declarer's final thirds after it in the world that was dealt."""
    mean_net: float | None = None
    """With ``score``: the declarer's mean net game points after it ..."""
    dd_net: int | None = None
    """... and in the world that was dealt."""

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "card": card_name(self.card),
            "mean_thirds": _round(self.mean_thirds),
            "p_win": _round(self.p_win),
            "dd_thirds": self.dd_thirds,
        }
        if self.mean_net is not None:
            data.update(mean_net=_round(self.mean_net), dd_net=self.dd_net)
        return data


@dataclass(frozen=True)
class CardJudgement:
    """One card of the play, judged by what its player knew and double dummy.
    Losses are in thirds (net game points with ``score``), from the
    player's side: 0 for his best card."""

    index: int
    """Its place in the play, from 0."""
    trick: int
    seat: Seat
    card: Card
    worlds: int
    """How many worlds fit the player's view."""
    samples: int
    """How many of them were solved (0 for a forced card)."""
    exact: bool
    """Whether every world was solved: then the means are exact."""
    seed: int
    """The seed the worlds were drawn from (when not all were solved)."""
    moves: tuple[MoveJudgement, ...]
    """Every legal card, in the hand diagram's order; empty when forced."""
    best: tuple[Card, ...]
    """The cards best by what he knew (the best mean)."""
    dd_best: tuple[Card, ...]
    """The cards best double dummy."""
    knew_loss: float
    """How much the card lost against his best by what he knew, in mean."""
    knew_loss_ci95: tuple[float, float] | None
    """The 95% interval of that loss over the worlds drawn (the loss itself
    when exact; None from a single sample)."""
    dd_loss: int
    verdict: str
    stats: ReviewStats = field(default=ReviewStats(0, 0, 0.0), compare=False)

    @property
    def forced(self) -> bool:
        return self.verdict == "forced"

    def to_json(self, score: bool = False) -> dict[str, object]:
        unit = "net" if score else "thirds"
        return {
            "index": self.index,
            "trick": self.trick,
            "seat": seat_name(self.seat),
            "card": card_name(self.card),
            "exact": self.exact,
            "worlds": self.worlds,
            "samples": self.samples,
            "seed": self.seed,
            "moves": [m.to_json() for m in self.moves],
            "best": [card_name(c) for c in self.best],
            "dd_best": [card_name(c) for c in self.dd_best],
            f"dd_loss_{unit}": self.dd_loss,
            f"knew_loss_{unit}": _round(self.knew_loss),
            f"knew_loss_{unit}_ci95": None if self.knew_loss_ci95 is None else [_round(x) for x in self.knew_loss_ci95],
            "verdict": self.verdict,
            "stats": self.stats.to_json(),
        }


@dataclass(frozen=True)
class PlayerSummary:
    """One player's cards reviewed: how many, each verdict's count, what
    they lost by each measure, and the accuracies."""

    seat: Seat
    cards: int
    judged: int
    """The cards that were not forced."""
    verdicts: tuple[tuple[str, int], ...]
    knew_loss: float
    dd_loss: int

    def count(self, verdict: str) -> int:
        return dict(self.verdicts)[verdict]

    @property
    def knew_accuracy(self) -> float | None:
        """The share of his judged cards that were best by what he knew."""
        if not self.judged:
            return None
        return (self.count("best") + self.count("unlucky")) / self.judged

    @property
    def dd_accuracy(self) -> float | None:
        """The share of his judged cards that were best double dummy."""
        if not self.judged:
            return None
        return (self.count("best") + self.count("lucky")) / self.judged

    def to_json(self, score: bool = False) -> dict[str, object]:
        unit = "net" if score else "thirds"
        knew, dd = self.knew_accuracy, self.dd_accuracy
        return {
            "cards": self.cards,
            "judged": self.judged,
            **{verdict: count for verdict, count in self.verdicts},
            f"knew_loss_{unit}": _round(self.knew_loss),
            f"dd_loss_{unit}": self.dd_loss,
            "knew_accuracy": None if knew is None else _round(knew),
            "dd_accuracy": None if dd is None else _round(dd),
        }


@dataclass(frozen=True)
class Review:
    """The result of :func:`review`."""

    deal: Deal
    start: int
    """The first card judged."""
    samples: int
    seed: int
    score: bool
    """Whether the cards were compared by net game points."""
    infer: float
    """A world's weight per blunder of the other's (1: every world alike)."""
    cards: tuple[CardJudgement, ...]
    stats: ReviewStats = field(compare=False)

    def __repr__(self) -> str:
        exact = sum(c.exact for c in self.cards if not c.forced)
        judged = sum(not c.forced for c in self.cards)
        return (
            f"<Review {self.deal.source or 'deal'}: {counted(len(self.cards), 'card')},"
            f" {judged} judged, {exact} of them exactly>"
        )

    @property
    def players(self) -> tuple[PlayerSummary, PlayerSummary]:
        forehand, dealer = (self.player(seat) for seat in SEATS)
        return forehand, dealer

    def player(self, seat: Seat) -> PlayerSummary:
        """The summary of ``seat``'s cards."""
        mine = [c for c in self.cards if c.seat == seat]
        return PlayerSummary(
            seat=seat,
            cards=len(mine),
            judged=sum(not c.forced for c in mine),
            verdicts=tuple((verdict, sum(c.verdict == verdict for c in mine)) for verdict in VERDICTS),
            knew_loss=math.fsum(c.knew_loss for c in mine),
            dd_loss=sum(c.dd_loss for c in mine),
        )

    def costliest(self, count: int = 3) -> list[CardJudgement]:
        """The cards that lost most by what their player knew, the most
        first (those that lost nothing left out)."""
        lost = [c for c in self.cards if c.knew_loss > 0]
        return sorted(lost, key=lambda c: (-c.knew_loss, c.index))[:count]

    def to_json(self) -> dict[str, object]:
        """The JSON object of ``kosolve review --json`` (docs/json.md), without the file name."""
        return {
            "format": FORMAT_VERSION,
            "by": "net" if self.score else "thirds",
            "from": self.start,
            "samples": self.samples,
            "seed": self.seed,
            "infer": self.infer,
            "cards": [c.to_json(self.score) for c in self.cards],
            "players": {seat_name(p.seat): p.to_json(self.score) for p in self.players},
            "costliest": [c.index for c in self.costliest()],
            "stats": self.stats.to_json(),
        }


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
    up to the decision), the mover's legal ``cards``, and ``checked``, the
    indexes of the other's earlier cards whose double-dummy cost weighs the
    world (``infer``)."""

    deal: Deal
    cards: tuple[Card, ...]
    rules: Rules
    score: bool
    checked: tuple[int, ...] = ()


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
        scores = []
        for card in cards:
            after = position.copy()
            after.push(card)
            result = net_score(
                deal, after, rules=rules, solver=analyser.score_solver, with_points_line=False, with_line=False
            )
            scores.append(result.score)
            score_nodes += result.nodes
        net = tuple(scores)
    blunders = sum(not _kept_value(solver, deal, index) for index in task.checked)
    ms = (time.perf_counter() - started) * 1000
    nodes = solver.stats["nodes"] - nodes_before + score_nodes
    return WorldMoves(tuple(values[card] for card in cards), net, nodes, ms, blunders)


def _kept_value(solver: Solver, deal: Deal, index: int) -> bool:
    """Whether card ``index`` of ``deal``'s play kept the double-dummy
    value of the position before it (a forced card always does)."""
    before = deal.position(at=index)
    after = before.copy()
    after.push(deal.play[index])
    return _final(solver, before) == _final(solver, after)


def _final(solver: Solver, position: Position) -> int:
    """The declarer's final thirds with best play from ``position``."""
    if position.is_over():
        return position.declarer_thirds()
    return position.declarer_thirds() + solver.value(*search_args(position))


@dataclass(frozen=True)
class _Decision:
    """One card of the play to judge, and the worlds of its player's view."""

    index: int
    trick: int
    seat: Seat
    card: Card
    legal: tuple[Card, ...]
    view: SeatView
    worlds: int
    samples: int
    seed: int

    @property
    def forced(self) -> bool:
        return len(self.legal) == 1


def _decisions(deal: Deal, start: int, samples: int, seed: int, taken: Hand | None) -> list[_Decision]:
    position = deal.position(at=start)
    decisions = []
    for index in range(start, len(deal.play)):
        seat, card = position.turn, deal.play[index]
        legal = tuple(hand_cards(mask_of(position.legal_moves)))
        view = view_of(deal, seat, index, taken=taken)
        worlds = world_space(view).worlds
        solved = 0 if len(legal) == 1 else min(worlds, samples)
        trick = position.first_trick + len(position.move_stack) // 2
        decisions.append(_Decision(index, trick, seat, card, legal, view, worlds, solved, seed + index))
        position.push(card)
    return decisions


def review(
    file: Deal | DealtFile,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    jobs: int | None = None,
    start: int = 0,
    taken: Hand | None = None,
    score: bool = False,
    infer: float = 1.0,
    rules: Rules = DEFAULT_RULES,
    tt_mb: float = DEFAULT_BUDGET_MB,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Judge every card of the play from index ``start`` on (see the module
    text): ``file`` is a whole game with its piles, or a deal as dealt
    with its bid, exchange and play.  ``taken`` are the talon cards the
    declarer took, which the defender saw; a deal as dealt knows them.
    With ``infer`` below 1 a world counts ``infer`` times less for each of
    the other's last :data:`INFER_DEPTH` cards that lost value double dummy
    in it (inference from his play; 1, the default, weighs every world
    alike).  ``progress(done, total)`` is called as worlds are solved.  Raises
    :class:`ReviewError` for a review the deal cannot have,
    :class:`~kosolve.model.view.SeatViewError` for a deal that gives no
    seat view, and :class:`~kosolve.sampling.worlds.NoWorldError` when a
    player's view fits no world."""
    if isinstance(file, DealtFile):
        deal = file.play_deal()
        taken = None if file.exchange is None else mask_of(file.exchange.take)
    else:
        deal = file
    if samples < 1:
        raise ReviewError(f"must be at least 1, not {samples}", "samples", given=True)
    if not 0 < infer <= 1:
        raise ReviewError(f"a world's weight per blunder must be above 0 and at most 1, not {infer}", "infer", True)
    view_of(deal, deal.declarer, 0)  # a deal that gives no seat view is refused here, before anything is solved
    if not deal.play:
        raise ReviewError("the deal has no play: there is no card to judge")
    if start >= len(deal.play):
        raise ReviewError(f"{start} leaves no card to judge: the play has {len(deal.play)} cards", "from", given=True)
    check_announcements(deal.announcements, deal.contract, deal.declarer, rules)
    started = time.perf_counter()
    decisions = _decisions(deal, start, samples, seed, taken)
    # The world that was dealt comes first in each decision's items.
    judged = [d for d in decisions if not d.forced]
    sizes = [1 + d.samples for d in judged]
    total = sum(sizes)
    found: list[WorldMoves | None] = [None] * total
    with WorkerPool(jobs, tt_mb, items=total) as pool:
        tasks = _tasks(deal, judged, rules, score, infer < 1)
        for done, (index, value) in enumerate(pool.imap_unordered(judge_world, tasks)):
            found[index] = value
            if progress is not None:
                progress(done + 1, total)
    results = [value for value in found if value is not None]
    assert len(results) == total, "the pool answers every world"
    by_index, first = {}, 0
    for decision, size in zip(judged, sizes, strict=True):
        values = results[first : first + size]
        by_index[decision.index] = _judge(decision, deal.declarer, rules, score, infer, values)
        first += size
    cards = tuple(by_index.get(d.index) or _forced(d) for d in decisions)
    stats = ReviewStats(total, sum(v.nodes for v in results), (time.perf_counter() - started) * 1000)
    return Review(deal, start, samples, seed, score, infer, cards, stats)


def _tasks(deal: Deal, decisions: Sequence[_Decision], rules: Rules, score: bool, infer: bool) -> Iterator[WorldTask]:
    """Each decision's world that was dealt, then its worlds, as the pool
    takes them; with ``infer``, each world checks the other's last cards."""
    for decision in decisions:
        checked = _checked(deal, decision) if infer else ()
        yield WorldTask(replace(deal, play=deal.play[: decision.index]), decision.legal, rules, score)
        for world in sample_worlds(decision.view, decision.samples, decision.seed):
            assert isinstance(world, Deal)
            yield WorldTask(world, decision.legal, rules, score, checked)


def _checked(deal: Deal, decision: _Decision) -> tuple[int, ...]:
    """The indexes of the other's last :data:`INFER_DEPTH` cards before the decision."""
    position = deal.position(at=0)
    theirs = []
    for index, card in enumerate(deal.play[: decision.index]):
        if position.turn != decision.seat:
            theirs.append(index)
        position.push(card)
    return tuple(theirs[-INFER_DEPTH:])


def _forced(decision: _Decision) -> CardJudgement:
    return CardJudgement(
        decision.index, decision.trick, decision.seat, decision.card, decision.worlds, 0,
        decision.worlds == 1, decision.seed, (), (decision.card,), (decision.card,), 0.0, (0.0, 0.0), 0, "forced",
    )  # fmt: skip


def _measure(value: WorldMoves, score: bool) -> tuple[int, ...]:
    """What the cards are compared by in one world: net game points or thirds."""
    if score:
        assert value.net is not None, "score mode values every card by its net score"
        return value.net
    return value.thirds


def _judge(
    decision: _Decision, declarer: Seat, rules: Rules, score: bool, infer: float, values: list[WorldMoves]
) -> CardJudgement:
    """The verdict on one card from the dealt world's values and the worlds'."""
    dealt, worlds = values[0], values[1:]
    n = len(worlds)
    exact = decision.samples == decision.worlds
    sign = 1 if decision.seat == declarer else -1
    weights = [infer**w.blunders for w in worlds]
    total = math.fsum(weights)
    measure = [_measure(w, score) for w in worlds]
    dd = _measure(dealt, score)
    legal = decision.legal
    # Sums compare exactly: cards equal in every world are never split by
    # rounding (uniform weights keep them whole numbers).
    sums = [math.fsum(weight * m[i] for weight, m in zip(weights, measure, strict=True)) for i in range(len(legal))]
    signed = [sign * value for value in sums]
    best = tuple(c for c, value in zip(legal, signed, strict=True) if value == max(signed))
    played, top = legal.index(decision.card), legal.index(best[0])
    dd_signed = [sign * v for v in dd]
    dd_best = tuple(c for c, v in zip(legal, dd_signed, strict=True) if v == max(dd_signed))
    dd_loss = max(dd_signed) - dd_signed[played]
    knew_loss = (max(signed) - signed[played]) / total
    interval = _interval([sign * (m[top] - m[played]) for m in measure], weights, exact)
    moves = tuple(
        MoveJudgement(
            card,
            math.fsum(weight * w.thirds[i] for weight, w in zip(weights, worlds, strict=True)) / total,
            math.fsum(weight for weight, w in zip(weights, worlds, strict=True) if w.thirds[i] >= rules.win_thirds)
            / total,
            dealt.thirds[i],
            sums[i] / total if score else None,
            dd[i] if score else None,
        )
        for i, card in enumerate(legal)
    )
    knew_best, dd_optimal = signed[played] == max(signed), dd_loss == 0
    verdict = ("mistake", "lucky", "unlucky", "best")[2 * knew_best + dd_optimal]
    stats = ReviewStats(len(values), sum(v.nodes for v in values), math.fsum(v.ms for v in values))
    return CardJudgement(
        decision.index, decision.trick, decision.seat, decision.card, decision.worlds, n, exact,
        decision.seed, moves, best, dd_best, knew_loss, interval, dd_loss, verdict, stats,
    )  # fmt: skip


def _interval(losses: list[int], weights: list[float], exact: bool) -> tuple[float, float] | None:
    """The 95% interval of the weighted mean of the per-world losses (with
    equal weights, the usual normal interval), its effective sample size
    being (sum of weights)^2 / sum of squared weights."""
    total = math.fsum(weights)
    mean = math.fsum(w * x for w, x in zip(weights, losses, strict=True)) / total
    if exact:
        return (mean, mean)
    effective = total**2 / math.fsum(w * w for w in weights)
    if effective <= 1:
        return None
    spread = math.fsum(w * (x - mean) ** 2 for w, x in zip(weights, losses, strict=True)) / total
    half = Z95 * math.sqrt(spread * effective / (effective - 1)) / math.sqrt(effective)
    return (mean - half, mean + half)


def _round(value: float) -> float:
    return round(value, 4)


__all__ = [
    "FORMAT_VERSION",
    "VERDICTS",
    "CardJudgement",
    "MoveJudgement",
    "PlayerSummary",
    "Review",
    "ReviewError",
    "ReviewStats",
    "WorldMoves",
    "judge_world",
    "review",
]
