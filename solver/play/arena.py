"""Duplicate matches between two bots (docs/arena.md).

Every deal is played twice with the seats swapped: bot A as the forehand
and B as the dealer, then B as the forehand and A as the dealer, so that
neither is dealt the better cards.  A deal's record holds both games
(every decision, the settlement, what each bot's cards cost double dummy,
and on request the review by what each player knew) and each bot's game
points over the two.  The records go into a results file of the batch's
kind (:class:`~kosolve.batch.results.ResultsFile`), one line a deal as it
finishes, so that the same command again resumes the match; the deals are
spread over worker processes (:class:`~kosolve.analysis.pool.WorkerPool`),
and every deal's games depend on the seed and the deal's number alone, so
the match is the same for any number of jobs.

A bot that breaks the protocol, or raises, **forfeits** that game: it is
scored :data:`FORFEIT_POINTS` game points to the other, the record says
who, which bot and why, and the match goes on.  A deal's record is a
:class:`DealRecord` of two :class:`GameRecord`; the results file keeps
their JSON.

>>> import random
>>> from kosolve.dealing import deal_as_dealt
>>> match = Match("heuristic", "random", seed=1)
>>> record = DealRecord.from_json(play_deal(match, deal_as_dealt(random.Random(5)), 1))
>>> [game.bots for game in record.games]
[('heuristic', 'random'), ('random', 'heuristic')]
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from types import TracebackType
from typing import Any, Final

from kosolve.analysis.pool import WorkerPool, worker_analyser
from kosolve.analysis.postmortem import postmortem
from kosolve.analysis.report import Analyser
from kosolve.analysis.solving import DEFAULT_BUDGET_MB
from kosolve.batch.cluster import DEFAULT_CHUNK, cluster
from kosolve.batch.results import ResultsError, ResultsFile, read_results
from kosolve.batch.tasks import Key
from kosolve.dealing import deal_as_dealt
from kosolve.model.announcements import ANNOUNCEMENTS
from kosolve.model.cards import mask_of
from kosolve.model.dealt import Dealt
from kosolve.model.dealt_file import DealtFile, dealt_to_json, parse_dealt_file
from kosolve.model.game import DEFAULT_RULES, SEAT_NAMES, SEATS, Rules, Seat, seat_name
from kosolve.model.jsonfile import parse_json
from kosolve.model.quoting import source_name
from kosolve.model.scoring import HELD
from kosolve.play.bots import make_bot
from kosolve.play.game import Game
from kosolve.play.player import Bot, Forfeit, ask
from kosolve.play.protocol import DEFAULT_MOVE_TIME
from kosolve.play.sprt import Hypotheses, Sprt, SprtState
from kosolve.review.judging import review
from kosolve.review.records import ARENA_KIND, RecordError, rules_of
from kosolve.review.statistics import DD_BEST, KNEW_BEST, accuracy
from kosolve.sampling.odds import estimate

FORFEIT_POINTS: Final = 24
"""The game points a forfeit costs the bot that forfeits (and gives the
other): twice a Solo's game item, more than most games are worth."""
SIDES: Final = ("a", "b")
BOT_SEEDS: Final = 2
"""How the bots' seeds are made, as a results file's header records it: 2,
a digest apart from the deal's seed (kosolve 0.1's 1 gave the deal's own
seed, from which a bot could deal the whole deal); a file of another way
is refused on resume, its games being of other seeds."""
SUMMARY_FORMAT: Final = 1
"""The format of the summary's JSON (:meth:`MatchSummary.to_json`,
docs/arena.md): a later kosolve that renames or removes a key, or changes
what one means, raises it; keys may be added within a format."""
POINT_SOURCES: Final = ("game", "announced", "silent", "held", "forfeit")
"""Where a bot's game points come from (:attr:`BotSummary.points`): the
game item (the contract's, or the Valat that replaces it, silent or
announced), the announced bonuses, the silent ones, the held ones, and
the forfeits."""


@dataclass(frozen=True)
class Match:
    """What a match plays: bots ``a`` and ``b`` (specs,
    :func:`~kosolve.play.bots.make_bot`), the seed of the deals and of the
    bots, where the deals come from (``source``: ``"dealer"`` or a file's
    name), the rules, the time a protocol bot has for a decision, and the
    worlds a card of the review by what each player knew (0: no review)."""

    a: str
    b: str
    seed: int = 0
    source: str = "dealer"
    rules: Rules = DEFAULT_RULES
    move_time: float = DEFAULT_MOVE_TIME
    review: int = 0

    def to_json(self) -> dict[str, object]:
        """The match as its results file's header records it."""
        return {"kind": ARENA_KIND, "bot_seeds": BOT_SEEDS, **asdict(self)}

    def spec(self, side: str) -> str:
        return self.a if side == "a" else self.b

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Match:
        """The match a results file's header records (a rule option it does
        not record at its default, one this kosolve does not know left
        out); :class:`ResultsError` for a header of no arena match."""
        if data.get("kind") != ARENA_KIND:
            raise ResultsError("not the results of a kosolve arena match")
        try:
            rules = rules_of(data, "the header")
        except RecordError as error:
            raise ResultsError(str(error)) from None
        try:
            return cls(
                str(data["a"]),
                str(data["b"]),
                int(data.get("seed", 0)),
                str(data.get("source", "dealer")),
                rules,
                float(data.get("move_time", DEFAULT_MOVE_TIME)),
                int(data.get("review", 0)),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ResultsError(f"a header that records no match ({type(error).__name__}: {error})") from None


def dealer_deal(seed: int, number: int) -> Dealt:
    """Deal ``number`` (from 1) of a match from the realistic dealer."""
    return deal_as_dealt(random.Random(seed * 1_000_003 + number))


def bot_seed(seed: int, number: int) -> int:
    """The seed both games of deal ``number`` give the bots: a digest of the
    match's seed and the number, so that it tells nothing of the deal that
    :func:`dealer_deal` makes from the same two (a bot that knew the
    dealer's seed could deal the other's hand and the talon)."""
    digest = hashlib.sha256(f"kosolve arena bots {seed} {number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class Players:
    """The bots of the match being played, made on first use and kept from
    deal to deal (a protocol bot is started once, not once a game), each
    that searches with the caller's analyser; the bots of another match,
    or of another analyser, replace them, closed.  As a context manager
    it closes its bots at the end: a protocol bot's process stops, with
    everything it started."""

    def __init__(self) -> None:
        self._key: tuple[str, Analyser | None] | None = None
        self._bots: dict[str, Bot] = {}

    def of(self, match: Match, analyser: Analyser | None = None) -> dict[str, Bot]:
        """The bots of ``match`` by side, searching with ``analyser``'s tables."""
        key = (json.dumps(match.to_json(), sort_keys=True), analyser)
        if key != self._key:
            self.close()
            self._bots = {side: make_bot(match.spec(side), match.rules, analyser, match.move_time) for side in SIDES}
            self._key = key
        return self._bots

    def close(self) -> None:
        """Close the bots."""
        for bot in self._bots.values():
            bot.close()
        self._bots, self._key = {}, None

    def __enter__(self) -> Players:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


PLAYERS: Final = Players()
"""This process's bots: those of a match played here, and in each worker
process of ``--jobs`` (a worker's stop with it, their keeper:
:mod:`kosolve.play.protocol`)."""


@dataclass(frozen=True)
class Forfeited:
    """A game a bot forfeited: its seat, its spec and why."""

    seat: Seat
    bot: str
    reason: str

    def to_json(self) -> dict[str, object]:
        return {"seat": seat_name(self.seat), "bot": self.bot, "reason": self.reason}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Forfeited:
        return cls(SEAT_NAMES.index(data["seat"]), data["bot"], data["reason"])


def play_game(
    dealt: Dealt, bots: tuple[Bot, Bot], names: tuple[str, str], seed: int, rules: Rules = DEFAULT_RULES
) -> tuple[Game, Forfeited | None]:
    """One game of ``dealt`` between ``bots`` (the forehand's first, named
    ``names``), each started with ``seed``; the game and its forfeit (None
    when none)."""
    game = Game(dealt, rules)
    forfeit: Forfeited | None = None
    seat: Seat = 0
    try:
        for seat in SEATS:
            bots[seat].start(seed, seat)
        while not game.over:
            decision = game.decision()
            seat = decision.seat
            move = ask(bots[seat], decision, game)
            # A notice the other does not take in is the other's forfeit.
            seat = 1 - seat
            bots[seat].observe(move)
    except Forfeit as error:
        forfeit = Forfeited(seat, names[seat], error.reason)
    except Exception as error:  # a bot's own bug forfeits its game; the match goes on
        forfeit = Forfeited(seat, names[seat], f"{type(error).__name__}: {error}")
    if forfeit is None:
        totals = game.totals_json()
        for bot in bots:
            # The game is over and scored: a bot that leaves now loses nothing.
            with contextlib.suppress(Forfeit):
                bot.end(totals)
    return game, forfeit


def _points(game: Game, forfeit: Forfeited | None) -> tuple[int, int]:
    """Each seat's game points: the settlement's, 0 when both passed, and
    :data:`FORFEIT_POINTS` against the seat that forfeited."""
    if forfeit is not None:
        return (-FORFEIT_POINTS, FORFEIT_POINTS) if forfeit.seat == 0 else (FORFEIT_POINTS, -FORFEIT_POINTS)
    return game.points


Counts = dict[str, list[int]]
"""Each seat's ``[good, counted]`` cards of a game, by seat name."""


def _judged(
    game: Game, analyser: Analyser, samples: int, seed: int, rules: Rules
) -> tuple[Counts | None, Counts | None]:
    """Each seat's judged cards of a game (a forced card, his only legal
    one, is not judged, as in the review): ``knew``, with ``samples`` (the
    review's worlds a card), those best by what he knew and all, and
    ``dd``, those best double dummy and all; None where no card was
    played.  With the review its world that was dealt gives ``dd``, so that
    no card is solved twice; without, the post-mortem does."""
    deal = game.deal
    if deal is None or not deal.play:
        return None, None
    if samples:
        found = review(deal, taken=mask_of(game.take or ()), samples=samples, seed=seed, jobs=1, rules=rules)
        knew = {seat_name(player.seat): list(player.tally(KNEW_BEST)) for player in found.players}
        dd = {seat_name(player.seat): list(player.tally(DD_BEST)) for player in found.players}
        return knew, dd
    counts = {name: [0, 0] for name in SEAT_NAMES}
    for before, card in zip(deal.positions(), postmortem(deal, solver=analyser.solver).cards, strict=False):
        if len(list(before.legal_moves)) > 1:
            counts[seat_name(card.player)][0] += card.loss == 0
            counts[seat_name(card.player)][1] += 1
    return None, counts


@dataclass(frozen=True)
class GameRecord:
    """One game of a deal's record (docs/arena.md): the bots by seat (the
    forehand's first), the game's own record
    (:meth:`~kosolve.play.game.Game.to_json`: every decision, the
    settlement), each seat's game points, the forfeit, and each seat's
    judged cards double dummy (``dd``) and by what he knew (``knew``)."""

    bots: tuple[str, str]
    game: Mapping[str, object]
    points: tuple[int, int]
    forfeit: Forfeited | None
    dd: Counts | None
    knew: Counts | None

    def to_json(self) -> dict[str, object]:
        return {
            "bots": dict(zip(SEAT_NAMES, self.bots, strict=True)),
            **self.game,
            "points": dict(zip(SEAT_NAMES, self.points, strict=True)),
            "forfeit": None if self.forfeit is None else self.forfeit.to_json(),
            "dd": self.dd,
            "knew": self.knew,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        own = ("bots", "points", "forfeit", "dd", "knew")
        forfeit = data.get("forfeit")
        return cls(
            (data["bots"][SEAT_NAMES[0]], data["bots"][SEAT_NAMES[1]]),
            {key: value for key, value in data.items() if key not in own},
            (data["points"][SEAT_NAMES[0]], data["points"][SEAT_NAMES[1]]),
            None if forfeit is None else Forfeited.from_json(forfeit),
            data.get("dd"),
            data.get("knew"),
        )


@dataclass(frozen=True)
class DealRecord:
    """A deal's record: the deal as dealt (its JSON), both games (A as the
    forehand first) and each bot's game points over the two (A's first)."""

    deal: Mapping[str, object]
    games: tuple[GameRecord, GameRecord]
    points: tuple[int, int]

    def to_json(self) -> dict[str, object]:
        return {
            "deal": self.deal,
            "games": [game.to_json() for game in self.games],
            "points": dict(zip(SIDES, self.points, strict=True)),
        }

    @property
    def difference(self) -> int:
        """A's game points less B's over the deal: what a duplicate match measures."""
        return self.points[0] - self.points[1]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DealRecord:
        first, second = (GameRecord.from_json(game) for game in data["games"])
        return cls(data["deal"], (first, second), (data["points"]["a"], data["points"]["b"]))


def deal_records(records: Iterable[Mapping[str, Any]]) -> dict[int, DealRecord]:
    """The deals' records of a results file's lines, by deal number."""
    return {r["line"]: DealRecord.from_json(r["report"]) for r in records if isinstance(r.get("report"), dict)}


class _InOrder:
    """A sequential test fed the deals in their order, whichever order they
    finish in: a deal waits until every deal before it is in.  The deals
    decide in the same order for any number of jobs, so the test stops a
    match at the same deal however it was played, and again at the same
    deal when the results file is read later."""

    def __init__(self, hypotheses: Hypotheses, deals: Mapping[int, DealRecord]) -> None:
        self.test = Sprt(hypotheses)
        self._waiting: dict[int, int] = {}
        self._next = 1
        for number, deal in deals.items():
            self.add(number, deal.difference)

    def add(self, number: int, difference: int) -> SprtState:
        """Take deal ``number``'s difference; where the test stands."""
        self._waiting[number] = difference
        while self.test.state.accepted is None and self._next in self._waiting:
            self.test.update(self._waiting.pop(self._next))
            self._next += 1
        return self.test.state


def sequential_test(records: Iterable[Mapping[str, Any]], hypotheses: Hypotheses) -> SprtState:
    """The sequential test of ``hypotheses`` on a match's records (a
    results file's lines, in any order), the deals fed in their order up
    to the first missing: where it stands, decided or not."""
    return _InOrder(hypotheses, deal_records(records)).test.state


def play_deal(
    match: Match,
    dealt: Dealt,
    number: int,
    analyser: Analyser | None = None,
    players: Mapping[str, Bot] | None = None,
) -> dict[str, object]:
    """The record of deal ``number`` as the results file keeps it
    (:meth:`DealRecord.to_json`): both games and each bot's points, played
    by ``players`` (by side; this process's bots of the match by default,
    searching with ``analyser``'s tables, this process's analyser by
    default)."""
    analyser = analyser or worker_analyser()
    players = players or PLAYERS.of(match, analyser)
    games = []
    points = {side: 0 for side in SIDES}
    for order in (SIDES, SIDES[::-1]):
        bots = (players[order[0]], players[order[1]])
        names = (match.spec(order[0]), match.spec(order[1]))
        # Both games of a deal give the bots the same seed: a deterministic
        # bot against itself plays the same game twice and nets 0.
        seed = bot_seed(match.seed, number)
        game, forfeit = play_game(dealt, bots, names, seed, match.rules)
        # A forfeited game is not reviewed: its play stopped short.
        knew, dd = _judged(game, analyser, match.review if forfeit is None else 0, seed, match.rules)
        seat_points = _points(game, forfeit)
        for seat, side in enumerate(order):
            points[side] += seat_points[seat]
        games.append(GameRecord(names, game.to_json(), seat_points, forfeit, dd, knew))
    first, second = games
    return DealRecord(dealt_to_json(DealtFile(dealt)), (first, second), (points["a"], points["b"])).to_json()


def _record(
    analyser: Analyser, item: tuple[Match, Dealt, int], players: Mapping[str, Bot] | None = None
) -> dict[str, object]:
    """The results file's line for one deal: its number, its digest, its record."""
    match, dealt, number = item
    record = play_deal(match, dealt, number, analyser, players)
    return {"line": number, "sha256": deal_digest(dealt), "report": record}


def play_chunk(items: list[tuple[Match, Dealt, int]], tt_mb: float) -> list[dict[str, object]]:
    """The lines of a chunk of deals, with this process's one analyser:
    what a Dask worker runs.  The chunk's bots are its own, closed at its
    end: a worker runs chunks in several threads at once, and outlives the
    match."""
    analyser = worker_analyser(tt_mb)
    with Players() as players:
        return [_record(analyser, item, players.of(item[0], analyser)) for item in items]


def deal_digest(dealt: Dealt) -> str:
    """The SHA-256 a record keeps of its deal."""
    return hashlib.sha256(json.dumps(dealt_to_json(DealtFile(dealt)), sort_keys=True).encode()).hexdigest()


def file_deals(text: str, source: str, rules: Rules = DEFAULT_RULES) -> list[Dealt]:
    """The deals as dealt of a file of deal lines (their bids, if any, are
    not used: the bots bid)."""
    deals = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            where = f"{source}: line {number}"
            deals.append(parse_dealt_file(parse_json(line.encode(), where), where, rules=rules).dealt)
    return deals


def _check_played(done: Mapping[Key, str | None], deals: Sequence[Dealt], match: Match, results: str) -> None:
    """Refuse to resume ``results`` when a deal it finished (by the digest
    its record keeps) is not the deal given now under its number: the file
    would mix two sets of deals, or when it finished a deal no longer given:
    its summary would count it."""
    given = "the realistic dealer" if match.source == "dealer" else source_name(match.source)
    beyond = [key for key in done if isinstance(key, int) and key > len(deals)]
    if beyond:
        raise ResultsError(
            f"{source_name(results)}: the results of deal {max(beyond)}, but {given} gives {len(deals)}:"
            " give at least as many deals, or another -o"
        )
    for number in sorted(key for key in done if isinstance(key, int)):
        digest = done[number]
        if digest is not None and deal_digest(deals[number - 1]) != digest:
            raise ResultsError(
                f"{source_name(results)}: the results of other deals (deal {number} of {given} is not"
                " the deal played there): give another -o"
            )


def deals_to_play(match: Match, deals: Sequence[Dealt], results: str) -> int:
    """How many of ``deals`` the ``results`` file of ``match`` has yet to
    play: the file opened as :func:`run_match` opens it (made with its
    header when there is none), so that a file that cannot be resumed is
    refused (:class:`ResultsError`) before anything is played."""
    with ResultsFile(results, "line", match) as file:
        _check_played(file.done, deals, match, results)
        return sum(number not in file.done for number in range(1, len(deals) + 1))


def run_match(
    match: Match,
    deals: Sequence[Dealt],
    results: str,
    *,
    jobs: int | None = None,
    dask: str | None = None,
    chunk: int = DEFAULT_CHUNK,
    tt_mb: float = DEFAULT_BUDGET_MB,
    progress: Callable[[int, int], None] | None = None,
    sprt: Hypotheses | None = None,
) -> list[dict[str, object]]:
    """Play every deal not yet in the ``results`` file (numbered from 1),
    on ``jobs`` processes here or on the Dask cluster at ``dask``
    (``chunk`` deals a task), writing each line as it finishes; the lines
    written now.  With ``sprt`` the deals feed its sequential test in
    their order, those of the file first, and the match stops as soon as
    the test decides (:func:`sequential_test` reads the same from the
    file): the deals in flight are finished and left out, the file keeps
    every line written, and the same call again plays nothing."""
    written: list[dict[str, object]] = []
    with ResultsFile(results, "line", match) as file, contextlib.ExitStack() as stack:
        _check_played(file.done, deals, match, results)
        test = None
        if sprt is not None:
            test = _InOrder(sprt, deal_records(read_results(results)))
            if test.test.state.accepted is not None:
                return written
        todo = [(match, dealt, number) for number, dealt in enumerate(deals, start=1) if number not in file.done]
        # With one job the bots play in this process: they stop at the end,
        # interrupted or not.  A worker's stop with it, however it ends
        # (their keeper: kosolve.play.protocol).
        stack.enter_context(PLAYERS)
        if dask is None:
            pool = stack.enter_context(WorkerPool(jobs, tt_mb, items=len(todo)))
            lines: Iterator[dict[str, object]] = (line for _, line in pool.imap_unordered(_record, todo))
        else:
            answers = stack.enter_context(cluster(dask, tt_mb, chunk, task=play_chunk))
            lines = answers(todo, len(todo))
        for done, line in enumerate(lines, start=1):
            file.write(line)
            written.append(line)
            if progress is not None:
                progress(done, len(todo))
            if test is not None:
                number = line["line"]
                assert isinstance(number, int)
                report = line["report"]
                assert isinstance(report, dict)
                if test.add(number, DealRecord.from_json(report).difference).accepted is not None:
                    # Leaving the pool cancels the deals not started and
                    # waits for those being played (the cluster's go with
                    # its client): their lines are not written.
                    break
    return written


@dataclass(frozen=True)
class Announced:
    """A bot's announcements of one kind over a match: how many it
    announced, and of those how many it made and how many failed, by the
    settlement (an announcement of a forfeited game is neither)."""

    announced: int = 0
    made: int = 0
    failed: int = 0

    def to_json(self) -> dict[str, int]:
        return {"announced": self.announced, "made": self.made, "failed": self.failed}


@dataclass(frozen=True)
class BotSummary:
    """One bot's figures over the deals of a match."""

    spec: str
    mean_points: float
    """Its mean game points per deal, both games counted."""
    wins: int
    """Deals on which it scored more than the other bot."""
    forfeits: int
    dd_accuracy: float | None
    knew_accuracy: float | None
    announcements: Mapping[str, Announced]
    """Its announcements by kind, every kind of
    :data:`~kosolve.model.announcements.ANNOUNCEMENTS` in its order."""
    kontras: int
    """The Kontras it said (on the other's announcements)."""
    kontras_paid: int
    """Those that paid off: the announcement failed, its doubled value
    went to this bot."""
    points: Mapping[str, int]
    """Its game points over the match by source (:data:`POINT_SOURCES`),
    net of what it paid, from each game's settlement items; their sum is
    :attr:`total`."""
    forfeit_reasons: Mapping[str, int] = field(default_factory=dict)
    """Why it forfeited: the games by reason, the commonest first (the
    results file has each game's reason)."""

    @property
    def total(self) -> int:
        """Its game points over the match: the sum of :attr:`points`."""
        return sum(self.points.values())

    def to_json(self) -> dict[str, object]:
        return {
            "bot": self.spec,
            "mean_points": round(self.mean_points, 4),
            "wins": self.wins,
            "forfeits": self.forfeits,
            "dd_accuracy": None if self.dd_accuracy is None else round(self.dd_accuracy, 4),
            "knew_accuracy": None if self.knew_accuracy is None else round(self.knew_accuracy, 4),
            "announcements": {kind: self.announcements[kind].to_json() for kind in ANNOUNCEMENTS},
            "kontras": {"said": self.kontras, "paid_off": self.kontras_paid},
            "points": {"total": self.total, **{source: self.points[source] for source in POINT_SOURCES}},
            "forfeit_reasons": dict(self.forfeit_reasons),
        }


@dataclass(frozen=True)
class MatchSummary:
    """A match's result: the deals, each bot's figures, and the difference."""

    deals: int
    a: BotSummary
    b: BotSummary
    mean_diff: float
    """A's mean game points per deal less B's."""
    ci95: tuple[float, float] | None
    draws: int
    sprt: SprtState | None = None
    """Where the sequential test asked of the match stands (None: none asked)."""

    def never_played(self, side: str) -> bool:
        """Whether the bot ``side`` (``"a"`` or ``"b"``) forfeited every game
        it got to play: it forfeited some, and each of the others the other
        bot forfeited first.  Such a bot never worked (it could not start,
        or broke at once), and the match says nothing of it."""
        mine, other = (self.a, self.b) if side == "a" else (self.b, self.a)
        return mine.forfeits > 0 and mine.forfeits + other.forfeits == 2 * self.deals

    def to_json(self) -> dict[str, object]:
        return {
            "format": SUMMARY_FORMAT,
            "deals": self.deals,
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "mean_diff": round(self.mean_diff, 4),
            "ci95": None if self.ci95 is None else [round(x, 4) for x in self.ci95],
            "draws": self.draws,
            **({} if self.sprt is None else {"sprt": self.sprt.to_json()}),
        }


class _Tally:
    """One bot's announcements, Kontras and game points by source, counted
    game by game."""

    def __init__(self) -> None:
        self.announced = {kind: [0, 0, 0] for kind in ANNOUNCEMENTS}
        self.kontras = [0, 0]
        self.points = dict.fromkeys(POINT_SOURCES, 0)

    def announcements(self) -> dict[str, Announced]:
        return {kind: Announced(*counts) for kind, counts in self.announced.items()}


def _source(name: str, announced: set[str]) -> str:
    """Which of :data:`POINT_SOURCES` a settlement item named ``name``
    scores for, in a game with those kinds ``announced``."""
    if name in ("game", "valat"):
        return "game"
    if name in HELD:
        return "held"
    return "announced" if name in announced else "silent"


def _count_game(game: GameRecord, tallies: tuple[_Tally, _Tally]) -> None:
    """Add one game's announcements, Kontras and settlement items to the
    tallies of its seats (the forehand's first)."""
    settled = game.game.get("settlement")
    items: list[Mapping[str, Any]] = list(settled) if isinstance(settled, list) else []
    if game.forfeit is not None:
        # A forfeit scores instead of the settlement, even of a game that
        # ended (a bot may forfeit taking in the last card).
        items = []
        for seat, tally in enumerate(tallies):
            tally.points["forfeit"] += game.points[seat]
    # Each kind is announced once a game at most, and settled by one item of its name.
    winner = {item["name"]: SEAT_NAMES.index(item["to"]) for item in items}
    announced: set[str] = set()
    said: Any = game.game.get("announcements") or ()
    for announcement in said:
        what, by = announcement["what"], SEAT_NAMES.index(announcement["by"])
        announced.add(what)
        counts = tallies[by].announced[what]
        counts[0] += 1
        if what in winner:
            counts[1 if winner[what] == by else 2] += 1
        if announcement.get("kontra"):
            kontra = tallies[1 - by].kontras
            kontra[0] += 1
            kontra[1] += winner.get(what) == 1 - by
    for item in items:
        source = _source(item["name"], announced)
        to = SEAT_NAMES.index(item["to"])
        for seat, tally in enumerate(tallies):
            tally.points[source] += item["points"] if seat == to else -item["points"]


def summarise(records: Sequence[Mapping[str, Any]], match: Match, sprt: Hypotheses | None = None) -> MatchSummary:
    """The summary of a match's records (a results file's, in any order),
    with where the sequential test of ``sprt`` stands on them when asked."""
    by_number = deal_records(records)
    deals = list(by_number.values())
    points: dict[str, list[int]] = {side: [] for side in SIDES}
    counts: dict[tuple[str, str], list[list[int]]] = {(side, key): [] for side in SIDES for key in ("dd", "knew")}
    forfeits: dict[str, Counter[str]] = {side: Counter() for side in SIDES}
    tallies = {side: _Tally() for side in SIDES}
    for deal in deals:
        for side, scored in zip(SIDES, deal.points, strict=True):
            points[side].append(scored)
        for order, game in zip((SIDES, SIDES[::-1]), deal.games, strict=True):
            if game.forfeit is not None:
                forfeits[order[game.forfeit.seat]][game.forfeit.reason] += 1
            _count_game(game, (tallies[order[0]], tallies[order[1]]))
            for key, judged in (("dd", game.dd), ("knew", game.knew)):
                if judged:
                    for seat, side in zip(SEAT_NAMES, order, strict=True):
                        counts[(side, key)].append(judged[seat])
    diffs = [deal.difference for deal in deals]
    n = len(diffs)
    difference = estimate(diffs, exact=False) if n else None
    wins = {"a": sum(d > 0 for d in diffs), "b": sum(d < 0 for d in diffs)}

    def bot(side: str) -> BotSummary:
        tally = tallies[side]
        return BotSummary(
            match.spec(side),
            math.fsum(points[side]) / n if n else 0.0,
            wins[side],
            forfeits[side].total(),
            accuracy(counts[(side, "dd")]),
            accuracy(counts[(side, "knew")]),
            tally.announcements(),
            tally.kontras[0],
            tally.kontras[1],
            dict(tally.points),
            dict(forfeits[side].most_common()),
        )

    mean = 0.0 if difference is None else difference.mean
    ci95 = None if difference is None else difference.ci95
    test = None if sprt is None else _InOrder(sprt, by_number).test.state
    return MatchSummary(n, bot("a"), bot("b"), mean, ci95, diffs.count(0), test)


__all__ = [
    "FORFEIT_POINTS",
    "PLAYERS",
    "POINT_SOURCES",
    "SUMMARY_FORMAT",
    "Announced",
    "BotSummary",
    "DealRecord",
    "Forfeited",
    "GameRecord",
    "Match",
    "MatchSummary",
    "Players",
    "deal_records",
    "dealer_deal",
    "deals_to_play",
    "file_deals",
    "play_chunk",
    "play_deal",
    "play_game",
    "run_match",
    "sequential_test",
    "summarise",
]
