"""The tables both searches share: their sizes are checked before any
arithmetic on them, one budget covers all the tables of a run, each
solver reports its table's use, the score search
checks its input as the point search does, and its C pieces agree with
definitions written out in Python."""

from __future__ import annotations

import math
import random

import pytest
from support import fast_first
from support.games import late_deal

from kosolve.analysis.netscore import net_score
from kosolve.analysis.report import Analyser
from kosolve.analysis.solving import DEFAULT_BUDGET_MB, MAX_BUDGET_MB, MIN_BUDGET_MB, TableBudget, new_solver
from kosolve.dealing import deal_games
from kosolve.engine import _score
from kosolve.engine._score import ScoreSolver
from kosolve.engine._search import Solver
from kosolve.engine._table import MAX_TABLE_MB, MIN_TABLE_MB, TableSizeError, buckets_for
from kosolve.engine._testing import _py_bird_state, _py_leaf_score
from kosolve.engine.errors import SearchInputError
from kosolve.model.cards import parse_hand
from kosolve.model.game import FOREHAND, NO_CARD

LEAVES = 4 * 256 * 4
BAD_SIZES = [0.0, -1.0, MIN_TABLE_MB / 2, 0.0001, MAX_TABLE_MB * 2, 1e13, math.inf, math.nan]


@pytest.mark.parametrize("mb", BAD_SIZES)
def test_sizes_outside_the_range_are_refused(mb: float) -> None:
    with pytest.raises(TableSizeError, match="KB to"):
        buckets_for(mb)
    with pytest.raises(TableSizeError):
        Solver(tt_mb=mb)
    with pytest.raises(TableSizeError):
        Solver(tt_mb=8, goal_tt_mb=mb)
    with pytest.raises(TableSizeError):
        ScoreSolver(tt_mb=mb)


def test_a_size_is_rounded_down_to_a_power_of_two_of_buckets() -> None:
    assert buckets_for(MIN_TABLE_MB) == 16
    assert buckets_for(8) == buckets_for(12) == 8 * 1024 * 1024 // 64
    assert buckets_for(MAX_TABLE_MB) == MAX_TABLE_MB * 1024 * 1024 // 64
    assert Solver(tt_mb=3).stats["tt_bytes"] == 2 * 1024 * 1024
    score = ScoreSolver(tt_mb=3).stats
    assert score["tt_bytes"] == 1024 * 1024 and score["points_tt_bytes"] == 512 * 1024
    assert score["birds_tt_bytes"] == 4 * 128 * 1024
    assert score["tt_entries"] == score["tt_bytes"] // 32 and score["points_tt_entries"] == 512 * 1024 // 16


def test_the_goal_table_is_at_most_2_mb_unless_asked() -> None:
    assert Solver(tt_mb=64).goal_tt_mb == 2
    assert Solver(tt_mb=1).goal_tt_mb == 1
    assert Solver(tt_mb=64, goal_tt_mb=8).goal_tt_mb == 8


def test_the_score_search_reports_its_table_use() -> None:
    solver = ScoreSolver(tt_mb=1)
    deal = late_deal(random.Random(3), 8)
    result = net_score(deal, solver=solver, with_points_line=False)
    stats = solver.stats
    assert stats["nodes"] == solver.nodes == result.nodes == stats["score_nodes"] + stats["point_nodes"] > 0
    assert stats["tt_hits"] <= stats["tt_probes"] and stats["points_tt_hits"] <= stats["points_tt_probes"]
    assert stats["tt_stores"] + stats["points_tt_stores"] > 0
    assert stats["tt_entries"] == 512 * 1024 // 32


@pytest.mark.parametrize("seed", fast_first(range(6), keep=2))
def test_a_tiny_score_table_gives_the_same_scores(seed: int) -> None:
    deal = late_deal(random.Random(seed), 5)
    tiny = net_score(deal, solver=ScoreSolver(tt_mb=16 * MIN_TABLE_MB), with_points_line=False)
    assert tiny.score == net_score(deal, with_points_line=False).score


OWN, OTHER = parse_hand(["HK", "H4"]), parse_hand(["HQ", "I"])
D4 = parse_hand(["D4"]).bit_length() - 1


@pytest.mark.parametrize(
    ("forehand", "dealer", "leader", "declarer", "led", "message"),
    [
        (OWN, OWN, FOREHAND, FOREHAND, NO_CARD, "disjoint"),
        (OWN | 1 << 60, OTHER, FOREHAND, FOREHAND, NO_CARD, "disjoint"),
        (OWN, OTHER, 2, FOREHAND, NO_CARD, "seats"),
        (OWN, OTHER, FOREHAND, -1, NO_CARD, "seats"),
        (OWN, parse_hand(["HQ"]), FOREHAND, FOREHAND, NO_CARD, "as many cards"),
        (parse_hand(["HK"]), OTHER, FOREHAND, FOREHAND, parse_hand(["HQ"]).bit_length() - 1, "neither hand"),
        (parse_hand(["HK"]), OTHER, FOREHAND, FOREHAND, 60, "neither hand"),
        (OWN, OTHER, FOREHAND, FOREHAND, D4, "one card fewer"),
    ],
)
def test_both_solvers_refuse_impossible_positions(
    forehand: int, dealer: int, leader: int, declarer: int, led: int, message: str
) -> None:
    with pytest.raises(SearchInputError, match=message):
        Solver(tt_mb=1).value(forehand, dealer, leader, declarer, led)
    with pytest.raises(SearchInputError, match=message):
        ScoreSolver(tt_mb=1).solve(forehand, dealer, leader, declarer, led, [0, 0, 0], 0, 3, [0] * LEAVES)


@pytest.mark.parametrize(
    ("steps", "birds", "valat", "leaf", "message"),
    [
        ([0, 0], 0, 3, [0] * LEAVES, "3 steps"),
        ([0, 0, 0], 0, 3, [0] * 10, "leaf table"),
        ([0, 0, 0], 3, 3, [0] * LEAVES, "bird's state"),
        ([0, 0, 0], 256, 3, [0] * LEAVES, "bird's state"),
        ([0, 0, 0], 0, 4, [0] * LEAVES, "Valat"),
    ],
)
def test_the_score_search_refuses_bad_states(
    steps: list[int], birds: int, valat: int, leaf: list[int], message: str
) -> None:
    with pytest.raises(SearchInputError, match=message):
        ScoreSolver(tt_mb=1).solve(OWN, OTHER, FOREHAND, FOREHAND, NO_CARD, steps, birds, valat, leaf)


def bird_state(birds: int, card: int, seat: int, winner: int, cards: int) -> int:
    """A bird (I to IV, cards 32 to 35) played in its own trick (16 down to
    13) is won (1) or beaten (2) there; any other card changes nothing."""
    index = card - 32
    trick = 17 - cards
    if 0 <= index < 4 and trick == 16 - index:
        return birds | (1 if seat == winner else 2) << (2 * index)
    return birds


def test_bird_states_follow_the_definition() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        args = (rng.randrange(256), rng.choice([*range(30, 38), 52]), rng.randrange(2), rng.randrange(2))
        cards = rng.randint(1, 16)
        assert _py_bird_state(*args, cards) == bird_state(*args, cards)


def test_a_finished_hand_looks_up_its_leaf_by_the_documented_index() -> None:
    leaf = list(range(LEAVES))
    steps = [107, 120, 150]
    for thirds, reached in ((106, 0), (107, 1), (149, 2), (150, 3)):
        for birds, valat in ((0, 0), (0b10_01_00_01, 1), (255 & 0b10101010, 2)):
            assert _py_leaf_score(thirds, steps, birds, valat, leaf) == (reached * 256 + birds) * 4 + valat
            assert _score.leaf_index(reached, birds, valat) == (reached * 256 + birds) * 4 + valat


def test_the_leaf_layout_the_score_search_exports_is_the_documented_one() -> None:
    assert (_score.LEAVES, _score.STEPS, _score.BIRD_BITS) == (LEAVES, 3, 2)
    assert (_score.BIRD_OPEN, _score.BIRD_WON, _score.BIRD_BEATEN) == (0, 1, 2)
    assert (_score.VALAT_DECLARER, _score.VALAT_DEFENDER) == (1, 2)


def test_the_smallest_table_gives_the_same_value() -> None:
    # Sixteen buckets: nearly every store evicts another position.
    position = deal_games(1, 11)[0].position()
    args = (position.hands[0], position.hands[1], position.leader, position.declarer)
    assert Solver(tt_mb=MIN_TABLE_MB).value(*args) == Solver().value(*args)


@pytest.mark.parametrize("budget", [MIN_BUDGET_MB, 1, 3, 16, 33, 100, 1000])
def test_a_budget_covers_every_table_of_a_run(budget: float) -> None:
    analyser = Analyser(budget)
    used = analyser.solver.stats["tt_bytes"] + buckets_for(analyser.solver.goal_tt_mb) * 64
    score = analyser.score_solver.stats
    # The score search's frame searches on the main table: no table of its own.
    assert analyser.score_solver.points is analyser.solver
    used += score["tt_bytes"] + score["birds_tt_bytes"]
    assert used <= budget * 1024 * 1024
    split = analyser.budget
    assert split.main_mb + split.goal_mb + split.score_mb == budget
    assert split.goal_mb <= 2 and split.score_mb <= 16 and split.main_mb >= budget / 4


def test_the_default_budget_keeps_the_default_main_table() -> None:
    assert TableBudget.split(DEFAULT_BUDGET_MB) == TableBudget(main_mb=14.0, goal_mb=2.0, score_mb=16.0)
    assert new_solver().stats["tt_bytes"] == Solver().stats["tt_bytes"]


@pytest.mark.parametrize("budget", [MIN_BUDGET_MB / 2, 0.0, MAX_BUDGET_MB * 2, math.inf, math.nan])
def test_budgets_outside_the_range_are_refused(budget: float) -> None:
    with pytest.raises(TableSizeError, match="in all"):
        TableBudget.split(budget)
    with pytest.raises(TableSizeError):
        Analyser(budget)
