"""The rules of docs/rules.md §1, §2 and §4 in every implementation kosolve has:
kosolve.model.cards and kosolve.model.game (Python), the engine's C pieces
(through kosolve.engine._testing) and kosolve.tools.reference, which reads
everything off the card names.

Cards go between names and masks through exact canonical names, never through
the forgiving parser, so that these tests check the rules and nothing else.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Iterable

import pytest

from kosolve.engine._testing import (
    _py_card_value,
    _py_legal_replies,
    _py_order_leads,
    _py_order_replies,
    _py_pile_thirds,
    _py_reply_wins,
    _py_representatives,
    _py_winning_replies,
)
from kosolve.model import cards, game
from kosolve.tools import reference

NAMES = cards.CARD_NAMES
CARD = {name: card for card, name in enumerate(NAMES)}
ALL = range(cards.N_CARDS)


def mask(names: Iterable[str]) -> int:
    return sum(1 << CARD[name] for name in set(names))


def names(hand: int) -> set[str]:
    return {NAMES[card] for card in ALL if hand >> card & 1}


# The follow-suit rule as each implementation states it, on names.
LegalFn = Callable[[list[str], str], set[str]]
LEGAL: dict[str, LegalFn] = {
    "game": lambda hand, led: names(game.legal_replies(mask(hand), CARD[led])),
    "c": lambda hand, led: names(_py_legal_replies(mask(hand), CARD[led])),
    "reference": lambda hand, led: reference.legal_cards(hand, led),
}

# Whether the reply takes the trick, as each implementation decides it.
WinsFn = Callable[[str, str], bool]
WINS: dict[str, WinsFn] = {
    "game": lambda led, reply: game.reply_wins(CARD[led], CARD[reply]),
    "c": lambda led, reply: bool(_py_reply_wins(CARD[led], CARD[reply])),
    "reference": lambda led, reply: reference.trick_winner(led, reply) == 1,
}

# What a set of cards counts, in thirds.
ThirdsFn = Callable[[list[str]], int]
THIRDS: dict[str, ThirdsFn] = {
    "cards": lambda pile: cards.thirds_of(mask(pile)),
    "c": lambda pile: _py_pile_thirds(mask(pile)),
    "reference": lambda pile: reference.pile_thirds(pile),
}


# -- the pack ---------------------------------------------------------------


def test_both_packs_hold_the_same_54_cards() -> None:
    assert len(NAMES) == len(set(NAMES)) == 54
    assert set(NAMES) == set(reference.all_card_names())


def test_parse_card_reads_every_canonical_name() -> None:
    misread = {name: NAMES[cards.parse_card(name)] for name in NAMES if cards.parse_card(name) != CARD[name]}
    assert misread == {}


def test_suits_agree() -> None:
    letters = {cards.HEARTS: "H", cards.DIAMONDS: "D", cards.SPADES: "S", cards.CLUBS: "C", cards.TAROCK: "T"}
    for card in ALL:
        assert letters[cards.suit_of(card)] == reference.suit(NAMES[card]), NAMES[card]
    assert sum(reference.suit(name) == "T" for name in NAMES) == 22
    assert all(sum(reference.suit(name) == letter for name in NAMES) == 8 for letter in "HDSC")


def test_card_values_agree_and_sum_to_106() -> None:
    for card in ALL:
        assert cards.card_value(card) == _py_card_value(card) == reference.card_value(NAMES[card]), NAMES[card]
    assert sum(reference.card_value(name) for name in NAMES) == 106


@pytest.mark.parametrize(
    ("value", "cards_of_value"),
    [
        (5, {"HK", "DK", "SK", "CK", "I", "XXI", "Sk"}),
        (4, {"HQ", "DQ", "SQ", "CQ"}),
        (3, {"HC", "DC", "SC", "CC"}),
        (2, {"HJ", "DJ", "SJ", "CJ"}),
    ],
)
def test_counting_cards(value: int, cards_of_value: set[str]) -> None:
    assert {NAMES[card] for card in ALL if cards.card_value(card) == value} == cards_of_value
    assert {name for name in NAMES if reference.card_value(name) == value} == cards_of_value


def test_spade_king_is_not_the_skus() -> None:
    assert reference.suit("SK") == "S" and reference.suit("Sk") == "T"
    assert cards.suit_of(CARD["SK"]) == cards.SPADES and cards.suit_of(CARD["Sk"]) == cards.TAROCK


def test_rank_order_within_each_suit_agrees() -> None:
    # kosolve numbers cards so that a higher bit is a higher card of its suit.
    for a, b in itertools.permutations(ALL, 2):
        if cards.suit_of(a) == cards.suit_of(b):
            assert (a > b) == (reference.rank(NAMES[a]) > reference.rank(NAMES[b])), (NAMES[a], NAMES[b])


# -- following suit ---------------------------------------------------------

FOLLOW_CASES = [
    pytest.param(["HK", "H4", "S7", "XX"], "H1", {"HK", "H4"}, id="follow suit"),
    pytest.param(["HK", "XX", "C7"], "H4", {"HK"}, id="follow suit with a tarock held"),
    pytest.param(["XX", "II", "S7", "CK"], "H4", {"XX", "II"}, id="void: must trump"),
    pytest.param(["Sk", "DK"], "CK", {"Sk"}, id="void: must trump, even the Sküs"),
    pytest.param(["S7", "CK", "DQ"], "H4", {"S7", "CK", "DQ"}, id="void of suit and tarocks: anything"),
    pytest.param(["I", "XXI", "HK", "S7"], "II", {"I", "XXI"}, id="tarock lead: follow with a tarock"),
    pytest.param(["I", "HK"], "Sk", {"I"}, id="tarock lead: a losing tarock still must be played"),
    pytest.param(["HK", "S7", "C10"], "XX", {"HK", "S7", "C10"}, id="tarock lead, no tarock: anything"),
    pytest.param(["SK", "S7"], "Sk", {"SK", "S7"}, id="the spade king does not follow the Sküs"),
    pytest.param(["Sk", "D1"], "SK", {"Sk"}, id="the Sküs does not follow the spade king"),
]


@pytest.mark.parametrize("implementation", LEGAL)
@pytest.mark.parametrize(("hand", "led", "legal"), FOLLOW_CASES)
def test_follow_suit(implementation: str, hand: list[str], led: str, legal: set[str]) -> None:
    assert LEGAL[implementation](hand, led) == legal


def test_legal_replies_agree_on_random_hands() -> None:
    rng = random.Random(4)
    for _ in range(3000):
        hand = rng.sample(NAMES, rng.randint(1, 16))
        led = rng.choice([name for name in NAMES if name not in hand])
        answers = {kind: legal(hand, led) for kind, legal in LEGAL.items()}
        assert answers["game"] == answers["c"] == answers["reference"], (hand, led, answers)


# -- who takes the trick ----------------------------------------------------

RED = ["K", "Q", "C", "J", "1", "2", "3", "4"]
BLACK = ["K", "Q", "C", "J", "10", "9", "8", "7"]

WINNER_CASES = [
    pytest.param("HJ", "HQ", True, id="same suit, higher"),
    pytest.param("HQ", "HJ", False, id="same suit, lower"),
    pytest.param("H4", "SK", False, id="discard of another suit"),
    pytest.param("C7", "HK", False, id="discard of another suit, black led"),
    pytest.param("HK", "I", True, id="the Pagat trumps a king"),
    pytest.param("SK", "II", True, id="any tarock trumps a suit card"),
    pytest.param("V", "XX", True, id="higher tarock on a tarock"),
    pytest.param("XX", "V", False, id="lower tarock on a tarock"),
    pytest.param("XXI", "Sk", True, id="the Sküs beats the Mond"),
    pytest.param("Sk", "XXI", False, id="the Mond does not beat the Sküs"),
    pytest.param("I", "II", True, id="Uhu over Pagat"),
    pytest.param("II", "I", False, id="Pagat under Uhu"),
    pytest.param("XXI", "HK", False, id="a suit card on a tarock lead"),
    pytest.param("SK", "Sk", True, id="the Sküs trumps the spade king"),
    pytest.param("Sk", "SK", False, id="the spade king on the Sküs"),
]


@pytest.mark.parametrize("implementation", WINS)
@pytest.mark.parametrize(("led", "reply", "wins"), WINNER_CASES)
def test_trick_winner(implementation: str, led: str, reply: str, wins: bool) -> None:
    assert WINS[implementation](led, reply) is wins


@pytest.mark.parametrize("implementation", WINS)
@pytest.mark.parametrize(("letter", "high_to_low"), [("H", RED), ("D", RED), ("S", BLACK), ("C", BLACK)])
def test_suit_order(implementation: str, letter: str, high_to_low: list[str]) -> None:
    ranked = [letter + rank for rank in high_to_low]
    for higher, lower in itertools.combinations(ranked, 2):
        assert WINS[implementation](lower, higher), (lower, higher)
        assert not WINS[implementation](higher, lower), (higher, lower)


@pytest.mark.parametrize("implementation", WINS)
def test_tarock_order(implementation: str) -> None:
    low_to_high = [*reference.all_card_names()[32:]]
    assert low_to_high[0] == "I" and low_to_high[-2:] == ["XXI", "Sk"]
    for lower, higher in itertools.combinations(low_to_high, 2):
        assert WINS[implementation](lower, higher) and not WINS[implementation](higher, lower), (lower, higher)


def test_trick_winners_agree_on_every_pair() -> None:
    for led, reply in itertools.permutations(NAMES, 2):
        answers = {kind: wins(led, reply) for kind, wins in WINS.items()}
        assert len(set(answers.values())) == 1, (led, reply, answers)


# -- counting in thirds -----------------------------------------------------


@pytest.mark.parametrize("implementation", THIRDS)
def test_the_deck_counts_210_thirds(implementation: str) -> None:
    assert THIRDS[implementation](list(NAMES)) == 210


@pytest.mark.parametrize(
    ("pile", "thirds"),
    [
        ([], 0),
        (["H4"], 1),  # 1 - 2/3 = 1/3 point
        (["HK", "HC", "V"], 21),  # 9 - 3 * 2/3 = 7 points
        (["Sk", "XXI", "I"], 39),  # 15 - 2 = 13 points
        (["SK", "SQ", "SC", "SJ", "S10", "S9", "S8", "S7"], 3 * (5 + 4 + 3 + 2 + 4) - 2 * 8),
    ],
)
@pytest.mark.parametrize("implementation", THIRDS)
def test_pile_thirds(implementation: str, pile: list[str], thirds: int) -> None:
    assert THIRDS[implementation](pile) == thirds


def test_pile_thirds_agree_on_random_piles() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        pile = rng.sample(NAMES, rng.randint(0, 54))
        answers = {kind: count(pile) for kind, count in THIRDS.items()}
        assert len(set(answers.values())) == 1, (pile, answers)
        # Counting in threes, two off a group, is value less 2/3 a card.
        assert answers["reference"] == 3 * sum(reference.card_value(name) for name in pile) - 2 * len(pile)


def test_trick_thirds_agree_on_every_pair() -> None:
    for a, b in itertools.combinations(NAMES, 2):
        worth = 3 * (reference.card_value(a) + reference.card_value(b)) - 4
        assert game.trick_thirds(CARD[a], CARD[b]) == game.trick_thirds(CARD[b], CARD[a]) == worth, (a, b)
        assert reference.trick_thirds(a, b) == worth == reference.pile_thirds([a, b]), (a, b)


def test_trick_thirds_examples() -> None:
    assert game.trick_thirds(CARD["HK"], CARD["Sk"]) == 26  # 10 - 4/3 points
    assert game.trick_thirds(CARD["H4"], CARD["S7"]) == 2  # two small cards: 2/3 point
    assert game.trick_thirds(CARD["HQ"], CARD["HJ"]) == 14  # 6 - 4/3 points


def test_tricks_add_up_to_the_deck() -> None:
    rng = random.Random(6)
    deck = list(NAMES)
    rng.shuffle(deck)
    assert sum(game.trick_thirds(CARD[a], CARD[b]) for a, b in zip(deck[:27], deck[27:], strict=True)) == 210


@pytest.mark.parametrize(
    ("thirds", "points"), [(0, 0), (1, 0), (2, 1), (3, 1), (105, 35), (106, 35), (107, 36), (108, 36), (210, 70)]
)
def test_rounding(thirds: int, points: int) -> None:
    # 1/3 rounds down, 2/3 rounds up.
    assert cards.points_of(thirds) == reference.points(thirds) == points


def test_rounding_agrees_everywhere() -> None:
    assert [cards.points_of(t) for t in range(211)] == [reference.points(t) for t in range(211)]


def test_win_threshold() -> None:
    # 36 points win; 35⅓ (106 thirds) rounds to 35 and loses unless the rule option accepts it.
    least_winning = min(t for t in range(211) if reference.points(t) >= 36)
    assert game.Rules().win_thirds == least_winning == 107
    assert divmod(106, 3) == (35, 1)
    assert game.Rules(win_thirds=106).win_thirds == 106
    assert reference.points(106) == reference.points(210 - 106) == 35  # 35⅓ : 34⅔ is 35 : 35


# -- groups of equivalent cards in the search ---------------------------------


def representatives(candidates: list[str], in_play: list[str]) -> list[str]:
    return [NAMES[card] for card in _py_representatives(mask(candidates), mask(in_play))]


@pytest.mark.parametrize(
    ("candidates", "others", "kept"),
    [
        pytest.param(["XX", "XIX"], [], ["XIX"], id="neighbouring tarocks of value 1: one"),
        pytest.param(["XXI", "XX"], [], ["XX", "XXI"], id="XXI and XX differ in value: two"),
        pytest.param(["Sk", "XXI"], [], ["XXI"], id="Sküs and Mond, both 5: one"),
        pytest.param(["XVIII", "XX"], ["XIX"], ["XVIII", "XX"], id="a card of the opponent between splits"),
        pytest.param(["XVIII", "XX"], [], ["XVIII"], id="a card out of play does not split"),
        pytest.param(["XVII", "XVIII", "XIX"], ["V"], ["XVII"], id="a run of three: one"),
        pytest.param(["H4", "H3", "H2", "H1"], ["HK"], ["H4"], id="red pips: one"),
        pytest.param(["H1", "HJ"], [], ["H1", "HJ"], id="pip and jack differ in value"),
        pytest.param(["CK", "I"], [], ["CK", "I"], id="neighbouring bits of different suits, both 5"),
        pytest.param(["HK", "DK"], [], ["HK", "DK"], id="kings of two suits"),
        pytest.param(["S7", "S9"], ["S8", "C7"], ["S7", "S9"], id="spade between"),
        pytest.param(["S7", "S9"], ["C8", "H4"], ["S7"], id="other suits between do not split"),
    ],
)
def test_representatives(candidates: list[str], others: list[str], kept: list[str]) -> None:
    assert representatives(candidates, candidates + others) == kept


def expected_representatives(candidates: set[str], in_play: set[str]) -> set[str]:
    """The lowest card of each group, from the definition: a card is grouped
    with the next lower candidate when both are of one suit and value and no
    card in play lies between them."""

    def suit(name: str) -> str:
        return reference.suit(name)

    def rank(name: str) -> int:
        return reference.rank(name)

    kept = set()
    for name in candidates:
        lower = [c for c in candidates if suit(c) == suit(name) and rank(c) < rank(name)]
        if not lower:
            kept.add(name)
            continue
        below = max(lower, key=rank)
        gap = [c for c in in_play if suit(c) == suit(name) and rank(below) < rank(c) < rank(name)]
        if gap or reference.card_value(below) != reference.card_value(name):
            kept.add(name)
    return kept


def test_representatives_agree_with_the_definition() -> None:
    rng = random.Random(8)
    for _ in range(3000):
        in_play = set(rng.sample(NAMES, rng.randint(1, 32)))
        candidates = set(rng.sample(sorted(in_play), rng.randint(1, min(16, len(in_play)))))
        got = representatives(sorted(candidates), sorted(in_play))
        assert got == sorted(got, key=CARD.__getitem__), "lowest first"
        assert set(got) == expected_representatives(candidates, in_play), (sorted(candidates), sorted(in_play))


def test_winning_replies_are_the_cards_that_beat_the_lead() -> None:
    rng = random.Random(9)
    for led in NAMES:
        for _ in range(40):
            hand = set(rng.sample([name for name in NAMES if name != led], rng.randint(1, 16)))
            expected = {reply for reply in hand if reference.trick_winner(led, reply) == 1}
            assert names(_py_winning_replies(mask(hand), CARD[led])) == expected, (led, sorted(hand))


def reply_rank(led: str, reply: str) -> tuple[int, int, int]:
    """Winning cards, the more valuable first; then losing cards, the
    cheaper first; the lower card first among cards of one value."""
    value = reference.card_value(reply)
    if reference.trick_winner(led, reply) == 1:
        return (0, -value, CARD[reply])
    return (1, value, CARD[reply])


def test_reply_order() -> None:
    rng = random.Random(10)
    for _ in range(2000):
        in_play = rng.sample(NAMES, rng.randint(2, 33))
        led, hand = in_play[0], set(in_play[1 : 1 + rng.randint(1, min(16, len(in_play) - 1))])
        legal = mask(reference.legal_cards(sorted(hand), led))
        got = [NAMES[card] for card in _py_order_replies(legal, mask(in_play), CARD[led])]
        kept = [NAMES[card] for card in _py_representatives(legal, mask(in_play))]
        expected = sorted(kept, key=functools.partial(reply_rank, led))
        assert got == expected, (led, sorted(hand))


def test_lead_order_tries_the_table_move_first() -> None:
    rng = random.Random(11)
    for _ in range(500):
        cards_in_play = rng.sample(NAMES, 2 * rng.randint(1, 16))
        half = len(cards_in_play) // 2
        own, opponent = mask(cards_in_play[:half]), mask(cards_in_play[half:])
        groups = _py_representatives(own, own | opponent)
        first = rng.choice(groups)
        for declarer in (True, False):
            got = _py_order_leads(own, opponent, first, declarer)
            assert got[0] == first
            assert sorted(got) == groups


# -- Position ---------------------------------------------------------------


def state(position: game.Position) -> tuple[object, ...]:
    return (
        tuple(position.hands),
        position.leader,
        tuple(position.trick),
        tuple(position.trick_thirds),
        tuple(position.tricks_won),
        tuple(position.move_stack),
    )


def test_position_follows_the_reference_and_pops_back() -> None:
    rng = random.Random(9)
    for _ in range(200):
        deck = rng.sample(NAMES, 2 * rng.randint(1, 16))
        half = len(deck) // 2
        leader = rng.choice(reference.SEATS)
        declarer = rng.choice(reference.SEATS)
        position = game.Position(
            (mask(deck[:half]), mask(deck[half:])),
            declarer=reference.SEATS.index(declarer),
            leader=reference.SEATS.index(leader),
        )
        hands = (frozenset(deck[:half]), frozenset(deck[half:]))
        led: str | None = None
        taken = 0
        states = [state(position)]
        while not position.is_over():
            legal = {NAMES[card] for card in position.legal_moves}
            assert legal == reference.legal_cards(hands[reference.SEATS.index(position_turn(leader, led))], led)
            card = rng.choice(sorted(legal))
            position.push(CARD[card])
            hands, leader, led, gain = reference.play(hands, leader, led, card, declarer)
            taken += gain
            assert position.leader == reference.SEATS.index(leader)
            assert position.declarer_thirds() == taken
            states.append(state(position))
        assert position.hands == [0, 0]
        assert sum(position.trick_thirds) == reference.pile_thirds(deck)
        while states[:-1]:
            states.pop()
            position.pop()
            assert state(position) == states[-1]


def position_turn(leader: str, led: str | None) -> str:
    return leader if led is None else reference.other(leader)


def test_position_refuses_illegal_cards() -> None:
    position = game.Position((mask(["HK", "XX"]), mask(["H4", "I"])), declarer=game.FOREHAND)
    with pytest.raises(game.IllegalMoveError):
        position.push(CARD["H4"])  # not the forehand's card
    position.push(CARD["XX"])
    with pytest.raises(game.IllegalMoveError, match="tarock"):
        position.push(CARD["H4"])  # a tarock lead must be followed by a tarock
    before = state(position)
    position.push(CARD["I"])
    position.pop()
    assert state(position) == before
