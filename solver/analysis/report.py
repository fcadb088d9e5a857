"""The one orchestration: what kosolve computes for a deal file.

:func:`analyse` decides, for a deal and the :class:`Options` asked for,
which searches run: the value and every card's value, the announcements
each player can still force, the score-optimal value, the review of the
play and the settlement.  The command line calls it, and so will every
other front end; none of them repeats that logic.  An :class:`Analyser`
keeps the tables warm across deals.

>>> from kosolve.model.files import load_deal
>>> report = analyse(load_deal("examples/ending.json"))
>>> report.solution.thirds, report.solution.result, report.feasibility is not None
(111, 'won', True)
>>> report.to_json()["format"], report.to_json()["at"]
(3, 0)

A played file is answered at the position after its play; ``at=0`` asks
for the deal's value from trick 1 instead, and the post-mortem judges the
file's whole play either way:

>>> played = load_deal("examples/played.json")
>>> start = analyse(played, Options(at=0))
>>> start.solution.thirds, len(start.postmortem.cards), start.postmortem.cards[0].before
(109, 7, 109)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Final

from kosolve.analysis.exchange import (
    ExchangeRow,
    ExchangeTable,
    declarer_rows,
    exchange_table,
    value_exchange,
)
from kosolve.analysis.goals import FeasibilityTable, Goal, LineBonus, feasibility, line_bonuses, parse_goal
from kosolve.analysis.netscore import NetScore, net_score
from kosolve.analysis.par import Par, bid_cost, par
from kosolve.analysis.postmortem import PostMortem, postmortem
from kosolve.analysis.scoring import Settlement, held_bonuses, settle
from kosolve.analysis.solving import DEFAULT_BUDGET_MB, Solution, TableBudget, solve
from kosolve.engine import ScoreSolver, Solver
from kosolve.model.announcements import AnnouncementError, check_announcements
from kosolve.model.cards import card_name, hand_names, points_of
from kosolve.model.deal import Deal
from kosolve.model.dealt import Dealt, Exchange
from kosolve.model.dealt_file import DEALT_KEY, DealtFile, dealt_to_json
from kosolve.model.game import DEALER, DEFAULT_RULES, FOREHAND, SEATS, OptionError, Position, Rules, Seat, seat_name
from kosolve.model.reprs import counted
from kosolve.model.scoring import game_item
from kosolve.model.svg import hands_svg, moves_html

FORMAT_VERSION: Final = 3
"""The version of the JSON object :meth:`Report.to_json` writes
(docs/json.md).  Version 2 moved the post-mortem's and the net score's
node counts and times under ``stats``, where every measurement is;
version 3 has the post-mortem judge the whole play whatever ``at`` is
(before, only the cards before the position)."""


class OptionsError(OptionError):
    """Options that do not apply to the deal: a position (``at``) beyond its
    play, announcements the rule options forbid; ``option`` names the field
    (of :class:`Options` or :class:`~kosolve.model.game.Rules`)."""


@dataclass(frozen=True)
class Options:
    """What to compute for a deal.

    ``moves`` asks for every legal card's value and an optimal line, the
    rest for one analysis each; ``score`` for the score-optimal search
    (None: when the deal has announcements and can be scored).
    """

    rules: Rules = DEFAULT_RULES
    at: int | None = None
    """Analyse the position after the first ``at`` cards of the play (all
    of it by default; 0: the deal from trick 1).  The post-mortem judges
    the whole play whatever ``at`` is."""
    moves: bool = True
    feasibility: bool = True
    postmortem: bool = True
    score: bool | None = None
    settle: bool = True
    declarer_goals: bool = True
    """With ``feasibility``: the declarer's point and holding goals too, not
    only the birds and the Valat of both players."""

    @classmethod
    def value_only(cls, rules: Rules = DEFAULT_RULES, at: int | None = None, score: bool = False) -> Options:
        """Only the value of the position (and the net score when ``score``
        asks for it): the fastest answer."""
        return cls(rules=rules, at=at, moves=False, feasibility=False, postmortem=False, score=score, settle=False)


def can_score(deal: Deal) -> bool:
    """Whether the score-optimal search applies: a whole game with piles."""
    return deal.first_trick == 1 and deal.piles is not None


def check(deal: Deal, options: Options) -> None:
    """Raise :class:`OptionsError` when ``options`` cannot apply to ``deal``;
    a front end checks every deal before solving any."""
    if options.at is not None and options.at > len(deal.play):
        raise OptionsError(
            f"{options.at} is beyond the play, which has {counted(len(deal.play), 'card')}", "at", given=True
        )
    if options.score and not can_score(deal):
        # Asked for and impossible: saying so beats a report without it.
        raise OptionsError("the net score needs a whole game (16 cards each at trick 1) with its piles", "score", True)
    try:
        check_announcements(deal.announcements, deal.contract, deal.declarer, options.rules)
    except AnnouncementError as error:
        raise OptionsError(error.message, error.option, error.given) from None


@dataclass(frozen=True)
class Report:
    """Everything :func:`analyse` computed for one deal; None where not asked for or not applicable."""

    deal: Deal
    at: int
    """The number of cards of the play before the position solved."""
    solution: Solution
    feasibility: FeasibilityTable | None
    postmortem: PostMortem | None
    net: NetScore | None
    settlement: Settlement | None
    held: tuple[tuple[Seat, str], ...] | None
    """The held bonuses (Trull, Four Kings, Four Birds) of each seat, when
    the deal is a whole game with piles."""
    position: Position = field(repr=False, compare=False)
    """The position solved, after the first ``at`` cards of the play, with
    its tricks (a report's readers must not play on it: copy it first)."""
    line_bonuses: tuple[LineBonus, ...] = ()
    """The birds and the Valat the optimal line makes, each with whether its
    maker can force it: a line optimal for card points alone may let a bird
    through that the other player could stop."""

    def __repr__(self) -> str:
        """A summary: the deal, where it was solved, the value, what else
        was computed.

        >>> from kosolve.model.files import load_deal
        >>> analyse(load_deal("examples/played.json"))  # doctest: +ELLIPSIS
        <Report examples/played.json: zweiblatt by the forehand after 7 of 7 cards: 111 thirds ...; feasibility, ...>
        """
        parts = [
            name
            for name, present in (
                ("feasibility", self.feasibility),
                ("post-mortem", self.postmortem),
                ("net score", self.net),
                ("settlement", self.settlement),
            )
            if present is not None
        ]
        name = f" {self.deal.source}" if self.deal.source else ""
        where = f"after {self.at} of {counted(len(self.deal.play), 'card')}"
        computed = f"; {', '.join(parts)}" if parts else ""
        bid = f"{self.deal.contract} by the {seat_name(self.deal.declarer)}"
        return f"<Report{name}: {bid} {where}: {self.solution.value_text}{computed}>"

    @property
    def left_out(self) -> int:
        """The cards of the file's play after the position solved (``--at``)."""
        return len(self.deal.play) - self.at

    def _repr_html_(self) -> str:
        """The picture and, under it, a table of every legal card's value
        and cost, for a notebook.  Notebooks ask the report itself, and the
        renderers sit above it (docs/architecture.md), so the values are
        worked out here and laid out by :func:`~kosolve.model.svg.moves_html`."""
        sign = 1 if self.position.is_over() or self.position.turn == self.deal.declarer else -1
        best = max((sign * m.thirds for m in self.solution.moves), default=0)
        cells = [(card_name(m.card), points_of(m.thirds), (best - sign * m.thirds) / 3) for m in self.solution.moves]
        return moves_html(self._repr_svg_(), cells)

    def _repr_svg_(self) -> str:
        """The position by suit, each legal card of the player to move
        with the declarer's points after it, for a notebook.

        >>> from kosolve.model.files import load_deal
        >>> analyse(load_deal("examples/ending.json"))._repr_svg_().count("<svg")
        1
        """
        position = self.position
        notes = {card_name(m.card): str(points_of(m.thirds)) for m in self.solution.moves}
        rows = []
        for seat in (DEALER, FOREHAND):
            mover = not position.is_over() and position.turn == seat
            rows.append((seat_name(seat), position.hands[seat], notes if mover else {}))
        value = f"{points_of(self.solution.thirds)} points for the declarer with best play"
        title = f"{self.deal.contract} by the {seat_name(self.deal.declarer)}: {value}"
        return hands_svg(rows, title)

    def to_json(self) -> dict[str, object]:
        """The JSON object of ``kosolve --json`` (docs/json.md), without the file name."""
        data: dict[str, object] = {
            "format": FORMAT_VERSION,
            "contract": self.deal.contract,
            "at": self.at,
            "play_length": len(self.deal.play),
            **self.solution.to_json(),
            "line_makes": [bonus.to_json() for bonus in self.line_bonuses],
        }
        if self.held is not None:
            data["held"] = {seat_name(seat): [name for s, name in self.held if s == seat] for seat in SEATS}
        if self.feasibility is not None:
            data["feasible"] = self.feasibility.to_json()
            data["feasible_lines"] = self.feasibility.lines_json()
        if self.postmortem is not None:
            data.update(self.postmortem.to_json())
        if self.settlement is not None:
            data["settlement"] = self.settlement.to_json()
        if self.net is not None:
            data["net_score"] = self.net.to_json()
        return data


@dataclass(frozen=True)
class Declared:
    """The bid and the exchange a deal as dealt declares, valued: the
    declarer's result with them, and what they cost him in game points
    against the best exchange of the same contract and against the par."""

    declarer: Seat
    contract: str
    exchange: Exchange
    thirds: int
    valat: bool
    win_thirds: int
    game_points: int
    """The game item from his side with this exchange."""
    exchange_cost: int
    """The best exchange's game points in this contract less his."""
    bid_cost: int
    """His game points at par less those of this contract's best exchange
    (:func:`kosolve.analysis.par.bid_cost`); negative when the other's
    mistake in the auction gave him more than par."""

    @property
    def won(self) -> bool:
        return self.thirds >= self.win_thirds

    def to_json(self) -> dict[str, object]:
        return {
            "declarer": seat_name(self.declarer),
            "contract": self.contract,
            "take": [card_name(c) for c in self.exchange.take],
            "lay_away": hand_names(self.exchange.lay_away),
            "thirds": self.thirds,
            "points": points_of(self.thirds),
            "result": "won" if self.won else "lost",
            "valat": self.valat,
            "game_points": self.game_points,
            "exchange_cost": self.exchange_cost,
            "bid_cost": self.bid_cost,
        }


@dataclass(frozen=True)
class ExchangeReport:
    """What :meth:`Analyser.analyse_exchange` computed for a deal as dealt:
    the exchange table, the par, and the declared bid and exchange valued
    when the deal names them."""

    dealt: Dealt
    table: ExchangeTable
    par: Par
    declared: Declared | None

    def par_json(self) -> dict[str, object]:
        """The par with the exchange its declarer makes (none when both pass)."""
        take: list[str] = []
        lay_away: list[str] = []
        if self.par.declarer is not None and self.par.contract is not None:
            best = self.table.best(self.par.declarer, self.par.contract)
            take, lay_away = [card_name(c) for c in best.take], hand_names(best.lay_away)
        return {**self.par.to_json(), "take": take, "lay_away": lay_away}

    def to_json(self) -> dict[str, object]:
        """The JSON object of ``kosolve exchange --json`` (docs/json.md), without the file name."""
        # The cards as a deal file gives them: a reader judges a lay-away only beside the hands.
        dealt = dealt_to_json(DealtFile(self.dealt))[DEALT_KEY]
        data: dict[str, object] = {
            "format": FORMAT_VERSION,
            "dealt": dealt,
            **self.table.to_json(),
            "par": self.par_json(),
        }
        data["declared"] = None if self.declared is None else self.declared.to_json()
        return data


class Analyser:
    """The searches' tables, made once and reused across deals (the score
    search's only when a deal first needs it), within one budget of
    ``tt_mb`` megabytes for all of them (:class:`TableBudget`).  Tables
    speed solving up but never change an answer; nor do ``threads``, the
    threads the point search runs on a large position (docs/search.md):
    all cores for one deal, one in each worker of a pool."""

    def __init__(self, tt_mb: float = DEFAULT_BUDGET_MB, threads: int = 1) -> None:
        self.tt_mb = tt_mb
        self.threads = threads
        self.budget = TableBudget.split(tt_mb)
        self.solver: Solver = Solver(tt_mb=self.budget.main_mb, goal_tt_mb=self.budget.goal_mb, threads=threads)
        self._score_solver: ScoreSolver | None = None

    def __repr__(self) -> str:
        """It builds the same analyser again (with cold tables).

        >>> Analyser(tt_mb=16, threads=2)
        Analyser(tt_mb=16, threads=2)
        """
        return f"Analyser(tt_mb={self.tt_mb:g}, threads={self.threads})"

    @property
    def score_solver(self) -> ScoreSolver:
        if self._score_solver is None:
            # Its frame's point searches share the points solver's table.
            self._score_solver = ScoreSolver(tt_mb=self.budget.score_mb, points=self.solver)
        return self._score_solver

    def analyse(
        self, deal: Deal, options: Options = Options(), progress: Callable[[int, int], None] | None = None
    ) -> Report:
        """See :func:`analyse`; ``progress`` follows the post-mortem's steps
        (:func:`~kosolve.analysis.postmortem.postmortem`), and an exception
        it raises stops the analysis."""
        check(deal, options)
        rules = options.rules
        at = len(deal.play) if options.at is None else options.at
        position = deal.position(at)
        solver = self.solver
        solution = solve(position, solver=solver, rules=rules, with_moves=options.moves, with_line=options.moves)
        over = position.is_over()
        # A finished hand has nothing left to make: its settlement and its
        # post-mortem say what happened.
        table = None
        if options.feasibility and not over:
            table = feasibility(position, solver=solver, rules=rules, declarer_goals=options.declarer_goals)
        bonuses = line_bonuses(position, solution.line, table, solver=solver, rules=rules) if solution.line else ()
        by_score = can_score(deal) and (options.score if options.score is not None else bool(deal.announcements))
        net = None
        if by_score and not over:
            # The line shown is the one compared: another point-optimal line may score otherwise.
            net = net_score(
                deal,
                position,
                rules=rules,
                solver=self.score_solver,
                with_points_line=options.moves,
                points_line=solution.line or None,
                points_solver=solver,
            )
        review = None
        if options.postmortem and deal.play:
            review = postmortem(
                deal,
                goals=_followed_goals(deal),
                solver=solver,
                rules=rules,
                by_score=by_score,
                score_solver=self.score_solver if by_score else None,
                progress=progress,
            )
        settlement = settle(deal, rules) if options.settle and over and can_score(deal) else None
        held = (
            tuple(held_bonuses(deal.hands, deal.piles, deal.laid))
            if can_score(deal) and deal.piles is not None
            else None
        )
        return Report(deal, at, solution, table, review, net, settlement, held, position, bonuses)

    def analyse_exchange(
        self,
        dealt: Dealt | DealtFile,
        rules: Rules = DEFAULT_RULES,
        declared: tuple[Seat, str, Exchange] | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> ExchangeReport:
        """The exchange table of ``dealt``, its par, and the ``declared``
        declarer, contract and exchange valued against both; ``progress``
        follows the table (:func:`~kosolve.analysis.exchange.exchange_table`),
        and an exception it raises stops it.  Given a file read
        (:class:`~kosolve.model.dealt_file.DealtFile`), its own bid is the
        one declared unless ``declared`` says otherwise, and its discard
        variant judges the lay-aways."""
        if isinstance(dealt, DealtFile):
            declared = declared or dealt.declared
            rules = replace(rules, discard=dealt.discard)
            dealt = dealt.dealt
        table = exchange_table(dealt, rules=rules, solver=self.solver, progress=progress)
        values = table.best_game_points()
        best = par(values)
        valued = None
        if declared is not None:
            declarer, contract, exchange = declared
            thirds, valat = value_exchange(dealt, contract, declarer, exchange, solver=self.solver)
            points = game_item(contract, thirds >= rules.win_thirds, valat)
            valued = Declared(
                declarer,
                contract,
                exchange,
                thirds,
                valat,
                rules.win_thirds,
                points,
                exchange_cost=values[(declarer, contract)] - points,
                bid_cost=bid_cost(values, best, declarer, contract),
            )
        return ExchangeReport(dealt, table, best, valued)

    def analyse_contracts(self, dealt: Dealt, declarer: Seat, rules: Rules = DEFAULT_RULES) -> tuple[ExchangeRow, ...]:
        """The exchange table's rows of one ``declarer`` in ``dealt``
        (:func:`~kosolve.analysis.exchange.declarer_rows`): each contract
        and talon choice with its best lay-away, values only."""
        return declarer_rows(dealt, declarer, rules=rules, solver=self.solver)


def _followed_goals(deal: Deal) -> tuple[tuple[Seat, Goal], ...]:
    """The announcements the post-mortem follows along the play: every one
    the deal can judge (point goals need the piles; trick goals never do)."""
    goals = ((a.by, parse_goal(a.what)) for a in deal.announcements)
    return tuple((seat, goal) for seat, goal in goals if goal.on_tricks or deal.piles is not None)


def analyse(deal: Deal, options: Options = Options(), *, analyser: Analyser | None = None) -> Report:
    """Analyse ``deal`` as ``options`` ask; pass an ``analyser`` to reuse its
    tables.  Raises :class:`OptionsError` when the options do not apply."""
    return (analyser or Analyser()).analyse(deal, options)


__all__ = [
    "FORMAT_VERSION",
    "Analyser",
    "Declared",
    "ExchangeReport",
    "Options",
    "OptionsError",
    "Report",
    "analyse",
    "check",
]
