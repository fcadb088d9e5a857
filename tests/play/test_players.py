"""Asking a bot: one place shows the game to the omniscient bot alone,
checks the choice (the game's check, a forfeit in the bot's words) and
records the move; the arena's bots are owned by :class:`Players`, which
makes them with the caller's analyser and closes them; a deal's record
reads back as the typed record it was written from; a protocol bot is
told the rules at a game's start, and decides and is told the defender's
announcements and the Kontras (docs/protocol.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from kosolve.analysis.report import Analyser
from kosolve.model.game import DEFAULT_RULES, SEATS, Rules
from kosolve.play.arena import DealRecord, Match, Players, dealer_deal, play_deal, play_game
from kosolve.play.bots import DoubleDummyBot, PimcBot, RandomBot, make_bot
from kosolve.play.game import ChoiceError, Decision, Game, GameError
from kosolve.play.player import Bot, Forfeit, ask
from kosolve.play.protocol import ExecBot, rules_json


class Fixed(Bot):
    """Takes option ``choice`` whatever the decision, and keeps what it was shown."""

    def __init__(self, choice: int) -> None:
        self.choice = choice
        self.shown: list[Game | None] = []
        self.closed = False

    def decide(self, decision: Decision, game: Game | None = None) -> int:
        self.shown.append(game)
        return self.choice

    def close(self) -> None:
        self.closed = True


class Sees(Fixed):
    omniscient = True


@pytest.mark.parametrize("kind", [Fixed, Sees])
def test_ask_records_the_move_and_shows_the_game_to_the_omniscient_bot_alone(kind: type[Fixed]) -> None:
    game = Game(dealer_deal(1, 1))
    bot = kind(0)
    move = ask(bot, game.decision(), game)
    assert game.moves == [move] and move.choice == 0
    assert bot.shown == [game if kind is Sees else None]


def test_a_choice_out_of_range_is_the_game_s_error_and_the_bot_s_forfeit() -> None:
    game = Game(dealer_deal(1, 1))
    options = len(game.decision().options)
    with pytest.raises(ChoiceError) as error:
        game.choose(options)
    assert isinstance(error.value, GameError) and (error.value.choice, error.value.options) == (options, options)
    with pytest.raises(Forfeit, match=f"^choice {options} of {options} options$"):
        ask(Fixed(options), game.decision(), game)
    assert game.moves == []


def test_players_make_the_bots_once_with_the_callers_analyser_and_close_them() -> None:
    analyser = Analyser(tt_mb=4)
    match = Match("pimc:samples=2,auction=1", "dd")
    with Players() as players:
        bots = players.of(match, analyser)
        assert players.of(match, analyser) is bots
        assert isinstance(bots["a"], PimcBot) and isinstance(bots["b"], DoubleDummyBot)
        assert bots["a"].analyser is analyser and bots["b"].analyser is analyser
        other = players.of(Match("random", "dd"), analyser)
        assert other is not bots and other["b"] is not bots["b"]
        kept = Fixed(0)
        other["a"] = kept
    assert kept.closed


def test_a_deal_s_record_reads_back_as_the_record_it_was_written_from() -> None:
    data = play_deal(Match("heuristic", "random", seed=4), dealer_deal(4, 2), 2)
    record = DealRecord.from_json(data)
    assert record.to_json() == data
    assert [game.bots for game in record.games] == [("heuristic", "random"), ("random", "heuristic")]
    first, second = record.games
    assert record.points == (first.points[0] + second.points[1], first.points[1] + second.points[0])


RECORDING_BOT = """\
import json, random, sys
rng = random.Random(0)
with open(sys.argv[1], "a") as told:
    for line in sys.stdin:
        told.write(line)
        told.flush()
        message = json.loads(line)
        if message.get("notice") == "start":
            rng = random.Random(message["seed"])
        elif "legal" in message:
            print(json.dumps({"choice": rng.randrange(len(message["legal"]))}), flush=True)
"""
"""A protocol bot that plays at random and keeps every line it is told."""


def told_lines(tmp_path: Path, rules: Rules | None, deals: int) -> list[dict[str, Any]]:
    """Every line a recording protocol bot made with ``rules`` is told over
    ``deals`` deals, in both seats, against the random bot, the games
    played under ``rules`` (the defaults when None)."""
    program, record = tmp_path / "bot.py", tmp_path / "told.jsonl"
    program.write_text(RECORDING_BOT)
    command = f"{sys.executable} {program} {record}"
    # With rules, made as the arena makes it, so that it is told the match's.
    bot = ExecBot(command) if rules is None else make_bot(f"exec:{command}", rules)
    try:
        for deal in range(deals):
            for seat in SEATS:
                bots = (bot, RandomBot()) if seat == 0 else (RandomBot(), bot)
                play_game(dealer_deal(7, deal), bots, ("exec", "random"), 100 * deal + seat, rules or DEFAULT_RULES)
    finally:
        bot.close()
    return [json.loads(line) for line in record.read_text().splitlines()]


def test_the_start_notice_tells_the_rules_and_kontra_is_a_decision_and_a_notice(tmp_path: Path) -> None:
    """Under the defender's announcements and Kontra a protocol bot is told
    the rules at each start, decides ``kontra`` (``done``, then the other's
    announcements of the round it may double) and the defender's
    announcements, and is told the other's announcements and Kontras."""
    rules = Rules(defender_announcements=True, kontra=True)
    lines = told_lines(tmp_path, rules, 6)
    starts = [line for line in lines if line.get("notice") == "start"]
    assert len(starts) == 12 and all(line["rules"] == rules_json(rules) for line in starts)
    assert rules_json(rules) == {
        "win_thirds": 107,
        "silent_bird_penalty": False,
        "defender_announcements": True,
        "kontra": True,
        "discard": "classic",
    }
    kontras = [line for line in lines if line.get("decision") == "kontra" and "legal" in line]
    assert kontras
    for line in kontras:
        mine = line["seat"]
        doubled = line["legal"][1:]
        by_other = {a["what"] for a in line["view"]["announcements"] if a["by"] != mine and not a.get("kontra")}
        assert line["legal"][0] == "done" and doubled and set(doubled) <= by_other
    defender = [
        line
        for line in lines
        if line.get("decision") == "announce" and "legal" in line and line["view"]["declarer"] != line["seat"]
    ]
    birds_and_valat = {"pagat", "uhu", "pelikan", "quapil", "valat"}
    assert defender and all(set(line["legal"][1:]) <= birds_and_valat for line in defender)
    told = [line for line in lines if line.get("notice") == "move" and line["decision"] in ("announce", "kontra")]
    assert {line["decision"] for line in told} == {"announce", "kontra"}
    assert all({"choice", "option"} <= set(line) for line in told)


def test_a_bot_made_without_rules_is_told_none(tmp_path: Path) -> None:
    """Backward compatible: the start notice of a bot made without rules is
    as before, and a default game asks no ``kontra``."""
    lines = told_lines(tmp_path, None, 1)
    starts = [line for line in lines if line.get("notice") == "start"]
    assert starts and all(set(line) == {"notice", "seat", "seed"} for line in starts)
    assert not [line for line in lines if line.get("decision") == "kontra"]
