"""The fast search against the plain minimax of kosolve.tools.reference, on random
endings of 1 to 6 tricks.

Every ending is solved by a cold solver (empty table), by one warm solver
reused across the whole run, and by a solver with a tiny table that keeps
evicting entries, each with one thread and with two (which split even the
smallest endings, so that the threaded drivers and the shared table are
checked too).  Values, per-card values and the optimal line must all match
the reference exactly.  A failure lists each ending as an ``Ending(...)``
that can be pasted back to reproduce it.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator

import pytest
from support import fast_first
from support.endings import Ending, names_of, random_ending

from kosolve.engine._search import Solver
from kosolve.tools import reference

TRICKS = range(1, 7)
DEFAULT_ENDINGS_PER_TRICKS = 250
FULL_ENDINGS_PER_TRICKS = 1700
LARGER_ENDINGS = {7: 150, 8: 60}
"""Endings past the default sizes, where the search's cuts have more room to
go wrong; the reference needs up to a second for each."""
RESOLVED = 25
"""How many of a run's first endings the warm solver solves again at its end."""
TINY_TT_MB = 0.01
"""Room for a few hundred entries: nearly every store replaces another."""
MAX_REPORTED = 20


THREADS = (1, 2)


def new_solver(tt_mb: float, threads: int) -> Solver:
    """A solver of ``threads`` threads that splits every position it can."""
    solver = Solver(tt_mb=tt_mb, threads=threads)
    solver.threads_from_cards = 2
    return solver


@pytest.fixture(scope="module", params=THREADS, ids=[f"threads{n}" for n in THREADS])
def threads(request: pytest.FixtureRequest) -> int:
    count: int = request.param
    return count


@pytest.fixture(scope="module")
def warm(threads: int) -> Iterator[Solver]:
    yield new_solver(1, threads)


@pytest.fixture(scope="module")
def tiny(threads: int) -> Iterator[Solver]:
    yield new_solver(TINY_TT_MB, threads)


def named_moves(moves: list[tuple[int, int]]) -> dict[str, int]:
    return dict(zip(names_of([card for card, _ in moves]), [value for _, value in moves], strict=True))


def line_problems(ending: Ending, line: list[int], value: int) -> list[str]:
    """What is wrong with a line: an illegal card, a wrong length, or a card
    after which the reference no longer reaches ``value``."""
    names = names_of(line)
    if len(names) != ending.cards:
        return [f"{ending!r}: line {names} does not play the {ending.cards} cards left"]
    hands = (frozenset(ending.forehand), frozenset(ending.dealer))
    leader, led, taken = ending.leader, ending.led, 0
    for played, card in enumerate(names, 1):
        try:
            hands, leader, led, gain = reference.play(hands, leader, led, card, ending.declarer)
        except ValueError as error:
            return [f"{ending!r}: line {names}: {error}"]
        taken += gain
        rest = reference.reference_value(hands[0], hands[1], leader, ending.declarer, led)
        if taken + rest != value:
            return [f"{ending!r}: line {names} gives away value after {names[:played]}: {taken} + {rest} != {value}"]
    return []


def ending_problems(ending: Ending, expected: int, expected_moves: dict[str, int], solvers: list[Solver]) -> list[str]:
    """The ways the solvers disagree with the reference on one ending."""
    args = ending.solver_args()
    problems = []
    cold = new_solver(1, solvers[0].threads)
    for kind, solver in [("cold", cold), ("warm", solvers[0]), ("tiny-table", solvers[1])]:
        value = solver.value(*args)
        if value != expected:
            problems.append(f"{ending!r}: {kind} value {value}, reference {expected}")
        if kind == "cold":
            solver.clear()
        moves = solver.move_values(*args)
        if [card for card, _ in moves] != sorted(card for card, _ in moves):
            problems.append(f"{ending!r}: {kind} move_values not lowest card first: {names_of([c for c, _ in moves])}")
        if named_moves(moves) != expected_moves:
            problems.append(f"{ending!r}: {kind} move values {named_moves(moves)}, reference {expected_moves}")
    problems += line_problems(ending, solvers[0].line(*args), expected)
    return problems


@functools.cache
def reference_answers(seed: int, tricks: int, count: int) -> list[tuple[Ending, int, dict[str, int]]]:
    """The endings of a run with the reference's value and move values,
    worked out once for both thread counts (the reference is the slow part)."""
    rng = random.Random(seed)
    answers = []
    for _ in range(count):
        ending = random_ending(rng, tricks)
        expected = reference.reference_value(*ending.reference_args())
        answers.append((ending, expected, reference.reference_move_values(*ending.reference_args())))
    return answers


def agreement_problems(seed: int, tricks: int, count: int, solvers: list[Solver]) -> list[str]:
    solved = []
    problems = []
    for ending, expected, expected_moves in reference_answers(seed, tricks, count):
        problems += ending_problems(ending, expected, expected_moves, solvers)
        solved.append((ending, expected))
    # The warm table now holds many other endings: the first ones must not change.
    for ending, expected in solved[:RESOLVED]:
        value = solvers[0].value(*ending.solver_args())
        if value != expected:
            problems.append(f"{ending!r}: warm value {value} on solving again, reference {expected}")
    return problems


def report(problems: list[str], count: int) -> str:
    shown = "\n".join(problems[:MAX_REPORTED])
    return f"{len(problems)} disagreements in {count} endings:\n{shown}"


@pytest.mark.parametrize("tricks", fast_first(TRICKS, keep=4))
def test_search_agrees_with_reference(tricks: int, warm: Solver, tiny: Solver) -> None:
    problems = agreement_problems(1000 + tricks, tricks, DEFAULT_ENDINGS_PER_TRICKS, [warm, tiny])
    assert not problems, report(problems, DEFAULT_ENDINGS_PER_TRICKS)


@pytest.mark.slow
@pytest.mark.parametrize("tricks", TRICKS)
def test_search_agrees_with_reference_full(tricks: int, warm: Solver, tiny: Solver) -> None:
    problems = agreement_problems(2000 + tricks, tricks, FULL_ENDINGS_PER_TRICKS, [warm, tiny])
    assert not problems, report(problems, FULL_ENDINGS_PER_TRICKS)


@pytest.mark.slow
@pytest.mark.parametrize(("tricks", "count"), LARGER_ENDINGS.items())
def test_search_agrees_with_reference_on_larger_endings(tricks: int, count: int, warm: Solver, tiny: Solver) -> None:
    problems = agreement_problems(3000 + tricks, tricks, count, [warm, tiny])
    assert not problems, report(problems, count)


def test_endings_cover_every_kind_of_reply() -> None:
    """The random endings do reach each rule case: follow, trump, discard,
    with and without a card on the table."""
    rng = random.Random(7)
    seen = set()
    for _ in range(300):
        ending = random_ending(rng, rng.choice(TRICKS))
        seen.add("mid-trick" if ending.led is not None else "boundary")
        hands = (set(ending.forehand), set(ending.dealer))
        leads = [ending.led] if ending.led is not None else list(hands[ending.leader == "dealer"])
        follower = hands[ending.leader == "forehand"]
        for led in leads:
            replies = reference.legal_cards(follower, led)
            if any(reference.suit(card) == reference.suit(led) for card in replies):
                seen.add("tarock on tarock" if reference.suit(led) == reference.TAROCK else "follow suit")
            elif any(reference.suit(card) == reference.TAROCK for card in replies):
                seen.add("trump")
            else:
                seen.add("discard")
    assert seen == {"mid-trick", "boundary", "follow suit", "tarock on tarock", "trump", "discard"}
