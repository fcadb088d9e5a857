"""The benchmark: how fast kosolve solves realistic deals and endings.

Whole deals come from :mod:`kosolve.tools.dealing`; each is solved exactly at
trick 1 with every first card valued, by one :class:`~kosolve.engine._search.Solver`
kept warm across the run as a user solving many deals would.  Short endings
are solved both by kosolve and by the pure-Python reference search, which
times the two against each other and checks that they agree.

>>> report = run_bench(deals=1, endings=1, ending_tricks=3, tt_mb=1)
>>> report.deals_solved, report.ending_disagreements
(1, 0)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from kosolve import __version__
from kosolve.analysis.exchange import exchange_table
from kosolve.analysis.goals import TRICK_GOALS, solve_goal
from kosolve.analysis.netscore import net_score
from kosolve.analysis.postmortem import postmortem
from kosolve.analysis.solving import DEFAULT_BUDGET_MB, TableBudget, new_solver, search_args, solve
from kosolve.engine._score import ScoreSolver
from kosolve.engine._search import BIRD, DEFAULT_TT_MB, VALAT, Solver
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
from kosolve.tools.dealing import HARD_TAROCKS, deal_as_dealt, deal_games, deal_hard_games, random_ending
from kosolve.tools.reference import reference_move_values

MB = 1024 * 1024

DEFAULT_DEALS = 100
DEFAULT_ENDINGS = 40
"""The reference search takes about 0.1 to 1 s on an ending of 8 tricks."""
DEFAULT_ENDING_TRICKS = 8
DEFAULT_POSTMORTEMS = 10


class BenchError(ValueError):
    """Benchmark settings that cannot be run."""


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
class EndingTiming:
    """One ending solved by kosolve and by the reference search."""

    tricks: int
    kosolve_ms: float
    reference_ms: float
    agree: bool
    """Whether both gave every legal card the same value."""


@dataclass(frozen=True)
class GoalTiming:
    """One feasibility question (a bird or Valat for one player) on a whole
    deal at trick 1."""

    goal: str
    feasible: bool
    nodes: int
    ms: float


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
class BenchReport:
    """What :func:`run_bench` measured; every summary figure is computed from
    the per-position records."""

    seed: int
    tt_mb: float
    """The memory budget of the tables, in MB."""
    table_mb: float
    """The size of the main table its share of the budget gave, in MB."""
    ending_tricks: int
    deals: tuple[DealTiming, ...]
    endings: tuple[EndingTiming, ...]
    goals: tuple[GoalTiming, ...] = ()
    postmortems: tuple[PostMortemTiming, ...] = ()
    exchanges: tuple[ExchangeTiming, ...] = ()
    scores: tuple[ScoreTiming, ...] = ()
    repeat: int = 1
    """How many times each whole deal was solved; its fastest time counts."""
    hard: bool = False
    """Whether the whole deals are the hard set (:func:`~kosolve.tools.dealing.deal_hard_games`)."""
    threads: int = 1
    """The threads of each solve (the signature is always one thread's)."""

    @property
    def deals_solved(self) -> int:
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
        """Total nodes over total search time of the whole deals."""
        return self.total_nodes / self.total_ms * 1000 if self.total_ms > 0 else 0.0

    @property
    def contracts(self) -> dict[str, int]:
        return {c: sum(d.contract == c for d in self.deals) for c in CONTRACTS}

    @property
    def ending_kosolve_ms(self) -> float:
        """Median time of kosolve on the endings."""
        return float(np.median([e.kosolve_ms for e in self.endings]))

    @property
    def ending_reference_ms(self) -> float:
        """Median time of the reference search on the endings."""
        return float(np.median([e.reference_ms for e in self.endings]))

    @property
    def speed_ratio(self) -> float:
        """How many times faster kosolve is than the reference on the endings
        (ratio of the median times)."""
        return self.ending_reference_ms / self.ending_kosolve_ms if self.ending_kosolve_ms > 0 else 0.0

    @property
    def ending_disagreements(self) -> int:
        return sum(not e.agree for e in self.endings)

    def to_json(self) -> dict[str, object]:
        """The report as a JSON object, with the per-position records.

        >>> report = BenchReport(1, 1.0, 0.75, 4, (DealTiming("solo", 0, 120, 1000, 2.0),), ())
        >>> report.to_json()["whole_deals"]["nodes_per_second"]
        500000.0
        """
        whole: dict[str, object] = {
            "solved": self.deals_solved,
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
        endings: dict[str, object] = {
            "tricks": self.ending_tricks,
            "count": len(self.endings),
            "kosolve_median_ms": self.ending_kosolve_ms if self.endings else None,
            "reference_median_ms": self.ending_reference_ms if self.endings else None,
            "speed_ratio": self.speed_ratio if self.endings else None,
            "disagreements": self.ending_disagreements,
            "positions": [
                {"kosolve_ms": e.kosolve_ms, "reference_ms": e.reference_ms, "agree": e.agree} for e in self.endings
            ],
        }
        score_tables: dict[str, object] = {
            "count": len(self.scores),
            "time_ms": Spread.of([t.ms for t in self.scores]).to_json() if self.scores else None,
            "solve_ms": Spread.of([t.solve_ms for t in self.scores]).to_json() if self.scores else None,
            "ratio_to_solve": Spread.of([t.ratio for t in self.scores]).to_json() if self.scores else None,
            "deals": [
                {
                    "announcements": list(t.announcements),
                    "score": t.score,
                    "nodes": t.nodes,
                    "ms": t.ms,
                    "solve_ms": t.solve_ms,
                }
                for t in self.scores
            ],
        }
        return {
            "version": __version__,
            "seed": self.seed,
            "tt_mb": self.tt_mb,
            "table_mb": self.table_mb,
            "repeat": self.repeat,
            "deal_set": "hard" if self.hard else "standard",
            "threads": self.threads,
            "whole_deals": whole,
            "endings": endings,
            "goals": {
                "count": len(self.goals),
                "feasible": sum(g.feasible for g in self.goals),
                "time_ms": Spread.of([g.ms for g in self.goals]).to_json() if self.goals else None,
            },
            "postmortems": {
                "count": len(self.postmortems),
                "time_ms": Spread.of([p.ms for p in self.postmortems]).to_json() if self.postmortems else None,
                "ratio_to_solve": Spread.of([p.ratio for p in self.postmortems]).to_json()
                if self.postmortems
                else None,
            },
            "exchange_tables": {
                "count": len(self.exchanges),
                "time_ms": Spread.of([e.ms for e in self.exchanges]).to_json() if self.exchanges else None,
                "nodes": Spread.of([e.nodes for e in self.exchanges]).to_json() if self.exchanges else None,
                "tables": [
                    {
                        "lay_aways": e.lay_aways,
                        "point_searches": e.point_searches,
                        "goal_searches": e.goal_searches,
                        "nodes": e.nodes,
                        "ms": e.ms,
                    }
                    for e in self.exchanges
                ],
            },
            "net_scores": score_tables,
        }

    def format(self) -> str:
        """The report as a readable table.

        >>> report = BenchReport(1, 1.0, 0.75, 4, (DealTiming("solo", 0, 120, 1000, 2.0),), ())
        >>> print(report.format().splitlines()[2])
        Whole deals at trick 1, every first card valued: 1 solved
        """
        lines = [
            f"kosolve {__version__} benchmark: seed {self.seed},"
            f" table {self.table_mb:g} MB (of {self.tt_mb:g} MB for all tables),"
            f" {self.threads} thread{'s' if self.threads > 1 else ''}",
            "",
            (f"Hard whole deals (both hands with at least {HARD_TAROCKS} tarocks)" if self.hard else "Whole deals")
            + f" at trick 1, every first card valued: {self.deals_solved} solved"
            + (f", the fastest of {self.repeat} runs each" if self.repeat > 1 else ""),
        ]
        if self.deals:
            time_ms, nodes = self.time_ms, self.nodes
            lines += [
                Spread.HEADER,
                time_ms.row("time (ms)", ".1f"),
                nodes.row("nodes", ",.0f"),
                f"  aggregate: {self.total_nodes:,} nodes in {self.total_ms / 1000:.2f} s"
                f" = {self.nodes_per_second:,.0f} nodes/s",
                "  contracts: " + ", ".join(f"{c} {n}" for c, n in self.contracts.items()),
            ]
        lines += ["", f"Endings of {self.ending_tricks} tricks, every card valued: {len(self.endings)} positions"]
        if self.endings:
            lines += [
                f"  kosolve median    {self.ending_kosolve_ms:12.3f} ms",
                f"  reference median  {self.ending_reference_ms:12.3f} ms",
                f"  speed ratio       {self.speed_ratio:12,.0f} x (reference / kosolve)",
                f"  values agree      {len(self.endings) - self.ending_disagreements:>5} / {len(self.endings)}"
                + ("" if not self.ending_disagreements else "   <-- DISAGREEMENT"),
            ]
        if self.goals:
            goal_ms = Spread.of([g.ms for g in self.goals])
            lines += [
                "",
                f"Feasibility questions on the whole deals (a held bird or Valat, each player):"
                f" {len(self.goals)}, {sum(g.feasible for g in self.goals)} makeable",
                Spread.HEADER,
                goal_ms.row("time (ms)", ".2f"),
            ]
        if self.postmortems:
            pm_ms = Spread.of([p.ms for p in self.postmortems])
            ratio = Spread.of([p.ratio for p in self.postmortems])
            lines += [
                "",
                f"Post-mortems of whole 32-card plays: {len(self.postmortems)},"
                f" {sum(p.mistakes for p in self.postmortems)} costly cards in all",
                Spread.HEADER,
                pm_ms.row("time (ms)", ".1f"),
                ratio.row("x one solve", ".2f"),
            ]
        if self.exchanges:
            lines += [
                "",
                f"Exchange tables of deals as dealt (both players, 24 talon choices, every legal lay-away,"
                f" the makeable announcements): {len(self.exchanges)}",
                Spread.HEADER,
                Spread.of([e.ms for e in self.exchanges]).row("time (ms)", ".1f"),
                Spread.of([e.nodes for e in self.exchanges]).row("nodes", ",.0f"),
                Spread.of([e.lay_aways for e in self.exchanges]).row("lay-aways", ".0f"),
                Spread.of([e.point_searches for e in self.exchanges]).row("point srch", ".0f"),
                Spread.of([e.goal_searches for e in self.exchanges]).row("goal srch", ".0f"),
            ]
        if self.scores:
            lines += [
                "",
                f"Net scores of whole deals with random announcements (the score and a line): {len(self.scores)}",
                Spread.HEADER,
                Spread.of([t.ms for t in self.scores]).row("time (ms)", ".1f"),
                Spread.of([t.solve_ms for t in self.scores]).row("solve (ms)", ".1f"),
                Spread.of([t.ratio for t in self.scores]).row("x one solve", ".2f"),
            ]
        return "\n".join(lines)


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
    """Solve ``deals`` whole deals and ``endings`` endings of
    ``ending_tricks`` tricks dealt from ``seed``, and report the cost.  With
    ``repeat`` > 1 the whole deals are solved that many times, each run with
    a fresh table, and each deal's fastest time counts.
    ``progress(done, total)`` is called after every position, whole deals
    first, then endings; the endings take most of the time of a short run,
    since the reference search is slow; then ``exchanges`` exchange tables
    of deals as dealt from ``seed``.  With ``hard`` the whole deals are the
    hard set, those in which both hands hold at least
    :data:`~kosolve.tools.dealing.HARD_TAROCKS` tarocks (the post-mortems
    play them too); last ``scores`` whole deals of ``seed`` with random
    announcements, each valued for the net score with a line and solved for
    points, both with ``repeat`` runs.  Every solver runs ``threads`` threads."""
    if deals < 0 or endings < 0 or postmortems < 0 or exchanges < 0 or scores < 0:
        raise BenchError(
            "the numbers of deals, endings, post-mortems, exchange tables and net scores must not be negative"
        )
    if repeat < 1:
        raise BenchError("each deal must be solved at least once")
    solver = new_solver(tt_mb, threads)
    postmortems = min(postmortems, deals)
    total = deals * repeat + endings + postmortems + exchanges + scores
    deal_timings: list[DealTiming] = []
    goal_timings: list[GoalTiming] = []
    whole_deals = deal_hard_games(deals, seed) if hard else deal_games(deals, seed)
    # Timings on a shared machine jump from run to run; the fastest of
    # several runs, each with a table of its own, is the one least disturbed.
    # The nodes are the same in every run.
    for run in range(repeat):
        run_solver = solver if run == 0 else new_solver(tt_mb, threads)
        for index, deal in enumerate(whole_deals):
            solution = solve(deal.position(), solver=run_solver, with_line=False)
            timing = DealTiming(deal.contract, deal.declarer, solution.thirds, solution.stats.nodes, solution.stats.ms)
            if run == 0:
                deal_timings.append(timing)
            elif timing.ms < deal_timings[index].ms:
                deal_timings[index] = timing
            if progress is not None:
                progress(run * deals + index + 1, total)
    # Each kind of question runs on its own, so that none is timed with the
    # caches full of another's tables.
    if goals:
        for deal in whole_deals:
            goal_timings += _goal_timings(deal, solver)
    rng = random.Random(seed)
    postmortem_timings = []
    # The plays are made with a solver of their own, and each review starts
    # from an empty table: it must not find the positions already solved.
    player, reviewer = (new_solver(tt_mb, threads), new_solver(tt_mb, threads)) if postmortems else (solver, solver)
    for index, deal in enumerate(whole_deals[:postmortems]):
        played = _played(deal, player, rng)
        reviewer.clear()
        review = postmortem(played, solver=reviewer)
        mistakes = sum(r.loss > 0 for r in review.cards)
        postmortem_timings.append(PostMortemTiming(len(played.play), mistakes, review.ms, deal_timings[index].ms))
        if progress is not None:
            progress(deals * repeat + index + 1, total)
    rng = random.Random(seed)
    ending_timings = []
    for index in range(endings):
        ending = random_ending(rng, ending_tricks)
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
        ending_timings.append(EndingTiming(ending_tricks, solution.stats.ms, reference_ms, ours == reference))
        if progress is not None:
            progress(deals * repeat + postmortems + index + 1, total)
    exchange_timings = []
    rng = random.Random(seed)
    # Each table starts from an empty table, as a user's first one does.
    exchanger = new_solver(tt_mb, threads) if exchanges else solver
    for index in range(exchanges):
        exchanger.clear()
        table = exchange_table(deal_as_dealt(rng), solver=exchanger)
        lay_aways = sum(row.lay_aways for row in table.rows)
        stats = table.stats
        exchange_timings.append(
            ExchangeTiming(lay_aways, stats.point_searches, stats.goal_searches, stats.nodes, stats.ms)
        )
        if progress is not None:
            progress(deals * repeat + postmortems + endings + index + 1, total)
    score_timings = _score_timings(scores, seed, tt_mb, repeat)
    if progress is not None and scores:
        progress(total, total)
    return BenchReport(
        seed=seed,
        tt_mb=tt_mb,
        table_mb=solver.stats["tt_bytes"] / MB,
        ending_tricks=ending_tricks,
        deals=tuple(deal_timings),
        endings=tuple(ending_timings),
        goals=tuple(goal_timings),
        postmortems=tuple(postmortem_timings),
        exchanges=tuple(exchange_timings),
        scores=tuple(score_timings),
        repeat=repeat,
        hard=hard,
        threads=threads,
    )


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


def _score_timings(count: int, seed: int, tt_mb: float, repeat: int) -> list[ScoreTiming]:
    """The net score and a line of ``count`` whole deals with random
    announcements, and the points solve of each (every first card valued, as
    the whole-deal benchmark does), each the fastest of ``repeat`` runs with
    tables of their own kept warm across the deals, as an analyser keeps
    them."""
    rng = random.Random(seed)
    announced = [random_announcements(deal, rng) for deal in deal_games(count, seed)]
    budget = TableBudget.split(tt_mb)
    best: list[ScoreTiming] = []
    for run in range(repeat):
        points, by_score = new_solver(tt_mb), ScoreSolver(tt_mb=budget.score_mb)
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
    return best


def _goal_timings(deal: Deal, solver: Solver) -> list[GoalTiming]:
    """Every bird a player holds, and Valat, for both players."""
    position = deal.position()
    timings = []
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
    return timings


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
