"""What a game against kosolve (``POST /api/v1/game``) holds against a
user who wants more than his seat: no answer before the end depends on the
bot's hidden cards, nor names the deal's seed, and a game's id cannot be
guessed; the same choice sent at once over HTTP is applied once, a move
whose answer came past the server's time limit is not taken twice, and
the end shows its settlement when its review is cut short; the games
share the service's solver, and one client cannot push out the games of
another."""

from __future__ import annotations

import http.client
import json
import random
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import pytest

from kosolve.analysis.report import Analyser
from kosolve.dealing import deal_as_dealt
from kosolve.model.cards import Hand, cards_of, mask_of
from kosolve.model.dealt import KEPT, Dealt
from kosolve.model.view import FACE_DOWN
from kosolve.play import bots
from kosolve.play.game import Decision, Game
from kosolve.play.player import Bot
from kosolve.web.api import RequestError, Service
from kosolve.web.games import CUT_SHORT, GAMES_KEPT, GAMES_PER_CLIENT, GameRequestError, GameTable

SEED = 8_734_519_876_543_210
"""The seed a test game reports at its end: long enough to be told apart
from any other number of an answer."""


class Scripted(Bot):
    """Bids a Dreiblatt when it may, announces nothing, takes the top of the
    talon, lays away ``lay_away`` (its first option when None) and plays its
    first legal card: each decision the same whatever else it holds.
    ``choices`` are the indices it chose."""

    name = "scripted"

    def __init__(self, lay_away: Hand | None = None) -> None:
        self.lay_away = lay_away
        self.choices: list[int] = []

    def decide(self, decision: Decision, game: Game | None = None) -> int:
        options = decision.options
        choice = 0
        if decision.kind == "bid" and "dreiblatt" in options:
            choice = options.index("dreiblatt")
        if decision.kind == "lay_away" and self.lay_away is not None:
            choice = options.index(self.lay_away)
        self.choices.append(choice)
        return choice


class Held(Scripted):
    """Scripted, but it decides nothing until ``go`` is set: a bot still
    thinking when the server's time limit passes."""

    def __init__(self) -> None:
        super().__init__()
        self.go = threading.Event()

    def decide(self, decision: Decision, game: Game | None = None) -> int:
        assert self.go.wait(30)
        return super().decide(decision, game)


def left_in_hand(answer: dict[str, Any]) -> int:
    """The cards the user still holds, as the page reckons them."""
    view = answer["decision"]["view"]
    return len(set(view["hand"]) - set(view["play"]))


Choose = Callable[[str, int, int], dict[str, Any]]
"""Takes the game, the option and the number of moves of the answer chosen on."""


def play_to_last_card(first: dict[str, Any], choose: Choose) -> list[dict[str, Any]]:
    """The answers of a game in which the user passes and plays his first
    legal card, up to his last card (not played)."""
    answers = [first]
    while answers[-1]["decision"]["decision"] != "play" or left_in_hand(answers[-1]) > 1:
        answers.append(choose(answers[-1]["game"], 0, len(answers[-1]["moves"])))
        assert answers[-1]["decision"] is not None, "the game ended before the user's last card"
    return answers


def twin_deals(seed: int) -> tuple[Dealt, Dealt, Hand, Hand]:
    """Two deals that differ only in the dealer's hidden cards: a face-down
    card of his hand and one of his discards change places; and for each
    the lay-away of that card and two others, the same in both."""
    dealt = deal_as_dealt(random.Random(seed))
    hidden = FACE_DOWN & ~KEPT
    # The classic discard lays away cards of the hand.
    a = min(cards_of(dealt.hands[1] & ~dealt.discards[1] & hidden))
    b = max(cards_of(dealt.discards[1] & hidden))
    twin = replace(dealt, discards=(dealt.discards[0], dealt.discards[1] & ~(1 << b) | 1 << a))
    others = mask_of(sorted(cards_of(dealt.held(1) & hidden & ~(1 << a)))[-2:])
    return dealt, twin, others | 1 << a, others | 1 << b


def test_no_answer_before_the_end_depends_on_the_bots_hidden_cards() -> None:
    dealt, twin, lay_away, twin_lay_away = twin_deals(3)
    assert dealt.held(0) == twin.held(0) and dealt.held(1) != twin.held(1)
    table = GameTable(analyser=Analyser(tt_mb=4))
    players = [Scripted(lay_away), Scripted(twin_lay_away)]
    games = [
        play_to_last_card(table.open(0, deal, bot, "scripted", SEED), table.choose)
        for deal, bot in zip((dealt, twin), players, strict=True)
    ]
    # The bot laid its hidden card away, an option of another index in each deal.
    assert players[0].choices != players[1].choices
    laid = [next(m for m in game[-1]["moves"] if m["decision"] == "lay_away") for game in games]
    assert laid[0] == laid[1] == {"decision": "lay_away", "seat": "dealer", "face_up": []}
    assert len(games[0]) == len(games[1]) > 16
    for answer, twin_answer in zip(*games, strict=True):
        # The fields the table draws from are compared too.
        assert {"hand", "talon", "taken", "counted", "bot_cards"} <= answer.keys()
        assert {**answer, "game": None} == {**twin_answer, "game": None}
        assert "seed" not in answer and str(SEED) not in json.dumps(answer)


def test_a_game_has_an_id_that_cannot_be_guessed() -> None:
    service = Service(tt_mb=4)
    answers: list[dict[str, Any]] = [service.game({"new": {"bot": "heuristic"}}) for _ in range(3)]
    ids = [answer["game"] for answer in answers]
    assert len(set(ids)) == 3
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{20,}", key) for key in ids), ids
    assert all("seed" not in answer for answer in answers)


# ---- the server's time limit ------------------------------------------------


def post(url: str, data: object) -> tuple[int, dict[str, Any]]:
    host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        connection.request("POST", "/api/v1/game", json.dumps(data), {"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def once_free(url: str, data: object) -> tuple[int, dict[str, Any]]:
    """The answer to ``data`` once the solver is free to give one: a 503
    (it waited past the time limit) is asked again, a bounded number of
    times."""
    for _ in range(100):
        status, answer = post(url, data)
        if status != 503:
            return status, answer
        time.sleep(0.1)
    pytest.fail("the solver stayed busy")


def serving_for(service: Service, time_limit_s: float) -> Any:
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    from kosolve.web.app import serving

    return serving(service, time_limit_s=time_limit_s)


def test_a_move_answered_past_the_time_limit_is_not_taken_again() -> None:
    service = Service(tt_mb=4)
    bot = Held()
    first: dict[str, Any] = service.games.open(0, deal_as_dealt(random.Random(1)), bot, "held", SEED)
    key = first["game"]
    assert first["decision"]["legal"][0] == "pass"
    with serving_for(service, 0.5) as url:
        status, late = post(url, {"game": key, "choice": 0, "moves": 0})
        assert status == 504 and "the move was taken" in late["error"], late
        bot.go.set()
        # The same request again is refused, not applied to the next decision.
        status, again = once_free(url, {"game": key, "choice": 0, "moves": 0})
        assert status == 400 and "moved on since the last answer you got" in again["error"], again
        status, now = once_free(url, {"game": key})
        assert status == 200, now
        assert now["decision"]["decision"] == "play" and now["tricks"] == []
        assert [m for m in now["moves"] if m["seat"] == "forehand"] == [
            {"decision": "bid", "seat": "forehand", "choice": 0, "option": "pass"}
        ]
        status, played = post(url, {"game": key, "choice": 0, "moves": len(now["moves"])})
        assert status == 200 and played["tricks"][0]["cards"][0] == now["decision"]["legal"][0]


def test_a_review_cut_short_still_shows_the_settlement() -> None:
    service = Service(tt_mb=4)
    first = service.games.open(0, deal_as_dealt(random.Random(2)), Scripted(), "scripted", SEED)
    last = play_to_last_card(
        first, lambda key, choice, moves: service.game({"game": key, "choice": choice, "moves": moves})
    )[-1]
    key = first["game"]
    with serving_for(service, 0.2) as url:
        status, late = post(url, {"game": key, "choice": 0, "moves": len(last["moves"])})
        assert status == 504, late
        status, over = once_free(url, {"game": key})
        assert status == 200 and over["phase"] == "over", over
        end = over["end"]
        assert end["review"] is None and end["review_why"] == CUT_SHORT
        assert sum(end["totals"].values()) == 0 and end["items"] and end["seed"] == SEED
        assert len(over["tricks"]) == 16 and over["tricks"][-1]["winner"] is not None
        # Given, the end is gone.
        status, gone = post(url, {"game": key})
        assert status == 400 and gone["error"].startswith("request: game: no game")


# ---- memory -------------------------------------------------------------------


def test_the_games_bots_search_with_the_services_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Analyser] = []

    class Counted(Analyser):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(bots, "Analyser", Counted)
    service = Service(tt_mb=4)
    for spec, seed in (("dd", 1), ("dd", 2), ("pimc", 3)):
        # The bot, the forehand, calls first: it searches.
        answer: dict[str, Any] = service.game({"new": {"seat": "dealer", "bot": spec, "seed": seed}})
        assert len(answer["calls"]) == 1
    assert made == []


def new_games(service: Service, client: str, count: int) -> Sequence[str]:
    return [str(service.game({"new": {"bot": "heuristic"}}, client=client)["game"]) for _ in range(count)]


def test_one_client_cannot_push_out_the_game_of_another() -> None:
    service = Service(tt_mb=4)
    [mine] = new_games(service, "10.0.0.1", 1)
    theirs = new_games(service, "10.0.0.2", GAMES_KEPT + 1)
    assert service.game({"game": mine, "choice": 0, "moves": 0})["game"] == mine
    for key in theirs[:-GAMES_PER_CLIENT]:
        with pytest.raises(RequestError, match="request: game: no game"):
            service.game({"game": key})
    for key in theirs[-GAMES_PER_CLIENT:]:
        assert service.game({"game": key})["game"] == key


def test_the_server_keeps_a_few_games_for_each_address() -> None:
    service = Service(tt_mb=4)
    with serving_for(service, 30) as url:
        keys = [post(url, {"new": {"bot": "heuristic"}})[1]["game"] for _ in range(GAMES_PER_CLIENT + 1)]
        status, gone = post(url, {"game": keys[0]})
        assert status == 400 and gone["error"].startswith("request: game: no game")
        assert [post(url, {"game": key})[0] for key in keys[1:]] == [200] * GAMES_PER_CLIENT


def test_a_game_refuses_a_choice_on_a_decision_not_shown() -> None:
    """A choice is taken only on the decision of the answer whose number of
    moves it gives: never on a count the game has left or not reached."""
    table = GameTable(analyser=Analyser(tt_mb=4))
    first: dict[str, Any] = table.open(0, deal_as_dealt(random.Random(1)), Scripted(), "scripted", SEED)
    key = first["game"]
    for moves in (-1, 1, 2**70):
        with pytest.raises(GameRequestError, match="moved on since the last answer you got"):
            table.choose(key, 0, moves)
    answer: dict[str, Any] = table.choose(key, 0, 0)
    assert len(answer["moves"]) > 1
    with pytest.raises(GameRequestError, match="moved on since the last answer you got"):
        table.choose(key, 0, 0)
    assert table.resume(key)["moves"] == answer["moves"]


# ---- the same choice at once ---------------------------------------------------

COPIES = 3
"""Copies of one choice sent at once."""
ROUNDS = 8
"""Decisions on which they are sent: the copies have raced to a double
move most times before each choice named its answer's count."""


def at_once(url: str, choice: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """The answers to :data:`COPIES` copies of ``choice`` sent at once."""
    start = threading.Barrier(COPIES, timeout=30)
    results: list[tuple[int, dict[str, Any]]] = []

    def send() -> None:
        start.wait()
        results.append(once_free(url, choice))

    threads = [threading.Thread(target=send, daemon=True) for _ in range(COPIES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads)
    return results


def test_the_same_choice_sent_at_once_over_http_is_applied_once() -> None:
    service = Service(tt_mb=4)
    with serving_for(service, 30) as url:
        status, answer = post(url, {"new": {"seat": "forehand", "bot": "heuristic", "seed": 11}})
        assert status == 200, answer
        key = answer["game"]
        for _ in range(ROUNDS):
            if answer["decision"] is None:
                break
            mine = [move for move in answer["moves"] if move["seat"] == "forehand"]
            results = at_once(url, {"game": key, "choice": 0, "moves": len(answer["moves"])})
            assert sorted(status for status, _ in results) == [200] + [400] * (COPIES - 1), results
            refused = [got["error"] for status, got in results if status == 400]
            assert all("moved on since the last answer you got" in error for error in refused), refused
            status, answer = post(url, {"game": key})
            assert status == 200, answer
            now = [move for move in answer["moves"] if move["seat"] == "forehand"]
            assert len(now) == len(mine) + 1, (mine, now)
        else:
            return
        pytest.fail("the game ended before the rounds were played")
