"""Deals with conditions (kosolve.dealing.where): the language means what
docs/statistics.md says, checked against hands read by card name rather
than by bitmask; it refuses everything outside its documented set; and the
deals kept are the dealer's own deals, filtered."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest

from kosolve.dealing.dealer import deal_bid
from kosolve.dealing.where import ATTRIBUTES, MAX_NESTING, NAMES, Facts, WhereError, dealt_where, where
from kosolve.model.cards import card_name
from kosolve.model.deal import Deal, deal_to_json
from kosolve.model.dealt_file import DealtFile
from kosolve.model.game import FOREHAND

FILES = [deal_bid(random.Random(seed)) for seed in range(300)]

# Read by name, independently of the masks the language compiles to.
TAROCK_NAMES = {"Sk", "XXI", "XX", "XIX", "XVIII", "XVII", "XVI", "XV", "XIV", "XIII", "XII", "XI", "X", "IX"}
TAROCK_NAMES |= {"VIII", "VII", "VI", "V", "IV", "III", "II", "I"}
FACE_POINTS = {"K": 5, "Q": 4, "C": 3, "J": 2}


def _hand(file: DealtFile, seat: int) -> set[str]:
    """A seat's 16 cards at trick 1 by name, as the play file writes them."""
    data = deal_to_json(file.play_deal())
    hands = data["hands"]
    assert isinstance(hands, dict)
    return set(hands["forehand" if seat == FOREHAND else "dealer"])


def points(names: set[str]) -> float:
    """Card points as docs/rules.md §2 counts them: each card's value less
    two thirds; the trull and kings 5, queens 4, cavaliers 3, jacks 2, the
    rest 1."""

    def value(name: str) -> int:
        if name in ("Sk", "XXI", "I"):
            return 5
        return FACE_POINTS.get(name[1:], 1) if name not in TAROCK_NAMES else 1

    return sum(value(name) - 2 / 3 for name in names)


def test_each_attribute_counts_what_its_name_says() -> None:
    by_name: dict[str, Callable[[set[str]], float]] = {
        "tarocks": lambda hand: len(hand & TAROCK_NAMES),
        "kings": lambda hand: sum(name in hand for name in ("HK", "DK", "SK", "CK")),
        "trull": lambda hand: sum(name in hand for name in ("I", "XXI", "Sk")),
        "birds": lambda hand: sum(name in hand for name in ("I", "II", "III", "IV")),
        "hearts": lambda hand: sum(name[0] == "H" for name in hand),
        "diamonds": lambda hand: sum(name[0] == "D" for name in hand),
        "spades": lambda hand: sum(name[0] == "S" and name != "Sk" for name in hand),
        "clubs": lambda hand: sum(name[0] == "C" for name in hand),
        "voids": lambda hand: sum(not any(n[0] == s and n != "Sk" for n in hand) for s in "HDSC"),
        "points": points,
    }
    assert set(by_name) | {"hand"} == set(ATTRIBUTES)
    for file in FILES[:60]:
        for seat, seat_name in ((0, "forehand"), (1, "dealer")):
            hand = _hand(file, seat)
            for attribute, count in by_name.items():
                value = count(hand)
                # Points are thirds as fractions: bracketed, not compared to a float's last digit.
                around = f"{value - 0.01} < {seat_name}.{attribute} < {value + 0.01}"
                assert where(around)(file), (attribute, sorted(hand))
                assert not where(f"{seat_name}.{attribute} > {value + 0.5}")(file)
                assert not where(f"{seat_name}.{attribute} < {value - 0.5}")(file)


def test_the_declarer_and_the_contract_are_the_auctions() -> None:
    for file in FILES[:40]:
        assert file.declarer is not None
        declarer = "forehand" if file.declarer == FOREHAND else "dealer"
        defender = "dealer" if declarer == "forehand" else "forehand"
        assert where(f"declarer == {declarer} and defender == {defender}")(file)
        assert where(f"contract == '{file.contract}'")(file)
        assert where(f"declarer.tarocks == {declarer}.tarocks and defender.points == {defender}.points")(file)


def test_a_card_in_a_hand_and_as_dealt() -> None:
    for file in FILES[:40]:
        for seat, seat_name in ((0, "forehand"), (1, "dealer")):
            hand = _hand(file, seat)
            for card in ("I", "Sk", "HK", "C7", "XXI"):
                assert where(f"'{card}' in {seat_name}.hand")(file) is (card in hand)
                assert where(f"'{card}' not in {seat_name}.hand")(file) is (card not in hand)
    # As dealt the declarer holds what he held before the talon exchange.
    changed = [f for f in FILES if f.exchange is not None and f.exchange.take]
    assert changed
    for file in changed[:20]:
        assert file.exchange is not None and file.declarer is not None
        taken = file.exchange.take[0]
        name = card_name(taken)
        declarer = "forehand" if file.declarer == FOREHAND else "dealer"
        kept = not file.exchange.lay_away >> taken & 1
        assert where(f"'{name}' in {declarer}.hand")(file) is kept
        assert where(f"'{name}' in talon", as_dealt=True)(file) and where(f"'{name}' in talon")(file)
        assert not where(f"'{name}' in {declarer}.hand", as_dealt=True)(file)


def test_operators_precedence_and_chains() -> None:
    file = FILES[0]
    assert where("not false and true or false")(file)
    assert not where("not (true or false)")(file)
    assert where("true or false and false")(file), "and binds tighter than or"
    assert where("1 < 2 <= 2 < 3")(file) and not where("1 < 2 > 3")(file)
    assert where("2 - 1 + 3 == 4")(file) and where("-1 < 0")(file)
    assert where("forehand.tarocks + dealer.tarocks <= 22")(file)
    assert where("forehand.points + dealer.points <= 70.0")(file)


@pytest.mark.parametrize(
    ("text", "position", "says"),
    [
        ("forehand.__class__ == 1", 10, "a seat has no '__class__'"),
        ("forehand.hand.bit_count == 1", 14, "'.' where the condition should end"),
        ("len(forehand.hand) == 1", 1, "unknown name 'len'"),
        ("forehand.tarocks() > 1", 17, "'(' where the condition should end"),
        ("__import__ == 1", 1, "unknown name '__import__'"),
        ("os.system == 1", 1, "unknown name 'os'"),
        ("forhand.tarocks >= 10", 1, "unknown name 'forhand'"),
        ("forehand.tarocks >= ", 21, "expected a value, got the end of the condition"),
        ("forehand.tarocks", 1, "the condition must be true or false, not a number"),
        ("'XXII' in forehand.hand", 1, "'XXII' is not a card"),
        ("contract == 'sollo'", 13, "'sollo' is not a contract"),
        ("forehand.tarocks == 'ten'", 18, "'==' compares a number with a string"),
        ("contract > 'solo'", 10, "'>' orders numbers, not a string"),
        ("forehand.tarocks >= \uff11\uff10", 21, "'\uff11' is not part of the language"),
        ("forehand.points >= 1" + "0" * 4300, 20, "a number of 4,301 digits is too long"),
        ("forehand.hand == dealer.hand", 15, "cannot compare hands"),
        ("forehand.tarocks in forehand.hand", 1, "'in' needs a card's name in quotes"),
        ("'I' in forehand.tarocks", 8, "'in' looks for a card in a hand, not in a number"),
        ("(true", 6, "expected ')' to close the '(' at character 1"),
        ("forehand.tarocks > 1 ; true", 22, "';' is not part of the language"),
        ("forehand.tarocks > 1 and 3", 26, "each side of 'and' must be true or false, not a number"),
        ("true or 'x'", 9, "each side of 'or' must be true or false"),
        ("not 3", 5, "what 'not' negates must be true or false"),
        ("forehand.tarocks + true > 1", 20, "'+' adds numbers, not true or false"),
        ("lambda == 1", 1, "unknown name 'lambda'"),
        ("[1] == 1", 1, "'[' is not part of the language"),
    ],
)
def test_what_is_outside_the_language_is_refused_at_its_place(text: str, position: int, says: str) -> None:
    with pytest.raises(WhereError) as raised:
        where(text)
    assert raised.value.position == position, str(raised.value)
    assert says in str(raised.value) and str(raised.value).startswith(f"at character {position}: ")


def test_the_names_are_the_documented_ones() -> None:
    assert NAMES == ("forehand", "dealer", "declarer", "defender", "contract", "talon")


@pytest.mark.parametrize("seed", [0, 5, 9])
def test_the_deals_kept_are_the_dealers_own_filtered(seed: int) -> None:
    condition = where("declarer.tarocks >= 11 and dealer.kings >= 1")
    kept = list(dealt_where(random.Random(seed), condition, count=15))
    rng = random.Random(seed)
    plain = [deal_bid(rng) for _ in range(kept[-1][1])]
    assert [file for file, _ in kept] == [file for file in plain if condition(file)]
    assert [tried for _, tried in kept] == [i + 1 for i, file in enumerate(plain) if condition(file)]
    assert all(condition(file) for file, _ in kept)


def test_a_python_predicate_and_the_fixed_auction() -> None:
    def solo_by_the_dealer(file: DealtFile) -> bool:
        return file.contract == "solo"

    kept = list(dealt_where(random.Random(3), solo_by_the_dealer, count=3, contract="solo", declarer=1))
    assert len(kept) == 3 and [tried for _, tried in kept] == [1, 2, 3]
    assert all(file.declarer == 1 for file, _ in kept)


def test_the_budget_of_tries_stops_the_dealer() -> None:
    never = where("forehand.tarocks > 16")
    assert list(dealt_where(random.Random(1), never, count=1, tries=50)) == []
    some = list(itertools.islice(dealt_where(random.Random(1), where("true"), tries=7), 100))
    assert [tried for _, tried in some] == list(range(1, 8))


def test_a_play_file_has_the_facts_of_its_deal_at_trick_1_but_no_talon() -> None:
    for file in FILES[:30]:
        dealt, played = Facts.of(file), Facts.of_deal(file.play_deal())
        assert (played.hands, played.declarer, played.contract) == (dealt.hands, dealt.declarer, dealt.contract)
        assert where("declarer.tarocks >= 9").holds(played) is where("declarer.tarocks >= 9")(file)
    with pytest.raises(WhereError, match="at character 8: 'talon': a play file does not say"):
        where("'I' in talon").holds(Facts.of_deal(FILES[0].play_deal()))
    whole = FILES[0].play_deal()
    one_card_less = Deal(
        whole.contract, whole.declarer, (whole.hands[0] & (whole.hands[0] - 1), whole.hands[1] & (whole.hands[1] - 1))
    )
    with pytest.raises(ValueError, match="this one starts at trick 2"):
        Facts.of_deal(one_card_less)


@pytest.mark.parametrize(
    ("text", "position"),
    [("(" * 200 + "true" + ")" * 200, 41), ("not " * 400 + "true", 161), ("-" * 100 + "1 < 2", 41)],
)
def test_nesting_past_the_limit_is_refused_at_its_character_not_a_crash(text: str, position: int) -> None:
    with pytest.raises(WhereError, match=f"at character {position}: nested deeper than {MAX_NESTING} levels"):
        where(text)


def test_the_deepest_nesting_allowed_and_long_sums_and_chains_run() -> None:
    file = FILES[0]
    assert where("(" * MAX_NESTING + "true" + ")" * MAX_NESTING)(file)
    assert where("not " * MAX_NESTING + "true")(file) is (MAX_NESTING % 2 == 0)
    assert where("1" + " + 1" * 5000 + " == 5001")(file)
    assert where(" or ".join(["false"] * 5000 + ["true"]))(file)
    assert where(" < ".join(str(n) for n in range(3000)))(file)


def test_a_contract_is_named_in_any_letter_case() -> None:
    for file in FILES[:20]:
        assert file.contract is not None
        assert where(f"contract == '{file.contract.upper()}'")(file)
        assert where(f"'{file.contract.title()}' == contract")(file)
        assert not where(f"contract != '{file.contract.title()}'")(file)
