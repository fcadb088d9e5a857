"""The odds from one seat: in enumeration mode the exact average over every
world, computed here independently with the pure-Python reference; the same
numbers for one job and two and for the same seed; before the auction each
world valued as the exchange table values it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction

import pytest
from support import EXAMPLES, fast_first
from support.views import brute_force_piles, random_auction_view, random_view

import kosolve.sampling.odds
from kosolve.analysis.report import Analyser
from kosolve.model.cards import card_name, hand_names
from kosolve.model.deal import Deal
from kosolve.model.dealt import Dealt
from kosolve.model.files import load_view
from kosolve.model.game import CONTRACTS, Rules, seat_name
from kosolve.model.view import SeatView
from kosolve.sampling.odds import GOAL_NAMES, odds
from kosolve.sampling.worlds import sample_worlds, world_space
from kosolve.tools import reference

BIRD_CARDS = {"pagat": "I", "uhu": "II", "pelikan": "III", "quapil": "IV"}


def late_views(count: int, seed: int, most: int = 120) -> list[SeatView]:
    """Views with the viewer to move, three or four tricks from the end,
    allowing 2 to ``most`` worlds."""
    rng = random.Random(seed)
    found: list[SeatView] = []
    while len(found) < count:
        view, _ = random_view(rng, cards=rng.randrange(24, 27))
        if view.to_move == view.view and 2 <= world_space(view).worlds <= most:
            found.append(view)
    return found


def reference_world(view: SeatView, pile: frozenset[str]) -> tuple[dict[str, int], int, dict[tuple[str, str], bool]]:
    """One world solved by the reference alone: the declarer's final thirds
    after each legal card of the viewer, with best play, and which trick
    goals each player can force."""
    assert view.declarer is not None
    mine = set(hand_names(view.hand))
    other = set(reference.all_card_names()) - mine - set(hand_names(view.pile)) - pile
    hands = (frozenset(mine), frozenset(other)) if view.view == 0 else (frozenset(other), frozenset(mine))
    declarer = seat_name(view.declarer)
    piles = {seat_name(view.view): hand_names(view.pile), seat_name(1 - view.view): sorted(pile)}
    base = reference.pile_thirds(piles[declarer])
    leader, led = seat_name(view.leader), None
    lost = {"forehand": False, "dealer": False}
    for card in view.play:
        hands, leader, led, gain = reference.play(hands, leader, led, card_name(card), declarer)
        base += gain
        if led is None:
            lost[reference.other(leader)] = True
    moves = reference.reference_move_values(hands[0], hands[1], leader, declarer, led)
    value = reference.reference_value(hands[0], hands[1], leader, declarer, led)
    goals = {}
    for seat in ("forehand", "dealer"):
        for name in GOAL_NAMES:
            goal = "valat" if name == "valat" else BIRD_CARDS[name]
            forced = reference.reference_goal(hands[0], hands[1], leader, seat, led, goal=goal)
            goals[(seat, name)] = forced and not (name == "valat" and lost[seat])
    return {name: base + future for name, future in moves.items()}, base + value, goals


@pytest.mark.parametrize("seed", fast_first(range(3)))
def test_enumeration_is_the_exact_average_over_every_world(seed: int) -> None:
    for view in late_views(2, seed):
        piles = list(brute_force_piles(view))
        result = odds(view, samples=10_000, seed=0, jobs=1)
        assert result.exact and result.samples == result.worlds == len(piles)
        solved = [reference_world(view, pile) for pile in piles]
        n = len(solved)
        win = result.win_thirds
        assert result.thirds is not None and result.p_win is not None
        assert result.thirds.mean == pytest.approx(float(Fraction(sum(v for _, v, _ in solved), n)), abs=1e-9)
        assert result.thirds.ci95 == (result.thirds.mean, result.thirds.mean)
        assert result.p_win == pytest.approx(sum(v >= win for _, v, _ in solved) / n)
        assert [card_name(c.card) for c in result.cards] == hand_names(sum(1 << c.card for c in result.cards)), (
            "the cards in the hand's order"
        )
        for card in result.cards:
            after = [moves[card_name(card.card)] for moves, _, _ in solved]
            assert card.thirds.mean == pytest.approx(float(Fraction(sum(after), n)), abs=1e-9)
            assert card.p_win == pytest.approx(sum(t >= win for t in after) / n)
        for seat, name, share in result.feasible:
            assert share == pytest.approx(sum(goals[(seat_name(seat), name)] for _, _, goals in solved) / n)


def test_the_best_card_is_the_viewer_side_best() -> None:
    for view in late_views(4, seed=9):
        result = odds(view, samples=10_000, jobs=1)
        means = {c.card: c.thirds.mean for c in result.cards}
        declaring = view.view == view.declarer
        best = max(means.values()) if declaring else min(means.values())
        chosen = result.best_card_by_mean()
        assert chosen is not None and means[chosen] == best


def sampled_view() -> SeatView:
    rng = random.Random(21)
    while True:
        view, _ = random_view(rng, cards=rng.randrange(16, 22))
        if world_space(view).worlds > 40:
            return view


def test_the_same_numbers_for_one_job_and_two_and_for_the_same_seed() -> None:
    view = sampled_view()
    alone = odds(view, samples=16, seed=5, jobs=1)
    shared = odds(view, samples=16, seed=5, jobs=2)
    again = odds(view, samples=16, seed=5, jobs=1)
    assert not alone.exact and alone.samples == 16
    assert alone == shared == again
    assert alone.to_json() == shared.to_json()
    other = list(sample_worlds(view, 16, seed=6))
    assert other != list(sample_worlds(view, 16, seed=5))


def test_the_progress_counts_every_world() -> None:
    view = sampled_view()
    calls: list[tuple[int, int]] = []
    odds(view, samples=5, seed=1, jobs=1, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(done, 5) for done in range(1, 6)]


def test_before_the_auction_each_world_is_valued_as_its_exchange_table_says() -> None:
    view, _ = random_auction_view(random.Random(8))
    result = odds(view, samples=2, seed=3, jobs=1)
    assert not result.exact and result.thirds is None and result.cards == ()
    analyser = Analyser()
    tables = [analyser.analyse_exchange(w).table for w in sample_worlds(view, 2, seed=3) if isinstance(w, Dealt)]
    for index, contract in enumerate(CONTRACTS):
        points = [table.best(view.view, contract).game_points for table in tables]
        wins = [table.best(view.view, contract).won for table in tables]
        row = result.contracts[index]
        assert row.contract == contract
        assert row.game_points.mean == pytest.approx(sum(points) / 2)
        assert row.p_win == pytest.approx(sum(wins) / 2)
    assert result.to_json()["feasible"] is None and len(result.to_json()["contracts"]) == len(CONTRACTS)  # type: ignore[arg-type]


class Enough(Exception):
    """Stops the odds after their first world."""


def test_the_worlds_are_drawn_as_they_are_solved(monkeypatch: pytest.MonkeyPatch) -> None:
    # A million samples must not be dealt before the first is solved.
    drawn = 0

    def counted(view: SeatView, samples: int, seed: int) -> Iterator[Deal | Dealt]:
        nonlocal drawn
        for world in sample_worlds(view, samples, seed):
            drawn += 1
            yield world

    def first_only(done: int, total: int) -> None:
        assert total == 10**6
        raise Enough

    monkeypatch.setattr(kosolve.sampling.odds, "sample_worlds", counted)
    view = load_view(EXAMPLES / "views" / "auction.json")
    assert world_space(view).worlds > 10**9
    with pytest.raises(Enough):
        odds(view, 10**6, jobs=1, progress=first_only)
    assert drawn == kosolve.sampling.odds.SOLVING_BLOCK  # one block, put in solving order


@pytest.mark.parametrize("jobs", [1, 2])
def test_worlds_solved_in_another_order_are_reported_in_theirs(monkeypatch: pytest.MonkeyPatch, jobs: int) -> None:
    """Blocks of 5 worlds, each solved in the order of the other's cards,
    in runs of 3 (one job) or 1 (two jobs) a worker: each world's value is
    reported at its own place."""
    monkeypatch.setattr(kosolve.sampling.odds, "SOLVING_BLOCK", 5)
    view = sampled_view()
    result = odds(view, samples=12, seed=9, jobs=jobs, feasibility=False)
    analyser = Analyser()
    worlds = [w for w in sample_worlds(view, 12, seed=9) if isinstance(w, Deal)]
    moves = view.to_move == view.view
    expected = [kosolve.sampling.odds.value_world(analyser, (w, Rules(), moves, False)) for w in worlds]
    assert list(result.values) == expected
    hands = [w.hands[1 - view.view] for w in worlds]
    assert hands[:5] != sorted(hands[:5]) or hands[5:10] != sorted(hands[5:10])  # an order to undo
