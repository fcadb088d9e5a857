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

With ``before_play`` a deal as dealt also has every decision before the
play judged, in game points (:mod:`~kosolve.review.choices`); their
worlds go into the same stream for the pool, before the cards'.

The worlds are drawn in this process from the seed alone
(:mod:`~kosolve.review.worlds`) and solved on a
:class:`~kosolve.analysis.pool.WorkerPool`, whose analysers keep their
tables warm from world to world and from card to card; the results are
combined in world order, so the figures do not depend on the jobs.  The
figures are :mod:`~kosolve.review.statistics`'s, the answer
:mod:`~kosolve.review.results`' values.

>>> from kosolve.model.cards import card_name
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
from collections.abc import Callable, Iterator

from kosolve.analysis.pool import WorkerPool
from kosolve.analysis.report import Analyser
from kosolve.analysis.solving import DEFAULT_BUDGET_MB
from kosolve.model.announcements import check_announcements
from kosolve.model.cards import Hand, mask_of
from kosolve.model.deal import Deal
from kosolve.model.dealt_file import DealtFile
from kosolve.model.game import DEFAULT_RULES, OptionError, Rules, Seat
from kosolve.model.reprs import counted
from kosolve.model.view import view_of
from kosolve.review.choices import (
    DEFAULT_DECISION_SAMPLES,
    Choice,
    Group,
    GroupTask,
    GroupValues,
    choices,
    group_tasks,
    groups,
    judge_choice,
    value_lines,
)
from kosolve.review.results import CardJudgement, DecisionJudgement, MoveJudgement, Review, ReviewStats
from kosolve.review.statistics import interval, weighted_sum
from kosolve.review.worlds import Decision, WorldMoves, WorldTask, decisions, judge_world, tasks
from kosolve.sampling.inference import Inference
from kosolve.sampling.odds import DEFAULT_SAMPLES


class ReviewError(OptionError):
    """A review that cannot be made of the deal: no play, ``start`` at or
    beyond its end, fewer than one sample, a weight outside (0, 1]."""


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
    before_play: bool = False,
    decision_samples: int = DEFAULT_DECISION_SAMPLES,
) -> Review:
    """Judge every card of the play from index ``start`` on (see the module
    text): ``file`` is a whole game with its piles, or a deal as dealt
    with its bid, exchange and play.  ``taken`` are the talon cards the
    declarer took, which the defender saw; a deal as dealt knows them (and
    a caller that holds the game's ``Deal`` already, as the arena does,
    gives it with ``taken`` rather than a file to read it back from).
    With ``infer`` below 1 a world counts ``infer`` times less for each of
    the other's last :data:`~kosolve.review.worlds.INFER_DEPTH` cards that lost value double dummy
    in it (inference from his play by the model of
    :mod:`~kosolve.sampling.inference`, its ``card_weight``; 1, the
    default, weighs every world alike).  ``progress(done, total)`` is
    called as worlds are solved.  Raises
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
    asked = isinstance(file, DealtFile) and before_play
    if not deal.play and not asked:
        raise ReviewError("the deal has no play: there is no card to judge")
    # A deal as dealt not yet played still has its decisions to judge.
    if deal.play and start >= len(deal.play):
        raise ReviewError(
            f"{start} leaves no card to judge: the play has {counted(len(deal.play), 'card')}", "start", given=True
        )
    check_announcements(deal.announcements, deal.contract, deal.declarer, rules)
    inference = Inference(card_weight=infer)
    started = time.perf_counter()
    cards = decisions(deal, start, samples, seed, taken)
    made: list[Choice] = choices(file, rules) if isinstance(file, DealtFile) and before_play else []
    shared = groups(file, made, decision_samples) if isinstance(file, DealtFile) else []
    group_sizes = [1 + g.samples for g in shared]
    # The world that was dealt comes first in each decision's items.
    judged = [d for d in cards if not d.forced]
    sizes = [1 + d.samples for d in judged]
    total = sum(group_sizes) + sum(sizes)
    found: list[WorldMoves | GroupValues | None] = [None] * total
    with WorkerPool(jobs, tt_mb, items=total) as pool:
        weighing = inference if inference.weighs_cards else None
        items = _items(file, made, shared, seed, rules, tasks(deal, judged, rules, score, weighing))
        for done, (index, value) in enumerate(pool.imap_unordered(_task, items)):
            found[index] = value
            if progress is not None:
                progress(done + 1, total)
    assert all(value is not None for value in found), "the pool answers every world"
    first_card = sum(group_sizes)
    group_values = [value for value in found[:first_card] if isinstance(value, GroupValues)]
    results = [value for value in found[first_card:] if isinstance(value, WorldMoves)]
    judgements = _judge_choices(file, made, shared, seed, group_values) if isinstance(file, DealtFile) else []
    by_index, first = {}, 0
    for decision, size in zip(judged, sizes, strict=True):
        values = results[first : first + size]
        by_index[decision.index] = _judge(decision, deal.declarer, rules, score, inference, values)
        first += size
    nodes = sum(v.nodes for v in results) + sum(v.nodes for v in group_values)
    stats = ReviewStats(total, nodes, (time.perf_counter() - started) * 1000)
    return Review(
        deal=deal,
        start=start,
        samples=samples,
        seed=seed,
        score=score,
        infer=infer,
        cards=tuple(by_index.get(d.index) or _forced(d) for d in cards),
        stats=stats,
        decisions=tuple(judgements),
        decision_samples=decision_samples if asked else None,
    )


def _task(analyser: Analyser, item: WorldTask | GroupTask) -> WorldMoves | GroupValues:
    """The pool's one task: a world of a card, or of a group of decisions
    before the play."""
    if isinstance(item, GroupTask):
        return value_lines(analyser, item)
    return judge_world(analyser, item)


def _items(
    file: Deal | DealtFile,
    made: list[Choice],
    shared: list[Group],
    seed: int,
    rules: Rules,
    cards: Iterator[WorldTask],
) -> Iterator[WorldTask | GroupTask]:
    """The decisions' worlds, group by group, then the cards'."""
    if isinstance(file, DealtFile):
        for group in shared:
            yield from group_tasks(file, made, group, seed, rules)
    yield from cards


def _judge_choices(
    file: DealtFile, made: list[Choice], shared: list[Group], seed: int, values: list[GroupValues]
) -> list[DecisionJudgement]:
    """Each decision's verdict from its group's values, in decision order."""
    assert file.declarer is not None
    judged: dict[int, DecisionJudgement] = {}
    first = 0
    for group in shared:
        mine = values[first : first + 1 + group.samples]
        first += 1 + group.samples
        offset = 0
        for index in group.members:
            choice = made[index]
            count = len(choice.options)
            share = [v.values[offset : offset + count] for v in mine]
            offset += count
            # A decision's cost: its share of its group's worlds.
            ms = math.fsum(v.ms for v in mine) * count / len(mine[0].values)
            stats = ReviewStats(len(mine), sum(v.nodes for v in mine) * count // len(mine[0].values), ms)
            judged[index] = judge_choice(index, choice, group, file.declarer, seed, share[0], share[1:], stats)
    return [judged[index] for index in range(len(made))]


def _forced(decision: Decision) -> CardJudgement:
    """A forced card: not judged, and best by both measures for want of another."""
    return CardJudgement(
        index=decision.index,
        trick=decision.trick,
        seat=decision.seat,
        card=decision.card,
        worlds=decision.worlds,
        samples=0,
        exact=decision.worlds == 1,
        seed=decision.seed,
        moves=(),
        best=(decision.card,),
        dd_best=(decision.card,),
        knew_loss=0.0,
        knew_loss_ci95=(0.0, 0.0),
        dd_loss=0,
        verdict="forced",
    )


def _measure(value: WorldMoves, score: bool) -> tuple[int, ...]:
    """What the cards are compared by in one world: net game points or thirds."""
    if score:
        assert value.net is not None, "score mode values every card by its net score"
        return value.net
    return value.thirds


def _judge(
    decision: Decision, declarer: Seat, rules: Rules, score: bool, inference: Inference, values: list[WorldMoves]
) -> CardJudgement:
    """The verdict on one card from the dealt world's values and the worlds'."""
    dealt, worlds = values[0], values[1:]
    exact = decision.samples == decision.worlds
    sign = 1 if decision.seat == declarer else -1
    weights = [inference.weight(w.blunders) for w in worlds]
    total = math.fsum(weights)
    measure = [_measure(w, score) for w in worlds]
    dd = _measure(dealt, score)
    legal = decision.legal
    # Sums compare exactly: cards equal in every world are never split by
    # rounding (uniform weights keep them whole numbers).
    sums = [weighted_sum((m[i] for m in measure), weights) for i in range(len(legal))]
    signed = [sign * value for value in sums]
    best = tuple(c for c, value in zip(legal, signed, strict=True) if value == max(signed))
    played, top = legal.index(decision.card), legal.index(best[0])
    dd_signed = [sign * v for v in dd]
    dd_best = tuple(c for c, v in zip(legal, dd_signed, strict=True) if v == max(dd_signed))
    dd_loss = max(dd_signed) - dd_signed[played]
    moves = tuple(
        MoveJudgement(
            card=card,
            mean_thirds=weighted_sum((w.thirds[i] for w in worlds), weights) / total,
            p_win=weighted_sum((w.thirds[i] >= rules.win_thirds for w in worlds), weights) / total,
            dd_thirds=dealt.thirds[i],
            mean_net=sums[i] / total if score else None,
            dd_net=dd[i] if score else None,
        )
        for i, card in enumerate(legal)
    )
    knew_best, dd_optimal = signed[played] == max(signed), dd_loss == 0
    verdict = ("mistake", "lucky", "unlucky", "best")[2 * knew_best + dd_optimal]
    stats = ReviewStats(len(values), sum(v.nodes for v in values), math.fsum(v.ms for v in values))
    return CardJudgement(
        index=decision.index,
        trick=decision.trick,
        seat=decision.seat,
        card=decision.card,
        worlds=decision.worlds,
        samples=len(worlds),
        exact=exact,
        seed=decision.seed,
        moves=moves,
        best=best,
        dd_best=dd_best,
        knew_loss=(max(signed) - signed[played]) / total,
        knew_loss_ci95=interval([sign * (m[top] - m[played]) for m in measure], weights, exact),
        dd_loss=dd_loss,
        verdict=verdict,
        stats=stats,
    )


__all__ = ["Review", "ReviewError", "review"]
"""``Review`` is :mod:`~kosolve.review.results`' and named here too: what
:func:`review` answers, for the callers that import the two together."""
