"""Deals made by the dealing procedure follow docs/rules.md §3."""

from __future__ import annotations

import itertools
import random

import pytest

from kosolve.dealing.dealer import (
    DealingError,
    _deal_cards,
    choose_discard,
    choose_exchange,
    deal_game,
    deal_games,
    random_ending,
)
from kosolve.model.cards import ALL_CARDS, KINGS, SUIT_MASKS, TAROCK, TRULL, cards_of, mask_of, parse_hand, thirds_of
from kosolve.model.deal import Deal
from kosolve.model.dealt import lay_away_problem, lay_aways, talon_choices
from kosolve.model.game import CONTRACTS, FOREHAND, TALON_CARDS_TAKEN, Position

TAROCKS = SUIT_MASKS[TAROCK]
DEALS = deal_games(300, seed=11)


def _disjoint_cover(parts: list[int]) -> bool:
    union = 0
    for part in parts:
        if union & part:
            return False
        union |= part
    return union == ALL_CARDS


def test_dealing_gives_talon_hands_and_personal_cards_all_54_once() -> None:
    talon, hands, personal = _deal_cards(random.Random(3))
    assert len(talon) == 6
    assert [h.bit_count() for h in hands] == [16, 16]
    assert [p.bit_count() for p in personal] == [8, 8]
    assert _disjoint_cover([mask_of(talon), *hands, *personal])


@pytest.mark.parametrize("deal", DEALS[:100])
def test_deal_holds_every_card_once_with_the_right_counts(deal: Deal) -> None:
    assert deal.piles is not None
    assert deal.contract in CONTRACTS
    assert deal.leader == FOREHAND
    assert [h.bit_count() for h in deal.hands] == [16, 16]
    assert _disjoint_cover([*deal.hands, *deal.piles])
    taken = TALON_CARDS_TAKEN[deal.contract]
    assert deal.piles[deal.declarer].bit_count() == 8 + taken
    assert deal.piles[1 - deal.declarer].bit_count() == 8 + 6 - taken


def test_piles_never_hold_kings_or_trull_cards_laid_away() -> None:
    # Kings and trull cards only reach a pile as untaken talon cards, so the
    # declarer's pile never holds one.
    for deal in DEALS:
        assert deal.piles is not None
        assert not deal.piles[deal.declarer] & (KINGS | TRULL)


def test_contracts_are_mostly_low_and_solo_rare() -> None:
    counts = {c: sum(d.contract == c for d in DEALS) for c in CONTRACTS}
    assert counts["dreiblatt"] + counts["zweiblatt"] > len(DEALS) // 2
    assert counts["dreiblatt"] > counts["einblatt"] > counts["solo"]
    assert 0 < counts["solo"] < len(DEALS) // 10


def test_both_seats_declare() -> None:
    assert {d.declarer for d in DEALS} == {0, 1}


def test_deals_are_reproducible_and_seeds_differ() -> None:
    assert deal_games(20, seed=4) == deal_games(20, seed=4)
    assert deal_games(20, seed=4) != deal_games(20, seed=5)
    assert len({(d.hands, d.piles) for d in deal_games(20, seed=4)}) == 20


def test_discard_rules() -> None:
    hand = parse_hand(["HK", "HQ", "H4", "I", "V", "VI"])
    assert lay_away_problem(hand, parse_hand(["HQ", "H4"])) is None
    assert lay_away_problem(hand, parse_hand(["SQ"])) == "SQ is not among the cards held"
    assert lay_away_problem(hand, parse_hand(["I"])) == "I may not be laid away (no kings, no trull cards)"
    assert lay_away_problem(hand, parse_hand(["HK"])) == "HK may not be laid away (no kings, no trull cards)"
    assert "lays away 1 tarock(s)" in str(lay_away_problem(hand, parse_hand(["H4", "V"])))
    # Three cards from two plain ones: exactly one tarock must go.
    assert lay_away_problem(hand, parse_hand(["HQ", "H4", "VI"])) is None
    assert lay_away_problem(hand, parse_hand(["HQ", "V", "VI"])) is not None


@pytest.mark.parametrize("seed", range(40))
def test_lay_aways_are_exactly_the_legal_ones(seed: int) -> None:
    rng = random.Random(seed)
    pack = list(range(54))
    rng.shuffle(pack)
    # Small pools, some tarock-heavy, so that every subset can be checked.
    pool = mask_of(pack[:9]) if seed % 2 else mask_of(sorted(pack, reverse=True)[:9])
    for count in (1, 2, 3, 5):
        legal = {mask_of(c) for c in itertools.combinations(cards_of(pool), count)}
        legal = {laid for laid in legal if lay_away_problem(pool, laid) is None}
        listed = list(lay_aways(pool, count))
        assert len(listed) == len(set(listed))
        assert set(listed) == legal


@pytest.mark.parametrize("seed", range(200))
def test_chosen_discards_are_legal(seed: int) -> None:
    rng = random.Random(seed)
    pack = list(range(54))
    rng.shuffle(pack)
    # Tarock-heavy hands too, where tarocks must go.
    size = 16 + seed % 4
    hand = mask_of(pack[:size]) if seed % 2 else mask_of(sorted(pack, reverse=True)[:size])
    for count in (1, 3, 8):
        discard = choose_discard(hand, count, rng)
        assert discard.bit_count() == count
        assert lay_away_problem(hand, discard) is None


def test_choose_discard_lays_tarocks_only_when_forced() -> None:
    hand = KINGS | parse_hand(["H4", "I", "XXI", "Sk", "II", "III", "XX"])
    discard = choose_discard(hand, 3, random.Random(0))
    assert discard == parse_hand(["H4", "II", "III"])


def test_choose_discard_refuses_an_impossible_count() -> None:
    with pytest.raises(DealingError, match="cannot lay away"):
        choose_discard(KINGS | TRULL | parse_hand(["H4"]), 2, random.Random(0))


def test_talon_choices_follow_the_contract() -> None:
    talon = (0, 9, 18, 27, 36, 45)
    assert talon_choices("dreiblatt", talon) == (talon[:3], talon[3:])
    assert talon_choices("zweiblatt", talon) == tuple(talon[i : i + 2] for i in (0, 2, 4))
    assert talon_choices("einblatt", talon) == tuple((c,) for c in talon)
    assert talon_choices("solo", talon) == ((),)


@pytest.mark.parametrize("contract", CONTRACTS)
def test_exchange_takes_an_allowed_option_and_lays_away_legally(contract: str) -> None:
    for seed in range(30):
        rng = random.Random(seed)
        talon, hands, _ = _deal_cards(rng)
        exchange = choose_exchange(hands[0], contract, talon, rng)
        assert exchange.take in talon_choices(contract, talon)
        assert len(exchange.take) == TALON_CARDS_TAKEN[contract]
        assert lay_away_problem(hands[0] | mask_of(exchange.take), exchange.lay_away) is None


def test_exchange_takes_the_stronger_talon_half() -> None:
    hand = parse_hand(["HK", "HQ", "HC", "HJ", "H1", "H2", "H3", "H4", "DK", "DQ", "DC", "DJ", "D1", "D2", "D3", "D4"])
    talon = [53, 52, 51, 0 + 16, 1 + 16, 2 + 16]  # Sk XXI XX on top, spade pips below
    exchange = choose_exchange(hand, "dreiblatt", talon, random.Random(0))
    assert mask_of(exchange.take) & TRULL == parse_hand(["Sk", "XXI"])
    assert not mask_of(exchange.take) & parse_hand(["S7", "S8", "S9"])


@pytest.mark.parametrize("tricks", [0, 1, 4, 8, 16])
def test_endings_are_legal_positions(tricks: int) -> None:
    rng = random.Random(tricks)
    for _ in range(20):
        ending = random_ending(rng, tricks)
        assert ending.piles is not None
        assert [h.bit_count() for h in ending.hands] == [tricks, tricks]
        assert _disjoint_cover([*ending.hands, *ending.piles])
        assert (
            thirds_of(ending.piles[0]) + thirds_of(ending.piles[1]) + thirds_of(ending.hands[0] | ending.hands[1])
            == 210
        )
        position = ending.position()
        assert isinstance(position, Position) and not position.trick
        # Play the ending out with the lowest legal card: every position reached is legal.
        while not position.is_over():
            position.push(next(iter(position.legal_moves)))


def test_ending_piles_hold_the_tricks_won() -> None:
    rng = random.Random(9)
    start = random.Random(9)
    deal = deal_game(start)
    ending = random_ending(rng, 10)
    assert ending.contract == deal.contract and ending.declarer == deal.declarer
    assert deal.piles is not None and ending.piles is not None
    played = (deal.hands[0] | deal.hands[1]) & ~(ending.hands[0] | ending.hands[1])
    assert played.bit_count() == 12
    gained = [ending.piles[s] & ~deal.piles[s] for s in (0, 1)]
    assert gained[0] | gained[1] == played
    assert all(g.bit_count() % 2 == 0 for g in gained)


def test_random_ending_rejects_a_bad_trick_count() -> None:
    with pytest.raises(DealingError, match="max_tricks"):
        random_ending(random.Random(0), 17)


def test_first_discard_lays_tarocks_exactly_when_forced() -> None:
    for seed in range(50):
        rng = random.Random(seed)
        _, hands, _ = _deal_cards(rng)
        for hand in hands:
            discard = choose_discard(hand, 8, rng)
            plain = (hand & ~TAROCKS & ~KINGS).bit_count()
            assert (discard & TAROCKS).bit_count() == max(0, 8 - plain)
            assert not discard & (KINGS | TRULL)
