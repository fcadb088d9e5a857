"""The decisions before the play of a deal as dealt, each judged by what its
player knew and double dummy (docs/review.md, "The decisions before the
play"): the bid (the declarer's choice of contract), each announcement
round of each seat, each Kontra, the talon choice and the lay-away.

Every option of a decision is a :class:`Line`: the rest of the game played
double dummy from that decision on, with the contract, the exchange (the
declarer's best for the world by the exchange table's rows while it is
not yet made, the talon choice taken with its best lay-away, or the one
made), and the announcements so far plus the option's.  A world values a
line by the declarer's net game points with best play
(:func:`~kosolve.analysis.netscore.net_score`); a pass is worth 0.

The decisions that share what their player knew share their worlds: a
seat's view before the auction (:func:`~kosolve.model.view.auction_view`,
the talon unseen) for the bid, the rounds before the talon and a Solo's
round, and the same view with the talon exposed
(:func:`~kosolve.sampling.worlds.sample_worlds` with ``talon``) for the
talon choice, the lay-away and the round after it.  A group's worlds are
drawn from the review's seed, as ``kosolve odds --seed SEED`` draws them
from the view before the auction; the world that was dealt comes first
and gives the double-dummy values.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from kosolve.analysis.exchange import ExchangeRow, declarer_rows
from kosolve.analysis.netscore import net_score
from kosolve.analysis.report import Analyser
from kosolve.model.announcements import ANNOUNCEMENTS, Announcement, AnnouncementError, check_announcements
from kosolve.model.cards import Card, Hand, card_name, hand_cards, mask_of, thirds_of
from kosolve.model.dealt import Dealt, Exchange, lay_aways, talon_choices
from kosolve.model.dealt_file import DealtFile
from kosolve.model.game import CONTRACTS, Rules, Seat
from kosolve.model.view import SeatViewError, auction_view
from kosolve.review.results import DecisionJudgement, OptionJudgement, ReviewStats
from kosolve.review.statistics import interval, weighted_sum
from kosolve.sampling.odds import estimate
from kosolve.sampling.worlds import sample_worlds, world_space

DEFAULT_DECISION_SAMPLES: Final = 64
"""The most worlds a group of decisions is valued in by default (each world
asks the exchange table's rows: see docs/review.md, "Speed")."""
MAX_LAY_AWAYS: Final = 12
"""The most lay-aways a lay-away decision compares; with more legal ones,
the one made and those that bank the most points (docs/review.md)."""
PASS: Final = "pass"
NOTHING: Final = "nothing"
KONTRA: Final = "kontra"
NO_KONTRA: Final = "no kontra"
PHASES: Final = {"bid": "auction", "take": "exchange", "lay_away": "exchange", "announce": "announcements",
                 "kontra": "announcements"}  # fmt: skip
"""Each kind of decision's phase, as a player's summary adds up its losses."""


@dataclass(frozen=True)
class Line:
    """One option of a decision, as a world values it: the ``contract``
    (None: a pass, worth 0), the talon choice ``take`` (None: the best row
    of the contract for the world), the ``lay_away`` (None: the best for
    the talon choice in the world) and the announcements made by then."""

    contract: str | None
    take: tuple[Card, ...] | None = None
    lay_away: Hand | None = None
    announcements: tuple[Announcement, ...] = ()


@dataclass(frozen=True)
class Choice:
    """One decision before the play: its kind, who takes it, the round of
    an announcement or Kontra, its options (labels and lines) and which
    one the file made."""

    kind: str
    seat: Seat
    options: tuple[str, ...]
    lines: tuple[Line, ...]
    chosen: int
    group: tuple[Seat, bool]
    """The worlds it is valued in: the seat's, the talon exposed or not."""
    round: str | None = None
    about: str | None = None
    """For a Kontra: the announcement it answers."""


@dataclass(frozen=True)
class GroupTask:
    """One world of one group, as a worker takes it: the world, the
    declarer, and every line of the group's decisions."""

    world: Dealt
    declarer: Seat
    lines: tuple[Line, ...]
    rules: Rules


@dataclass(frozen=True)
class GroupValues:
    """The declarer's net game points of each line in one world."""

    values: tuple[int, ...]
    nodes: int
    ms: float


def _best_row(rows: Sequence[ExchangeRow], contract: str, take: tuple[Card, ...] | None) -> ExchangeRow:
    """The row the declarer is taken to choose: of the contract (and the
    talon choice, when given) the most game points, then thirds, the first
    such in talon order."""
    found = [r for r in rows if r.contract == contract and (take is None or r.take == take)]
    return max(found, key=lambda r: (r.game_points, r.thirds))


def value_lines(analyser: Analyser, task: GroupTask) -> GroupValues:
    """The task for one world of a group: each line's value, the exchange
    table's rows asked once, and only when a line needs them."""
    started = time.perf_counter()
    world, declarer, rules = task.world, task.declarer, task.rules
    solver, scorer = analyser.solver, analyser.score_solver
    nodes = solver.stats["nodes"]
    score_nodes = 0
    rows: tuple[ExchangeRow, ...] | None = None
    # Only the contracts some line leaves to the rows: after the talon, one.
    contracts = tuple(c for c in CONTRACTS if any(x.contract == c and x.lay_away is None for x in task.lines))
    seen: dict[tuple[object, ...], int] = {}
    values = []
    for line in task.lines:
        if line.contract is None:
            values.append(0)
            continue
        exchange: Exchange
        if line.take is not None and line.lay_away is not None:
            exchange = Exchange(line.take, line.lay_away)
        else:
            if rows is None:
                rows = _rows(analyser, world, declarer, contracts, rules)
            exchange = _best_row(rows, line.contract, line.take).exchange
        key = (line.contract, exchange, line.announcements)
        if key not in seen:
            deal = world.play_deal(
                line.contract, declarer, exchange, announcements=line.announcements, variant=rules.discard
            )
            result = net_score(deal, rules=rules, solver=scorer, with_points_line=False, with_line=False)
            seen[key] = result.score
            score_nodes += result.nodes
        values.append(seen[key])
    ms = (time.perf_counter() - started) * 1000
    return GroupValues(tuple(values), solver.stats["nodes"] - nodes + score_nodes, ms)


def _rows(
    analyser: Analyser, world: Dealt, declarer: Seat, contracts: tuple[str, ...], rules: Rules
) -> tuple[ExchangeRow, ...]:
    """The exchange table's rows of ``declarer`` in ``world`` for
    ``contracts``: :func:`~kosolve.analysis.exchange.declarer_rows` when it
    asks every contract, else the same rows of the contracts asked alone."""
    if contracts == CONTRACTS:
        return analyser.analyse_contracts(world, declarer, rules)
    return declarer_rows(world, declarer, rules=rules, solver=analyser.solver, contracts=contracts)


def _label(announced: Sequence[str]) -> str:
    return " ".join(announced) if announced else NOTHING


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(card_name(c) for c in cards) if cards else NOTHING


def _announceable(
    so_far: Sequence[Announcement],
    seat: Seat,
    when: str | None,
    contract: str,
    declarer: Seat,
    rules: Rules,
    taken: Sequence[str],
) -> list[str]:
    """What ``seat`` may still announce in the round, after ``so_far`` and
    besides ``taken`` (his own of the round)."""
    found = []
    for what in ANNOUNCEMENTS:
        if what in taken:
            continue
        candidate = [*so_far, *(Announcement(seat, w, when) for w in (*taken, what))]
        try:
            check_announcements(candidate, contract, declarer, rules)
        except AnnouncementError:
            continue
        found.append(what)
    return found


def _unkontra(announcements: Sequence[Announcement]) -> tuple[Announcement, ...]:
    return tuple(Announcement(a.by, a.what, a.when) for a in announcements)


def choices(file: DealtFile, rules: Rules) -> list[Choice]:
    """Every decision before the play of ``file`` (a deal as dealt with its
    bid and exchange), in the order they were taken; none when a seat's
    view before the auction cannot be made (a discard that is not the
    classic one)."""
    assert file.contract is not None and file.declarer is not None and file.exchange is not None
    dealt, contract, declarer, exchange = file.dealt, file.contract, file.declarer, file.exchange
    defender = 1 - declarer
    try:
        for seat in (declarer, defender):
            auction_view(dealt, seat)
    except SeatViewError:
        return []
    anns = file.announcements
    found: list[Choice] = []
    pre = (declarer, False)
    found.append(Choice("bid", declarer, (PASS, *CONTRACTS), (Line(None), *(Line(c) for c in CONTRACTS)),
                        1 + CONTRACTS.index(contract), pre))  # fmt: skip
    rounds: tuple[str | None, ...] = (None,) if contract == "solo" else ("before", "after")
    done: list[Announcement] = []
    for when in rounds:
        after = when == "after"
        speakers = (declarer, defender) if rules.defender_announcements else (declarer,)
        this_round = [a for a in anns if a.when == when]
        heard: list[Announcement] = []
        for seat in speakers:
            made = [a.what for a in this_round if a.by == seat]
            so_far = (*done, *_unkontra(heard))
            sets: list[list[str]] = [made]
            if made:
                sets.append([])
            if len(made) > 1:
                sets += [[w for w in made if w != gone] for gone in made]
            sets += [[*made, extra] for extra in _announceable(so_far, seat, when, contract, declarer, rules, made)]
            lines = tuple(
                _line(file, seat, after, (*so_far, *(Announcement(seat, w, when) for w in chosen))) for chosen in sets
            )
            labels = tuple(_label(s) for s in sets)
            found.append(Choice("announce", seat, labels, lines, 0, (seat, after), when))
            heard += [a for a in this_round if a.by == seat]
        if rules.kontra:
            for seat in (defender, declarer):
                for target in (a for a in this_round if a.by != seat):
                    kontras = []
                    for say in (True, False):
                        shown = tuple(
                            Announcement(a.by, a.what, a.when, say if a is target else a.kontra)
                            for a in (*done, *this_round)
                        )
                        kontras.append(_line(file, seat, after, shown))
                    chosen = 0 if target.kontra else 1
                    found.append(Choice("kontra", seat, (KONTRA, NO_KONTRA), tuple(kontras), chosen, (seat, after),
                                        when, target.what))  # fmt: skip
        done += this_round
        if when == "before":
            before = tuple(done)
            takes = talon_choices(contract, dealt.talon)
            post = (declarer, True)
            found.append(Choice("take", declarer, tuple(_cards(t) for t in takes),
                                tuple(Line(contract, t, None, before) for t in takes), takes.index(exchange.take),
                                post))  # fmt: skip
            if exchange.take:
                laid = _lay_away_options(file, rules)
                found.append(Choice("lay_away", declarer, tuple(_cards(hand_cards(h)) for h in laid),
                                    tuple(Line(contract, exchange.take, h, before) for h in laid),
                                    laid.index(exchange.lay_away), post))  # fmt: skip
    return found


def _line(file: DealtFile, seat: Seat, after: bool, announcements: tuple[Announcement, ...]) -> Line:
    """The rest of the game after an announcement or Kontra of ``seat``:
    the exchange made once the talon is exposed (the declarer's own; the
    talon choice alone, for the defender, who does not see the lay-away),
    else the best for the world."""
    assert file.contract is not None and file.exchange is not None
    if not after:
        return Line(file.contract, None, None, announcements)
    if seat == file.declarer:
        return Line(file.contract, file.exchange.take, file.exchange.lay_away, announcements)
    return Line(file.contract, file.exchange.take, None, announcements)


def _lay_away_options(file: DealtFile, rules: Rules) -> tuple[Hand, ...]:
    """The lay-aways compared: every legal one when there are at most
    :data:`MAX_LAY_AWAYS`; else the one made and those that bank the most
    points (the most thirds laid away; ties in :func:`lay_aways` order)."""
    assert file.declarer is not None and file.exchange is not None
    cards = file.dealt.held(file.declarer) | mask_of(file.exchange.take)
    legal = list(lay_aways(cards, len(file.exchange.take), rules.discard))
    if len(legal) <= MAX_LAY_AWAYS:
        return tuple(legal)
    ranked = sorted(range(len(legal)), key=lambda i: (-thirds_of(legal[i]), i))
    chosen = {legal.index(file.exchange.lay_away)}
    for index in ranked:
        if len(chosen) >= MAX_LAY_AWAYS:
            break
        chosen.add(index)
    return tuple(legal[i] for i in sorted(chosen))


@dataclass(frozen=True)
class Group:
    """The decisions that share their worlds, and those worlds: how many fit
    the view and how many are valued."""

    seat: Seat
    talon: bool
    members: tuple[int, ...]
    """The indexes of its decisions."""
    worlds: int
    samples: int


def groups(file: DealtFile, found: Sequence[Choice], samples: int) -> list[Group]:
    """The groups of the decisions ``found``, in order of first use."""
    made: dict[tuple[Seat, bool], list[int]] = {}
    for index, choice in enumerate(found):
        made.setdefault(choice.group, []).append(index)
    result = []
    for (seat, talon), members in made.items():
        worlds = world_space(auction_view(file.dealt, seat), file.dealt.talon if talon else None).worlds
        result.append(Group(seat, talon, tuple(members), worlds, min(worlds, samples)))
    return result


def group_lines(found: Sequence[Choice], group: Group) -> tuple[Line, ...]:
    return tuple(line for index in group.members for line in found[index].lines)


def group_tasks(file: DealtFile, found: Sequence[Choice], group: Group, seed: int, rules: Rules) -> Iterator[GroupTask]:
    """The world that was dealt, then the group's worlds, as the pool takes them."""
    assert file.declarer is not None
    lines = group_lines(found, group)
    yield GroupTask(file.dealt, file.declarer, lines, rules)
    view = auction_view(file.dealt, group.seat)
    for world in sample_worlds(view, group.samples, seed, file.dealt.talon if group.talon else None):
        assert isinstance(world, Dealt)
        yield GroupTask(world, file.declarer, lines, rules)


def judge_choice(
    index: int,
    choice: Choice,
    group: Group,
    declarer: Seat,
    seed: int,
    dealt: Sequence[int],
    worlds: Sequence[Sequence[int]],
    stats: ReviewStats,
) -> DecisionJudgement:
    """The verdict on one decision from its lines' values: ``dealt`` in the
    world that was dealt, ``worlds`` in each world valued (the declarer's
    net game points; a pass 0)."""
    sign = 1 if choice.seat == declarer else -1
    exact = group.samples == group.worlds
    n = len(worlds)
    count = len(choice.options)
    signed = [[sign * w[i] for i in range(count)] for w in worlds]
    ones = [1.0] * n
    sums = [weighted_sum((s[i] for s in signed), ones) for i in range(count)]
    dd = [sign * v for v in dealt]
    chosen = choice.chosen
    top = max(range(count), key=lambda i: (sums[i], -i))
    best = tuple(choice.options[i] for i in range(count) if sums[i] == sums[top])
    dd_best = tuple(choice.options[i] for i in range(count) if dd[i] == max(dd))
    options = tuple(
        OptionJudgement(
            option=choice.options[i],
            mean_points=sums[i] / n,
            ci95=estimate([s[i] for s in signed], exact).ci95,
            dd_points=dd[i],
        )
        for i in range(count)
    )
    if count == 1:
        verdict = "forced"
    else:
        knew_best, dd_optimal = sums[chosen] == sums[top], dd[chosen] == max(dd)
        verdict = ("mistake", "lucky", "unlucky", "best")[2 * knew_best + dd_optimal]
    return DecisionJudgement(
        index=index,
        kind=choice.kind,
        phase=PHASES[choice.kind],
        seat=choice.seat,
        round=choice.round,
        about=choice.about,
        choice=choice.options[chosen],
        options=options,
        best=best,
        dd_best=dd_best,
        worlds=group.worlds,
        samples=n,
        exact=exact,
        seed=seed,
        verdict=verdict,
        knew_loss_points=(sums[top] - sums[chosen]) / n,
        knew_loss_ci95=interval([s[top] - s[chosen] for s in signed], ones, exact),
        dd_loss_points=max(dd) - dd[chosen],
        stats=stats,
    )


__all__ = [
    "DEFAULT_DECISION_SAMPLES",
    "MAX_LAY_AWAYS",
    "PHASES",
    "Choice",
    "Group",
    "GroupTask",
    "GroupValues",
    "Line",
    "choices",
    "group_tasks",
    "groups",
    "judge_choice",
    "value_lines",
]
