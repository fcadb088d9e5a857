"""The benchmark runs end to end and its figures hang together."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from click.testing import CliRunner

from kosolve.analysis.netscore import net_score
from kosolve.analysis.solving import new_solver
from kosolve.cli.main import cli
from kosolve.dealing import HARD_TAROCKS, deal_games, deal_hard_games
from kosolve.model.dealt import TAROCKS
from kosolve.tools.bench import (
    BenchError,
    BenchReport,
    DealTiming,
    EndingBench,
    EndingTiming,
    GoalBench,
    Spread,
    WholeDealBench,
    bench_endings,
    bench_goals,
    random_announcements,
    run_bench,
)


@pytest.fixture(scope="module")
def report() -> BenchReport:
    calls: list[tuple[int, int]] = []
    result = run_bench(
        deals=2, seed=1, tt_mb=8, endings=2, ending_tricks=4, postmortems=1, progress=lambda d, t: calls.append((d, t))
    )
    assert calls == [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]
    return result


def test_goal_questions_and_postmortems_are_timed(report: BenchReport) -> None:
    # Valat for both players on each deal, and every bird a player holds.
    assert sum(g.goal == "valat" for g in report.goals.questions) == 4
    assert all(g.nodes >= 0 and g.ms >= 0 for g in report.goals.questions)
    assert [p.cards for p in report.postmortems.reviews] == [32]
    (review,) = report.postmortems.reviews
    assert review.ratio == pytest.approx(review.ms / report.whole_deals.deals[0].ms)
    data = report.to_json()
    assert data["goals"]["count"] == len(report.goals.questions)  # type: ignore[index]
    assert data["postmortems"]["count"] == 1  # type: ignore[index]


def test_whole_deals_are_solved_and_summarised(report: BenchReport) -> None:
    whole = report.whole_deals
    assert whole.solved == 2
    assert [d.contract for d in whole.deals] == [d.contract for d in deal_games(2, seed=1)]
    assert whole.total_nodes == sum(d.nodes for d in whole.deals) > 0
    assert whole.time_ms.max == max(d.ms for d in whole.deals)
    assert whole.nodes.median == np.median([d.nodes for d in whole.deals])
    assert whole.nodes_per_second == pytest.approx(whole.total_nodes / whole.total_ms * 1000)
    assert sum(whole.contracts.values()) == 2
    assert 0 < report.table_mb <= report.tt_mb


def test_endings_agree_with_the_reference(report: BenchReport) -> None:
    endings = report.endings
    assert len(endings.positions) == 2
    assert endings.disagreements == 0
    assert all(e.agree and e.tricks == 4 for e in endings.positions)
    assert endings.speed_ratio == pytest.approx(endings.reference_ms / endings.kosolve_ms)


def test_report_json_and_table(report: BenchReport) -> None:
    data = report.to_json()
    json.dumps(data)
    assert data["whole_deals"]["solved"] == 2  # type: ignore[index]
    assert data["endings"]["disagreements"] == 0  # type: ignore[index]
    text = report.format()
    assert "2 solved" in text and "2 / 2" in text


def test_the_report_is_its_sections_in_order(report: BenchReport) -> None:
    data = report.to_json()
    settings = ["version", "seed", "tt_mb", "table_mb", "repeat", "deal_set", "threads"]
    assert list(data) == [*settings, "whole_deals", "endings", "goals", "postmortems", "exchange_tables", "net_scores"]
    assert all(data[key] == section.to_json() for key, section in report.sections().items())
    text = report.format()
    starts = [text.index(s.format()) for s in report.sections().values() if s.format()]
    assert starts == sorted(starts) and len(starts) == 4
    # A section that was not asked for is in the JSON, empty, and not in the text.
    assert GoalBench().to_json() == {"count": 0, "feasible": 0, "time_ms": None} and GoalBench().format() == ""


def test_a_section_runs_on_its_own() -> None:
    whole = run_bench(deals=1, seed=2, tt_mb=4, endings=2, ending_tricks=3, postmortems=0)
    solver = new_solver(4)
    goals = bench_goals(deal_games(1, seed=2), solver=solver)
    assert [(g.goal, g.feasible) for g in goals.questions] == [(g.goal, g.feasible) for g in whole.goals.questions]
    endings = bench_endings(2, 3, seed=2, solver=solver)
    assert len(endings.positions) == 2 and endings.disagreements == 0 and endings.tricks == 3
    assert EndingBench(3).to_json()["speed_ratio"] is None


def test_same_seed_gives_the_same_values() -> None:
    first = run_bench(deals=1, seed=3, tt_mb=4, endings=1, ending_tricks=3)
    second = run_bench(deals=1, seed=3, tt_mb=4, endings=1, ending_tricks=3)
    assert [(d.thirds, d.nodes) for d in first.whole_deals.deals] == [
        (d.thirds, d.nodes) for d in second.whole_deals.deals
    ]


def test_repeated_runs_keep_the_fastest_time_and_the_same_nodes() -> None:
    once = run_bench(deals=2, seed=3, tt_mb=4, endings=0, goals=False, postmortems=0)
    done: list[tuple[int, int]] = []
    thrice = run_bench(
        deals=2, seed=3, tt_mb=4, endings=0, goals=False, postmortems=0, repeat=3, progress=lambda *p: done.append(p)
    )
    assert [(d.thirds, d.nodes) for d in thrice.whole_deals.deals] == [
        (d.thirds, d.nodes) for d in once.whole_deals.deals
    ]
    assert done == [(n, 6) for n in range(1, 7)]
    assert thrice.whole_deals.repeat == 3 and thrice.to_json()["repeat"] == 3
    assert "the fastest of 3 runs each" in thrice.format()
    with pytest.raises(BenchError, match="at least once"):
        run_bench(deals=1, endings=0, repeat=0)


def test_spread_percentiles() -> None:
    assert Spread.of([4.0]) == Spread(4.0, 4.0, 4.0, 4.0, 4.0)
    spread = Spread.of(list(range(101)))
    assert (spread.median, spread.p90, spread.p95, spread.p99, spread.max) == (50.0, 90.0, 95.0, 99.0, 100.0)


def test_a_disagreement_shows_in_the_report() -> None:
    report = BenchReport(
        seed=1,
        tt_mb=1.0,
        table_mb=0.75,
        threads=1,
        whole_deals=WholeDealBench((DealTiming("solo", 0, 120, 1000, 2.0),)),
        endings=EndingBench(2, (EndingTiming(2, 1.0, 8.0, True), EndingTiming(2, 3.0, 4.0, False))),
    )
    assert report.endings.disagreements == 1
    assert report.endings.speed_ratio == 3.0
    assert "DISAGREEMENT" in report.format()


def test_negative_counts_are_refused() -> None:
    with pytest.raises(BenchError, match="negative"):
        run_bench(deals=-1, endings=0)
    with pytest.raises(BenchError, match="negative"):
        run_bench(deals=0, endings=0, exchanges=-1)
    with pytest.raises(BenchError, match="negative"):
        run_bench(deals=0, endings=0, scores=-1)


def test_exchange_tables_are_timed_only_when_asked() -> None:
    report = run_bench(deals=0, endings=0, postmortems=0, goals=False, exchanges=1, seed=2)
    (timing,) = report.exchange_tables.tables
    assert timing.lay_aways >= 2 * 12 and timing.nodes > 0 and timing.ms > 0
    assert timing.point_searches > 0
    assert "Exchange tables of deals as dealt" in report.format()
    assert report.to_json()["exchange_tables"]["count"] == 1  # type: ignore[index]
    assert "Exchange tables" not in run_bench(deals=0, endings=0, postmortems=0, goals=False).format()


def test_the_hard_set_holds_even_tarock_splits() -> None:
    report = run_bench(deals=2, seed=1, endings=0, goals=False, postmortems=0, hard=True)
    hard = deal_hard_games(2, seed=1)
    assert [(d.contract, d.declarer) for d in report.whole_deals.deals] == [(d.contract, d.declarer) for d in hard]
    assert all((hand & TAROCKS).bit_count() >= HARD_TAROCKS for deal in hard for hand in deal.hands)
    assert report.whole_deals.hard and report.to_json()["deal_set"] == "hard"
    assert run_bench(deals=0, endings=0, postmortems=0, goals=False).to_json()["deal_set"] == "standard"
    assert f"Hard whole deals (both hands with at least {HARD_TAROCKS} tarocks)" in report.format()
    # Every deal of the standard set that qualifies is in the hard set of the same seed, in order.
    standard = [d for d in deal_games(10, seed=1) if all((h & TAROCKS).bit_count() >= HARD_TAROCKS for h in d.hands)]
    assert deal_hard_games(len(standard), seed=1) == standard


def test_the_hard_set_on_the_command_line() -> None:
    result = CliRunner().invoke(
        cli, ["bench", "--hard", "--deals", "1", "--endings", "0", "--postmortems", "0", "--no-goals", "-q", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["deal_set"] == "hard" and data["whole_deals"]["solved"] == 1
    assert set(data["whole_deals"]["time_ms"]) == {"median", "p90", "p95", "p99", "max"}


def test_net_scores_are_timed_against_the_points_solve_only_when_asked() -> None:
    report = run_bench(deals=0, endings=0, postmortems=0, goals=False, scores=3, seed=3)
    rng = random.Random(3)
    announced = [random_announcements(deal, rng) for deal in deal_games(3, 3)]
    assert len(report.net_scores.deals) == 3
    for timing, deal in zip(report.net_scores.deals, announced, strict=True):
        assert timing.announcements == tuple(a.what for a in deal.announcements)
        assert timing.score == net_score(deal, with_points_line=False).score and timing.nodes > 0
        assert timing.ms > 0 and timing.solve_ms > 0 and timing.ratio == timing.ms / timing.solve_ms
    assert "Net scores of whole deals" in report.format()
    data = report.to_json()["net_scores"]
    assert data["count"] == 3 and len(data["deals"]) == 3  # type: ignore[index]
    assert "Net scores" not in run_bench(deals=0, endings=0, postmortems=0, goals=False).format()
