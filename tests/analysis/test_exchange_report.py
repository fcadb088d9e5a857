"""The orchestration of a deal as dealt: the exchange table, the par and
the declared bid and exchange, checked against solving the play position
directly."""

from __future__ import annotations

import random

import pytest

from kosolve.analysis.report import Analyser, analyse
from kosolve.analysis.solving import new_solver, solve
from kosolve.dealing import choose_contract, choose_exchange, deal_as_dealt
from kosolve.model.cards import card_name
from kosolve.model.dealt import Dealt
from kosolve.model.dealt_file import parse_dealt_file
from kosolve.model.game import GAME_VALUES, Rules

ANALYSER = Analyser()
DEALS = [deal_as_dealt(random.Random(seed)) for seed in (1, 2)]


@pytest.mark.parametrize("dealt", DEALS)
def test_a_declared_exchange_is_valued_as_its_play_position(dealt: Dealt) -> None:
    declarer, contract = choose_contract(dealt)
    exchange = choose_exchange(dealt.held(declarer), contract, dealt.talon, random.Random(0))
    report = ANALYSER.analyse_exchange(dealt, declared=(declarer, contract, exchange))
    declared = report.declared
    assert declared is not None
    deal = dealt.play_deal(contract, declarer, exchange)
    solution = solve(deal.position(), solver=new_solver(), with_moves=False, with_line=False)
    assert declared.thirds == solution.thirds
    assert analyse(deal).solution.thirds == solution.thirds
    game = GAME_VALUES[contract]
    assert declared.game_points in (game, -game, 4 * game)
    values = report.table.best_game_points()
    assert declared.exchange_cost == values[(declarer, contract)] - declared.game_points >= 0


@pytest.mark.parametrize("discard", ["classic", "medium"])
def test_the_json_holds_the_cards_as_dealt(discard: str) -> None:
    dealt = next(
        d
        for d in (deal_as_dealt(random.Random(seed), discard) for seed in range(50))
        if discard == "classic" or d.picked_up
    )
    data = ANALYSER.analyse_exchange(dealt, Rules(discard=discard)).to_json()
    # A deal file's key: it reads back as the same deal under the same variant.
    assert (
        parse_dealt_file({"version": 1, "dealt": data["dealt"]}, "dealt", rules=Rules(discard=discard)).dealt == dealt
    )
    seats = data["dealt"]
    assert isinstance(seats, dict) and seats["talon"] == [card_name(card) for card in dealt.talon]
    assert ("picked_up" in seats["forehand"] or "picked_up" in seats["dealer"]) == (discard == "medium")


@pytest.mark.parametrize("dealt", DEALS)
def test_the_par_contract_with_its_best_exchange_costs_nothing(dealt: Dealt) -> None:
    report = ANALYSER.analyse_exchange(dealt)
    best = report.par
    if best.declarer is None or best.contract is None:
        assert report.par_json()["take"] == [] and best.forehand_score == 0
        return
    row = report.table.best(best.declarer, best.contract)
    again = ANALYSER.analyse_exchange(dealt, declared=(best.declarer, best.contract, row.exchange))
    assert again.declared is not None
    assert again.declared.exchange_cost == 0
    assert again.declared.bid_cost == 0
    assert again.declared.game_points == best.game_points
    json = again.to_json()
    assert json["format"] == 3 and json["declared"] is not None
    assert set(again.par_json()) >= {"declarer", "contract", "take", "lay_away", "game_points", "forehand_score"}
