"""Playing a game against kosolve through the API (``POST /api/v1/game``):
a whole game to its settlement and the review of the user's play; the
user's answers show none of the bot's hidden cards (its hand, its
lay-away) before the end, with the defender's announcements and Kontra
on too; a new game takes its rule switches (``new.rules``), and the
options of an announcement or a Kontra come with the game points at
stake, the scoring table's; a choice out of range or out of turn is
refused, and so is one on a decision the game has moved on from (the
same choice sent twice is applied once); bad requests are one line."""

from __future__ import annotations

import random
from dataclasses import asdict, replace
from typing import Any

import pytest
from support import EXAMPLES, without_stats

from kosolve.analysis.report import Analyser
from kosolve.dealing import deal_as_dealt
from kosolve.model.cards import card_name, hand_names, mask_of, parse_card
from kosolve.model.deal import deal_to_json
from kosolve.model.dealt_file import DealtFile, dealt_to_json
from kosolve.model.files import load_deal
from kosolve.model.game import DEFAULT_RULES, GAME_VALUES, SEAT_NAMES, Rules
from kosolve.model.notation import to_notation
from kosolve.model.scoring import DEFAULT_TABLE
from kosolve.play.bots import HeuristicBot, make_bot
from kosolve.play.game import Decision, Game
from kosolve.play.player import Bot, ask
from kosolve.review.judging import review
from kosolve.web.api import RequestError, Service
from kosolve.web.games import REVIEW_DECISION_SAMPLES, REVIEW_SAMPLES, GameRequestError, GameTable


@pytest.fixture(scope="module")
def service() -> Service:
    return Service(tt_mb=16)


SWITCHES: dict[str, Any] = {"defender_announcements": True, "kontra": True}
"""The rule switches that add decisions, both on."""


def play_out(
    service: Service, seat: str, bot: str, seed: int, rules: dict[str, object] | None = None, until: str | None = None
) -> list[dict[str, Any]]:
    """Every answer of a game in which the user picks options at random,
    under the rule options ``rules`` when given (else the server's), up to
    the end or the first decision of the kind ``until``."""
    rng = random.Random(seed)
    new: dict[str, object] = {"seat": seat, "bot": bot, "seed": seed}
    if rules is not None:
        new["rules"] = rules
    answers: list[dict[str, Any]] = [service.game({"new": new})]
    while answers[-1]["decision"] is not None and answers[-1]["decision"]["decision"] != until:
        legal = answers[-1]["decision"]["legal"]
        choice = {"game": answers[-1]["game"], "choice": rng.randrange(len(legal)), "moves": len(answers[-1]["moves"])}
        answers.append(service.game(choice))
    return answers


def same_game(seat: str, spec: str, seed: int, rules: Rules = DEFAULT_RULES) -> Game:
    """The game of :func:`play_out` played again without the web: the deal
    of ``seed``, the user's random choices, the bot asked in turn."""
    rng = random.Random(seed)
    user = SEAT_NAMES.index(seat)
    bot = make_bot(spec, rules)
    bot.start(seed, 1 - user)
    game = Game(deal_as_dealt(random.Random(seed)), rules)
    while not game.over:
        decision = game.decision()
        if decision.seat == user:
            bot.observe(game.choose(rng.randrange(len(decision.options))))
        else:
            ask(bot, decision, game)
    return game


@pytest.mark.parametrize(
    ("seat", "bot", "seed"), [("forehand", "heuristic", 3), ("dealer", "pimc", 4), ("forehand", "dd", 9)]
)
def test_a_whole_game_ends_settled_and_reviewed(service: Service, seat: str, bot: str, seed: int) -> None:
    answers = play_out(service, seat, bot, seed)
    end = answers[-1]["end"]
    assert answers[-1]["phase"] == "over" and end is not None
    # The end shows the deal, the hands and the settlement of the game played.
    game = same_game(seat, bot, seed)
    assert end["seed"] == seed and end["deal"] == dealt_to_json(DealtFile(game.dealt))
    assert end["hands"] == {name: hand_names(game.dealt.held(s)) for s, name in enumerate(SEAT_NAMES)}
    assert answers[-1]["calls"] == game.calls and answers[-1]["contract"] == game.contract
    assert [t["cards"] for t in answers[-1]["tricks"]] == [
        [card_name(c) for c in trick.cards] for trick in (game.position.tricks if game.position else [])
    ]
    assert end["totals"] == game.totals_json()
    assert end["items"] == (None if game.settlement is None else [i.to_json() for i in game.settlement.items])
    if end["totals"] is None:
        assert end["review"] is None
        return
    players = end["review"]["players"]
    assert players[seat]["cards"] == 16
    assert all(card["verdict"] for card in end["review"]["cards"])
    assert_the_table_as_the_user_knows_it(answers, seat)
    assert answers[-1]["talon"] == [card_name(c) for c in game.dealt.talon]
    assert_both_hands_and_piles_turned_up(end, game)


def assert_the_table_as_the_user_knows_it(answers: list[dict[str, Any]], seat: str) -> None:
    """Each answer's table (docs/web.md): the user's hand as it stands (as
    declarer with the talon cards he took, without those he laid away), the
    talon as his view shows it (face down: null), the talon cards taken,
    and each seat's tricks and their card points so far."""
    for answer in answers:
        take = next((move["option"] for move in answer["moves"] if move["decision"] == "take"), None)
        assert answer["taken"] == take
        for name in SEAT_NAMES:
            won = [trick for trick in answer["tricks"] if trick["winner"] == name]
            assert answer["counted"][name] == {"tricks": len(won), "thirds": sum(trick["thirds"] for trick in won)}
        decision = answer["decision"]
        if decision is None:
            continue
        view = decision["view"]
        assert answer["talon"] == view["talon"]
        held = set(view["hand"]) - set(view["play"])
        if decision["decision"] != "play" and answer["declarer"] == seat and take is not None:
            laid: list[str] = next((move["option"] for move in answer["moves"] if move["decision"] == "lay_away"), [])
            held = (held | set(take)) - set(laid)
        assert answer["hand"] == hand_names(mask_of(parse_card(name) for name in held))


def assert_both_hands_and_piles_turned_up(end: dict[str, Any], game: Game) -> None:
    """The end's hands as played from trick 1, each pile with the card
    points it ends with (the tricks too), the contract's result."""
    deal, settlement = game.deal, game.settlement
    assert deal is not None and deal.piles is not None and settlement is not None
    assert end["held"] == {name: hand_names(deal.hands[s]) for s, name in enumerate(SEAT_NAMES)}
    assert {name: pile["cards"] for name, pile in end["piles"].items()} == {
        name: hand_names(deal.piles[s]) for s, name in enumerate(SEAT_NAMES)
    }
    declarer = SEAT_NAMES[settlement.declarer]
    assert sum(pile["thirds"] for pile in end["piles"].values()) == 210
    assert end["piles"][declarer]["thirds"] == settlement.declarer_thirds
    game_item = next((item for item in settlement.items if item.name == "game"), None)
    won = settlement.declarer_thirds >= game.rules.win_thirds
    assert game_item is None or (game_item.to == settlement.declarer) == won
    assert end["result"] == {
        "contract": game.contract,
        "declarer": declarer,
        "thirds": settlement.declarer_thirds,
        "won": won,
    }


def test_the_table_turns_the_talon_up_when_the_rules_expose_it(service: Service) -> None:
    """Up to the play, over games of each kind: the talon face down (null)
    before the talon choice and throughout a Solo, turned up from the
    choice on; the hand the user holds as declarer includes the cards he
    took and not those he laid away."""
    seen: set[tuple[str, bool]] = set()
    for seed in range(10):
        seat = SEAT_NAMES[seed % 2]
        answers = play_out(service, seat, "heuristic", seed, until="play")
        assert_the_table_as_the_user_knows_it(answers, seat)
        for answer in answers:
            decision = answer["decision"]
            if decision is None:
                continue
            chosen = any(move["decision"] == "take" for move in answer["moves"])
            exposed = chosen or decision["decision"] == "take"
            assert (answer["talon"] is not None) == exposed
            if answer["contract"] == "solo":
                assert answer["talon"] is None
            if exposed:
                seen.add((answer["contract"], answer["declarer"] == seat))
            if decision["decision"] == "lay_away":
                assert set(answer["taken"]) <= set(answer["hand"])
                assert all(set(option) <= set(answer["hand"]) for option in decision["legal"])
    # The user took from the talon, and so did kosolve.
    assert {declares for _, declares in seen} == {True, False}, seen


def test_the_end_judges_every_decision_before_the_play_and_gives_the_game_file(service: Service) -> None:
    """The end's review is the library's of the game as a deal as dealt, its
    decisions before the play judged over a few worlds a group, before the
    cards; the game file the end gives is that deal as dealt."""
    rules = Rules(**SWITCHES)
    answers = play_out(service, "dealer", "heuristic", 5, SWITCHES)
    end = answers[-1]["end"]
    game = same_game("dealer", "heuristic", 5, rules)
    file = game.dealt_file
    assert file is not None and end["game_file"] == dealt_to_json(file)
    expected = review(
        file,
        samples=REVIEW_SAMPLES,
        seed=5,
        jobs=1,
        rules=rules,
        before_play=True,
        decision_samples=REVIEW_DECISION_SAMPLES,
    ).to_json()
    assert end["review"]["decision_samples"] == REVIEW_DECISION_SAMPLES
    kinds = [d["kind"] for d in end["review"]["decisions"]]
    assert kinds[0] == "bid" and ({"take", "lay_away"} <= set(kinds) or game.contract == "solo")
    assert without_stats(end["review"]) == without_stats(expected)


def test_a_game_both_passed_has_no_game_file() -> None:
    table = GameTable()
    answer: dict[str, Any] = table.open(0, deal_as_dealt(random.Random(2)), PassingBot(), "pass", 2)
    while answer["end"] is None:
        legal = answer["decision"]["legal"]
        answer = table.choose(answer["game"], legal.index("pass"), len(answer["moves"]))
    assert answer["end"]["game_file"] is None and answer["end"]["review"] is None


class PassingBot(Bot):
    """A bot that always passes: the game ends when the user passes too."""

    def decide(self, decision: Decision, game: Game | None = None) -> int:
        return decision.options.index("pass") if decision.kind == "bid" else 0


def test_a_game_with_the_rule_switches_is_the_same_game_played_without_the_web(service: Service) -> None:
    rules = Rules(**SWITCHES)
    for seat, seed in (("forehand", 11), ("dealer", 12)):
        answers = play_out(service, seat, "random", seed, SWITCHES)
        game = same_game(seat, "random", seed, rules)
        assert all(answer["rules"] == {**asdict(DEFAULT_RULES), **SWITCHES} for answer in answers)
        assert answers[-1]["moves"] == [move.seen_by(SEAT_NAMES.index(seat)) for move in game.moves]
        assert answers[-1]["end"]["totals"] == game.totals_json()


def announced_value(contract: str, what: str, when: str | None) -> int:
    """The scoring table's value of an announcement (docs/rules.md §6)."""
    if what == "valat":
        return GAME_VALUES[contract] * 8
    row = DEFAULT_TABLE.row(what)
    if contract == "solo":
        return row.solo
    after, before = {"dreiblatt": row.dreiblatt, "zweiblatt": row.zweiblatt, "einblatt": row.einblatt}[contract]
    return before if when == "before" else after


def test_announcements_and_kontras_show_the_game_points_at_stake(service: Service) -> None:
    """Under the defender's announcements and Kontra the user announces as
    declarer and as defender and says Kontra; each option shows its value
    in the scoring table for the contract and the round (``done`` none), a
    Kontra the doubled value of the announcement it doubles, and the
    answer's announcements their value, doubled by a Kontra."""
    kinds: set[tuple[str, bool]] = set()
    for seed in range(12):
        seat = SEAT_NAMES[seed % 2]
        for answer in play_out(service, seat, "random", seed, SWITCHES, until="play"):
            contract = answer["contract"]
            for made in answer["announcements"]:
                worth = announced_value(contract, made["what"], made.get("when"))
                assert made["value"] == worth * (2 if made.get("kontra") else 1)
            decision = answer["decision"]
            if decision is None or decision["decision"] not in ("announce", "kontra"):
                assert decision is None or "values" not in decision
                continue
            declarer = answer["declarer"] == seat
            kinds.add((decision["decision"], declarer))
            taken = any(move["decision"] == "take" for move in answer["moves"])
            when = None if contract == "solo" else "after" if taken else "before"
            legal, values = decision["legal"], decision["values"]
            assert legal[0] == "done" and values[0] is None and len(values) == len(legal)
            if decision["decision"] == "announce":
                assert values[1:] == [announced_value(contract, what, when) for what in legal[1:]]
            else:
                theirs = {a["what"]: a for a in decision["view"]["announcements"] if a["by"] != seat}
                assert all(theirs[what].get("when") == when and not theirs[what].get("kontra") for what in legal[1:])
                assert values[1:] == [2 * announced_value(contract, what, when) for what in legal[1:]]
    assert {("announce", True), ("announce", False), ("kontra", True), ("kontra", False)} <= kinds, kinds


def test_a_new_game_takes_the_servers_rules_unless_it_sets_its_own() -> None:
    service = Service(tt_mb=4, rules=Rules(kontra=True))
    first: dict[str, Any] = service.game({"new": {"bot": "random", "seed": 1}})
    assert first["rules"]["kontra"] is True
    answer: dict[str, Any] = service.game(
        {"new": {"bot": "random", "seed": 1, "rules": {"kontra": False, "win_thirds": 106}}}
    )
    assert (answer["rules"]["kontra"], answer["rules"]["win_thirds"]) == (False, 106)
    assert Service(tt_mb=4).game({"new": {"bot": "random", "seed": 1}})["rules"] == asdict(DEFAULT_RULES)


@pytest.mark.parametrize(("seed", "rules"), [(0, None), (1, None), (2, None), (3, SWITCHES), (4, SWITCHES)])
def test_no_hidden_card_of_the_bot_is_shown_before_the_end(
    service: Service, seed: int, rules: dict[str, object] | None
) -> None:
    dealt = deal_as_dealt(random.Random(seed))
    # The bot's hand, its discards and the talon: hidden until the table shows them.
    hidden = set(hand_names(dealt.held(1) | dealt.discards[1] | mask_of(dealt.talon)))
    bot = "heuristic" if rules is None else "random"
    for answer in play_out(service, "forehand", bot, seed, rules)[:-1]:
        view = answer["decision"]["view"]
        played = {card for trick in answer["tricks"] for card in trick["cards"]}
        seen = set(view["other"]["pile"]) | set(view["other"]["holds"]) | set(view["talon"] or []) | played
        # Every field of the answer, the table's too (hand, talon, taken), but its random id.
        named = set(strings({key: value for key, value in answer.items() if key != "game"}))
        assert named & hidden <= seen
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
        ({"new": {}, "moves": 0}, "request: new: starts a game"),
        ({"game": "g999", "choice": 0, "moves": 0}, "request: game: no game 'g999' in progress"),
        ({"game": "g999", "choice": 0}, "request: moves: missing: a choice gives the number of moves"),
        ({"game": "g999", "choice": 0, "moves": "0"}, "request: moves: expected the number of moves"),
        ({"game": "g999", "choice": 0, "moves": True}, "request: moves: expected the number of moves"),
        ({"game": "g999", "moves": 0}, "request: moves: goes with a choice only"),
        ({"old": 1}, "request: old: unknown key"),
        ({"new": {"rules": {"kontra": 1}}}, "request: new.rules.kontra: expected a boolean, got the number 1"),
        ({"new": {"rules": []}}, "request: new.rules: expected an object, got an array"),
        ({"new": {"rules": {"contra": True}}}, "request: new.rules.contra: unknown key"),
        ({"new": {"rules": {"discard": "lazy"}}}, "request: new.rules: discard: 'lazy' is not one of"),
    ],
)
def test_a_bad_game_request_is_one_line(service: Service, request_: dict[str, Any], message: str) -> None:
    with pytest.raises(RequestError, match="^" + message.replace("(", r"\(")):
        service.game(request_)


def test_a_choice_out_of_range_is_refused(service: Service) -> None:
    answer = service.game({"new": {"seat": "forehand", "bot": "heuristic", "seed": 1}})
    with pytest.raises(RequestError, match="request: choice: 99 is not one of the"):
        service.game({"game": answer["game"], "choice": 99, "moves": 0})
    assert service.game({"game": answer["game"]})["moves"] == []


def test_the_same_choice_sent_twice_is_applied_once(service: Service) -> None:
    """A choice names the answer it is made on by its number of moves: sent
    again, the game has moved on and it is refused, the game unchanged; a
    count the game never had is refused too."""
    first: dict[str, Any] = service.game({"new": {"seat": "forehand", "bot": "heuristic", "seed": 2}})
    choice = {"game": first["game"], "choice": 0, "moves": len(first["moves"])}
    once: dict[str, Any] = service.game(choice)
    assert len(once["moves"]) > len(first["moves"])
    with pytest.raises(RequestError, match=r"^request: game: it has moved on since the last answer you got"):
        service.game(choice)
    with pytest.raises(RequestError, match=r"^request: game: it has moved on"):
        service.game({**choice, "moves": len(once["moves"]) + 1})
    now: dict[str, Any] = service.game({"game": first["game"]})
    assert now["moves"] == once["moves"]
    mine = [move for move in now["moves"] if move["seat"] == "forehand"]
    assert mine == [{"decision": "bid", "seat": "forehand", "choice": 0, "option": now["moves"][0]["option"]}]
    then: dict[str, Any] = service.game({**choice, "moves": len(now["moves"])})
    assert then["moves"][: len(now["moves"])] == now["moves"] and len(then["moves"]) > len(now["moves"])


class Impatient(HeuristicBot):
    """A bot during whose every decision the user sends a choice (option 0)
    to the game: each attempt's error (None if it was taken) and the
    game's moves before and after it.  It is shown the game (omniscient)
    only to count its moves; it decides as the heuristic bot."""

    omniscient = True

    def __init__(self, table: GameTable) -> None:
        super().__init__()
        self.table = table
        self.key = ""
        self.attempts: list[tuple[str | None, int, int]] = []

    def decide(self, decision: Decision, game: Game | None = None) -> int:
        assert game is not None
        before = len(game.moves)
        try:
            self.table.choose(self.key, 0, before)
            error = None
        except GameRequestError as refused:
            error = str(refused)
        self.attempts.append((error, before, len(game.moves)))
        return super().decide(decision, None)


def test_a_choice_out_of_turn_is_refused_and_changes_nothing() -> None:
    """While the bot decides it is not the user's turn: his choice then is
    refused and the game is as it was; after the end there is no game."""
    table = GameTable(analyser=Analyser(tt_mb=4))
    bot = Impatient(table)
    answer: dict[str, Any] = table.open(0, deal_as_dealt(random.Random(5)), bot, "heuristic", 5)
    bot.key = str(answer["game"])
    while answer["decision"] is not None:
        answer = table.choose(bot.key, len(answer["decision"]["legal"]) - 1, len(answer["moves"]))
    assert len(bot.attempts) >= 10
    for error, before, after in bot.attempts:
        assert error is not None and error == "request: game: it is not your turn"
        assert before == after
    with pytest.raises(GameRequestError, match="request: game: no game"):
        table.choose(bot.key, 0, len(answer["moves"]))


def test_a_line_of_notation_loads_as_its_deal(service: Service) -> None:
    deal = load_deal(EXAMPLES / "played.json")
    answer = service.notation({"text": to_notation(deal)})
    assert answer["deal"] == deal_to_json(deal)
    position = service.position({"deal": answer["deal"], "play": answer["deal"]["play"][:3]})
    assert position["notation"] == to_notation(replace(deal, play=deal.play[:3]))
    with pytest.raises(RequestError, match=r"^notation: expected a line starting"):
        service.notation({"text": "8/8/8"})
