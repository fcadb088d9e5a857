"""Deal files that give the deal as dealt (docs/deal-files.md, "A deal as
dealt"): every refusal is one line, the derived play position is the play
file of the same deal, held bonuses are exact, and the discard variants
(docs/rules.md §3.3) judge the discards and lay-aways."""

from __future__ import annotations

import copy
import dataclasses
import io
import json
import random
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Final

import pytest
from click.testing import CliRunner
from support import EXAMPLES
from support.deal_files import one_line

from kosolve.analysis.report import Options, analyse
from kosolve.analysis.scoring import held_bonuses
from kosolve.cli.loading import DealFileError, load_dealt
from kosolve.cli.main import cli
from kosolve.dealing import choose_contract, choose_exchange, deal_as_dealt
from kosolve.model.cards import ALL_CARDS, parse_hand
from kosolve.model.deal import Deal, DealError, deal_to_json
from kosolve.model.dealt import KEPT, TAROCKS, discard_problem
from kosolve.model.dealt_file import DealtFile, dealt_to_json, parse_dealt_file
from kosolve.model.files import load_deal, load_dealt_file, parse_deal
from kosolve.model.game import DEFAULT_RULES, DISCARD_VARIANTS, FOREHAND, SEATS, Rules, RulesError

DEALT: Final[dict[str, Any]] = json.loads((EXAMPLES / "dealt.json").read_text(encoding="utf-8"))
"""Seed 3 of the realistic dealer: a Zweiblatt of the dealer, who takes CK
CC and lays away CC C10; the forehand's discards hold the tarock IV (he has
only seven plain cards), and the talon card II is left to him."""

Change = Callable[[dict[str, Any]], object]


def changed(change: Change) -> dict[str, Any]:
    data = copy.deepcopy(DEALT)
    change(data)
    return data


def seat(data: dict[str, Any], name: str) -> dict[str, Any]:
    result: dict[str, Any] = data["dealt"][name]
    return result


def replace_card(cards: list[str], old: str, new: str) -> None:
    cards[cards.index(old)] = new


def cli_error(tmp_path: Path, data: object, *args: str) -> str:
    """The one line the command line refuses ``data`` with, checked to be
    the whole of stderr, with nothing on stdout and exit status 2."""
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(cli, ["-q", *args, str(path)])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.endswith("\n")
    prefix = f"Error: {path}: "
    assert result.stderr.startswith(prefix), result.stderr
    return one_line(DealError(result.stderr[len(prefix) : -1]))


def then(*changes: Change) -> Change:
    """The changes made one after the other."""
    return lambda data: [change(data) for change in changes]


def _take(cards: list[str]) -> Change:
    return lambda data: data["exchange"].update(take=cards)


def _lay(cards: list[str]) -> Change:
    return lambda data: data["exchange"].update(lay_away=cards)


BAD: Final[list[tuple[str, Change, str]]] = [
    ("hands beside", lambda d: d.update(hands={}), "hands: not beside dealt (a deal as dealt derives"),
    ("piles beside", lambda d: d.update(piles={}), "piles: not beside dealt"),
    ("leader beside", lambda d: d.update(leader="forehand"), "leader: not beside dealt"),
    ("unknown key", lambda d: d.update(north=1), "north: unknown key (a deal as dealt has version, dealt,"),
    ("version", lambda d: d.update(version=2), "version: unsupported version 2"),
    ("no version", lambda d: d.pop("version"), "version: required key missing"),
    ("dealt not an object", lambda d: d.update(dealt=[]), "dealt: expected an object with talon, forehand and"),
    ("dealt unknown key", lambda d: d["dealt"].update(north={}), "dealt.north: unknown key (dealt has talon,"),
    ("dealt no talon", lambda d: d["dealt"].pop("talon"), "dealt.talon: required key missing"),
    ("dealt no dealer", lambda d: d["dealt"].pop("dealer"), "dealt.dealer: required key missing"),
    ("talon short", lambda d: d["dealt"]["talon"].pop(), "dealt.talon: 5 cards (the talon holds 6)"),
    ("talon not array", lambda d: d["dealt"].update(talon="CK"), "dealt.talon: expected an array of card names"),
    ("talon bad card", lambda d: d["dealt"]["talon"].__setitem__(1, "CX"), "dealt.talon[1]: unknown card 'CX'"),
    (
        "card twice",
        lambda d: replace_card(seat(d, "forehand")["hand"], "C7", "CK"),
        "dealt.forehand.hand[15]: CK is also at dealt.talon[0]",
    ),
    (
        "card twice across seats",
        lambda d: replace_card(seat(d, "dealer")["personal"], "C10", "C8"),
        "dealt.dealer.personal[7]: C8 is also at dealt.forehand.personal[7]",
    ),
    ("seat not an object", lambda d: d["dealt"].update(dealer=[]), "dealt.dealer: expected an object with hand,"),
    (
        "seat unknown key",
        lambda d: seat(d, "dealer").update(hands=[]),
        "dealt.dealer.hands: unknown key (a seat has hand, personal, discards, picked_up)",
    ),
    ("seat no hand", lambda d: seat(d, "dealer").pop("hand"), "dealt.dealer.hand: required key missing"),
    ("seat no discards", lambda d: seat(d, "dealer").pop("discards"), "dealt.dealer.discards: required key missing"),
    ("hand short", lambda d: seat(d, "dealer")["hand"].pop(), "dealt.dealer.hand: 15 cards (a hand is dealt 16)"),
    (
        "personal long",
        lambda d: seat(d, "dealer")["personal"].append("C9"),
        "dealt.dealer.personal[8]: C9 is also at dealt.dealer.hand[15]",
    ),
    (
        "personal short",
        lambda d: seat(d, "forehand")["personal"].pop(),
        "dealt.forehand.personal: 7 cards (personal cards are 8)",
    ),
    (
        "discard not his",
        lambda d: replace_card(seat(d, "forehand")["discards"], "DQ", "HQ"),
        "dealt.forehand.discards[1]: HQ is not among his cards",
    ),
    (
        "discard a personal card",
        lambda d: replace_card(seat(d, "forehand")["discards"], "DQ", "H2"),
        "dealt.forehand.discards: H2 is not among the hand cards",
    ),
    (
        "discard twice",
        lambda d: replace_card(seat(d, "forehand")["discards"], "D2", "DQ"),
        "dealt.forehand.discards[2]: DQ is also at dealt.forehand.discards[1]",
    ),
    (
        "discards short",
        lambda d: seat(d, "dealer")["discards"].pop(),
        "dealt.dealer.discards: 7 card(s) laid away (the classic discard lays away 8)",
    ),
    (
        "discard a king",
        lambda d: replace_card(seat(d, "forehand")["discards"], "DQ", "HK"),
        "dealt.forehand.discards: HK may not be laid away (no kings, no trull cards)",
    ),
    (
        "discard the trull",
        lambda d: replace_card(seat(d, "forehand")["discards"], "IV", "Sk"),
        "dealt.forehand.discards: Sk may not be laid away (no kings, no trull cards)",
    ),
    (
        "discard a tarock not needed",
        lambda d: replace_card(seat(d, "dealer")["discards"], "HQ", "VI"),
        "dealt.dealer.discards: lays away 1 tarock(s) but may lay away tarocks only for want of other cards (0 needed)",
    ),
    (
        "picked up fewer",
        lambda d: seat(d, "dealer").update(picked_up=["XX"]),
        "dealt.dealer.picked_up: 1 personal card(s) picked up, the classic discard picks up all of them: 8",
    ),
    (
        "picked up a hand card",
        lambda d: seat(d, "dealer").update(picked_up=["HQ"]),
        "dealt.dealer.picked_up[0]: HQ is not among his personal cards",
    ),
    ("bad contract", lambda d: d.update(contract="sol0"), "contract: unknown contract 'sol0'"),
    ("bad declarer", lambda d: d.update(declarer="north"), "declarer: unknown seat 'north'"),
    ("exchange without contract", lambda d: d.pop("contract"), "exchange: needs contract and declarer (contract"),
    ("exchange without declarer", lambda d: d.pop("declarer"), "exchange: needs contract and declarer (declarer"),
    ("exchange not an object", lambda d: d.update(exchange=[]), "exchange: expected an object with take and"),
    ("exchange no take", lambda d: d["exchange"].pop("take"), "exchange.take: required key missing"),
    ("exchange unknown key", lambda d: d["exchange"].update(give=[]), "exchange.give: unknown key (an exchange has"),
    ("take not from the talon", _take(["CK", "HK"]), "exchange.take[1]: HK is not among the talon cards"),
    ("take twice", _take(["CK", "CK"]), "exchange.take[1]: CK is also at exchange.take[0]"),
    ("take no choice", _take(["CC", "H1"]), "exchange.take: a zweiblatt takes [CK CC] or [H1 S10] or [II S8]"),
    ("take out of order", _take(["CC", "CK"]), "exchange.take: a zweiblatt takes [CK CC] or"),
    ("take too many", _take(["CK", "CC", "H1"]), "exchange.take: a zweiblatt takes [CK CC] or"),
    ("lay away too few", _lay(["C10"]), "exchange.lay_away: lays away 1 card(s), as many as taken: 2"),
    ("lay away a king", _lay(["CK", "C10"]), "exchange.lay_away: CK may not be laid away (no kings, no trull cards)"),
    (
        "lay away a tarock",
        _lay(["VI", "C10"]),
        "exchange.lay_away: lays away 1 tarock(s) but may lay away tarocks only for want of other cards",
    ),
    (
        "lay away not his",
        _lay(["IV", "C10"]),
        "exchange.lay_away[0]: IV is not among the declarer's cards and those taken",
    ),
    (
        "lay away a talon card not taken",
        _lay(["S8", "C10"]),
        "exchange.lay_away[0]: S8 is not among the declarer's cards and those taken",
    ),
    ("illegal play", lambda d: d.update(play=["XX"]), "play[0]: trick 1: "),
    ("play not array", lambda d: d.update(play="XX"), "play: expected an array of card names"),
    ("play without exchange", lambda d: (d.pop("exchange"), d.update(play=["XX"])), "play: needs the exchange"),
    (
        "announcement without timing",
        lambda d: d.update(announcements=[{"by": "dealer", "what": "pagat"}]),
        "announcements[0].when: ",
    ),
    (
        "announcements without contract",
        lambda d: (d.pop("contract"), d.pop("exchange"), d.update(announcements=[])),
        "announcements: needs contract and declarer (contract missing)",
    ),
]


@pytest.mark.parametrize(("name", "change", "message"), BAD, ids=[case[0] for case in BAD])
def test_bad_deal_as_dealt_is_one_line_through_the_cli(name: str, change: Change, message: str, tmp_path: Path) -> None:
    assert cli_error(tmp_path, changed(change)).startswith(message)


@pytest.mark.parametrize("dropped", [("contract", "declarer", "exchange"), ("exchange",)])
def test_a_deal_as_dealt_without_its_exchange_is_tabled(dropped: tuple[str, ...], tmp_path: Path) -> None:
    # No play position: kosolve answers it as kosolve exchange does.
    data = changed(lambda d: [d.pop(key) for key in dropped])
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(cli, ["-q", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"{path}: par ")


def test_the_discard_option_judges_the_file(tmp_path: Path) -> None:
    # The forehand's IV is a tarock, which only the classic, easy and
    # tactical variants let him lay away.
    assert cli_error(tmp_path, DEALT, "--discard", "medium") == (
        "dealt.forehand.discards: IV may not be laid away (the medium discard lays away plain suit cards only)"
    )
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(DEALT), encoding="utf-8")
    for variant in ("classic", "easy", "tactical"):
        result = CliRunner().invoke(cli, ["-q", "--discard", variant, str(path)])
        assert result.exit_code == 0, result.output


def test_an_unknown_discard_variant_is_one_line() -> None:
    with pytest.raises(RulesError, match=r"^discard: 'lazy' is not one of the rule option's values \(classic, "):
        Rules(discard="lazy")
    result = CliRunner().invoke(cli, ["--discard", "lazy", str(EXAMPLES / "dealt.json")])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("Error: --discard: ") and result.stderr.count("\n") == 1


def test_the_open_example_is_refused_by_load_deal_and_read_by_load_dealt_file() -> None:
    with pytest.raises(DealError, match=r"dealt-open.json: contract: required key missing to play \(a deal as dealt"):
        load_deal(EXAMPLES / "dealt-open.json")
    file = load_dealt_file(EXAMPLES / "dealt-open.json")
    assert file.contract is None and file.declarer is None and file.exchange is None
    assert file.dealt == load_dealt_file(EXAMPLES / "dealt.json").dealt


def test_a_deal_as_dealt_is_read_from_the_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    class Stdin:
        buffer = io.BytesIO(json.dumps(DEALT).encode())

    monkeypatch.setattr("sys.stdin", Stdin())
    assert load_dealt("-", DEFAULT_RULES) == ("<stdin>", load_dealt_file(EXAMPLES / "dealt.json"))
    Stdin.buffer = io.BytesIO(b"[]")
    with pytest.raises(DealFileError, match=r"^<stdin>: expected a JSON object"):
        load_dealt("-", DEFAULT_RULES)


def test_the_derived_position_is_the_play_file_of_the_same_deal() -> None:
    # The play file written by hand from the deal as dealt (docs/rules.md §3.6).
    dealt = DEALT["dealt"]

    def cards(*names: Iterable[str]) -> set[str]:
        return set().union(*names)

    forehand, dealer = dealt["forehand"], dealt["dealer"]
    take, lay_away = set(DEALT["exchange"]["take"]), set(DEALT["exchange"]["lay_away"])
    by_hand = {
        "version": 1,
        "contract": "zweiblatt",
        "declarer": "dealer",
        "hands": {
            "forehand": sorted(cards(forehand["hand"], forehand["personal"]) - set(forehand["discards"])),
            "dealer": sorted((cards(dealer["hand"], dealer["personal"]) - set(dealer["discards"]) | take) - lay_away),
        },
        "piles": {
            "forehand": sorted(cards(forehand["discards"], dealt["talon"]) - take),
            "dealer": sorted(cards(dealer["discards"], lay_away)),
        },
        "leader": "forehand",
    }
    play_file = parse_deal(by_hand, "by-hand.json")
    derived = load_deal(EXAMPLES / "dealt.json")
    assert derived.laid == (parse_hand(forehand["discards"]), parse_hand([*dealer["discards"], *lay_away]))
    assert dataclasses.replace(derived, laid=None) == dataclasses.replace(play_file, laid=None)
    assert parse_deal(deal_to_json(derived), "copy") == derived
    for field in ("contract", "declarer", "hands", "piles", "leader", "play", "announcements"):
        assert getattr(derived, field) == getattr(play_file, field), field
    options = Options.value_only()
    ours, theirs = analyse(derived, options), analyse(play_file, options)
    assert ours.solution.thirds == theirs.solution.thirds


def test_a_bird_among_the_talon_cards_left_is_not_held() -> None:
    # The forehand holds I and III (swapped in from the dealer), laid IV
    # away himself, and the talon's II is left to him: four birds in his
    # cards and pile, but not his own.
    def swap(data: dict[str, Any]) -> None:
        for mine, theirs in (("XIX", "I"), ("XVI", "III")):
            replace_card(seat(data, "forehand")["hand"], mine, theirs)
            replace_card(seat(data, "dealer")["hand"], theirs, mine)

    deal = parse_deal(changed(swap), "birds.json")
    assert deal.piles is not None
    assert held_bonuses(deal.hands, deal.piles, deal.laid) == []
    # The play file's reading, from the pile alone, cannot tell.
    assert (FOREHAND, "four_birds") in held_bonuses(deal.hands, deal.piles)
    assert analyse(deal, Options.value_only()).held == ()

    # With the II his own (laid away in place of the S7, the S7 then in
    # the talon), the four birds are held.
    def own_ii(data: dict[str, Any]) -> None:
        swap(data)
        replace_card(data["dealt"]["talon"], "II", "S7")
        replace_card(seat(data, "forehand")["hand"], "S7", "II")
        replace_card(seat(data, "forehand")["discards"], "S7", "II")

    deal = parse_deal(changed(own_ii), "birds.json")
    assert deal.piles is not None
    assert held_bonuses(deal.hands, deal.piles, deal.laid) == [(FOREHAND, "four_birds")]


def medium(data: dict[str, Any]) -> None:
    """The forehand keeps his IV under the medium variant: he lays away his
    seven plain cards and picks up seven personal cards, leaving C8."""
    forehand = seat(data, "forehand")
    forehand["discards"].remove("IV")
    forehand["picked_up"] = [card for card in forehand["personal"] if card != "C8"]


def easy(data: dict[str, Any]) -> None:
    """The dealer exchanges three cards under the easy variant, a tarock
    among them, and picks up three personal cards."""
    dealer = seat(data, "dealer")
    dealer["discards"] = ["VI", "H3", "H4"]
    dealer["picked_up"] = ["XX", "XV", "C10"]


def tactical(data: dict[str, Any]) -> None:
    """The forehand lays away a personal card under the tactical variant."""
    replace_card(seat(data, "forehand")["discards"], "DQ", "H2")


def dealt_of(data: dict[str, Any], variant: str) -> str | DealtFile:
    """The file read under ``variant``, or the message it is refused with."""
    try:
        return parse_dealt_file(data, "deal.json", rules=Rules(discard=variant))
    except DealError as error:
        return one_line(error)


@pytest.mark.parametrize(
    ("change", "legal"),
    [
        (lambda data: None, {"classic", "easy", "tactical"}),
        (medium, {"medium", "easy"}),
        (easy, {"easy"}),
        (tactical, {"tactical"}),
    ],
)
def test_each_variant_judges_the_discards(change: Change, legal: set[str]) -> None:
    data = changed(change)
    for variant in DISCARD_VARIANTS:
        result = dealt_of(data, variant)
        assert isinstance(result, DealtFile) == (variant in legal), (variant, result)
        if isinstance(result, DealtFile):
            deal = result.play_deal()
            assert [hand.bit_count() for hand in deal.hands] == [16, 16]
            assert deal.piles is not None
            assert deal.hands[0] | deal.hands[1] | deal.piles[0] | deal.piles[1] == ALL_CARDS


def test_the_personal_cards_left_lie_in_his_pile() -> None:
    file = dealt_of(changed(medium), "medium")
    assert isinstance(file, DealtFile)
    deal = file.play_deal()
    assert deal.piles is not None and deal.laid is not None
    c8 = parse_hand(["C8"])
    assert deal.piles[FOREHAND] & c8 and deal.laid[FOREHAND] & c8
    assert not deal.hands[FOREHAND] & c8
    assert dealt_to_json(file)["dealt"]["forehand"]["picked_up"] == [  # type: ignore[index]
        card for card in DEALT["dealt"]["forehand"]["personal"] if card != "C8"
    ]


@pytest.mark.parametrize(
    ("variant", "change", "message"),
    [
        (
            "medium",
            then(medium, lambda d: seat(d, "dealer")["discards"].pop()),
            "dealt.dealer.discards: 7 card(s) laid away, but the medium discard lays away as many plain suit cards"
            " (no kings) as he can, up to 8: 8",
        ),
        (
            "medium",
            then(medium, lambda d: seat(d, "forehand")["picked_up"].pop()),
            "dealt.forehand.picked_up: 6 personal card(s) picked up, the medium discard picks up as many as laid"
            " away: 7",
        ),
        (
            "easy",
            lambda d: seat(d, "dealer").update(discards=[]),
            "dealt.dealer.picked_up: 8 personal card(s) picked up, the easy discard picks up as many as laid away: 0",
        ),
        (
            "easy",
            lambda d: seat(d, "dealer").update(discards=["HQ", "I"], picked_up=["XX", "XV"]),
            "dealt.dealer.discards: I may not be laid away (no kings, no trull cards)",
        ),
        (
            "tactical",
            lambda d: seat(d, "forehand")["discards"].pop(),
            "dealt.forehand.discards: 7 card(s) laid away (the tactical discard lays away 8)",
        ),
        (
            "tactical",
            lambda d: replace_card(seat(d, "forehand")["discards"], "DQ", "HQ"),
            "dealt.forehand.discards[1]: HQ is not among his cards",
        ),
        ("classic", _lay(["VI", "C10"]), "exchange.lay_away: lays away 1 tarock(s) but may lay away tarocks only"),
        (
            "medium",
            then(medium, _lay(["VI", "C10"])),
            "exchange.lay_away: lays away 1 tarock(s) but may lay away tarocks only",
        ),
        ("easy", _lay(["I", "C10"]), "exchange.lay_away: I may not be laid away (no kings, no trull cards)"),
    ],
)
def test_variant_refusals(variant: str, change: Change, message: str) -> None:
    result = dealt_of(changed(change), variant)
    assert isinstance(result, str) and result.startswith(f"deal.json: {message}"), result


@pytest.mark.parametrize("variant", ["easy", "tactical"])
def test_easy_and_tactical_lay_away_tarocks_in_the_exchange(variant: str) -> None:
    result = dealt_of(changed(_lay(["VI", "C10"])), variant)
    assert isinstance(result, DealtFile)
    assert result.play_deal().laid is not None


@pytest.mark.parametrize("variant", DISCARD_VARIANTS)
def test_realistic_dealing_discards_legally_in_each_variant(variant: str) -> None:
    rng = random.Random(11)
    rules = Rules(discard=variant)
    for _ in range(40):
        dealt = deal_as_dealt(rng, variant)
        for seat_ in SEATS:
            problem = discard_problem(
                dealt.hands[seat_], dealt.personal[seat_], dealt.discards[seat_], dealt.picked(seat_), variant
            )
            assert problem is None, (variant, problem)
            assert dealt.held(seat_).bit_count() == 16
        declarer, contract = choose_contract(dealt)
        exchange = choose_exchange(dealt.held(declarer), contract, dealt.talon, rng)
        file = DealtFile(dealt, contract, declarer, exchange, discard=variant)
        data = json.loads(json.dumps(dealt_to_json(file)))
        assert parse_dealt_file(data, "copy", rules=rules) == file
        deal = parse_deal(data, "copy", rules=rules)
        assert isinstance(deal, Deal) and deal.piles is not None
        assert deal.hands[0] | deal.hands[1] | deal.piles[0] | deal.piles[1] == ALL_CARDS


def test_medium_dealing_leaves_personal_cards_when_plain_cards_are_short() -> None:
    rng = random.Random(5)
    short = 0
    for _ in range(60):
        dealt = deal_as_dealt(rng, "medium")
        for seat_ in SEATS:
            plain = (dealt.hands[seat_] & ~TAROCKS & ~KEPT).bit_count()
            assert dealt.discards[seat_].bit_count() == min(8, plain)
            assert not dealt.discards[seat_] & TAROCKS
            short += plain < 8
    assert short > 0


def test_classic_dealing_is_unchanged_by_the_variants() -> None:
    # The bench deals by the classic path: the same numbers drawn, the same deals.
    assert deal_as_dealt(random.Random(3)) == deal_as_dealt(random.Random(3), "classic")
    assert deal_as_dealt(random.Random(3)).picked_up is None


@pytest.mark.parametrize(("change", "variant"), [(lambda data: None, "classic"), (medium, "medium"), (easy, "easy")])
def test_dealt_to_json_round_trips(change: Change, variant: str) -> None:
    file = dealt_of(changed(change), variant)
    assert isinstance(file, DealtFile)
    played = dataclasses.replace(
        file,
        announcements=parse_deal(changed(lambda d: d.update(announcements=[PAGAT])), "x").announcements,
    )
    for each in (file, played, DealtFile(file.dealt, discard=variant)):
        data = json.loads(json.dumps(dealt_to_json(each)))
        assert parse_dealt_file(data, "copy", rules=Rules(discard=variant)) == each


PAGAT: Final = {"by": "dealer", "what": "pagat", "when": "before"}


def test_a_dealt_file_with_announcements_and_play_is_solved(tmp_path: Path) -> None:
    data = changed(lambda d: d.update(announcements=[PAGAT], play=["XIX", "XXI"]))
    path = tmp_path / "dealt.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    file = load_dealt_file(path)
    assert len(file.play) == 2 and len(file.announcements) == 1
    assert file.play_deal() == load_deal(path)
    assert parse_dealt_file(dealt_to_json(file), "copy") == file
    result = CliRunner().invoke(cli, ["-q", str(path)])
    assert result.exit_code == 0 and result.stderr == "", result.output
