"""Dominated cards: below the root the point search tries one card of each
run of touching cards whose trick is settled (_movegen.pxd, docs/search.md
"Dominated cards").  Checked three ways: on positions built for it, against
the definition written out plainly, and against the reference's values (a
dropped card is never better for the mover than the card kept for it)."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from support.endings import Ending, mask, names_of, random_ending

from kosolve.engine._testing import _py_representatives, _py_settled_leads, _py_settled_replies
from kosolve.model.cards import CARD_NAMES
from kosolve.tools import reference

CARD = {name: card for card, name in enumerate(CARD_NAMES)}


def kept_leads(own: Iterable[str], opponent: Iterable[str], alone: Iterable[str] = ()) -> list[str]:
    return names_of(_py_settled_leads(mask(list(own)), mask(list(opponent)), mask(list(alone))))


def kept_replies(own: Iterable[str], leader: Iterable[str], led: str, alone: Iterable[str] = ()) -> list[str]:
    return names_of(_py_settled_replies(mask(list(own)), mask(list(leader)), CARD[led], mask(list(alone))))


@pytest.mark.parametrize(
    ("own", "opponent", "alone", "kept"),
    [
        pytest.param(["HK", "HQ", "HJ", "H4"], ["XX", "S7"], [], ["H4"], id="void with tarocks behind: the cheapest"),
        pytest.param(["HK", "HQ", "HJ", "H4"], ["S7", "C7"], [], ["HK"], id="void without tarocks: the king"),
        pytest.param(["SK", "SQ", "S7"], ["SJ", "XX"], [], ["S7", "SK"], id="touching honours above his spade: SK"),
        pytest.param(["SQ", "S9", "S8"], ["SK", "SJ"], [], ["S8", "SQ"], id="below his spades: one cheapest"),
        pytest.param(["SQ", "SJ", "S9"], ["SC", "S10", "C7"], [], ["S9", "SJ", "SQ"], id="between his cards: all"),
        pytest.param(["I", "II", "III"], ["XX", "XXI"], [], ["II"], id="a sure-losing tarock run keeps a 1-pointer"),
        pytest.param(["I", "II", "III"], ["XX", "XXI"], ["I"], ["I", "II"], id="the bird stays alone"),
        pytest.param(["II", "III", "IV"], ["V", "HK"], ["III"], ["II", "III"], id="a bird in the run stays alone"),
        pytest.param(["Sk", "XXI", "XX"], ["HK", "S7"], [], ["XXI"], id="tarocks he cannot beat: a 5-pointer"),
        pytest.param(["Sk", "XXI", "XX"], ["XIX", "S7"], [], ["XXI"], id="tarocks above all of his: a 5-pointer"),
    ],
)
def test_built_leads(own: list[str], opponent: list[str], alone: list[str], kept: list[str]) -> None:
    assert kept_leads(own, opponent, alone) == sorted(kept, key=CARD.__getitem__)


@pytest.mark.parametrize(
    ("own", "leader", "led", "kept"),
    [
        pytest.param(["HK", "HQ", "HJ", "H4"], ["XX"], "H1", ["H4", "HK"], id="follow: cheapest loser, king winner"),
        pytest.param(["HK", "HC", "H4"], ["HQ"], "HJ", ["H4", "HC", "HK"], id="his queen splits the winners"),
        pytest.param(["HK", "HQ", "H4"], ["HC"], "HJ", ["H4", "HK"], id="his cavalier below them does not"),
        pytest.param(["XXI", "XX", "III"], ["HK"], "H4", ["XXI"], id="trumping: the most valuable tarock"),
        pytest.param(["XXI", "XX", "III"], ["XIX"], "H4", ["III", "XXI"], id="his tarock splits the trumps"),
        pytest.param(["SK", "SQ", "CK", "C7"], ["S7", "C10"], "HK", ["SQ", "C7", "CK"], id="discards: the cheapest"),
        pytest.param(["X", "IX", "II"], ["XX"], "V", ["II", "IX"], id="below and above the led tarock: one of each"),
    ],
)
def test_built_replies(own: list[str], leader: list[str], led: str, kept: list[str]) -> None:
    assert kept_replies(own, leader, led) == sorted(kept, key=CARD.__getitem__)


def expected_kept(own: set[str], opponent: set[str], led: str | None, alone: set[str]) -> set[str]:
    """The definition: the legal cards, one of each group of equal cards;
    then of each run (cards of the mover's not ``alone``, of one suit, with
    the same settled trick winner and no card of the opponent's between
    them) only the lowest card of the most valuable (he wins) or the
    cheapest (he loses)."""
    legal = reference.legal_cards(own, led)
    in_play = own | opponent | ({led} if led else set())
    kept = set(names_of(_py_representatives(mask(sorted(legal)), mask(sorted(in_play)), mask(sorted(alone)))))

    def mover_wins(card: str) -> bool | None:
        if led is not None:
            return reference.trick_winner(led, card) == 1
        outcomes = {reference.trick_winner(card, reply) == 0 for reply in reference.legal_cards(opponent, card)}
        return outcomes.pop() if len(outcomes) == 1 else None

    def touching(low: str, high: str) -> bool:
        return reference.suit(low) == reference.suit(high) and not any(
            reference.suit(c) == reference.suit(low) and reference.rank(low) < reference.rank(c) < reference.rank(high)
            for c in opponent
        )

    runs: list[list[str]] = []
    for card in sorted(legal - alone, key=lambda c: (reference.suit(c), reference.rank(c))):
        wins = mover_wins(card)
        if wins is None:
            continue
        if runs and touching(runs[-1][-1], card) and mover_wins(runs[-1][-1]) == wins:
            runs[-1].append(card)
        else:
            runs.append([card])
    for run in runs:
        if len(run) < 2:
            continue
        values = [reference.card_value(c) for c in run]
        target = max(values) if mover_wins(run[0]) else min(values)
        kept -= set(run)
        kept.add(min((c for c in run if reference.card_value(c) == target), key=CARD.__getitem__))
    return kept


def test_the_kept_cards_follow_the_definition() -> None:
    rng = random.Random(21)
    for _ in range(4000):
        cards = rng.sample(CARD_NAMES, rng.randint(3, 33))
        led = cards.pop() if rng.random() < 0.5 else None
        half = rng.randint(1, len(cards) - 1)
        own, opponent = set(cards[:half]), set(cards[half:])
        birds = {"I", "II", "III", "IV"} & own
        alone = set(rng.sample(sorted(birds), 1)) if birds and rng.random() < 0.3 else set()
        got = set(kept_leads(own, opponent, alone)) if led is None else set(kept_replies(own, opponent, led, alone))
        assert got == expected_kept(own, opponent, led, alone), (sorted(own), sorted(opponent), led, sorted(alone))


def mover_of(ending: Ending) -> tuple[tuple[str, ...], tuple[str, ...], str]:
    """The hand of the side to move, the other hand, and the mover's seat."""
    hands = {"forehand": ending.forehand, "dealer": ending.dealer}
    other = {"forehand": "dealer", "dealer": "forehand"}
    mover = ending.leader if ending.led is None else other[ending.leader]
    return hands[mover], hands[other[mover]], mover


def test_no_dropped_card_is_better_than_the_one_kept() -> None:
    """On random endings valued by the reference: the best value over the
    kept cards is the best over all, and every dropped card is worth no more
    to the mover than the kept card of its suit nearest to it that beats it
    the same way.  Keeping the wrong card of a pair fails here."""
    rng = random.Random(22)
    dropped_total = 0
    for index in range(600):
        ending = random_ending(rng, rng.randint(2, 5), style=("runs", "suits", "tarocks", "plain")[index % 4])
        own, opponent, mover = mover_of(ending)
        values = reference.reference_move_values(*ending.reference_args())
        kept = kept_leads(own, opponent) if ending.led is None else kept_replies(own, opponent, ending.led)
        sign = 1 if mover == ending.declarer else -1
        assert set(kept) <= set(values)
        assert max(sign * values[c] for c in kept) == max(sign * v for v in values.values()), ending
        for card in set(values) - set(kept):
            dropped_total += 1
            rivals = [k for k in kept if reference.suit(k) == reference.suit(card)]
            assert any(sign * values[k] >= sign * values[card] for k in rivals), (ending, card, kept, values)
    assert dropped_total > 300, "the endings should drop many cards"
