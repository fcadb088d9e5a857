"""The web API without a web framework (:mod:`kosolve.web.api`): each
answer is the library's for the same position, every legal card's value is
that of the position after it solved afresh, the view adds up, and every
bad request is one line."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from support import DOCS, EXAMPLES, example, without_stats

from kosolve.analysis.report import Analyser, Options
from kosolve.analysis.solving import solve
from kosolve.dealing import deal_game, deal_games
from kosolve.model.cards import ALL_CARDS, card_name, hand_names, mask_of, parse_card, thirds_of
from kosolve.model.deal import Deal, deal_to_json
from kosolve.model.dealt_file import DealtFile, dealt_to_json, parse_dealt_file
from kosolve.model.files import load_deal, load_dealt_file, parse_deal
from kosolve.model.game import SEATS, Rules, seat_name
from kosolve.review.judging import review
from kosolve.web.api import MAX_REQUEST_BYTES, RequestError, Service, read_request

PLAY_FILES = ("ending.json", "played.json", "played-out.json", "whole-deal.json", "dealt.json")
TT_MB = 16


@pytest.fixture(scope="module")
def service() -> Service:
    return Service(tt_mb=TT_MB)


@pytest.fixture(scope="module")
def analyser() -> Analyser:
    return Analyser(tt_mb=TT_MB)


def hand_play(deal: Deal) -> list[str]:
    return [card_name(card) for card in deal.play]


def positions() -> list[tuple[str, int]]:
    """Every example with a few prefixes of its play."""
    found = []
    for name in PLAY_FILES:
        length = len(load_deal(EXAMPLES / name).play)
        found += [(name, at) for at in sorted({0, length // 2, length})]
    return found


@pytest.mark.parametrize(("name", "at"), positions())
def test_a_position_is_what_the_library_answers(service: Service, analyser: Analyser, name: str, at: int) -> None:
    deal = load_deal(EXAMPLES / name)
    answer: dict[str, Any] = service.position({"deal": example(name), "play": hand_play(deal)[:at]})
    # The play of the request is the line clicked through: the file's play cut at ``at``.
    expected: dict[str, Any] = analyser.analyse(
        replace(deal, play=deal.play[:at]), Options(postmortem=False, score=False)
    ).to_json()
    assert answer["api"] == 1
    assert without_stats(answer["report"]) == without_stats(expected)


def random_positions(count: int) -> list[tuple[Deal, int]]:
    rng = random.Random(11)
    found = []
    for deal in deal_games(count, seed=11):
        position = deal.position()
        played = []
        for _ in range(rng.randrange(0, 30)):
            card = rng.choice(list(position.legal_moves))
            position.push(card)
            played.append(card)
        found.append((replace(deal, play=tuple(played)), len(played)))
    return found


@pytest.mark.parametrize("index", range(4))
def test_every_legal_card_is_valued_as_the_position_after_it(service: Service, analyser: Analyser, index: int) -> None:
    deal, at = random_positions(4)[index]
    answer: dict[str, Any] = service.position({"deal": deal_to_json(deal)})
    view = answer["view"]
    position = deal.position()
    mover = position.turn
    values = {}
    for card in position.legal_moves:
        position.push(card)
        values[card] = solve(position, solver=analyser.solver, with_moves=False, with_line=False).thirds
        position.pop()
    best = max(values.values()) if mover == deal.declarer else min(values.values())
    assert answer["report"]["value"]["thirds"] == best
    assert {parse_card(m["card"]): m["thirds"] for m in view["moves"]} == values
    assert {parse_card(m["card"]): m["loss"] for m in view["moves"]} == {c: abs(best - t) for c, t in values.items()}
    assert view["to_move"] == seat_name(mover) and view["play"] == hand_play(deal)[:at]


@pytest.mark.parametrize(("name", "at"), positions())
def test_the_view_adds_up(service: Service, name: str, at: int) -> None:
    deal = load_deal(EXAMPLES / name)
    answer: dict[str, Any] = service.position({"deal": example(name), "play": hand_play(deal)[:at]})
    view = answer["view"]
    position = deal.position(at)
    for seat in SEATS:
        groups = view["hands"][seat_name(seat)]
        held = [card for group in groups for card in group["cards"]]
        # The order a player reads: tarocks first in rank order, then each suit from its king.
        assert held == hand_names(position.hands[seat])
        assert [group["suit"] for group in groups] == ["tarocks", "hearts", "diamonds", "spades", "clubs"]
    counted = view["counted"]
    assert counted[seat_name(deal.declarer)]["thirds"] == position.declarer_thirds()
    assert sum(counted[s]["tricks"] for s in counted) == len(view["tricks"])
    on_table = [view["table"]["card"]] if view["table"] else []
    played = [card for trick in view["tricks"] for card in trick["cards"]] + on_table
    assert played == view["play"]
    if deal.piles is not None:
        assert sum(c["thirds"] for c in counted.values()) + sum(thirds_of(position.hands[s]) for s in SEATS) + sum(
            thirds_of(mask_of([parse_card(c)])) for c in on_table
        ) == thirds_of(ALL_CARDS)


@pytest.mark.parametrize("name", ["played.json", "played-out.json"])
def test_the_review_is_the_library_post_mortem(service: Service, analyser: Analyser, name: str) -> None:
    deal = load_deal(EXAMPLES / name)
    answer: dict[str, Any] = service.review({"deal": example(name)})
    expected: dict[str, Any] = analyser.analyse(
        deal, Options(moves=False, feasibility=False, postmortem=True)
    ).to_json()
    assert without_stats(answer["report"]) == without_stats(expected)
    assert len(answer["report"]["postmortem"]) == len(deal.play)
    knew = review(deal, jobs=1).to_json()
    assert without_stats(answer["knew"]) == without_stats(knew) and answer["knew_why"] is None


def test_the_review_by_what_each_player_knew_reads_a_deal_as_dealt_whole(service: Service) -> None:
    file = load_dealt_file(EXAMPLES / "dealt.json")
    data = {**example("dealt.json"), "play": [card_name(c) for c in file.play_deal().position().legal_moves][:1]}
    answer: dict[str, Any] = service.review({"deal": data})
    assert [card["card"] for card in answer["knew"]["cards"]] == data["play"]


def test_an_ending_has_no_review_by_what_each_player_knew(service: Service) -> None:
    data = {**example("ending.json"), "play": ["HK"]}
    answer: dict[str, Any] = service.review({"deal": data})
    assert answer["knew"] is None and "a seat view starts at trick 1" in answer["knew_why"]


def test_the_exchange_is_the_library_exchange_table(service: Service, analyser: Analyser) -> None:
    file = load_dealt_file(EXAMPLES / "dealt.json")
    assert file.declarer is not None and file.contract is not None and file.exchange is not None
    expected = analyser.analyse_exchange(file.dealt, declared=(file.declarer, file.contract, file.exchange))
    assert service.exchange({"deal": example("dealt.json")})["exchange"] == expected.to_json()
    answer: dict[str, Any] = service.exchange({"deal": example("dealt-open.json")})
    opened = answer["exchange"]
    assert opened["declared"] is None and len(opened["exchange_table"]) == 24


@pytest.mark.parametrize(("name", "at"), positions())
def test_the_view_gives_the_optimal_line_trick_by_trick(service: Service, name: str, at: int) -> None:
    deal = load_deal(EXAMPLES / name)
    answer: dict[str, Any] = service.position({"deal": example(name), "play": hand_play(deal)[:at]})
    view, line = answer["view"], answer["report"]["line"]
    position = deal.position(at)
    tricks = position.line_tricks([parse_card(card) for card in line])
    assert view["line"] == [
        {
            "number": trick.number,
            "leader": seat_name(trick.leader),
            "cards": [card_name(card) for card in trick.cards],
            "winner": None if trick.winner is None else seat_name(trick.winner),
            "thirds": trick.thirds,
        }
        for trick in tricks
    ]
    # The line's cards, after the one on the table that its first trick holds.
    on_table = [view["table"]["card"]] if view["table"] else []
    assert [card for trick in view["line"] for card in trick["cards"]] == on_table + line
    assert all(trick["winner"] is not None for trick in view["line"])


def test_the_exchange_gives_the_cards_as_dealt_and_each_row_plays(service: Service) -> None:
    file = load_dealt_file(EXAMPLES / "dealt-open.json")
    answer: dict[str, Any] = service.exchange({"deal": example("dealt-open.json")})
    exchange = answer["exchange"]
    assert exchange["dealt"] == dealt_to_json(DealtFile(file.dealt))["dealt"]
    assert parse_dealt_file({"version": 1, "dealt": exchange["dealt"]}, "dealt").dealt == file.dealt
    # A row opened as the page opens it: the deal as dealt with the row's bid and exchange.
    for row in exchange["exchange_table"][::7]:
        bid = {key: row[key] for key in ("contract", "declarer")}
        deal = {
            "version": 1,
            "dealt": exchange["dealt"],
            **bid,
            "exchange": {"take": row["take"], "lay_away": row["lay_away"]},
        }
        opened: dict[str, Any] = service.position({"deal": deal})
        assert opened["report"]["value"]["thirds"] == row["thirds"]


def test_a_random_deal_is_the_realistic_deal_of_its_seed(service: Service) -> None:
    answer: dict[str, Any] = service.random_deal({"seed": 42})
    assert answer["seed"] == 42
    assert parse_deal(answer["deal"], "random") == deal_game(random.Random(42))
    assert service.random_deal({"seed": 42}) == answer
    unseeded: dict[str, Any] = service.random_deal({})
    assert parse_deal(unseeded["deal"], "random") == deal_game(random.Random(unseeded["seed"]))


def test_the_rules_of_a_request_apply(analyser: Analyser) -> None:
    data = {**example("whole-deal.json"), "announcements": [{"by": "dealer", "what": "pagat", "when": "after"}]}
    data["announcements"][0]["kontra"] = True
    with pytest.raises(RequestError, match=r"^deal: announcements\[0\]\.kontra: Kontra is off \(set rules\.kontra\)$"):
        Service(tt_mb=TT_MB).position({"deal": data})
    answer: dict[str, Any] = Service(tt_mb=TT_MB).position({"deal": data, "rules": {"kontra": True}})
    # The server's rules are the default of a request's.
    assert Service(tt_mb=TT_MB, rules=Rules(kontra=True)).position({"deal": data})["view"] == answer["view"]
    deal = parse_deal(data, "deal", rules=Rules(kontra=True))
    expected = analyser.analyse(deal, Options(rules=Rules(kontra=True), postmortem=False, score=False))
    assert without_stats(answer["report"]) == without_stats(expected.to_json())


BAD_REQUESTS: list[tuple[str, dict[str, Any], str]] = [
    ("position", {}, "request: deal: required key missing (a deal file's JSON object)"),
    ("position", {"deal": []}, "request: deal: expected a deal file's JSON object, got an array"),
    ("position", {"deal": {"version": 1}}, "deal: contract: required key missing"),
    ("position", {"deal": example("played.json"), "play": ["XX"]}, "deal: play[0]: trick 1: XX is not in the"),
    ("position", {"deal": example("played.json"), "play": "HK"}, "deal: play: expected an array"),
    ("position", {"deal": example("played.json"), "colour": 1}, "request: colour: unknown key (expected deal,"),
    (
        "position",
        {"deal": example("played.json"), "score": 1},
        "request: score: expected a boolean, got the number 1",
    ),
    ("position", {"deal": example("ending.json"), "score": True}, "request: score: the net score needs a whole game"),
    (
        "position",
        {"deal": example("played.json"), "rules": []},
        "request: rules: expected an object, got an array",
    ),
    (
        "position",
        {"deal": example("played.json"), "rules": {"kontra": 1}},
        "request: rules.kontra: expected a boolean",
    ),
    ("position", {"deal": example("played.json"), "rules": {"win_thirds": 99}}, "request: rules: win_thirds: 99"),
    ("position", {"deal": example("played.json"), "rules": {"lazy": True}}, "request: rules.lazy: unknown key"),
    ("position", {"deal": example("dealt-open.json")}, "deal: contract: required key missing to play"),
    ("review", {"deal": example("played.json"), "play": []}, "request: play: unknown key (expected deal, rules)"),
    ("exchange", {"deal": example("played.json")}, "deal: not a deal as dealt (no key 'dealt')"),
    ("random", {"seed": -1}, "request: seed: expected an integer from 0 to 2**63 - 1, got the number -1"),
    ("random", {"seed": "7"}, "request: seed: expected an integer from 0 to 2**63 - 1, got the string '7'"),
]


@pytest.mark.parametrize(("method", "request_", "message"), BAD_REQUESTS)
def test_a_bad_request_is_one_line(service: Service, method: str, request_: dict[str, Any], message: str) -> None:
    with pytest.raises(RequestError) as raised:
        getattr(service, {"random": "random_deal"}.get(method, method))(request_)
    assert str(raised.value).startswith(message)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"{", "request: line 1, column 2: broken JSON"),
        (b"\xff", "request: not UTF-8 text"),
        (b"[1]", "request: expected a JSON object, got an array"),
        (b'{"deal": 1, "deal": 2}', "request: deal: key given twice"),
        (b" " * (MAX_REQUEST_BYTES + 1), "request: more than 1 MB, too large"),
    ],
)
def test_a_bad_body_is_one_line(body: bytes, message: str) -> None:
    with pytest.raises(RequestError) as raised:
        read_request(body)
    assert str(raised.value).startswith(message)


def test_a_key_given_twice_in_the_deal_is_named_by_the_deal_parser(service: Service) -> None:
    body = b'{"deal": {"version": 1, "version": 1}}'
    with pytest.raises(RequestError, match=r"^deal: version: key given twice$"):
        service.position(read_request(body))


def test_an_empty_body_is_an_empty_request(service: Service) -> None:
    assert read_request(b"") == {}
    assert service.random_deal(read_request(b""))["api"] == 1


def test_docs_describe_every_key_of_the_view(service: Service) -> None:
    text = (DOCS / "web.md").read_text(encoding="utf-8")
    answer: dict[str, Any] = service.position({"deal": example("played.json"), "play": ["DK", "D2", "S10"]})
    assert set(answer) == {"api", "report", "view", "notation"}
    for key in answer["view"]:
        assert f"`view.{key}" in text, key
    for endpoint in ("position", "review", "exchange", "random", "files", "notation", "game"):
        assert f"/api/v1/{endpoint}`" in text
