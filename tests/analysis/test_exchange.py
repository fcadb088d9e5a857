"""The exchange table against a brute force that solves every legal
lay-away of every talon choice on its own, with a fresh table each time,
and asks the Valat and every announcement of each directly."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest
from support import fast_first

from kosolve.analysis.exchange import (
    MAKEABLE_GOALS,
    ExchangeTable,
    ExchangeTableError,
    Makeable,
    best_game_items,
    declared_row,
    declarer_rows,
    exchange_table,
    talon_choice_items,
    talon_choice_row,
)
from kosolve.analysis.goals import solve_goal
from kosolve.analysis.solving import new_solver, solve
from kosolve.dealing import deal_as_dealt
from kosolve.engine import Solver
from kosolve.model.cards import KINGS, card_name, hand_names, mask_of, parse_hand
from kosolve.model.dealt import Dealt, Exchange, lay_aways, talon_choices
from kosolve.model.game import CONTRACTS, DEALER, FOREHAND, GAME_VALUES, SEATS, Rules, Seat, seat_name
from kosolve.model.scoring import DEFAULT_TABLE
from kosolve.render.exchange import render_exchange_table
from kosolve.render.text import Style

BRUTE_MB = 4.0


@dataclass(frozen=True)
class Brute:
    """One talon choice solved lay-away by lay-away."""

    lay_away: int
    thirds: int
    valat: bool
    game_points: int
    lay_aways: int
    best_lay_aways: int


def fresh(solver: Solver) -> Solver:
    solver.clear()
    return solver


def brute_row(
    dealt: Dealt, declarer: Seat, contract: str, take: tuple[int, ...], rules: Rules, solver: Solver
) -> Brute:
    results = []
    game = GAME_VALUES[contract]
    for laid in lay_aways(dealt.held(declarer) | sum(1 << c for c in take), len(take)):
        position = dealt.play_deal(contract, declarer, Exchange(take, laid)).position()
        thirds = solve(position, solver=fresh(solver), rules=rules, with_moves=False, with_line=False).thirds
        valat = solve_goal(position, declarer, "valat", solver=fresh(solver), rules=rules, with_line=False).feasible
        points = DEFAULT_TABLE.valat_silent * game if valat else game if thirds >= rules.win_thirds else -game
        results.append((points, thirds, valat, laid))
    best = max((points, thirds) for points, thirds, _, _ in results)
    first = next(r for r in results if (r[0], r[1]) == best)
    ties = sum(1 for r in results if (r[0], r[1]) == best)
    return Brute(first[3], first[1], first[2], first[0], len(results), ties)


def check_rows(dealt: Dealt, table: ExchangeTable, rules: Rules) -> None:
    solver = new_solver(BRUTE_MB)
    expected = [
        (declarer, contract, take)
        for declarer in SEATS
        for contract in CONTRACTS
        for take in talon_choices(contract, dealt.talon)
    ]
    assert [(r.declarer, r.contract, r.take) for r in table.rows] == expected
    for row in table.rows:
        brute = brute_row(dealt, row.declarer, row.contract, row.take, rules, solver)
        got = Brute(row.lay_away, row.thirds, row.valat, row.game_points, row.lay_aways, row.best_lay_aways)
        assert got == brute, (row.declarer, row.contract, [card_name(c) for c in row.take])


def check_makeable(dealt: Dealt, table: ExchangeTable, rules: Rules) -> None:
    solver = new_solver(BRUTE_MB)
    for entry in table.makeable:
        exchanges = [
            Exchange(take, laid)
            for take in talon_choices(entry.contract, dealt.talon)
            for laid in lay_aways(dealt.held(entry.declarer) | sum(1 << c for c in take), len(take))
        ]

        def makes(exchange: Exchange, entry: Makeable = entry) -> bool:
            position = dealt.play_deal(entry.contract, entry.declarer, exchange).position()
            answer = solve_goal(
                position, entry.declarer, entry.goal, solver=fresh(solver), rules=rules, with_line=False
            )
            return answer.feasible

        assert entry.makeable == any(makes(e) for e in exchanges), (entry.declarer, entry.contract, entry.goal.name)
        if entry.exchange is not None:
            assert entry.exchange in exchanges
            assert makes(entry.exchange)


def dealt_deals(seed: int, n: int) -> list[Dealt]:
    rng = random.Random(seed)
    return [deal_as_dealt(rng) for _ in range(n)]


def strong_tarocks() -> Dealt:
    """A constructed deal in which the forehand holds the fifteen top
    tarocks and one heart: whether he takes every trick turns on the talon
    choice and the lay-away (he must lay the heart away), and in a
    Dreiblatt he must lay away tarocks."""
    plain = [c for c in range(32) if not KINGS >> c & 1]
    discards = mask_of(plain[1:9])
    hand = discards | mask_of(range(46, 54))
    personal = mask_of(range(39, 46)) | 1 << plain[0]
    talon = (32, 33, 34, plain[9], plain[10], plain[11])
    rest = [c for c in range(54) if not (hand | personal | mask_of(talon)) >> c & 1]
    their_discards = mask_of([c for c in rest if c < 32 and not KINGS >> c & 1][:8])
    others = [c for c in rest if not their_discards >> c & 1]
    return Dealt(
        talon,
        (hand, their_discards | mask_of(others[:8])),
        (personal, mask_of(others[8:])),
        (discards, their_discards),
    )


def test_valat_rows_and_forced_tarock_lay_aways_match_brute_force() -> None:
    dealt = strong_tarocks()
    table = exchange_table(dealt)
    forehand = [row for row in table.rows if row.declarer == FOREHAND]
    assert any(row.valat for row in forehand) and not all(row.valat for row in forehand)
    assert table.best_game_points()[FOREHAND, "einblatt"] == DEFAULT_TABLE.valat_silent * GAME_VALUES["einblatt"]
    assert table.makeable_exchange(FOREHAND, "solo", "valat") is None
    check_rows(dealt, table, Rules())
    check_makeable(dealt, table, Rules())


@pytest.mark.parametrize("dealt", fast_first(dealt_deals(11, 3)))
def test_rows_match_brute_force(dealt: Dealt) -> None:
    check_rows(dealt, exchange_table(dealt), Rules())


@pytest.mark.slow
@pytest.mark.parametrize("dealt", dealt_deals(12, 12))
def test_rows_match_brute_force_more(dealt: Dealt) -> None:
    check_rows(dealt, exchange_table(dealt), Rules())


def check_rows_asked_alone(dealt: Dealt, rules: Rules, solver: Solver) -> None:
    """The game item of each contract's row with the most thirds (the
    first among the best); each talon choice's game item and row; the row
    each contract's declarer picks: what the talon choices' rows (checked
    against the brute force above) say."""
    for declarer in SEATS:
        rows = declarer_rows(dealt, declarer, rules=rules)
        expected = tuple(max((r for r in rows if r.contract == c), key=lambda r: r.thirds) for c in CONTRACTS)
        items = tuple(r.game_points for r in expected)
        assert best_game_items(dealt, declarer, rules=rules, solver=solver) == items, declarer
        for contract in CONTRACTS:
            of_contract = [r for r in rows if r.contract == contract]
            by_take = talon_choice_items(dealt, declarer, contract, rules=rules, solver=solver)
            assert by_take == tuple(r.game_points for r in of_contract), (declarer, contract)
            for row in of_contract:
                assert talon_choice_row(dealt, declarer, contract, row.take, rules=rules, solver=solver) == row
            picked = max(of_contract, key=lambda r: (r.game_points, r.thirds))
            assert declared_row(dealt, declarer, contract, rules=rules, solver=solver) == picked, (declarer, contract)


@pytest.mark.parametrize("seed", fast_first(range(6), keep=2))
def test_rows_asked_alone_are_the_tables(seed: int) -> None:
    solver = new_solver(BRUTE_MB)
    for index, dealt in enumerate(dealt_deals(400 + seed, 4)):
        check_rows_asked_alone(dealt, Rules(win_thirds=106) if index % 2 else Rules(), solver)
    check_rows_asked_alone(strong_tarocks(), Rules(), solver)


def test_declared_rows_against_the_brute_force() -> None:
    solver = new_solver(BRUTE_MB)
    for dealt in (strong_tarocks(), *dealt_deals(14, 1)):
        for contract in CONTRACTS:
            takes = talon_choices(contract, dealt.talon)
            brutes = [brute_row(dealt, FOREHAND, contract, take, Rules(), solver) for take in takes]
            best = max((b.game_points, b.thirds) for b in brutes)
            first = next(take for take, b in zip(takes, brutes, strict=True) if (b.game_points, b.thirds) == best)
            row = declared_row(dealt, FOREHAND, contract)
            assert ((row.game_points, row.thirds), row.take) == (best, first), contract


def test_rows_under_the_106_option_and_a_shared_solver() -> None:
    solver = new_solver()
    rules = Rules(win_thirds=106)
    for dealt in dealt_deals(13, 1):
        check_rows(dealt, exchange_table(dealt, rules=rules, solver=solver), rules)


@pytest.mark.parametrize("dealt", fast_first(dealt_deals(14, 2)))
def test_makeable_match_brute_force(dealt: Dealt) -> None:
    check_makeable(dealt, exchange_table(dealt), Rules())


@pytest.mark.slow
@pytest.mark.parametrize("dealt", dealt_deals(15, 4))
def test_makeable_match_brute_force_more(dealt: Dealt) -> None:
    check_makeable(dealt, exchange_table(dealt), Rules())


def test_json_render_and_best_game_points() -> None:
    dealt = dealt_deals(14, 1)[0]
    table = exchange_table(dealt)
    data = json.loads(json.dumps(table.to_json()))
    rows = data["exchange_table"]
    assert len(rows) == 2 * (2 + 3 + 6 + 1)
    first = rows[0]
    assert first["declarer"] == "forehand" and first["contract"] == "dreiblatt"
    assert first["take"] == [card_name(c) for c in dealt.talon[:3]]
    assert first["lay_away"] == hand_names(parse_hand(first["lay_away"]))
    assert first["points"] == (first["thirds"] + 1) // 3
    assert first["game_points"] in (3, -3, 12)
    assert 1 <= first["best_lay_aways"] <= first["lay_aways"]
    assert set(data["makeable"]) == {"forehand", "dealer"}
    assert set(data["makeable"]["dealer"]["solo"]) == {goal.name for goal in MAKEABLE_GOALS}
    best = table.best_game_points()
    assert len(best) == 8
    for (seat, contract), points in best.items():
        of_contract = [r for r in rows if r["declarer"] == seat_name(seat) and r["contract"] == contract]
        assert points == max(r["game_points"] for r in of_contract)
    text = render_exchange_table(table, Style(unicode=True))
    lines = text.splitlines()
    assert sum(1 for line in lines if line.split()[:2] in (["forehand", "dreiblatt"], ["dealer", "solo"])) == 3
    assert "Makeable with some exchange" in text
    assert Style(unicode=True).points(table.rows[0].thirds) in lines[2]
    ascii_text = render_exchange_table(table, Style(unicode=False))
    assert ascii_text.isascii()


def test_unknown_rows_and_goals() -> None:
    table = exchange_table(dealt_deals(14, 1)[0])
    with pytest.raises(ExchangeTableError):
        table.rows_of(FOREHAND, "quintblatt")
    with pytest.raises(ExchangeTableError):
        table.makeable_exchange(DEALER, "solo", "mond")
    # In a Solo the one exchange is none: a made goal shows it.
    made = table.makeable_exchange(DEALER, "solo", "win")
    assert made is None or made == Exchange((), 0)
    assert table.best(DEALER, "solo").lay_aways == 1


def test_progress_and_a_warm_solver_give_the_same_table() -> None:
    dealt = dealt_deals(16, 1)[0]
    calls: list[tuple[int, int]] = []
    solver = new_solver()
    first = exchange_table(dealt, solver=solver, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(done, 8) for done in range(1, 9)]
    again = exchange_table(dealt, solver=solver)
    assert again == first
    assert again.stats.nodes < first.stats.nodes
