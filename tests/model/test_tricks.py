"""The tricks in the model: a position records its tricks (leader, cards,
winner) as it is played, push and pop keep them, a seat view groups its
play the same way, and a line played on from a position starts with the
trick on the table.  Checked against the pure-Python reference's trick
winners, which share no code with the model."""

from __future__ import annotations

import random

from support import EXAMPLES
from support.views import played_deal, random_view

from kosolve.model.cards import card_name
from kosolve.model.files import load_deal
from kosolve.model.game import SEAT_NAMES, TRICKS_PER_GAME, Trick
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
