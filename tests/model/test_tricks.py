"""The tricks in the model: a position records its tricks (leader, cards,
winner) as it is played, push and pop keep them, a seat view groups its
play the same way, and a line played on from a position starts with the
trick on the table; a deal's walk of its play gives each position as a
replay would, and each position's trick number is that of the trick its
next card falls in.  Checked against the pure-Python reference's trick
winners, which share no code with the model."""

from __future__ import annotations

import random

import pytest
from support import EXAMPLES
from support.views import played_deal, random_view

from kosolve.model.cards import card_name
from kosolve.model.deal import Deal
from kosolve.model.ending import ending_deal
from kosolve.model.files import load_deal
from kosolve.model.game import SEAT_NAMES, TRICKS_PER_GAME, IllegalMoveError, Position, Trick, trick_number_of
from kosolve.tools import reference


def reference_tricks(leader: int, names: list[str], first: int) -> list[tuple[int, str, tuple[str, ...], str | None]]:
    """The tricks of a play by the reference's winner rule, seats by name."""
    seat = SEAT_NAMES[leader]
    out = []
    for start in range(0, len(names), 2):
        pair = tuple(names[start : start + 2])
        winner = None
        if len(pair) == 2:
            winner = seat if reference.trick_winner(*pair) == 0 else reference.other(seat)
        out.append((first + start // 2, seat, pair, winner))
        if winner is not None:
            seat = winner
    return out


def as_names(tricks: tuple[Trick, ...]) -> list[tuple[int, str, tuple[str, ...], str | None]]:
    return [
        (
            t.number,
            SEAT_NAMES[t.leader],
            tuple(map(card_name, t.cards)),
            None if t.winner is None else SEAT_NAMES[t.winner],
        )
        for t in tricks
    ]


def test_a_position_records_its_tricks_as_it_is_played_and_popped() -> None:
    rng = random.Random(3)
    for _ in range(100):
        deal, _ = played_deal(rng, rng.randrange(2 * TRICKS_PER_GAME + 1))
        position = deal.position()
        names = [card_name(card) for card in deal.play]
        assert as_names(position.tricks) == reference_tricks(deal.leader, names, deal.first_trick)
        assert sum(t.winner is not None for t in position.tricks) == sum(position.tricks_won)
        for _ in range(rng.randrange(len(deal.play) + 1)):
            position.pop()
            names.pop()
            assert as_names(position.tricks) == reference_tricks(deal.leader, names, deal.first_trick)
        thirds = [sum(t.thirds for t in position.tricks if t.winner == seat) for seat in (0, 1)]
        assert thirds == position.trick_thirds


def test_a_seat_view_groups_its_play_as_the_position_does() -> None:
    rng = random.Random(4)
    for _ in range(200):
        view, deal = random_view(rng)
        assert view.tricks == deal.position(len(view.play)).tricks
        assert view.to_move == (None if len(view.play) == 2 * TRICKS_PER_GAME else deal.position(len(view.play)).turn)


def test_a_line_from_a_position_starts_with_the_trick_on_the_table() -> None:
    deal = load_deal(EXAMPLES / "played.json")  # 7 cards: the fourth trick's lead on the table
    position = deal.position()
    line = list(position.legal_moves)[:1]
    tricks = position.line_tricks(line)
    assert len(tricks) == 1 and tricks[0].number == 4 and tricks[0].cards == (deal.play[6], line[0])
    assert tricks[0].winner is not None
    assert position.line_tricks([]) == (position.tricks[-1],)
    assert position.tricks[-1].winner is None and len(position.move_stack) == 7


def state(position: Position) -> tuple[object, ...]:
    """Everything a position holds, to compare two of them."""
    return (
        position.hands,
        position.leader,
        position.trick,
        position.trick_thirds,
        position.tricks_won,
        position.move_stack,
        position.first_trick,
        position.tricks,
    )


def some_deals(rng: random.Random, count: int) -> list[Deal]:
    """Whole games played part of the way, and endings cut from them (a
    first trick past 1), with the rest of their play."""
    deals = []
    for _ in range(count):
        deal, _ = played_deal(rng, rng.randrange(2 * TRICKS_PER_GAME + 1))
        deals.append(deal)
        cut = 2 * rng.randrange(len(deal.play) // 2 + 1)
        if cut < 2 * TRICKS_PER_GAME:
            ending = ending_deal(deal, cut)
            rest = deal.play[cut:]
            deals.append(Deal(ending.contract, ending.declarer, ending.hands, ending.piles, ending.leader, rest))
    return deals


def test_the_walk_of_a_play_is_each_position_replayed_and_each_kept() -> None:
    rng = random.Random(5)
    for deal in some_deals(rng, 60):
        start = rng.randrange(len(deal.play) + 1)
        walk = list(deal.positions(start))
        assert len(walk) == len(deal.play) - start + 1
        assert len({id(position) for position in walk}) == len(walk)
        for at, position in enumerate(walk, start):
            assert state(position) == state(deal.position(at))


def test_the_trick_number_is_that_of_the_trick_the_next_card_falls_in() -> None:
    rng = random.Random(6)
    for deal in some_deals(rng, 60):
        names = [card_name(card) for card in deal.play]
        tricks = reference_tricks(deal.leader, names, deal.first_trick)
        trick_of = {name: number for number, _, pair, _ in tricks for name in pair}
        walk = list(deal.positions())
        for index, name in enumerate(names):
            assert walk[index].trick_number == trick_number_of(index, deal.first_trick) == trick_of[name]
        end = walk[-1]
        after = deal.first_trick + len(deal.play) // 2
        assert end.trick_number == after
        assert end.is_over() == (after == TRICKS_PER_GAME + 1)


def test_the_walk_names_an_illegal_card_and_its_trick_as_position_does() -> None:
    deal = load_deal(EXAMPLES / "ending.json")
    led = deal.hands[deal.leader]
    wrong = next(card for card in range(54) if not led >> card & 1)
    bad = Deal(deal.contract, deal.declarer, deal.hands, deal.piles, deal.leader, (wrong,))
    with pytest.raises(IllegalMoveError) as by_position:
        bad.position()
    with pytest.raises(IllegalMoveError) as by_walk:
        list(bad.positions())
    assert str(by_walk.value) == str(by_position.value)
    assert str(by_walk.value).startswith(f"card 1 ({card_name(wrong)}, trick {deal.first_trick}): ")
