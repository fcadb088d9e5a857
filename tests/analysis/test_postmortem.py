"""The post-mortem: losses that add up, no loss on a perfect line, better
cards that really keep the value, and goals followed to the card that lost
them."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from kosolve.analysis.goals import parse_goal, solve_goal
from kosolve.analysis.postmortem import postmortem
from kosolve.analysis.solving import new_solver, solve
from kosolve.dealing import deal_games, random_ending
from kosolve.model.deal import Deal

SOLVER = new_solver(tt_mb=16)


def random_play(deal: Deal, rng: random.Random, cards: int | None = None) -> Deal:
    """The deal with a play of random legal cards (all of it, or ``cards``)."""
    position = deal.position()
    while not position.is_over() and (cards is None or len(position.move_stack) < cards):
        position.push(rng.choice(list(position.legal_moves)))
    return replace(deal, play=tuple(position.move_stack))


def endings(count: int, seed: int) -> list[Deal]:
    rng = random.Random(seed)
    return [random_play(random_ending(rng, rng.randint(2, 6)), rng) for _ in range(count)]


@pytest.mark.parametrize("deal", endings(12, seed=3))
def test_losses_add_up_to_the_fall_of_the_value(deal: Deal) -> None:
    review = postmortem(deal, solver=SOLVER)
    declarer_loss = review.total_loss[deal.declarer]
    defender_loss = review.total_loss[1 - deal.declarer]
    start, end = review.cards[0].before, review.cards[-1].after
    assert declarer_loss - defender_loss == start - end
    assert end == deal.position().declarer_thirds()  # a finished play is its own value
    for earlier, later in zip(review.cards, review.cards[1:], strict=False):
        assert earlier.after == later.before


@pytest.mark.parametrize("deal", endings(12, seed=4))
def test_better_cards_keep_the_value_and_the_played_one_does_not(deal: Deal) -> None:
    review = postmortem(deal, solver=SOLVER)
    for card in review.cards:
        position = deal.position(at=card.index)
        values = {m.card: m.thirds for m in solve(position, solver=SOLVER, with_line=False).moves}
        assert values[card.card] == card.after
        if card.loss:
            assert card.best and card.card not in card.best
            assert {c for c, v in values.items() if v == card.before} == set(card.best)
        else:
            assert card.best == ()


def test_a_perfect_line_loses_nothing() -> None:
    deal = deal_games(1, seed=21)[0]
    line = solve(deal.position(), solver=SOLVER, with_moves=False).line
    review = postmortem(replace(deal, play=line), solver=SOLVER)
    assert len(review.cards) == 32
    assert review.total_loss == (0, 0)
    assert {c.before for c in review.cards} == {review.cards[0].before}
    assert review.costliest() == []


def test_an_unfinished_play_is_reviewed_as_far_as_it_goes() -> None:
    deal = random_play(deal_games(1, seed=22)[0], random.Random(5), cards=9)
    review = postmortem(deal, solver=SOLVER)
    assert [c.index for c in review.cards] == list(range(9))
    assert [c.trick for c in review.cards] == [1, 1, 2, 2, 3, 3, 4, 4, 5]
    assert review.cards[-1].after == solve(deal.position(), solver=SOLVER, with_moves=False).thirds


def test_a_goal_is_lost_at_the_card_after_which_it_cannot_be_forced() -> None:
    rng = random.Random(8)
    checked = 0
    for _ in range(60):
        deal = random_play(random_ending(rng, 4), rng)
        for seat in (0, 1):
            review = postmortem(deal, goals=((seat, parse_goal("valat")),), solver=SOLVER)
            track = review.goals[0]
            makeable = [solve_goal(deal.position(at=k), seat, "valat", solver=SOLVER).feasible for k in range(9)]
            assert track.makeable_at_start == makeable[0]
            if track.lost_at is None:
                assert all(makeable) or not makeable[0]
            else:
                checked += 1
                assert makeable[: track.lost_at + 1] == [True] * (track.lost_at + 1)
                assert not makeable[track.lost_at + 1]
    assert checked > 3
