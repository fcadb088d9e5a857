"""The sequential test: its error rates on simulated matches are about
those asked, it waits for a few deals and for some spread, it decides once,
and hypotheses that make no test are refused."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from support.batches import by_key, records
from support.cli import run

from kosolve.play.arena import sequential_test
from kosolve.play.sprt import MIN_DEALS, Hypotheses, Sprt, SprtError, SprtState

RUNS = 400


def decide(rng: random.Random, mean: float, hypotheses: Hypotheses, cap: int = 5000) -> SprtState:
    """One simulated match: deals whose differences are mostly small with
    now and then a large one (a Valat, a forfeit), about ``mean``."""
    test = Sprt(hypotheses)
    for _ in range(cap):
        spread = 6.0 if rng.random() < 0.9 else 60.0
        state = test.update(rng.gauss(mean, spread))
        if state.accepted is not None:
            return state
    return test.state


@pytest.mark.parametrize(("mean", "right"), [(0.0, "H0"), (5.0, "H1")])
def test_the_error_rates_are_about_those_asked(mean: float, right: str) -> None:
    rng = random.Random(7)
    hypotheses = Hypotheses(0, 5)
    states = [decide(rng, mean, hypotheses) for _ in range(RUNS)]
    assert all(state.accepted is not None for state in states)
    assert sum(state.accepted == right for state in states) >= 0.9 * RUNS
    for state in states:
        llr_bound = hypotheses.lower if state.accepted == "H0" else hypotheses.upper
        assert (state.llr <= llr_bound) if state.accepted == "H0" else (state.llr >= llr_bound)


def test_a_clear_lead_decides_sooner_than_a_close_one() -> None:
    rng = random.Random(8)
    hypotheses = Hypotheses(0, 5)
    clear = sum(decide(rng, 20.0, hypotheses).deals for _ in range(50))
    close = sum(decide(rng, 5.0, hypotheses).deals for _ in range(50))
    assert clear < close


def test_the_bounds_are_walds() -> None:
    hypotheses = Hypotheses(-1, 2, alpha=0.1, beta=0.2)
    assert hypotheses.lower == pytest.approx(math.log(0.2 / 0.9))
    assert hypotheses.upper == pytest.approx(math.log(0.8 / 0.1))
    # n (d1 - d0) (2 mean - d0 - d1) / (2 variance)
    assert hypotheses.llr(30, 1.5, 9.0) == pytest.approx(30 * 3 * 2 / 18)


def test_no_decision_before_a_few_deals_or_without_spread() -> None:
    test = Sprt(Hypotheses(0, 1))
    for _ in range(MIN_DEALS - 1):
        assert test.update(100 + (_ % 2)).accepted is None
    assert test.update(100).accepted == "H1"
    alike = Sprt(Hypotheses(0, 1))
    for _ in range(3 * MIN_DEALS):
        state = alike.update(0)
    assert (state.accepted, state.llr, state.deals) == (None, 0.0, 3 * MIN_DEALS)


def test_the_test_decides_once() -> None:
    test = Sprt(Hypotheses(0, 1))
    for x in range(MIN_DEALS):
        test.update(-50 - x)
    assert test.state.accepted == "H0"
    with pytest.raises(SprtError, match="accepted H0 after 10 deals"):
        test.update(0)


@pytest.mark.parametrize(
    ("d0", "d1", "alpha", "beta", "message"),
    [
        (5, 5, 0.05, 0.05, "D0 must be below D1"),
        (0, math.nan, 0.05, 0.05, "D0 must be below D1"),
        (0, 5, 0, 0.05, "alpha must be between 0 and 1"),
        (0, 5, 0.05, 1, "beta must be between 0 and 1"),
        (0, 5, 0.6, 0.5, "alpha \\+ beta must be below 1"),
    ],
)
def test_hypotheses_that_make_no_test_are_refused(
    d0: float, d1: float, alpha: float, beta: float, message: str
) -> None:
    with pytest.raises(SprtError, match=message):
        Hypotheses(d0, d1, alpha, beta)


def test_the_state_as_json() -> None:
    state = Sprt(Hypotheses(0, 10)).update(3)
    assert state.to_json() == {
        "d0": 0,
        "d1": 10,
        "alpha": 0.05,
        "beta": 0.05,
        "lower": -2.9444,
        "upper": 2.9444,
        "deals": 1,
        "mean_diff": 3.0,
        "llr": 0.0,
        "accepted": None,
    }


def arena_sprt(*args: str) -> dict[str, Any]:
    result = run("arena", "-q", "--json", "heuristic", "random", "--seed", "3", "--sprt", "0,100", *args)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_an_arena_match_stops_when_the_test_decides(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    summary = arena_sprt("--deals", "60", "-o", str(out), "--jobs", "1")
    test = summary["sprt"]
    assert test["accepted"] == "H1" and MIN_DEALS <= test["deals"] < 60
    assert test["llr"] >= test["upper"] and (test["d0"], test["d1"], test["alpha"]) == (0, 100, 0.05)
    # One job plays the deals in order: none past the decision.
    assert sorted(by_key(out)) == list(range(1, test["deals"] + 1)) and summary["deals"] == test["deals"]
    before = out.read_bytes()
    assert arena_sprt("--deals", "60", "-o", str(out), "--jobs", "1") == summary
    assert out.read_bytes() == before
    again = run("arena", "-q", "--json", "--summary-only", "-o", str(out), "--sprt", "0,100")
    assert json.loads(again.stdout)["sprt"] == test


def test_the_test_takes_the_deals_in_their_order(tmp_path: Path) -> None:
    """However the deals finished, up to the first one missing."""
    out = tmp_path / "m.jsonl"
    run("arena", "-q", "heuristic", "random", "--seed", "3", "--deals", "12", "-o", str(out), "--jobs", "1")
    lines = records(out)
    # Hypotheses either side of the mean: no decision within the 12 deals.
    mean = sum(line["report"]["points"]["a"] - line["report"]["points"]["b"] for line in lines) / 12
    hypotheses = Hypotheses(mean - 1, mean + 1)
    state = sequential_test(lines, hypotheses)
    assert state.deals == 12 and state.accepted is None
    shuffled = lines[::-1]
    random.Random(1).shuffle(shuffled)
    assert sequential_test(shuffled, hypotheses) == state
    without_third = [line for line in shuffled if line["line"] != 3]
    assert sequential_test(without_third, hypotheses) == sequential_test(lines[:2], hypotheses)
    assert sequential_test(lines[:2], hypotheses).deals == 2


def test_the_test_stops_at_the_same_deal_for_any_jobs(tmp_path: Path) -> None:
    one = arena_sprt("--deals", "60", "-o", str(tmp_path / "1.jsonl"), "--jobs", "1")
    two = arena_sprt("--deals", "60", "-o", str(tmp_path / "2.jsonl"), "--jobs", "2")
    assert two["sprt"] == one["sprt"]
    # Deals in flight when it decided may be in the file too: kept, valid, and resumable.
    played = by_key(tmp_path / "2.jsonl")
    assert set(range(1, one["sprt"]["deals"] + 1)) <= set(played) and len(played) == two["deals"]


def test_a_short_match_is_capped_undecided(tmp_path: Path) -> None:
    result = run(
        "arena",
        "-q",
        "heuristic",
        "random",
        "--seed",
        "3",
        "--sprt",
        "0,100",
        "--deals",
        "4",
        "-o",
        str(tmp_path / "m.jsonl"),
    )
    assert result.exit_code == 0, result.output
    assert "no decision after 4 deals" in result.stdout and "bounds -2.94 and +2.94" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sprt", "5"], "--sprt: '5' is not two numbers D0,D1"),
        (["--sprt", "10,0"], "--sprt: D0 must be below D1"),
        (["--sprt", "0,10", "--alpha", "0.6", "--beta", "0.5"], "--sprt: alpha + beta must be below 1"),
        (["--beta", "0.1"], "--beta goes with --sprt D0,D1"),
        (["--sprt", "0,10", "--alpha", "1"], "--alpha: 1.0 is not in the range"),
    ],
)
def test_a_bad_test_is_one_line_exit_2(in_tmp_path: Path, args: list[str], message: str) -> None:
    result = run("arena", "-q", "random", "heuristic", "-o", "m.jsonl", *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (in_tmp_path / "m.jsonl").exists()
