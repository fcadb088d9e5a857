"""Threads for one position: the answers are the same for one thread and for
two, on random endings of every size and on whole deals, with cold and warm
tables; threads sharing one table never read a torn entry; a process forked
after threaded solves solves again; the thread count is checked and passed
through the orchestration and the command line."""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from kosolve.analysis.report import Analyser, Options
from kosolve.analysis.solving import new_solver, search_args, solve
from kosolve.cli.main import cli
from kosolve.cli.options import available_cores
from kosolve.dealing import deal_games, random_ending
from kosolve.engine._search import MAX_SEARCH_THREADS, Solver
from kosolve.engine._testing import _py_mixed_entry_hits, _py_table_stress
from kosolve.engine.errors import SearchInputError
from kosolve.model.files import load_deal
from kosolve.model.game import Position

ENDINGS = 1500
FULL_ENDINGS = 6000
DEALS = 30
FULL_DEALS = 150

Args = tuple[int, int, int, int, int]


def splitting(threads: int, tt_mb: float = 1) -> Solver:
    """A solver of ``threads`` threads that splits every position it can,
    however small (by default only large ones)."""
    solver = Solver(tt_mb=tt_mb, threads=threads)
    solver.threads_from_cards = 2
    return solver


def ending_positions(seed: int, count: int) -> Iterator[Args]:
    """Random endings of 1 to 12 tricks, a third of them with a card led."""
    rng = random.Random(seed)
    for _ in range(count):
        position = random_ending(rng, rng.randint(1, 12)).position()
        if rng.random() < 1 / 3:
            position.push(rng.choice(list(position.legal_moves)))
        yield search_args(position)


def answers(solver: Solver, args: Args) -> tuple[object, ...]:
    """Everything the solver answers about a position that must not depend
    on the thread count (a line is one optimal line of several: checked
    apart)."""
    moves = solver.move_values(*args)
    value = solver.value(*args)
    guessed = solver.value(*args, guess=max(value - 7, 0))
    keeping = solver.keeping_cards(*args, value=value)
    reaches = solver.reaches(*args, need=value), solver.reaches(*args, need=value + 1)
    return moves, value, guessed, keeping, reaches


def line_keeps_value(line: list[int], args: Args, judge: Solver) -> bool:
    """Whether every card of ``line`` keeps the position's value, by a
    one-thread solver's values of the cards at each step."""
    forehand, dealer, leader, declarer, led = args
    hands = [forehand, dealer]
    if led >= 0:
        hands[leader] |= 1 << led
    position = Position((hands[0], hands[1]), leader=leader, declarer=declarer)
    if led >= 0:
        position.push(led)
    value = judge.value(*args)
    taken = 0
    for card in line:
        values = dict(judge.move_values(*search_args(position)))
        if taken + values.get(card, -1) != value:
            return False
        before = position.declarer_thirds()
        position.push(card)
        taken += position.declarer_thirds() - before
    return position.is_over()


def disagreements(positions: list[Args], one: Solver, two: Solver, judge: Solver) -> list[str]:
    problems = []
    for args in positions:
        expected = answers(one, args)
        if answers(two, args) != expected:
            problems.append(f"{args}: one thread {expected}, two {answers(two, args)}")
        if not line_keeps_value(two.line(*args), args, judge):
            problems.append(f"{args}: the two-thread line {two.line(*args)} gives value away")
    return problems


def check_endings(seed: int, count: int) -> None:
    positions = list(ending_positions(seed, count))
    warm_problems = disagreements(positions, splitting(1), splitting(2), splitting(1))
    assert not warm_problems, "\n".join(warm_problems[:10])
    # Cold: a fresh table for every position; tiny: entries evicted all the time.
    cold_problems = []
    for args in positions[: count // 5]:
        cold_problems += disagreements([args], splitting(1), splitting(2), splitting(1))
    tiny_problems = disagreements(positions[: count // 3], splitting(1, 0.01), splitting(2, 0.01), splitting(1))
    assert not cold_problems + tiny_problems, "\n".join((cold_problems + tiny_problems)[:10])


@pytest.mark.slow
def test_endings_same_for_one_and_two_threads() -> None:
    check_endings(1, ENDINGS)


@pytest.mark.slow
def test_endings_same_for_one_and_two_threads_full() -> None:
    check_endings(2, FULL_ENDINGS)


def check_deals(seed: int, count: int) -> None:
    """Whole deals at trick 1 and after a few random cards, with the
    threshold the solver ships with, warm and cold."""
    rng = random.Random(seed)
    one, two = new_solver(threads=1), new_solver(threads=2)
    problems = []
    for index, deal in enumerate(deal_games(count, seed)):
        position = deal.position()
        for _ in range(rng.choice((0, 0, 1, 3))):
            position.push(rng.choice(list(position.legal_moves)))
        args = search_args(position)
        if index % 5 == 0:
            one.clear()
            two.clear()
        expected = one.move_values(*args), one.value(*args), one.keeping_cards(*args, value=one.value(*args))
        cold = new_solver(threads=2)
        for solver in (two, cold):
            got = solver.move_values(*args), solver.value(*args), solver.keeping_cards(*args, value=expected[1])
            if got != expected:
                problems.append(f"deal {index}: one thread {expected}, two {got}")
    assert not problems, "\n".join(problems[:10])


def test_deals_same_for_one_and_two_threads() -> None:
    check_deals(3, DEALS)


@pytest.mark.slow
def test_deals_same_for_one_and_two_threads_full() -> None:
    check_deals(4, FULL_DEALS)


def test_threaded_solves_count_their_nodes_and_probes() -> None:
    deal = deal_games(1, 5)[0]
    solver = new_solver(threads=2)
    solver.move_values(*search_args(deal.position()))
    stats = solver.stats
    assert stats["nodes"] > 1000
    assert 0 < stats["tt_hits"] < stats["tt_probes"] and stats["tt_stores"] > 0


@pytest.mark.parametrize("key_words", [1, 3])
def test_an_entry_mixed_from_two_stores_is_a_miss(key_words: int) -> None:
    """The key words of one store with the slot of another (what a torn
    write leaves) are no position's entry: the point search's layout and the
    score search's."""
    assert _py_mixed_entry_hits(key_words) == 0


@pytest.mark.parametrize("key_words", [1, 3])
@pytest.mark.parametrize("keys", [6, 12, 40])
def test_concurrent_probes_and_stores_never_read_a_torn_entry(key_words: int, keys: int) -> None:
    """Two threads storing and probing a few keys that crowd into two
    buckets, so that entries are rewritten under each other's probes: every
    hit holds what a store for its own key wrote."""
    hits, wrong = _py_table_stress(2, key_words, keys, 400_000)
    assert wrong == 0
    assert hits > 10_000


@pytest.mark.parametrize("threads", [0, -1, MAX_SEARCH_THREADS + 1])
def test_thread_counts_outside_the_range_are_refused(threads: int) -> None:
    with pytest.raises(SearchInputError, match="threads"):
        Solver(tt_mb=1, threads=threads)
    solver = Solver(tt_mb=1)
    with pytest.raises(SearchInputError, match="threads"):
        solver.threads = threads
    assert solver.threads == 1


def _solve_in_child(threads: int) -> list[tuple[int, int]]:
    deal = deal_games(1, 6)[0]
    return new_solver(threads=threads).move_values(*search_args(deal.position()))


def test_a_forked_process_solves_after_threaded_solves() -> None:
    """The threads live for one call, so a child forked after them (as a
    process pool forks its workers) solves with one thread or with two."""
    deal = deal_games(1, 6)[0]
    expected = new_solver(threads=2).move_values(*search_args(deal.position()))
    context = multiprocessing.get_context("fork")
    with context.Pool(2) as pool:
        results = [pool.apply_async(_solve_in_child, (threads,)) for threads in (1, 2)]
        assert [result.get(timeout=120) for result in results] == [expected, expected]


def test_the_analysis_is_the_same_with_threads() -> None:
    deal = load_deal("examples/whole-deal.json")
    options = Options(feasibility=True, postmortem=False, score=False)
    reports = [Analyser(threads=threads).analyse(deal, options).to_json() for threads in (1, 2)]
    # The lines are one optimal line of several each (and what they make).
    kept = ("value", "result", "moves", "held", "feasible")
    assert [{key: report[key] for key in kept} for report in reports] == [{key: reports[0][key] for key in kept}] * 2
    assert solve(deal.position(), threads=2).moves == solve(deal.position()).moves


def test_the_commands_take_a_thread_count() -> None:
    runner = CliRunner()
    one = runner.invoke(cli, ["--json", "--threads", "1", "--no-postmortem", "examples/ending.json"])
    two = runner.invoke(cli, ["--json", "--threads", "2", "--no-postmortem", "examples/ending.json"])
    assert one.exit_code == two.exit_code == 0
    assert '"moves"' in one.output and one.output.split('"line"')[0] == two.output.split('"line"')[0]
    bad = runner.invoke(cli, ["--threads", "0", "examples/ending.json"])
    assert bad.exit_code == 2 and "--threads" in bad.output
    quick = ["--deals", "1", "--endings", "0", "--postmortems", "0", "--no-goals", "-q"]
    bench = runner.invoke(cli, ["bench", *quick, "--threads", "2", "--json"])
    assert bench.exit_code == 0 and '"threads": 2' in bench.output
    assert 1 <= available_cores() <= MAX_SEARCH_THREADS
