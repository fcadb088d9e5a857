"""The Python API on whole deals: answers that do not depend on the table,
lines that replay to the value, and every card valued consistently."""

from __future__ import annotations

import pytest

from kosolve.analysis.solving import Solution, new_solver, solve
from kosolve.dealing import deal_games
from kosolve.model.cards import card_name
from kosolve.model.deal import Deal
from kosolve.model.game import Position, Rules

DEALS = deal_games(6, seed=11)


def replay(position: Position, cards: tuple[int, ...]) -> Position:
    played = position.copy()
    for card in cards:
        played.push(card)
    return played


@pytest.fixture(scope="module")
def cold() -> list[Solution]:
    return [solve(deal.position(), solver=new_solver(tt_mb=16)) for deal in DEALS]


def test_warm_table_gives_the_cold_answers(cold: list[Solution]) -> None:
    solver = new_solver(tt_mb=16)
    for deal, expected in zip(reversed(DEALS), reversed(cold), strict=True):
        warm = solve(deal.position(), solver=solver)
        assert (warm.thirds, warm.moves) == (expected.thirds, expected.moves)
    again = solve(DEALS[-1].position(), solver=solver)
    assert (again.thirds, again.moves) == (cold[-1].thirds, cold[-1].moves)


def test_small_table_gives_the_same_answers(cold: list[Solution]) -> None:
    solver = new_solver(tt_mb=0.25)
    for deal, expected in zip(DEALS[:2], cold[:2], strict=True):
        assert solve(deal.position(), solver=solver, with_moves=False, with_line=False).thirds == expected.thirds


@pytest.mark.parametrize("index", range(len(DEALS)))
def test_line_replays_to_the_value(cold: list[Solution], index: int) -> None:
    position = DEALS[index].position()
    solution = cold[index]
    assert len(solution.line) == 32
    final = replay(position, solution.line)
    assert final.is_over()
    assert final.declarer_thirds() == solution.thirds


@pytest.mark.parametrize("index", range(len(DEALS)))
def test_every_card_valued(cold: list[Solution], index: int) -> None:
    position = DEALS[index].position()
    solution = cold[index]
    assert [m.card for m in solution.moves] == list(position.legal_moves)
    values = [m.thirds for m in solution.moves]
    pick = max if position.turn == position.declarer else min
    assert pick(values) == solution.thirds
    assert solution.line[0] in solution.best_cards


def test_mid_trick_values_the_replies(cold: list[Solution]) -> None:
    deal = DEALS[0]
    lead = cold[0].line[0]
    position = Position(deal.hands, declarer=deal.declarer, leader=deal.leader, piles=deal.piles)
    position.push(lead)
    solution = solve(position, solver=new_solver(tt_mb=16))
    assert solution.to_move == 1 - deal.leader
    assert [m.card for m in solution.moves] == list(position.legal_moves)
    assert solution.thirds == cold[0].thirds


def test_finished_play_is_its_own_value(cold: list[Solution]) -> None:
    deal = DEALS[1]
    finished = Deal(deal.contract, deal.declarer, deal.hands, deal.piles, deal.leader, cold[1].line)
    solution = solve(finished.position())
    assert solution.thirds == cold[1].thirds
    assert solution.moves == () and solution.line == ()


def test_result_follows_the_rule_option(cold: list[Solution]) -> None:
    solution = cold[0]
    for rules in (Rules(), Rules(win_thirds=106)):
        won = solve(DEALS[0].position(), rules=rules, with_moves=False, with_line=False).result == "won"
        assert won == (solution.thirds >= rules.win_thirds)


def test_without_piles_there_is_no_result() -> None:
    deal = DEALS[2]
    position = Position(deal.hands, declarer=deal.declarer, leader=deal.leader)
    solution = solve(position, with_moves=False, with_line=False)
    assert solution.result is None
    assert solution.thirds == solve(deal.position(), with_moves=False, with_line=False).thirds - (
        deal.position().declarer_thirds()
    )


def test_json_has_the_contract_keys(cold: list[Solution]) -> None:
    data = cold[0].to_json()
    assert {"declarer", "to_move", "value", "result", "moves", "line", "stats"} <= data.keys()
    assert data["value"] == {"thirds": cold[0].thirds, "points": (cold[0].thirds + 1) // 3}
    assert data["line"] == [card_name(c) for c in cold[0].line]


def test_value_objects_show_cards_by_name() -> None:
    from kosolve.analysis.report import analyse
    from kosolve.analysis.solving import MoveValue
    from kosolve.model.cards import parse_card
    from kosolve.model.files import load_deal

    report = analyse(load_deal("examples/played.json"))
    assert (
        repr(report.solution)
        == "<Solution: 111 thirds (37 points), won; 1 card for the forehand to play, a line of 25 cards>"
    )
    assert repr(report.solution.moves) == "(MoveValue(card='HK', thirds=111),)"
    assert report.postmortem is not None
    assert "card='DK'" in repr(report.postmortem.cards[0])
    move = MoveValue(parse_card("XIV"), 107)
    assert eval(repr(move)) == move
