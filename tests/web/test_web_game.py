"""Playing a game against kosolve through the API (``POST /api/v1/game``):
a whole game to its settlement and the review of the user's play; the
user's answers show none of the bot's hidden cards (its hand, its
lay-away) before the end; bad requests are one line."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from support import EXAMPLES

from kosolve.model.cards import hand_names
from kosolve.model.deal import deal_to_json
from kosolve.model.files import load_deal
from kosolve.model.notation import to_notation
from kosolve.tools.dealing import deal_as_dealt
from kosolve.web.api import RequestError, Service


@pytest.fixture(scope="module")
def service() -> Service:
    return Service(tt_mb=16)


def play_out(service: Service, seat: str, bot: str, seed: int) -> list[dict[str, Any]]:
    """Every answer of a game in which the user picks options at random."""
    rng = random.Random(seed)
    answers: list[dict[str, Any]] = [service.game({"new": {"seat": seat, "bot": bot, "seed": seed}})]
    while answers[-1]["decision"] is not None:
        legal = answers[-1]["decision"]["legal"]
        answers.append(service.game({"game": answers[-1]["game"], "choice": rng.randrange(len(legal))}))
    return answers


@pytest.mark.parametrize(
    ("seat", "bot", "seed"), [("forehand", "heuristic", 3), ("dealer", "pimc", 4), ("forehand", "dd", 9)]
)
def test_a_whole_game_ends_settled_and_reviewed(service: Service, seat: str, bot: str, seed: int) -> None:
    answers = play_out(service, seat, bot, seed)
    end = answers[-1]["end"]
    assert answers[-1]["phase"] == "over" and end is not None
    if end["totals"] is None:
        assert end["review"] is None
        return
    assert sum(end["totals"].values()) == 0
    players = end["review"]["players"]
    assert players[seat]["cards"] == 16
    assert all(card["verdict"] for card in end["review"]["cards"])


@pytest.mark.parametrize("seed", range(3))
def test_no_hidden_card_of_the_bot_is_shown_before_the_end(service: Service, seed: int) -> None:
    dealt = deal_as_dealt(random.Random(seed))
    bot_cards = set(hand_names(dealt.held(1)))
    for answer in play_out(service, "forehand", "heuristic", seed)[:-1]:
        view = answer["decision"]["view"]
        played = {card for trick in answer["tricks"] for card in trick["cards"]}
        seen = set(view["other"]["pile"]) | set(view["other"]["holds"]) | set(view["talon"] or []) | played
        named = set(strings(view)) | set(strings(answer["moves"]))
        assert named & bot_cards <= seen
        for move in answer["moves"]:
            if move["seat"] == "dealer" and move["decision"] == "lay_away":
                assert "option" not in move and "choice" not in move


def strings(value: object) -> list[str]:
    """Every string in a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return []


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"new": {"seat": "north"}}, "request: new.seat: expected forehand or dealer"),
        ({"new": {"bot": "exec:sh"}}, "request: bot: 'exec:sh' is not one of"),
        ({"new": {"seed": -1}}, "request: new.seed: expected an integer from 0"),
        ({"new": {}, "choice": 1}, "request: new: starts a game"),
        ({"game": "g999", "choice": 0}, "request: game: no game 'g999' in progress"),
        ({"old": 1}, "request: old: unknown key"),
    ],
)
def test_a_bad_game_request_is_one_line(service: Service, request_: dict[str, Any], message: str) -> None:
    with pytest.raises(RequestError, match="^" + message.replace("(", r"\(")):
        service.game(request_)


def test_a_choice_out_of_range_or_out_of_turn_is_refused(service: Service) -> None:
    answer = service.game({"new": {"seat": "forehand", "bot": "heuristic", "seed": 1}})
    with pytest.raises(RequestError, match="request: choice: 99 is not one of the"):
        service.game({"game": answer["game"], "choice": 99})


def test_a_line_of_notation_loads_as_its_deal(service: Service) -> None:
    deal = load_deal(EXAMPLES / "played.json")
    answer = service.notation({"text": to_notation(deal)})
    assert answer["deal"] == deal_to_json(deal)
    position = service.position({"deal": answer["deal"], "play": answer["deal"]["play"][:3]})
    assert position["notation"] == to_notation(replace(deal, play=deal.play[:3]))
    with pytest.raises(RequestError, match=r"^notation: expected a line starting"):
        service.notation({"text": "8/8/8"})
