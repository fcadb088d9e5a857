"""Game records as the review reads them: a game of an arena results file
(docs/arena.md: its header records the match and its rules, then one
record a deal, each with both games) turned into the deal as dealt it
was played from, with its bid, exchange, announcements and play (a
:class:`~kosolve.model.dealt_file.DealtFile`), which
:func:`~kosolve.review.judging.review` judges with ``before_play``.

A game record is :meth:`kosolve.play.game.Game.to_json`'s object (as the
arena keeps it, :class:`kosolve.play.arena.GameRecord`): ``contract``,
``declarer``, ``take``, ``lay_away``, ``announcements`` (with their
Kontras) and ``play``; the deal as dealt is the record's ``deal``.  The
file is read as it is written, every card and announcement checked by the
deal file's reader; a game both passed, a forfeited or unfinished one, or
one whose settlement is not the one its cards and announcements give
under the header's rules, is refused: a :class:`RecordError`, one line
naming the file, the deal and the field.

>>> import random
>>> from kosolve.dealing import deal_as_dealt
>>> from kosolve.model.dealt_file import DealtFile, dealt_to_json
>>> deal = dealt_to_json(DealtFile(deal_as_dealt(random.Random(3))))
>>> game_file(deal, {"contract": None, "declarer": None, "forfeit": None}, "m.jsonl: deal 1", "report.games[0]")
Traceback (most recent call last):
...
kosolve.review.records.RecordError: m.jsonl: deal 1: report.games[0].contract: both passed: nothing was played to review
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from typing import Any, Final

from kosolve.analysis.scoring import settle
from kosolve.model.dealt_file import DealtFile, parse_dealt_file
from kosolve.model.game import DEFAULT_RULES, OptionError, Rules, RulesError
from kosolve.model.jsonfile import FileError
from kosolve.model.quoting import describe, source_name
from kosolve.model.reprs import counted

ARENA_KIND: Final = "arena"
"""The ``kind`` of an arena results file's question (its header)."""
GAMES: Final = 2
"""The games of a deal's record: A the forehand first, then the seats swapped."""
_MARK: Final = "record"
"""The source the deal file's reader is given, to be replaced by the record's field."""
_EXCHANGE: Final = "exchange"
"""The deal file's object of ``take`` and ``lay_away``, which a game record holds at its top."""


class RecordError(FileError):
    """A game record that cannot be reviewed: one line naming the file, the
    record and the field."""


class RecordChoiceError(OptionError):
    """A choice of game that the file does not hold (``deal``, ``game``):
    the option as given at fault, or the one to give."""


def _rebased(error: FileError, source: str, prefix: str) -> RecordError:
    """The deal file reader's ``error`` (read from :data:`_MARK`) at the
    record's field: ``prefix`` before the field, the game record's names."""
    text = str(error).removeprefix(f"{_MARK}: ")
    field, colon, message = text.partition(": ")
    if not colon or " " in field:
        field, message = "", text
    if field == _EXCHANGE:
        field = "take"
    field = field.removeprefix(f"{_EXCHANGE}.")
    where = ".".join(part for part in (prefix, field) if part)
    return RecordError(f"{source}: {where}: {message}" if where else f"{source}: {message}")


def _member(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def game_file(
    deal: object, game: object, source: str, field: str = "", deal_field: str = "deal", rules: Rules = DEFAULT_RULES
) -> DealtFile:
    """The deal as dealt ``deal`` (its JSON) with game record ``game``'s
    bid, exchange, announcements and play, checked by ``rules``; a game
    both passed, forfeited, unfinished or not settled as its record says
    raises :class:`RecordError`, naming ``source`` and the game's fields
    under ``field`` (the deal's under ``deal_field``)."""
    if not isinstance(deal, Mapping):
        raise RecordError(f"{source}: {deal_field}: expected a deal as dealt, got {describe(deal)}")
    try:
        parse_dealt_file(deal, _MARK, rules=rules)
    except FileError as error:
        raise _rebased(error, source, deal_field) from None
    if not isinstance(game, Mapping):
        where = f"{field}: " if field else ""
        raise RecordError(f"{source}: {where}expected a game record (an object), got {describe(game)}")
    forfeit = game.get("forfeit")
    if forfeit is not None:
        seat = forfeit.get("seat") if isinstance(forfeit, Mapping) else None
        who = f"the {seat}" if isinstance(seat, str) else "a bot"
        raise RecordError(f"{source}: {_member(field, 'forfeit')}: {who} forfeited the game: its play stopped short")
    for key in ("contract", "declarer"):
        if key not in game:
            raise RecordError(f"{source}: {_member(field, key)}: required key missing")
    if game["contract"] is None or game["declarer"] is None:
        key = "contract" if game["contract"] is None else "declarer"
        raise RecordError(f"{source}: {_member(field, key)}: both passed: nothing was played to review")
    solo = game["contract"] == "solo"
    data: dict[str, object] = {**deal, "contract": game["contract"], "declarer": game["declarer"]}
    exchange: dict[str, object] = {}
    for key in ("take", "lay_away"):
        value = game.get(key)
        # A Solo takes nothing: its record says null.
        exchange[key] = [] if value is None and solo else value
    data["exchange"] = exchange
    for key in ("announcements", "play"):
        if key in game:
            data[key] = game[key]
    try:
        file = parse_dealt_file(data, _MARK, rules=rules)
    except FileError as error:
        raise _rebased(error, source, field) from None
    played = file.play_deal()
    cards = sum(hand.bit_count() for hand in played.hands)
    if len(file.play) != cards:
        raise RecordError(
            f"{source}: {_member(field, 'play')}: {counted(len(file.play), 'card')}: the game did not end (a whole game"
            f" plays {cards})"
        )
    settled = [item.to_json() for item in settle(played, rules).items]
    if game.get("settlement") is not None and game["settlement"] != settled:
        raise RecordError(
            f"{source}: {_member(field, 'settlement')}: not what the game's cards and announcements settle to under"
            " the match's rules (a record changed since, or other rules)"
        )
    return replace(file, source=source)


def rules_of(question: object, source: str) -> Rules:
    """The rules an arena results file's ``question`` (its header) records:
    every rule option it names (one this kosolve does not know left out,
    as a resumed match reads it), the others at their defaults."""
    if not isinstance(question, Mapping) or question.get("kind") != ARENA_KIND:
        raise RecordError(f"{source}: question.kind: not the results of a kosolve arena match")
    recorded = question.get("rules", {})
    if not isinstance(recorded, Mapping):
        raise RecordError(f"{source}: question.rules: expected an object, got {describe(recorded)}")
    given: dict[str, Any] = {}
    for option in fields(Rules):
        if option.name not in recorded:
            continue
        value, default = recorded[option.name], getattr(DEFAULT_RULES, option.name)
        if type(value) is not type(default):
            raise RecordError(
                f"{source}: question.rules.{option.name}: expected {type(default).__name__}, got {describe(value)}"
            )
        given[option.name] = value
    try:
        return Rules(**given)
    except RulesError as error:
        raise RecordError(f"{source}: question.rules.{error.option}: {error.message}") from None


def arena_game(
    question: object, records: Sequence[Mapping[str, object]], name: str, deal: int | None, game: int | None
) -> tuple[DealtFile, Rules, int]:
    """Game ``game`` (1: A the forehand, 2: the seats swapped) of deal
    ``deal`` (its number in the match, from 1; None: the file's only deal)
    of the arena results file ``name``, whose header's question is
    ``question`` and records ``records`` (``kosolve.batch.results.read_results``),
    as a deal as dealt, with the rules the match was played by and the
    deal's number.  A choice
    the file does not hold raises :class:`RecordChoiceError` (its message
    without the file's name), a record that
    cannot be reviewed :class:`RecordError`."""
    shown = source_name(name)
    rules = rules_of(question, shown)
    numbers = sorted(n for r in records if isinstance(n := r.get("line"), int))
    if deal is None:
        if len(numbers) != 1:
            held = "no deal" if not numbers else f"{counted(len(numbers), 'deal')} ({numbers[0]} to {numbers[-1]})"
            raise RecordChoiceError(f"it holds {held}: choose one", "deal")
        deal = numbers[0]
    found = [r for r in records if r.get("line") == deal]
    if not found:
        held = f"deals {numbers[0]} to {numbers[-1]}" if numbers else "no deal"
        raise RecordChoiceError(f"no deal {deal} in the file (it holds {held})", "deal", given=True)
    assert isinstance(question, Mapping), "rules_of checked it"
    bots = f"1: A ({question.get('a')}) the forehand, 2: B ({question.get('b')}) the forehand"
    if game is None:
        raise RecordChoiceError(f"each deal was played twice: choose its game ({bots})", "game")
    if not 1 <= game <= GAMES:
        raise RecordChoiceError(f"{game} is not a game of a deal ({bots})", "game", True)
    source = f"{shown}: deal {deal}"
    report = found[0].get("report")
    if not isinstance(report, Mapping):
        raise RecordError(f"{source}: report: expected a deal's record, got {describe(report)}")
    games = report.get("games")
    if not isinstance(games, list) or len(games) != GAMES:
        raise RecordError(f"{source}: report.games: expected the deal's {GAMES} games, got {describe(games)}")
    file = game_file(report.get("deal"), games[game - 1], source, f"report.games[{game - 1}]", "report.deal", rules)
    return file, rules, deal


__all__ = ["ARENA_KIND", "GAMES", "RecordChoiceError", "RecordError", "arena_game", "game_file", "rules_of"]
