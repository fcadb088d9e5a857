"""A results file as flat rows, one a deal (docs/statistics.md): what
``kosolve stats`` groups and counts, and what :func:`kosolve.stats.frame`
makes a DataFrame of.

The file's header says what kind of results it holds (``analyse``,
``exchange``, ``odds``, ``review``: a batch's question; ``arena``: a
match), and each kind has its columns, each a plain value: a number, yes
or no (a bool), a word, or None where a record does not say.  With the
deals file the batch read (``--deals``), each row also gets each seat's
cards as the condition language of ``kosolve deal --where`` reads them
(:class:`~kosolve.dealing.where.Facts`): ``declarer.tarocks``,
``forehand.kings``, ``defender.points``, ...  Each record's SHA-256 is
checked against its deal's line, so that the results of other deals are
refused, not joined.

>>> report = {"contract": "solo", "declarer": "dealer", "to_move": "forehand", "value": {"thirds": 120, "points": 40},
...           "result": "won", "feasible": {"dealer": {"valat": False}, "forehand": {"pagat": True}}}
>>> row = analyse_row(report)
>>> row["points"], row["won"], row["makeable.declarer.valat"], row["makeable.defender.pagat"]
(40, True, False, True)
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from kosolve.batch.results import HEADER, ResultsError, iter_results
from kosolve.dealing.where import ATTRIBUTES, MEASURES, SEATS_BY_NAME, Condition, Facts, WhereError
from kosolve.model.cards import CARD_NAMES
from kosolve.model.deal import Deal
from kosolve.model.dealt_file import DealtFile
from kosolve.model.files import parse_file
from kosolve.model.game import CONTRACTS, DEFAULT_RULES, SEAT_NAMES, Rules
from kosolve.model.jsonfile import FileError, parse_json
from kosolve.model.quoting import source_name
from kosolve.play.arena import SIDES, DealRecord

Value = bool | int | float | str | None
"""One cell: a number, yes or no, a word, or None where the record does not say."""
Row = dict[str, Value]

KINDS: Final = ("analyse", "exchange", "odds", "review", "arena")
"""The kinds of results file: a batch's question, or an arena's match."""
ROLES: Final = ("declarer", "defender")
FACT_SEATS: Final = tuple(SEATS_BY_NAME)
"""The seats whose cards become columns, as the condition language names them."""


class StatsError(ValueError):
    """A results file, deals file or column that cannot be counted: one
    line naming the file (and line) or the column."""


FACTS: Final = tuple(attribute for attribute in ATTRIBUTES if attribute != "hand")
"""The attributes of a seat that become columns: every one of the condition
language but ``hand`` (16 cards are no value to group by; ``--where`` asks
for a card in it)."""


FACT_COLUMNS: Final = {seat: tuple((f"{seat}.{name}", name) for name in FACTS) for seat in FACT_SEATS}


def fact_columns(facts: Facts, wanted: set[str] | None = None) -> Row:
    """The deal's facts as columns: ``SEAT.ATTRIBUTE`` for each seat of
    :data:`FACT_SEATS` and attribute of :data:`FACTS` (only the columns
    ``wanted``, when given)."""
    return {
        column: MEASURES[name](facts.hands[seat_of(facts)])
        for seat_name, seat_of in SEATS_BY_NAME.items()
        for column, name in FACT_COLUMNS[seat_name]
        if wanted is None or column in wanted
    }


def _get(data: object, *path: str) -> Any:
    """``data[path[0]][path[1]]...``, or None where a step is missing."""
    for key in path:
        if not isinstance(data, Mapping):
            return None
        data = data.get(key)
    return data


def _plain(value: object) -> Value:
    """A JSON value as a cell: lists and objects are no cell."""
    return value if value is None or isinstance(value, (bool, int, float, str)) else None


def _won(result: object) -> bool | None:
    return None if result not in ("won", "lost") else result == "won"


@cache
def _makeable(who: str, goal: str) -> str:
    """The column of whether ``who`` can force ``goal``: made once, asked of every row."""
    return f"makeable.{who}.{goal}"


def analyse_row(report: Mapping[str, Any]) -> Row:
    """The columns of a deal solved (``kosolve batch``'s default question)."""
    declarer = report.get("declarer")
    row: Row = {
        "contract": _plain(report.get("contract")),
        "declarer": _plain(declarer),
        "to_move": _plain(report.get("to_move")),
        "thirds": _plain(_get(report, "value", "thirds")),
        "points": _plain(_get(report, "value", "points")),
        "won": _won(report.get("result")),
    }
    if "net_score" in report:
        row["net_score"] = _plain(_get(report, "net_score", "score"))
    if "settlement" in report and isinstance(declarer, str):
        row["game_points"] = _plain(_get(report, "settlement", "totals", declarer))
    feasible = report.get("feasible")
    if isinstance(feasible, Mapping):
        # The declarer's goals first, whichever seat he is.
        for seat, goals in sorted(feasible.items(), key=lambda item: item[0] != declarer):
            role = ROLES[0] if seat == declarer else ROLES[1]
            if isinstance(goals, Mapping):
                for goal, makeable in goals.items():
                    row[_makeable(role, goal)] = makeable if isinstance(makeable, bool) else None
    row["ms"] = _plain(_get(report, "stats", "ms"))
    return row


def exchange_row(report: Mapping[str, Any]) -> Row:
    """The columns of an exchange table (``--exchange``): the declared bid's and the par's."""
    declared = report.get("declared")
    row: Row = {name: _plain(_get(declared, name)) for name in ("contract", "declarer", "thirds", "points")}
    row["won"] = _won(_get(declared, "result"))
    for name in ("valat", "game_points", "exchange_cost", "bid_cost"):
        row[name] = _plain(_get(declared, name))
    for name in ("contract", "declarer", "game_points", "forehand_score"):
        row[f"par.{name}"] = _plain(_get(report, "par", name))
    return row


def odds_row(report: Mapping[str, Any]) -> Row:
    """The columns of the odds of a seat view (``--odds``): its figures, and
    the share of the worlds in which each seat can force each goal."""
    row: Row = {
        name: _plain(report.get(name))
        for name in ("view", "to_move", "worlds", "samples", "exact", "mean_thirds", "mean_points", "p_win")
    }
    feasible = report.get("feasible")
    if isinstance(feasible, Mapping):
        for seat, goals in feasible.items():
            if isinstance(goals, Mapping):
                for goal, share in goals.items():
                    row[_makeable(seat, goal)] = _plain(share)
    return row


def review_row(report: Mapping[str, Any]) -> Row:
    """The columns of a played hand reviewed (``--review``): each seat's accuracies and losses."""
    row: Row = {"by": _plain(report.get("by"))}
    for seat in SEAT_NAMES:
        player = _get(report, "players", seat)
        for name in ("judged", "mistake", "knew_accuracy", "dd_accuracy"):
            row[f"{seat}.{name}"] = _plain(_get(player, name))
        for name in ("knew_loss", "dd_loss"):
            unit = "net" if report.get("by") == "net" else "thirds"
            row[f"{seat}.{name}"] = _plain(_get(player, f"{name}_{unit}"))
    return row


def arena_row(report: Mapping[str, Any]) -> Row:
    """The columns of a deal of a match: each bot's game points over the
    deal's two games, their difference, and who declared what in each."""
    record = DealRecord.from_json(report)
    row: Row = {"a.points": record.points[0], "b.points": record.points[1], "difference": record.difference}
    row["a.won"] = record.difference > 0
    row["drawn"] = record.difference == 0
    for number, (game, order) in enumerate(zip(record.games, (SIDES, SIDES[::-1]), strict=True), start=1):
        declarer = game.game.get("declarer")
        # Game 1 has A as the forehand, game 2 B: the seat says which bot declared.
        row[f"game{number}.contract"] = _plain(game.game.get("contract"))
        row[f"game{number}.declarer"] = order[SEAT_NAMES.index(declarer)] if declarer in SEAT_NAMES else None
        row[f"game{number}.forfeit"] = game.forfeit is not None
    return row


ROWS: Final[dict[str, Callable[[Mapping[str, Any]], Row]]] = {
    "analyse": analyse_row,
    "exchange": exchange_row,
    "odds": odds_row,
    "review": review_row,
    "arena": arena_row,
}
"""A row of each kind of results file, from a record's report."""


@dataclass(frozen=True)
class Rows:
    """A results file's rows: its ``kind`` (:data:`KINDS`), a row a deal
    answered (``columns`` in order, every row has each), the error records
    left out (``failed``) and the deals file joined, if any."""

    source: str
    kind: str
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    failed: int = 0
    deals: str | None = None
    question: Mapping[str, Any] | None = None
    """The header's question: the batch's, or the arena's match (its bots ``a`` and ``b``)."""


def _kind_of(report: Mapping[str, Any]) -> str:
    """The kind of a file of an older kosolve (no header), by its first report's keys."""
    for key, kind in (("games", "arena"), ("exchange_table", "exchange"), ("worlds", "odds"), ("cards", "review")):
        if key in report:
            return kind
    return "analyse"


def _results(path: str) -> Iterator[dict[str, Any]]:
    """The lines of the results file at ``path`` as they are read
    (:func:`~kosolve.batch.results.iter_results`: its refusals, none kept),
    its refusals as :class:`StatsError`."""
    try:
        yield from iter_results(path)
    except ResultsError as error:
        raise StatsError(str(error)) from None


def read_rows(
    path: str | os.PathLike[str],
    deals: str | os.PathLike[str] | None = None,
    where: str | None = None,
    facts: Iterable[str] | None = None,
) -> Rows:
    """The rows of the results file at ``path`` (of ``kosolve batch`` or
    ``kosolve arena``) in the order of the deals, with each seat's cards
    from the ``deals`` the batch read (a file of deal lines, or the folder
    of deal files), kept where they meet the condition ``where`` (the
    language of ``kosolve deal --where``, which needs ``deals``); of those
    cards, only the columns named in ``facts`` when given (each costs
    time on a large file).  :class:`StatsError` for anything that cannot
    be read or joined."""
    path = os.fspath(path)
    deals = None if deals is None else os.fspath(deals)
    shown = source_name(path)
    condition = _condition(where, deals)
    question: Mapping[str, Any] | None = None
    kind: str | None = None
    rows: list[Row] = []
    digests: dict[object, object] = {}
    failed = 0
    keys = set()
    for number, value in enumerate(_results(path), start=1):
        if HEADER in value:
            question = value["question"] if isinstance(value.get("question"), Mapping) else {}
            kind = question.get("kind")
            if kind not in KINDS:
                raise StatsError(f"{shown}: question.kind: {json.dumps(kind)}, which kosolve stats does not know")
            continue
        # The results file vouched for it: a line's number, or a folder's file name.
        key = "line" if isinstance(value.get("line"), int) else "file"
        keys.add(key)
        report = value.get("report")
        if not isinstance(report, Mapping):
            failed += 1
            continue
        kind = kind or _kind_of(report)
        digests[value[key]] = value.get("sha256")
        try:
            rows.append({key: value[key], **ROWS[kind](report)})
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise StatsError(f"{shown}: line {number}: not a record of {kind} results ({error!r})") from None
    if len(keys) > 1:
        raise StatsError(f"{shown}: results of lines and of files mixed")
    if not rows or kind is None:
        raise StatsError(f"{shown}: no deal answered in it: nothing to count")
    if deals is not None:
        if kind == "arena":
            raise StatsError(f"--deals: {shown} is an arena's: its records hold their deals, and each game its own bid")
        wanted = None if facts is None else set(facts)
        rows = _joined(rows, digests, deals, shown, _rules(question), condition, wanted)
        if not rows:
            # Not "no such column" later: the columns are there, the deals are not.
            raise StatsError(f"--where {where}: no deal of {shown} meets it: nothing to count")
    # A batch writes its records as they finish: the rows go in the deals' order.
    rows.sort(key=_deal_key)
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    if any(len(row) != len(columns) for row in rows):
        rows = [{column: row.get(column) for column in columns} for row in rows]
    return Rows(path, kind, tuple(columns), tuple(rows), failed, deals, question)


def _deal_key(row: Row) -> tuple[int, str]:
    key = row.get("line", row.get("file"))
    return (key, "") if isinstance(key, int) else (0, str(key))


def _condition(where: str | None, deals: str | None) -> Condition | None:
    if where is None:
        return None
    if deals is None:
        raise StatsError("--where reads each seat's cards: give the deals file the batch read with --deals")
    try:
        return Condition(where)
    except WhereError as error:
        raise StatsError(f"--where: {error}") from None


def _rules(question: Mapping[str, Any] | None) -> Rules:
    """The rules the batch read its deals by: a deal as dealt's discards are judged by its discard variant."""
    discard = _get(question, "options", "rules", "discard")
    return Rules(discard=discard) if isinstance(discard, str) else DEFAULT_RULES


def _deal_bytes(deals: str, key: object, shown: str) -> Iterator[tuple[object, bytes]]:
    """``(key, bytes)`` of each deal of ``deals`` that a record of ``key``'s kind may name."""
    if isinstance(key, str):
        if not os.path.isdir(deals):
            raise StatsError(f"--deals: {shown} holds the results of a folder of deal files: give that folder")
        for name in sorted(os.listdir(deals)):
            if name.endswith(".json"):
                with open(os.path.join(deals, name), "rb") as file:
                    yield name, file.read()
        return
    with open(deals, "rb") as file:
        for number, line in enumerate(file, start=1):
            yield number, line.removesuffix(b"\n").removesuffix(b"\r")


def _joined(
    rows: list[Row],
    digests: Mapping[object, object],
    deals: str,
    shown: str,
    rules: Rules,
    condition: Condition | None,
    wanted: set[str] | None,
) -> list[Row]:
    """``rows`` with each deal's facts from ``deals`` (those ``wanted``,
    all for None), kept where they meet ``condition``; ``digests`` holds
    the SHA-256 each row's record gives its deal."""
    named = source_name(deals)
    found: dict[object, tuple[Row, Facts]] = {}
    try:
        for key, data in _deal_bytes(deals, next(iter(digests)), shown):
            if key not in digests:
                continue
            where = f"line {key} of {named}" if isinstance(key, int) else f"{named}/{key}"
            if digests[key] != hashlib.sha256(data).hexdigest():
                raise StatsError(
                    f"{shown}: {where} is not the deal answered there (its SHA-256 differs):"
                    " give the deals the batch read"
                )
            facts = _facts_of(data, where, rules)
            found[key] = fact_columns(facts, wanted), facts
    except OSError as error:
        raise StatsError(f"--deals: {named}: {error.strerror}") from None
    missing = [key for key in digests if key not in found]
    if missing:
        raise StatsError(
            f"{shown}: answers deal {missing[0]}, which {named} does not have: give the deals the batch read"
        )
    kept = []
    for row in rows:
        columns, facts = found[row.get("line", row.get("file"))]
        if condition is None or condition.holds(facts):
            row.update(columns)
            kept.append(row)
    return kept


BITS: Final = {name: 1 << card for card, name in enumerate(CARD_NAMES)}
"""Each card's bit by its canonical name, as kosolve deal writes them."""


def _whole_game(data: object) -> Facts | None:
    """The facts of a play file of a whole game written as kosolve deal
    writes one (canonical names, 16 cards each); None for any other file.
    The record's digest says the batch read and answered these very
    bytes, so they need no second check: the model's reader, which checks
    every rule of a deal file, costs several times as much on a large
    file, and reads the others."""
    if not isinstance(data, dict) or "dealt" in data or "view" in data:
        return None
    hands, declarer, contract = data.get("hands"), data.get("declarer"), data.get("contract")
    if not isinstance(hands, dict) or declarer not in SEAT_NAMES or contract not in CONTRACTS:
        return None
    masks = []
    for seat in SEAT_NAMES:
        cards = hands.get(seat)
        if not isinstance(cards, list) or len(cards) != 16:
            return None
        mask = 0
        try:
            for card in cards:
                mask |= BITS[card]
        except (KeyError, TypeError):
            return None
        masks.append(mask)
    return Facts((masks[0], masks[1]), SEAT_NAMES.index(declarer), contract, None)


def _facts_of(data: bytes, where: str, rules: Rules) -> Facts:
    """The facts of the deal file of ``data`` (a whole game, or a deal as dealt with its bid)."""
    try:
        facts = _whole_game(json.loads(data))
    except ValueError:
        facts = None
    if facts is not None:
        return facts
    try:
        file = parse_file(parse_json(data, where), where, rules=rules)
    except (FileError, ValueError) as error:
        raise StatsError(f"--deals: {error}") from None
    try:
        if isinstance(file, DealtFile) and file.declarer is not None and file.contract is not None:
            return Facts.of(file)
        if isinstance(file, Deal):
            return Facts.of_deal(file)
        raise ValueError("a deal as dealt without its bid, or a seat view: whose cards are whose is not known")
    except ValueError as error:
        raise StatsError(f"--deals: {where}: {error}") from None


__all__ = [
    "FACTS",
    "FACT_SEATS",
    "KINDS",
    "ROWS",
    "Row",
    "Rows",
    "StatsError",
    "Value",
    "analyse_row",
    "arena_row",
    "exchange_row",
    "fact_columns",
    "odds_row",
    "read_rows",
    "review_row",
]
