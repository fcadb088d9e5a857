"""The goal searches (Valat, the birds, each with or without a thirds target)
agree with the pure-Python reference, for both owners, and their lines show
what they claim."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from support.endings import SEATS, TAROCKS, Ending, mask, names_of, random_ending

from kosolve.engine import BIRD, VALAT, Solver
from kosolve.model.cards import CARD_NAMES
from kosolve.tools.reference import BIRD_TRICKS, other, play, reference_goal, reference_value

GOALS = ("valat", "I", "II", "III", "IV")
BIRD_CARDS = ("I", "II", "III", "IV")


def bird_ending(rng: random.Random, tricks: int) -> Ending:
    """An ending in which birds are likely to matter: one to three birds
    among mostly tarocks."""
    ending = random_ending(rng, tricks, style=rng.choice(["tarocks", "tarocks", "plain", "runs"]))
    cards = [*ending.forehand, *ending.dealer, *([ending.led] if ending.led else [])]
    for bird in rng.sample(BIRD_CARDS, rng.randint(1, 3)):
        if bird not in cards:
            cards[rng.randrange(len(cards))] = bird
    cards = list(dict.fromkeys(cards))
    while len(cards) < len(ending.forehand) + len(ending.dealer) + (1 if ending.led else 0):
        name = rng.choice(TAROCKS)
        if name not in cards:
            cards.append(name)
    rng.shuffle(cards)
    led = cards.pop() if ending.led else None
    n_leader = tricks - (1 if led else 0)
    lead_hand, follow_hand = tuple(cards[:n_leader]), tuple(cards[n_leader:])
    forehand, dealer = (lead_hand, follow_hand) if ending.leader == "forehand" else (follow_hand, lead_hand)
    return Ending(forehand, dealer, ending.leader, ending.declarer, led)


def search_args(ending: Ending, owner: str, goal: str, need: int) -> tuple[tuple[int, ...], dict[str, int]]:
    led = CARD_NAMES.index(ending.led) if ending.led else -1
    args = (mask(ending.forehand), mask(ending.dealer), SEATS.index(ending.leader), SEATS.index(owner), led)
    if goal == "valat":
        return args, {"goal": VALAT, "need": need}
    return args, {"goal": BIRD, "bird": CARD_NAMES.index(goal), "trick": BIRD_TRICKS[goal], "need": need}


def line_outcome(ending: Ending, owner: str, goal: str, line: list[str]) -> tuple[bool | None, int]:
    """Replay ``line`` by the reference rules: whether it met the goal (True),
    broke it (False) or left it open (None), and the owner's thirds."""
    hands = (frozenset(ending.forehand), frozenset(ending.dealer))
    leader, led = ending.leader, ending.led
    thirds = 0
    outcome: bool | None = None
    for card in line:
        trick = 17 - len(hands[SEATS.index(other(leader))])
        completes = led is not None
        first = led
        hands, leader, led, gain = play(hands, leader, led, card, owner)
        thirds += gain
        if completes and outcome is None:
            if goal == "valat" and leader != owner:
                outcome = False
            elif goal in (first, card):
                outcome = trick == BIRD_TRICKS[goal] and leader == owner
    if outcome is None and goal == "valat" and not (hands[0] or hands[1]) and led is None:
        outcome = True
    return outcome, thirds


def goal_problems(seed: int, count: int, solvers: list[Solver], goals: tuple[str, ...] = GOALS) -> list[str]:
    rng = random.Random(seed)
    problems = []
    for _ in range(count):
        ending = bird_ending(rng, rng.randint(1, 6))
        owner = rng.choice(SEATS)
        goal = rng.choice(goals)
        need = rng.choice([0, 0, rng.randint(1, 80)])
        expected = reference_goal(
            ending.forehand, ending.dealer, ending.leader, owner, ending.led, goal=goal, need=need
        )
        args, goal_args = search_args(ending, owner, goal, need)
        where = f"{ending} owner={owner} goal={goal} need={need}: reference {expected}"
        for solver in solvers:
            if solver.goal_feasible(*args, **goal_args) != expected:
                problems.append(f"{where}, goal_feasible says {not expected}")
        feasible, cards = solvers[0].goal_line(*args, **goal_args)
        if feasible != expected:
            problems.append(f"{where}, goal_line says {feasible}")
            continue
        line = names_of(cards)
        outcome, thirds = line_outcome(ending, owner, goal, line)
        has_bird = goal == "valat" or goal in ending.forehand + ending.dealer + ((ending.led,) if ending.led else ())
        if expected:
            if not outcome or (need > 0 and thirds < need):
                problems.append(f"{where}, its line {line} does not reach the goal ({outcome}, {thirds} thirds)")
        elif has_bird and line and outcome is not False and not (need > 0 and thirds < need):
            problems.append(f"{where}, its line {line} does not refute the goal ({outcome}, {thirds} thirds)")
    return problems


@pytest.fixture(scope="module")
def warm() -> Iterator[Solver]:
    yield Solver(tt_mb=1)


@pytest.mark.parametrize("seed", range(4))
def test_goal_searches_agree_with_reference(seed: int, warm: Solver) -> None:
    problems = goal_problems(seed, 400, [warm, Solver(tt_mb=1), Solver(tt_mb=0.01)])
    assert not problems, "\n".join(problems[:10])


@pytest.mark.parametrize("goal", GOALS)
def test_one_goal_asked_again_and_again_agrees_with_reference(goal: str) -> None:
    """One goal asked of many positions one after the other, as the
    exchange table asks a bird of every lay-away: the goal table keeps its
    entries from query to query (with and without thirds beside the goal)
    and every answer is the reference's."""
    problems = goal_problems(200 + GOALS.index(goal), 300, [Solver(tt_mb=1), Solver(tt_mb=0.01)], goals=(goal,))
    assert not problems, "\n".join(problems[:10])


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 110))
def test_goal_searches_agree_with_reference_full(seed: int, warm: Solver) -> None:
    problems = goal_problems(seed, 1500, [warm, Solver(tt_mb=0.01)])
    assert not problems, "\n".join(problems[:10])


def test_bird_ending_draws_birds_in_both_hands() -> None:
    rng = random.Random(1)
    endings = [bird_ending(rng, rng.randint(2, 6)) for _ in range(200)]
    assert sum("I" in e.forehand for e in endings) > 20
    assert sum("IV" in e.dealer for e in endings) > 20


def test_a_bird_the_owner_does_not_hold_is_out_of_reach() -> None:
    args, goal_args = search_args(Ending(("I", "XX"), ("XXI", "HK"), "forehand", "forehand"), "dealer", "I", 0)
    assert Solver(tt_mb=1).goal_feasible(*args, **goal_args) is False


def test_a_bird_whose_trick_is_past_is_out_of_reach() -> None:
    # Three cards each: the trick about to start is trick 14, the Pagat's is 16
    # but the Uhu's (15) and Pelikan's (14) are still to come; with two cards
    # each the Pelikan's trick has passed.
    two = Ending(("III", "XXI"), ("HK", "H4"), "forehand", "forehand")
    args, goal_args = search_args(two, "forehand", "III", 0)
    assert Solver(tt_mb=1).goal_feasible(*args, **goal_args) is False
    three = Ending(("III", "XXI", "Sk"), ("HK", "H4", "H3"), "forehand", "forehand")
    args, goal_args = search_args(three, "forehand", "III", 0)
    assert Solver(tt_mb=1).goal_feasible(*args, **goal_args) is True


@pytest.mark.parametrize("seed", range(3))
def test_point_targets_agree_with_the_reference_value(seed: int, warm: Solver) -> None:
    """``reaches`` (the win, Absolut, Panzer: one null-window search) says
    yes exactly when the reference value meets the target."""
    rng = random.Random(seed)
    for _ in range(150):
        ending = random_ending(rng, rng.randint(1, 6))
        expected = reference_value(*ending.reference_args())
        for need in (expected - 1, expected, expected + 1, rng.randint(0, 120)):
            assert warm.reaches(*ending.solver_args(), need=need) == (expected >= need), (ending, need)
