"""The benchmark: how fast kosolve solves realistic deals and endings.

A run is made of sections, one for each capability timed, each a function
``bench_…`` with a small result type of its own (the per-position records,
their summary as JSON and as text):

- :func:`bench_whole_deals`: whole deals from :mod:`kosolve.dealing`
  (the standard or the hard set), each solved exactly at trick 1 with every
  first card valued, by one :class:`~kosolve.engine.Solver` kept
  warm across the run as a user solving many deals would;
- :func:`bench_endings`: short endings solved both by kosolve and by the
  pure-Python reference search, which times the two against each other and
  checks that they agree;
- :func:`bench_goals`: the feasibility of every held bird and of Valat on
  the whole deals;
- :func:`bench_postmortems`: post-mortems of whole plays of those deals;
- :func:`bench_exchanges`: exchange tables of deals as dealt;
- :func:`bench_net_scores`: the net score of whole deals with random
  announcements, against the points solve of each.

:func:`run_bench` runs the sections asked for and composes their results in
a :class:`BenchReport`.  The odds from one seat, which start worker
processes and take minutes, are a section of their own module
(:mod:`kosolve.tools.bench_odds`) that the command line adds to the report.
The signature (:func:`signature`) is no section: it counts nodes, it does
not time.

>>> report = run_bench(deals=1, endings=1, ending_tricks=3, tt_mb=1)
>>> report.whole_deals.solved, report.endings.disagreements
(1, 0)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

import numpy as np

from kosolve import __version__
from kosolve.analysis.exchange import exchange_table
from kosolve.analysis.goals import TRICK_GOALS, solve_goal
from kosolve.analysis.netscore import net_score
from kosolve.analysis.postmortem import postmortem
from kosolve.analysis.solving import DEFAULT_BUDGET_MB, TableBudget, new_solver, search_args, solve
from kosolve.dealing import HARD_TAROCKS, deal_as_dealt, deal_games, deal_hard_games, random_ending
from kosolve.engine import BIRD, DEFAULT_TT_MB, VALAT, ScoreSolver, Solver
from kosolve.model.announcements import (
    ABSOLUT_THIRDS,
    ANNOUNCEMENTS,
    BIRDS,
    PANZER_THIRDS,
    Announcement,
    check_announcements,
)
from kosolve.model.cards import Card, card_name, hand_names
from kosolve.model.deal import Deal
from kosolve.model.game import CONTRACTS, DEFAULT_RULES, SEAT_NAMES, SEATS, TRICKS_PER_GAME, Position, Seat
from kosolve.model.reprs import counted
from kosolve.tools.reference import reference_move_values

if TYPE_CHECKING:
    from kosolve.tools.bench_odds import OddsBenchReport
    from kosolve.tools.bench_review import ReviewBenchReport

MB = 1024 * 1024

DEFAULT_DEALS = 100
DEFAULT_ENDINGS = 40
"""The reference search takes about 0.1 to 1 s on an ending of 8 tricks."""
DEFAULT_ENDING_TRICKS = 8
DEFAULT_POSTMORTEMS = 10

Step = Callable[[], None]
"""Called by a section after each position it has finished, for the
progress of the whole run."""


class BenchError(ValueError):
    """Benchmark settings that cannot be run."""


class BenchSection(Protocol):
    """What :class:`BenchReport` needs of a section's result."""

    def to_json(self) -> dict[str, object]:
        """The section's figures and records as a JSON object."""
        ...

    def format(self) -> str:
        """The section as readable text, or "" when it has nothing to show."""
        ...


@dataclass(frozen=True)
class Spread:
    """Median, 90th, 95th and 99th percentile and maximum of a set of figures."""

    median: float
    p90: float
    p95: float
    p99: float
    max: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        """The spread of ``values`` (linear interpolation between ranks).

        >>> Spread.of([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
        Spread(median=6.0, p90=10.0, p95=10.5, p99=10.9, max=11.0)
        """
        median, p90, p95, p99 = np.percentile(np.asarray(values, dtype=float), [50, 90, 95, 99])
        return cls(float(median), float(p90), float(p95), float(p99), float(max(values)))

    def to_json(self) -> dict[str, float]:
        return {"median": self.median, "p90": self.p90, "p95": self.p95, "p99": self.p99, "max": self.max}

    HEADER = f"  {'':12}{'median':>14}{'p90':>14}{'p95':>14}{'p99':>14}{'max':>14}"
    """The column heads of :meth:`row`."""

    def row(self, label: str, spec: str) -> str:
        """One line of a table: ``label`` and the five figures, each in the
        format ``spec``.

        >>> Spread(1.0, 2.0, 3.0, 4.0, 5.0).row("time (ms)", ".1f")
        '  time (ms)              1.0           2.0           3.0           4.0           5.0'
        """
        figures = (self.median, self.p90, self.p95, self.p99, self.max)
        return f"  {label:12}" + "".join(f"{figure:14{spec}}" for figure in figures)


def _spread_json(values: Sequence[float]) -> dict[str, float] | None:
    """The spread of ``values`` as JSON, or None for a section without records."""
    return Spread.of(values).to_json() if values else None


@dataclass(frozen=True)
class DealTiming:
    """One whole deal solved at trick 1."""

    contract: str
    declarer: Seat
    thirds: int
    """The declarer's final thirds with best play."""
    nodes: int
    ms: float

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.ms * 1000 if self.ms > 0 else 0.0


@dataclass(frozen=True)
class WholeDealBench:
    """The whole deals solved at trick 1, every first card valued: the
    section every run has, and every summary figure computed from the
    per-deal records.

    >>> bench = WholeDealBench((DealTiming("solo", 0, 120, 1000, 2.0),))
    >>> bench.to_json()["nodes_per_second"]
    500000.0
    """

    deals: tuple[DealTiming, ...]
    repeat: int = 1
    """How many times each whole deal was solved; its fastest time counts."""
    hard: bool = False
    """Whether the whole deals are the hard set (:func:`~kosolve.dealing.deal_hard_games`)."""

    @property
    def deal_set(self) -> str:
        return "hard" if self.hard else "standard"

    @property
    def solved(self) -> int:
        return len(self.deals)

    @property
    def time_ms(self) -> Spread:
        return Spread.of([d.ms for d in self.deals])

    @property
    def nodes(self) -> Spread:
        return Spread.of([d.nodes for d in self.deals])

    @property
    def total_ms(self) -> float:
        return sum(d.ms for d in self.deals)

    @property
    def total_nodes(self) -> int:
        return sum(d.nodes for d in self.deals)

    @property
    def nodes_per_second(self) -> float:
        """Total nodes over total search time."""
        return self.total_nodes / self.total_ms * 1000 if self.total_ms > 0 else 0.0

    @property
    def contracts(self) -> dict[str, int]:
        return {c: sum(d.contract == c for d in self.deals) for c in CONTRACTS}

    def to_json(self) -> dict[str, object]:
        return {
            "solved": self.solved,
            "time_ms": self.time_ms.to_json() if self.deals else None,
            "nodes": self.nodes.to_json() if self.deals else None,
            "total_ms": self.total_ms,
            "total_nodes": self.total_nodes,
            "nodes_per_second": self.nodes_per_second,
            "contracts": self.contracts,
            "deals": [
                {
                    "contract": d.contract,
                    "declarer": SEAT_NAMES[d.declarer],
                    "thirds": d.thirds,
                    "nodes": d.nodes,
                    "ms": d.ms,
                    "nodes_per_second": d.nodes_per_second,
                }
                for d in self.deals
            ],
        }

    def format(self) -> str:
        lines = [
            (f"Hard whole deals (both hands with at least {HARD_TAROCKS} tarocks)" if self.hard else "Whole deals")
            + f" at trick 1, every first card valued: {self.solved} solved"
            + (f", the fastest of {self.repeat} runs each" if self.repeat > 1 else "")
        ]
        if self.deals:
            lines += [
                Spread.HEADER,
                self.time_ms.row("time (ms)", ".1f"),
                self.nodes.row("nodes", ",.0f"),
                f"  aggregate: {self.total_nodes:,} nodes in {self.total_ms / 1000:.2f} s"
                f" = {self.nodes_per_second:,.0f} nodes/s",
                "  contracts: " + ", ".join(f"{c} {n}" for c, n in self.contracts.items()),
            ]
        return "\n".join(lines)


def bench_whole_deals(
    deals: Sequence[Deal],
    *,
    solver: Solver,
    tt_mb: float,
    threads: int,
    repeat: int = 1,
    hard: bool = False,
    step: Step | None = None,
) -> WholeDealBench:
    """Solve each of ``deals`` at trick 1, every first card valued, the
    first run on ``solver`` (which stays warm for the sections after) and
    each of the ``repeat`` - 1 runs after on a fresh solver of ``tt_mb``
    and ``threads``; ``hard`` says that ``deals`` are the hard set."""
    timings: list[DealTiming] = []
    # Timings on a shared machine jump from run to run; the fastest of
    # several runs, each with a table of its own, is the one least disturbed.
    # The nodes are the same in every run.
    for run in range(repeat):
        run_solver = solver if run == 0 else new_solver(tt_mb, threads)
        for index, deal in enumerate(deals):
            solution = solve(deal.position(), solver=run_solver, with_line=False)
            timing = DealTiming(deal.contract, deal.declarer, solution.thirds, solution.stats.nodes, solution.stats.ms)
            if run == 0:
                timings.append(timing)
            elif timing.ms < timings[index].ms:
                timings[index] = timing
            if step is not None:
                step()
    return WholeDealBench(tuple(timings), repeat, hard)


@dataclass(frozen=True)
class EndingTiming:
    """One ending solved by kosolve and by the reference search."""

    tricks: int
    kosolve_ms: float
    reference_ms: float
    agree: bool
    """Whether both gave every legal card the same value."""


@dataclass(frozen=True)
class EndingBench:
    """Endings of ``tricks`` tricks, every card valued, by kosolve and by
    the pure-Python reference: the section every run has."""

    tricks: int
    positions: tuple[EndingTiming, ...] = ()

    @property
    def kosolve_ms(self) -> float:
        """Median time of kosolve."""
        return float(np.median([e.kosolve_ms for e in self.positions]))

    @property
    def reference_ms(self) -> float:
        """Median time of the reference search."""
        return float(np.median([e.reference_ms for e in self.positions]))

    @property
    def speed_ratio(self) -> float:
        """How many times faster kosolve is than the reference (ratio of the
        median times)."""
        return self.reference_ms / self.kosolve_ms if self.kosolve_ms > 0 else 0.0

    @property
    def disagreements(self) -> int:
        return sum(not e.agree for e in self.positions)

    def to_json(self) -> dict[str, object]:
        return {
            "tricks": self.tricks,
            "count": len(self.positions),
            "kosolve_median_ms": self.kosolve_ms if self.positions else None,
            "reference_median_ms": self.reference_ms if self.positions else None,
            "speed_ratio": self.speed_ratio if self.positions else None,
            "disagreements": self.disagreements,
            "positions": [
                {"kosolve_ms": e.kosolve_ms, "reference_ms": e.reference_ms, "agree": e.agree} for e in self.positions
            ],
        }

    def format(self) -> str:
        lines = [f"Endings of {self.tricks} tricks, every card valued: {len(self.positions)} positions"]
        if self.positions:
            lines += [
                f"  kosolve median    {self.kosolve_ms:12.3f} ms",
                f"  reference median  {self.reference_ms:12.3f} ms",
                f"  speed ratio       {self.speed_ratio:12,.0f} x (reference / kosolve)",
                f"  values agree      {len(self.positions) - self.disagreements:>5} / {len(self.positions)}"
                + ("" if not self.disagreements else "   <-- DISAGREEMENT"),
            ]
        return "\n".join(lines)


def bench_endings(count: int, tricks: int, *, seed: int, solver: Solver, step: Step | None = None) -> EndingBench:
    """Solve ``count`` random endings of ``tricks`` tricks from ``seed`` on
    ``solver`` and with the reference search, and compare every card's value."""
    rng = random.Random(seed)
    timings = []
    for _ in range(count):
        ending = random_ending(rng, tricks)
        position = ending.position()
        base = position.declarer_thirds()
        solution = solve(position, solver=solver, with_line=False)
        start = time.perf_counter()
        reference = reference_move_values(
            hand_names(ending.hands[0]),
            hand_names(ending.hands[1]),
            SEAT_NAMES[ending.leader],
            SEAT_NAMES[ending.declarer],
        )
        reference_ms = (time.perf_counter() - start) * 1000
        ours = {card_name(m.card): m.thirds - base for m in solution.moves}
        timings.append(EndingTiming(tricks, solution.stats.ms, reference_ms, ours == reference))
        if step is not None:
            step()
    return EndingBench(tricks, tuple(timings))


@dataclass(frozen=True)
class GoalTiming:
    """One feasibility question (a bird or Valat for one player) on a whole
    deal at trick 1."""

    goal: str
    feasible: bool
    nodes: int
    ms: float


@dataclass(frozen=True)
class GoalBench:
    """The feasibility questions on the whole deals (none unless asked)."""

    questions: tuple[GoalTiming, ...] = ()

    @property
    def feasible(self) -> int:
        return sum(g.feasible for g in self.questions)

    def to_json(self) -> dict[str, object]:
        return {
            "count": len(self.questions),
            "feasible": self.feasible,
            "time_ms": _spread_json([g.ms for g in self.questions]),
        }

    def format(self) -> str:
        if not self.questions:
            return ""
        return "\n".join(
            [
                f"Feasibility questions on the whole deals (a held bird or Valat, each player):"
                f" {len(self.questions)}, {self.feasible} makeable",
                Spread.HEADER,
                Spread.of([g.ms for g in self.questions]).row("time (ms)", ".2f"),
            ]
        )


def bench_goals(deals: Sequence[Deal], *, solver: Solver) -> GoalBench:
    """Ask every bird a player holds, and Valat, for both players, of each
    of ``deals`` at trick 1 on ``solver``."""
    timings = []
    for deal in deals:
        position = deal.position()
        for seat in SEATS:
            for goal in TRICK_GOALS:
                bird = goal.bird
                if bird is not None and not position.hands[seat] >> bird.card & 1:
                    continue
                before = solver.stats["nodes"]
                start = time.perf_counter()
                feasible = solve_goal(position, seat, goal, solver=solver, with_line=False).feasible
                ms = (time.perf_counter() - start) * 1000
                timings.append(GoalTiming(goal.name, feasible, solver.stats["nodes"] - before, ms))
    return GoalBench(tuple(timings))


@dataclass(frozen=True)
class PostMortemTiming:
    """The post-mortem of a whole 32-card play, against the time of the same
    deal's whole-position solve."""

    cards: int
    mistakes: int
    ms: float
    solve_ms: float

    @property
    def ratio(self) -> float:
        return self.ms / self.solve_ms if self.solve_ms > 0 else 0.0


@dataclass(frozen=True)
class PostMortemBench:
    """The post-mortems of whole plays of the first whole deals."""

    reviews: tuple[PostMortemTiming, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "count": len(self.reviews),
            "time_ms": _spread_json([p.ms for p in self.reviews]),
            "ratio_to_solve": _spread_json([p.ratio for p in self.reviews]),
        }

    def format(self) -> str:
        if not self.reviews:
            return ""
        return "\n".join(
            [
                f"Post-mortems of whole 32-card plays: {len(self.reviews)},"
                f" {sum(p.mistakes for p in self.reviews)} costly cards in all",
                Spread.HEADER,
                Spread.of([p.ms for p in self.reviews]).row("time (ms)", ".1f"),
                Spread.of([p.ratio for p in self.reviews]).row("x one solve", ".2f"),
            ]
        )


def bench_postmortems(
    deals: Sequence[Deal],
    solve_ms: Sequence[float],
    *,
    seed: int,
    tt_mb: float,
    threads: int,
    step: Step | None = None,
) -> PostMortemBench:
    """Play each of ``deals`` out (:func:`_played`, seeded by ``seed``) and
    review the play card by card, against ``solve_ms``, the time of each
    deal's whole-position solve."""
    if not deals:
        return PostMortemBench()
    rng = random.Random(seed)
    # The plays are made with a solver of their own, and each review starts
    # from an empty table: it must not find the positions already solved.
    player, reviewer = new_solver(tt_mb, threads), new_solver(tt_mb, threads)
    timings = []
    for deal, ms in zip(deals, solve_ms, strict=True):
        played = _played(deal, player, rng)
        reviewer.clear()
        review = postmortem(played, solver=reviewer)
        mistakes = sum(r.loss > 0 for r in review.cards)
        timings.append(PostMortemTiming(len(played.play), mistakes, review.ms, ms))
        if step is not None:
            step()
    return PostMortemBench(tuple(timings))


def _played(deal: Deal, solver: Solver, rng: random.Random) -> Deal:
    """The deal with a whole play: best play but for three cards picked at
    random, as a hand to review might go."""
    position = deal.position()
    mistakes = set(rng.sample(range(2 * TRICKS_PER_GAME), 3))
    line: list[Card] = []
    while not position.is_over():
        if len(position.move_stack) in mistakes:
            card = rng.choice(list(position.legal_moves))
            line = []
        else:
            if not line:
                line = list(solve(position, solver=solver, with_moves=False).line)
            card = line.pop(0)
        position.push(card)
    return replace(deal, play=tuple(position.move_stack))


@dataclass(frozen=True)
class ExchangeTiming:
    """One exchange table of a deal as dealt: both players, every contract
    and talon choice, every legal lay-away, and the makeable announcements."""

    lay_aways: int
    """The legal lay-aways over all 24 talon choices."""
    point_searches: int
    goal_searches: int
    nodes: int
    ms: float


@dataclass(frozen=True)
class ExchangeBench:
    """The exchange tables of deals as dealt (none unless asked)."""

    tables: tuple[ExchangeTiming, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "count": len(self.tables),
            "time_ms": _spread_json([e.ms for e in self.tables]),
            "nodes": _spread_json([e.nodes for e in self.tables]),
            "tables": [
                {
                    "lay_aways": e.lay_aways,
                    "point_searches": e.point_searches,
                    "goal_searches": e.goal_searches,
                    "nodes": e.nodes,
                    "ms": e.ms,
                }
                for e in self.tables
            ],
        }

    def format(self) -> str:
        if not self.tables:
            return ""
        return "\n".join(
            [
                f"Exchange tables of deals as dealt (both players, 24 talon choices, every legal lay-away,"
                f" the makeable announcements): {len(self.tables)}",
                Spread.HEADER,
                Spread.of([e.ms for e in self.tables]).row("time (ms)", ".1f"),
                Spread.of([e.nodes for e in self.tables]).row("nodes", ",.0f"),
                Spread.of([e.lay_aways for e in self.tables]).row("lay-aways", ".0f"),
                Spread.of([e.point_searches for e in self.tables]).row("point srch", ".0f"),
                Spread.of([e.goal_searches for e in self.tables]).row("goal srch", ".0f"),
            ]
        )


def bench_exchanges(count: int, *, seed: int, tt_mb: float, threads: int, step: Step | None = None) -> ExchangeBench:
    """Make the exchange tables of ``count`` deals as dealt from ``seed``."""
    if not count:
        return ExchangeBench()
    rng = random.Random(seed)
    solver = new_solver(tt_mb, threads)
    timings = []
    for _ in range(count):
        # Each table starts from an empty table, as a user's first one does.
        solver.clear()
        table = exchange_table(deal_as_dealt(rng), solver=solver)
        lay_aways = sum(row.lay_aways for row in table.rows)
        stats = table.stats
        timings.append(ExchangeTiming(lay_aways, stats.point_searches, stats.goal_searches, stats.nodes, stats.ms))
        if step is not None:
            step()
    return ExchangeBench(tuple(timings))


@dataclass(frozen=True)
class ScoreTiming:
    """The score-optimal analysis (the net score and a line) of a whole deal
    with random announcements, against the points solve of the same deal."""

    announcements: tuple[str, ...]
    score: int
    nodes: int
    ms: float
    solve_ms: float

    @property
    def ratio(self) -> float:
        return self.ms / self.solve_ms if self.solve_ms > 0 else 0.0


@dataclass(frozen=True)
class NetScoreBench:
    """The net scores of whole deals with random announcements (none unless asked)."""

    deals: tuple[ScoreTiming, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "count": len(self.deals),
            "time_ms": _spread_json([t.ms for t in self.deals]),
            "solve_ms": _spread_json([t.solve_ms for t in self.deals]),
            "ratio_to_solve": _spread_json([t.ratio for t in self.deals]),
            "deals": [
                {
                    "announcements": list(t.announcements),
                    "score": t.score,
                    "nodes": t.nodes,
                    "ms": t.ms,
                    "solve_ms": t.solve_ms,
                }
                for t in self.deals
            ],
        }

    def format(self) -> str:
        if not self.deals:
            return ""
        return "\n".join(
            [
                f"Net scores of whole deals with random announcements (the score and a line): {len(self.deals)}",
                Spread.HEADER,
                Spread.of([t.ms for t in self.deals]).row("time (ms)", ".1f"),
                Spread.of([t.solve_ms for t in self.deals]).row("solve (ms)", ".1f"),
                Spread.of([t.ratio for t in self.deals]).row("x one solve", ".2f"),
            ]
        )


def bench_net_scores(
    count: int, *, seed: int, tt_mb: float, repeat: int = 1, step: Step | None = None
) -> NetScoreBench:
    """The net score and a line of ``count`` whole deals of ``seed`` with
    random announcements (:func:`random_announcements`), and the points
    solve of each (every first card valued, as the whole-deal section does),
    each the fastest of ``repeat`` runs with tables kept warm across the
    deals, as an analyser keeps them (the score search's frame on the points
    solver's table); both searches on one thread.  ``step`` follows the last run."""
    if not count:
        return NetScoreBench()
    rng = random.Random(seed)
    announced = [random_announcements(deal, rng) for deal in deal_games(count, seed)]
    budget = TableBudget.split(tt_mb)
    best: list[ScoreTiming] = []
    for run in range(repeat):
        points = new_solver(tt_mb)
        by_score = ScoreSolver(tt_mb=budget.score_mb, points=points)
        for index, deal in enumerate(announced):
            solve_ms = solve(deal.position(), solver=points, with_line=False).stats.ms
            net = net_score(deal, solver=by_score, with_points_line=False)
            what = tuple(a.what for a in deal.announcements)
            timing = ScoreTiming(what, net.score, net.nodes, net.ms, solve_ms)
            if run == 0:
                best.append(timing)
            else:
                best[index] = ScoreTiming(
                    what, net.score, net.nodes, min(net.ms, best[index].ms), min(solve_ms, best[index].solve_ms)
                )
            if step is not None and run == repeat - 1:
                step()
    return NetScoreBench(tuple(best))


def random_announcements(deal: Deal, rng: random.Random) -> Deal:
    """The deal with one to three of the declarer's announcements picked at
    random (each before or after the talon at random, but in a Solo), as
    legal as a deal file's must be.

    >>> deal = random_announcements(deal_games(1, 1)[0], random.Random(1))
    >>> 1 <= len(deal.announcements) <= 3
    True
    """
    what = rng.sample(ANNOUNCEMENTS, rng.randint(1, 3))
    announced = tuple(
        Announcement(deal.declarer, name, None if deal.contract == "solo" else rng.choice(("before", "after")))
        for name in what
    )
    check_announcements(announced, deal.contract, deal.declarer)
    return replace(deal, announcements=announced)


@dataclass(frozen=True)
class BenchReport:
    """What :func:`run_bench` measured: the run's settings and a result for
    each section.  A new section is a field here, a key in :meth:`sections`
    and a ``bench_…`` function that :func:`run_bench` calls.

    >>> deals = WholeDealBench((DealTiming("solo", 0, 120, 1000, 2.0),))
    >>> report = BenchReport(1, 1.0, 0.75, 1, deals, EndingBench(4))
    >>> list(report.to_json())[-7:]
    ['threads', 'whole_deals', 'endings', 'goals', 'postmortems', 'exchange_tables', 'net_scores']
    """

    seed: int
    tt_mb: float
    """The memory budget of the tables, in MB."""
    table_mb: float
    """The size of the main table its share of the budget gave, in MB."""
    threads: int
    """The threads of each solve (the signature is always one thread's)."""
    whole_deals: WholeDealBench
    endings: EndingBench
    goals: GoalBench = field(default_factory=GoalBench)
    postmortems: PostMortemBench = field(default_factory=PostMortemBench)
    exchange_tables: ExchangeBench = field(default_factory=ExchangeBench)
    net_scores: NetScoreBench = field(default_factory=NetScoreBench)
    odds: OddsBenchReport | None = None
    """The odds from one seat, which the command line adds on request."""
    review: ReviewBenchReport | None = None
    """The review by what the player knew, which the command line adds on request."""

    def sections(self) -> dict[str, BenchSection]:
        """The sections in the report's order, by their key in its JSON."""
        sections: dict[str, BenchSection] = {
            "whole_deals": self.whole_deals,
            "endings": self.endings,
            "goals": self.goals,
            "postmortems": self.postmortems,
            "exchange_tables": self.exchange_tables,
            "net_scores": self.net_scores,
        }
        if self.odds is not None:
            sections["odds"] = self.odds
        if self.review is not None:
            sections["review"] = self.review
        return sections

    def to_json(self) -> dict[str, object]:
        """The report as a JSON object, each section's under its key."""
        return {
            "version": __version__,
            "seed": self.seed,
            "tt_mb": self.tt_mb,
            "table_mb": self.table_mb,
            "repeat": self.whole_deals.repeat,
            "deal_set": self.whole_deals.deal_set,
            "threads": self.threads,
            **{key: section.to_json() for key, section in self.sections().items()},
        }

    def format(self) -> str:
        """The report as readable text, a paragraph a section.

        >>> deals = WholeDealBench((DealTiming("solo", 0, 120, 1000, 2.0),))
        >>> report = BenchReport(1, 1.0, 0.75, 1, deals, EndingBench(4))
        >>> print(report.format().splitlines()[2])
        Whole deals at trick 1, every first card valued: 1 solved
        """
        head = (
            f"kosolve {__version__} benchmark: seed {self.seed},"
            f" table {self.table_mb:g} MB (of {self.tt_mb:g} MB for all tables),"
            f" {counted(self.threads, 'thread')}"
        )
        texts = (section.format() for section in self.sections().values())
        return "\n\n".join([head, *(text for text in texts if text)])


@dataclass
class _Progress:
    """The positions done across the sections, for ``progress(done, total)``."""

    total: int
    progress: Callable[[int, int], None] | None
    done: int = 0

    def step(self) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total)


def run_bench(
    *,
    deals: int = DEFAULT_DEALS,
    seed: int = 1,
    tt_mb: float = DEFAULT_BUDGET_MB,
    endings: int = DEFAULT_ENDINGS,
    ending_tricks: int = DEFAULT_ENDING_TRICKS,
    goals: bool = True,
    postmortems: int = DEFAULT_POSTMORTEMS,
    exchanges: int = 0,
    scores: int = 0,
    repeat: int = 1,
    hard: bool = False,
    threads: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> BenchReport:
    """Run the sections: ``deals`` whole deals dealt from ``seed`` (the
    hard set with ``hard``), each solved ``repeat`` times with a fresh table
    a run and its fastest time counting; with ``goals`` the feasibility
    questions on them; the post-mortems of ``postmortems`` of them;
    ``endings`` endings of ``ending_tricks`` tricks; ``exchanges`` exchange
    tables of deals as dealt from ``seed``; and ``scores`` whole deals of
    ``seed`` with random announcements, valued for the net score with a line
    and solved for points, with ``repeat`` runs.  Every solver has tables of
    ``tt_mb`` MB and runs ``threads`` threads, but the net scores' points
    solver, which runs one as the score search does.  ``progress(done,
    total)`` is called after every position; the endings take most of the
    time of a short run, since the reference search is slow."""
    if deals < 0 or endings < 0 or postmortems < 0 or exchanges < 0 or scores < 0:
        raise BenchError(
            "the numbers of deals, endings, post-mortems, exchange tables and net scores must not be negative"
        )
    if repeat < 1:
        raise BenchError("each deal must be solved at least once")
    solver = new_solver(tt_mb, threads)
    postmortems = min(postmortems, deals)
    counter = _Progress(deals * repeat + endings + postmortems + exchanges + scores, progress)
    whole_deals = deal_hard_games(deals, seed) if hard else deal_games(deals, seed)
    solved = bench_whole_deals(
        whole_deals, solver=solver, tt_mb=tt_mb, threads=threads, repeat=repeat, hard=hard, step=counter.step
    )
    # Each section runs on its own, so that none is timed with the caches
    # full of another's tables; the goals and the endings reuse the solver
    # that the whole deals left warm.
    goal_bench = bench_goals(whole_deals if goals else (), solver=solver)
    postmortem_bench = bench_postmortems(
        whole_deals[:postmortems],
        [d.ms for d in solved.deals[:postmortems]],
        seed=seed,
        tt_mb=tt_mb,
        threads=threads,
        step=counter.step,
    )
    ending_bench = bench_endings(endings, ending_tricks, seed=seed, solver=solver, step=counter.step)
    exchange_bench = bench_exchanges(exchanges, seed=seed, tt_mb=tt_mb, threads=threads, step=counter.step)
    score_bench = bench_net_scores(scores, seed=seed, tt_mb=tt_mb, repeat=repeat, step=counter.step)
    return BenchReport(
        seed=seed,
        tt_mb=tt_mb,
        table_mb=solver.stats["tt_bytes"] / MB,
        threads=threads,
        whole_deals=solved,
        endings=ending_bench,
        goals=goal_bench,
        postmortems=postmortem_bench,
        exchange_tables=exchange_bench,
        net_scores=score_bench,
    )


SIGNATURE_SEED = 11
"""The seed of :func:`signature`'s deals."""
SIGNATURE_KINDS = ("move_values", "value", "line", "goals", "reaches", "keeping_cards", "net_score")
"""The kinds of question :func:`signature` asks, in its breakdown's order."""


def signature() -> int:
    """The bench signature: the total nodes of a fixed set of questions of
    every kind the engine answers (:func:`signature_breakdown`).  Node counts
    are deterministic, so a change of the signature means a change of the
    search; a change that keeps it changed only the speed.

    >>> signature() == sum(signature_breakdown().values())
    True
    """
    return sum(signature_breakdown().values())


def signature_breakdown() -> dict[str, int]:
    """The nodes of :func:`signature` by kind of question (:data:`SIGNATURE_KINDS`).

    Each question runs on fresh tables of the engine's default sizes, so no
    count depends on the order of the questions or on a table size the user
    chose.  The positions are whole deals of :data:`SIGNATURE_SEED` at trick 1
    and the same deals after a few random cards, mid-trick ones among them.
    """
    deals = deal_games(6, SIGNATURE_SEED)
    at_start = [deal.position() for deal in deals]
    counts = dict.fromkeys(SIGNATURE_KINDS, 0)

    for position in at_start[:3]:
        counts["move_values"] += _fresh_nodes("move_values", *search_args(position))
    for position in (*at_start[3:], *(_played_on(deal, 5) for deal in deals[:3])):
        counts["value"] += _fresh_nodes("value", *search_args(position))
    for position in (at_start[5], *(_played_on(deal, 12) for deal in deals[:3])):
        counts["line"] += _fresh_nodes("line", *search_args(position))
    for deal, position in zip(deals[:3], at_start[:3], strict=True):
        counts["goals"] += _goal_nodes(deal, position)
        for target in (DEFAULT_RULES.win_thirds, ABSOLUT_THIRDS, PANZER_THIRDS):
            counts["reaches"] += _fresh_nodes(
                "reaches", *search_args(position), need=target - position.declarer_thirds()
            )
    for position in (*at_start[3:], _played_on(deals[0], 7)):
        value = Solver(DEFAULT_TT_MB).value(*search_args(position))
        counts["keeping_cards"] += _fresh_nodes("keeping_cards", *search_args(position), value=value)
    for deal, at in ((deals[0], 0), (deals[1], 8), (deals[2], 8)):
        announced = _with_announcements(deal)
        position = _played_on(announced, at)
        counts["net_score"] += net_score(announced, position, solver=ScoreSolver(), with_points_line=False).nodes
    return counts


def _fresh_nodes(question: str, *args: int, **kwargs: int) -> int:
    """The nodes of one :class:`Solver` method called on a fresh solver."""
    solver = Solver(DEFAULT_TT_MB)
    getattr(solver, question)(*args, **kwargs)
    return int(solver.stats["nodes"])


def _played_on(deal: Deal, cards: int) -> Position:
    """The deal's position after ``cards`` random legal cards (seeded by the number)."""
    rng = random.Random(cards)
    position = deal.position()
    for _ in range(cards):
        position.push(rng.choice(list(position.legal_moves)))
    return position


def _goal_nodes(deal: Deal, position: Position) -> int:
    """The goal searches of one deal: Valat and every bird each player
    holds, each bird and the Valat with the win for the declarer, and a line
    for the declarer's Valat."""
    args = (position.hands[0], position.hands[1], position.leader)
    need = DEFAULT_RULES.win_thirds - position.declarer_thirds()
    total = 0
    for seat in SEATS:
        for points in (0, need) if seat == deal.declarer else (0,):
            total += _fresh_nodes("goal_feasible", *args, seat, goal=VALAT, need=points)
            for bird in BIRDS:
                if position.hands[seat] >> bird.card & 1:
                    total += _fresh_nodes(
                        "goal_feasible", *args, seat, goal=BIRD, bird=bird.card, trick=bird.trick, need=points
                    )
    return total + _fresh_nodes("goal_line", *args, deal.declarer, goal=VALAT)


def _with_announcements(deal: Deal) -> Deal:
    """The deal with the declarer's Pagat and Absolut announced (before the
    talon, but in a Solo, which has none)."""
    when = None if deal.contract == "solo" else "before"
    return replace(
        deal, announcements=(Announcement(deal.declarer, "pagat", when), Announcement(deal.declarer, "absolut", when))
    )
