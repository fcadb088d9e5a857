"""Reading and writing deal files (format version 1)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from support import EXAMPLES
from support.deal_files import ENDING, ending, error_of, play_examples

from kosolve.model.announcements import Announcement
from kosolve.model.cards import ALL_CARDS, KINGS, SK, SKUS, TRULL, card_name, hand_names, parse_hand
from kosolve.model.deal import KEYS, Deal, DealError, deal_to_json
from kosolve.model.files import load_deal, parse_deal
from kosolve.model.game import DEALER, FOREHAND, TALON_CARDS_TAKEN, TRICKS_PER_GAME


def with_piles(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with piles holding every card not in its hands, split
    between the seats."""
    held = parse_hand(data["hands"]["forehand"]) | parse_hand(data["hands"]["dealer"])
    rest = hand_names(ALL_CARDS & ~held)
    return dict(data, piles={"forehand": rest[::2], "dealer": rest[1::2]})


def test_a_minimal_deal_reads_with_defaults() -> None:
    deal = parse_deal(ENDING, "deal.json")
    assert deal.contract == "dreiblatt"
    assert deal.declarer == FOREHAND
    assert deal.leader == FOREHAND
    assert deal.hands == (parse_hand(["XX", "HK", "H4"]), parse_hand(["I", "HQ", "S7"]))
    assert deal.piles is None
    assert deal.play == ()


def test_leader_piles_and_play_are_read() -> None:
    data = with_piles(ending(leader="dealer", declarer="dealer", play=["HQ", "HK", "XX"]))
    deal = parse_deal(data, "deal.json")
    assert deal.leader == DEALER
    assert deal.declarer == DEALER
    assert deal.piles is not None
    assert deal.piles[FOREHAND] == parse_hand(data["piles"]["forehand"])
    assert [card_name(card) for card in deal.play] == ["HQ", "HK", "XX"]


def test_sk_and_sk_are_the_king_of_spades_and_the_skus() -> None:
    deal = parse_deal(ending(hands={"forehand": ["SK"], "dealer": ["Sk"]}), "deal.json")
    assert deal.hands == (1 << SK, 1 << SKUS)


def test_lenient_spellings_are_accepted() -> None:
    # Only ASCII letter case is lenient; suit symbols are refused (tests/test_input.py).
    deal = parse_deal(ending(contract="Solo", hands={"forehand": ["hk"], "dealer": ["hq"]}), "deal.json")
    assert deal.contract == "solo"
    assert deal.hands == (parse_hand(["HK"]), parse_hand(["HQ"]))


@pytest.mark.parametrize(
    "deal",
    [
        Deal("solo", FOREHAND, (parse_hand(["HK"]), parse_hand(["HQ"]))),
        parse_deal(with_piles(ending(leader="dealer", play=["HQ", "HK", "XX"])), "x"),
        *(load_deal(path) for path in play_examples()),
    ],
)
def test_deal_to_json_round_trips(deal: Deal) -> None:
    data = deal_to_json(deal)
    # A play file cannot tell a seat's own discards from the talon cards
    # left to him; everything else comes back.
    assert parse_deal(json.loads(json.dumps(data)), "copy") == deal


def test_deal_to_json_uses_canonical_names() -> None:
    deal = parse_deal(ending(hands={"forehand": ["skus", "h4", "xx"], "dealer": ["pagat", "hq", "s7"]}), "d")
    data = deal_to_json(deal)
    assert data["hands"] == {"forehand": ["Sk", "XX", "H4"], "dealer": ["I", "HQ", "S7"]}
    assert "piles" not in data and "play" not in data


BAD_DEALS = [
    (["not", "an", "object"], "deal.json: expected a JSON object (a deal), got an array"),
    (ending(colour="red"), "deal.json: colour: unknown key"),
    ({k: v for k, v in ENDING.items() if k != "hands"}, "deal.json: hands: required key missing"),
    (ending(version=2), "deal.json: version: unsupported version 2"),
    (ending(version=True), "deal.json: version: expected the number 1, got true"),
    (ending(version="1"), "deal.json: version: expected the number 1, got the string '1'"),
    (ending(contract="dreiblat"), "deal.json: contract: unknown contract 'dreiblat'"),
    (ending(contract=3), "deal.json: contract: expected a string, got the number 3"),
    (ending(declarer="north"), "deal.json: declarer: unknown seat 'north'"),
    (ending(leader="east"), "deal.json: leader: unknown seat 'east'"),
    (ending(hands=[["HK"], ["HQ"]]), "deal.json: hands: expected an object with forehand and dealer, got an array"),
    (ending(hands={"forehand": ["HK"]}), "deal.json: hands: dealer missing"),
    (ending(hands={"forehand": ["HK"], "dealer": ["HQ"], "north": []}), "deal.json: hands.north: unknown seat"),
    (ending(hands={"forehand": "HK", "dealer": ["HQ"]}), "deal.json: hands.forehand: expected an array of card"),
    (ending(hands={"forehand": ["HK", 7], "dealer": ["HQ", "H4"]}), "deal.json: hands.forehand[1]: expected a card"),
    (ending(hands={"forehand": ["HK"], "dealer": ["H10"]}), "deal.json: hands.dealer[0]: unknown card 'H10'"),
    (ending(hands={"forehand": ["HK", "hk"], "dealer": ["HQ", "H4"]}), "deal.json: hands.forehand[1]: HK is also at"),
    (
        ending(hands={"forehand": ["HK", "I"], "dealer": ["HQ", "I"]}),
        "deal.json: hands.dealer[1]: I is also at hands.forehand[1]",
    ),
    (ending(hands={"forehand": [], "dealer": []}), "deal.json: hands.forehand: 0 cards"),
    (
        ending(hands={"forehand": hand_names(ALL_CARDS)[:17], "dealer": hand_names(ALL_CARDS)[17:34]}),
        "deal.json: hands.forehand: 17 cards",
    ),
    (
        ending(hands={"forehand": ["HK", "H4"], "dealer": ["HQ"]}),
        "deal.json: hands: unequal hands: forehand holds 2 cards, dealer 1",
    ),
    (dict(with_piles(ENDING), piles={"forehand": ["SK"]}), "deal.json: piles: dealer missing"),
    (dict(with_piles(ENDING), piles={"forehand": ["SK"], "dealer": []}), "deal.json: piles: hands and piles hold 7 of"),
    (
        dict(with_piles(ENDING), piles={"forehand": ["HK"], "dealer": []}),
        "deal.json: piles.forehand[0]: HK is also at hands.forehand[1]",
    ),
    (ending(play="HK"), "deal.json: play: expected an array of card names, got the string 'HK'"),
    (ending(play=["HK", "HQ", "XX", "I", "H4", "S7", "HK"]), "deal.json: play: 7 cards played, but the hands hold"),
    (ending(play=["HK", "S7"]), "deal.json: play[1]: trick 14: S7 is illegal on HK: the dealer must follow suit"),
    (ending(play=["HK", "HQ", "I"]), "deal.json: play[2]: trick 15: I is not in the forehand's hand"),
    (ending(play=["HK", "HQ", "HK"]), "deal.json: play[2]: trick 15: HK was already played at play[0]"),
    (ending(play=["HK", "HQ", "H4", "S7"]), "play[3]: trick 15: S7 is illegal on H4: the dealer cannot follow suit"),
    (ending(play=["XX", "S7"]), "deal.json: play[1]: trick 14: S7 is illegal on XX: the dealer must follow a tarock"),
]


@pytest.mark.parametrize(("data", "message"), BAD_DEALS)
def test_bad_deals_get_one_line_naming_the_file_and_field(data: object, message: str) -> None:
    assert message in error_of(data)


def test_play_numbers_tricks_of_the_whole_game() -> None:
    full = [hand_names(ALL_CARDS & ~TRULL)[i::2][:16] for i in (0, 1)]
    deal = parse_deal(ending(hands={"forehand": full[0], "dealer": full[1]}), "deal.json")
    assert deal.first_trick == 1
    assert parse_deal(ENDING, "deal.json").first_trick == TRICKS_PER_GAME - 2


def test_load_deal_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(ENDING), encoding="utf-8")
    assert load_deal(path) == parse_deal(ENDING, "other name")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"version": 1,\n  "contract": "solo",,}', "line 2, column 22: broken JSON"),
        ("", "line 1, column 1: broken JSON: Expecting value"),
        ('{"version": 1, "version": 1}', "version: key given twice"),
    ],
)
def test_load_deal_names_broken_json(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "deal.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DealError, match=f"^{re.escape(str(path))}: {message}"):
        load_deal(path)


def test_load_deal_names_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "missing.json"
    with pytest.raises(DealError, match=f"^{path}: cannot read the file: No such file"):
        load_deal(path)


def test_load_deal_names_a_file_that_is_not_text(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_bytes(b'{"version": \xff}')
    with pytest.raises(DealError, match="not UTF-8 text"):
        load_deal(path)


def test_examples_are_valid_deals() -> None:
    names = {path.name for path in play_examples()}
    assert {"ending.json", "whole-deal.json", "played.json"} <= names
    for name in names:
        deal = load_deal(EXAMPLES / name)
        assert deal.piles is not None, name
    assert load_deal(EXAMPLES / "played.json").play


@pytest.mark.parametrize("name", ["whole-deal.json", "played.json"])
def test_whole_deal_examples_have_piles_as_dealt(name: str) -> None:
    """docs/rules.md §3: the declarer's pile is his 8 discards and the k cards he
    laid away, none a king or a trull card; the defender's is his 8 discards
    and the 6 - k talon cards left."""
    deal = load_deal(EXAMPLES / name)
    assert deal.piles is not None
    taken = TALON_CARDS_TAKEN[deal.contract]
    assert deal.first_trick == 1
    assert deal.piles[deal.declarer].bit_count() == 8 + taken
    assert deal.piles[1 - deal.declarer].bit_count() == 8 + 6 - taken
    assert not deal.piles[deal.declarer] & (KINGS | TRULL)


def announcing(*announcements: object, contract: str = "dreiblatt") -> dict[str, Any]:
    return ending(contract=contract, announcements=list(announcements))


def test_announcements_are_read() -> None:
    deal = parse_deal(
        announcing(
            {"by": "forehand", "what": "Pagat", "when": "before"},
            {"by": "forehand", "what": "valat", "when": "after", "kontra": True},
        ),
        "deal.json",
    )
    assert deal.announcements == (
        Announcement(FOREHAND, "pagat", "before"),
        Announcement(FOREHAND, "valat", "after", kontra=True),
    )
    assert parse_deal(ENDING, "deal.json").announcements == ()


def test_a_bird_not_held_and_a_defender_s_bird_may_be_announced() -> None:
    # The forehand holds no bird here; whether a defender may announce is a
    # rule option, judged when the hand is settled.
    data = announcing(
        {"by": "forehand", "what": "uhu", "when": "after"}, {"by": "dealer", "what": "pagat"}, contract="solo"
    )
    with pytest.raises(DealError, match=r"announcements\[0\]\.when: a Solo has no before or after"):
        parse_deal(data, "deal.json")
    data = announcing({"by": "forehand", "what": "uhu"}, {"by": "dealer", "what": "pagat"}, contract="solo")
    assert [a.what for a in parse_deal(data, "deal.json").announcements] == ["uhu", "pagat"]


@pytest.mark.parametrize(
    "deal",
    [
        parse_deal(announcing({"by": "forehand", "what": "absolut", "when": "before", "kontra": True}), "x"),
        parse_deal(announcing({"by": "dealer", "what": "valat"}, contract="solo"), "x"),
    ],
)
def test_announcements_round_trip(deal: Deal) -> None:
    data = deal_to_json(deal)
    assert list(data) == [key for key in KEYS if key in data]
    assert parse_deal(json.loads(json.dumps(data)), "copy") == deal


BAD_ANNOUNCEMENTS = [
    (ending(announcements={"by": "forehand"}), "announcements: expected an array of announcements, got an object"),
    (announcing("pagat"), "announcements[0]: expected an object with by, what and when, got the string 'pagat'"),
    (announcing({"by": "forehand", "what": "pagat", "when": "after", "at": 1}), "announcements[0].at: unknown key"),
    (announcing({"what": "pagat", "when": "after"}), "announcements[0].by: required key missing"),
    (announcing({"by": "forehand", "when": "after"}), "announcements[0].what: required key missing"),
    (
        announcing({"by": "forehand", "what": "uhu", "when": "after"}, {"by": "forehand", "what": "pagatt"}),
        "deal.json: announcements[1].what: unknown announcement 'pagatt' (expected pagat, uhu,",
    ),
    (announcing({"by": "north", "what": "pagat", "when": "after"}), "announcements[0].by: unknown seat 'north'"),
    (announcing({"by": "forehand", "what": "pagat", "when": "during"}), "announcements[0].when: unknown timing"),
    (announcing({"by": "forehand", "what": "pagat", "when": 1}), "announcements[0].when: expected a string"),
    (announcing({"by": "forehand", "what": "pagat"}), "announcements[0].when: required in a dreiblatt"),
    (
        announcing({"by": "forehand", "what": "pagat", "when": "after"}, contract="solo"),
        "announcements[0].when: a Solo has no before or after",
    ),
    (
        announcing({"by": "forehand", "what": "pagat", "when": "after", "kontra": "yes"}),
        "announcements[0].kontra: expected true or false, got the string 'yes'",
    ),
    (
        announcing({"by": "dealer", "what": "absolut", "when": "after"}),
        "announcements[0].by: absolut is the declarer's announcement; the dealer defends",
    ),
    (
        announcing(
            {"by": "forehand", "what": "valat", "when": "after"}, {"by": "dealer", "what": "valat", "when": "after"}
        ),
        "announcements[1].what: valat is already announced at announcements[0]",
    ),
]


@pytest.mark.parametrize(("data", "message"), BAD_ANNOUNCEMENTS)
def test_bad_announcements_get_one_line_naming_the_field(data: object, message: str) -> None:
    assert message in error_of(data)


def laid_deal() -> dict[str, Any]:
    """The whole-deal example with "laid", as kosolve deal writes it."""
    data: dict[str, Any] = json.loads((EXAMPLES / "dealt.json").read_text())
    written: dict[str, Any] = json.loads(json.dumps(deal_to_json(load_deal(EXAMPLES / "dealt.json"))))
    assert "laid" in written and data["declarer"] == "dealer"
    return written


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["laid"]["forehand"].append("Sk"), "laid.forehand: Sk is not in the forehand's pile"),
        (lambda d: d["laid"]["dealer"].pop(), "laid.dealer: the declarer's pile is all his own"),
        (lambda d: d["laid"]["forehand"].pop(), "laid.forehand: leaves 5 cards of the defender's pile to the talon"),
        (lambda d: d.pop("piles"), "laid: needs a whole game with its piles"),
        (lambda d: d["laid"].pop("dealer"), "laid: dealer missing"),
    ],
)
def test_laid_is_checked_against_the_piles(change: Any, message: str) -> None:
    data = laid_deal()
    change(data)
    with pytest.raises(DealError, match=re.escape(f"deal.json: {message}")):
        parse_deal(data, "deal.json")


def test_laid_makes_the_play_file_the_deal_as_dealt() -> None:
    derived = load_deal(EXAMPLES / "dealt.json")
    assert parse_deal(laid_deal(), "deal.json") == derived and derived.laid is not None
