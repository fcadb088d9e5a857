"""Asking a bot: one place shows the game to the omniscient bot alone,
checks the choice (the game's check, a forfeit in the bot's words) and
records the move; the arena's bots are owned by :class:`Players`, which
makes them with the caller's analyser and closes them; a deal's record
reads back as the typed record it was written from."""

from __future__ import annotations

import pytest

from kosolve.analysis.report import Analyser
from kosolve.play.arena import DealRecord, Match, Players, dealer_deal, play_deal
from kosolve.play.bots import DoubleDummyBot, PimcBot
from kosolve.play.game import ChoiceError, Decision, Game, GameError
from kosolve.play.player import Bot, Forfeit, ask


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
