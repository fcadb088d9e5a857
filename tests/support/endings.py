"""Random endings for the agreement tests, in card names.

An ending is the last few tricks of a hand: both hands, who leads, who
declares, and possibly a card already led.  Draws mix plain random cards with
tarock-rich and suit-heavy ones, so that following suit, trumping, discarding
and runs of equivalent cards all come up often.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from kosolve.model.cards import CARD_NAMES

SEATS: Final = ("forehand", "dealer")
TAROCKS: Final = tuple(name for name in CARD_NAMES[32:])
SUITS: Final = tuple(tuple(CARD_NAMES[8 * s : 8 * s + 8]) for s in range(4))
STYLES: Final = ("plain", "tarocks", "suits", "runs")

# Exact names, not kosolve.model.cards.parse_card, so that the agreement tests do
# not depend on the parser: they test the search.
_CARD_OF_NAME: Final = {name: card for card, name in enumerate(CARD_NAMES)}


@dataclass(frozen=True)
class Ending:
    """A position a few tricks from the end, in card names."""

    forehand: tuple[str, ...]
    dealer: tuple[str, ...]
    leader: str
    declarer: str
    led: str | None = None

    def solver_args(self) -> tuple[int, int, int, int, int]:
        """The arguments of Solver.value and friends: masks, seats, led card."""
        return (
            mask(self.forehand),
            mask(self.dealer),
            SEATS.index(self.leader),
            SEATS.index(self.declarer),
            _CARD_OF_NAME[self.led] if self.led is not None else -1,
        )

    def reference_args(self) -> tuple[tuple[str, ...], tuple[str, ...], str, str, str | None]:
        return self.forehand, self.dealer, self.leader, self.declarer, self.led

    @property
    def cards(self) -> int:
        """Cards left to play, the led one not counted."""
        return len(self.forehand) + len(self.dealer)


def mask(names: tuple[str, ...] | list[str]) -> int:
    """The bitmask of kosolve.model.cards holding the named cards."""
    result = 0
    for name in names:
        result |= 1 << _CARD_OF_NAME[name]
    return result


def names_of(cards: list[int]) -> list[str]:
    return [CARD_NAMES[card] for card in cards]


def _draw(rng: random.Random, n: int, style: str) -> list[str]:
    if style == "plain":
        return rng.sample(CARD_NAMES, n)
    if style == "tarocks":
        # At least half tarocks: tarock leads, trumping and ties of value 1.
        n_tarocks = rng.randint((n + 1) // 2, n)
        others = [name for name in CARD_NAMES if name not in TAROCKS]
        return rng.sample(TAROCKS, n_tarocks) + rng.sample(others, n - n_tarocks)
    if style == "suits":
        # Mostly one or two suits and few tarocks: following, voids, discards.
        pool = [name for suit in rng.sample(SUITS, rng.randint(1, 2)) for name in suit]
        n_pool = min(len(pool), rng.randint((n + 1) // 2, n))
        chosen = rng.sample(pool, n_pool)
        rest = [name for name in CARD_NAMES if name not in chosen]
        rest_weights = [1 if name in TAROCKS else 3 for name in rest]
        while len(chosen) < n:
            name = rng.choices(rest, rest_weights)[0]
            if name not in chosen:
                chosen.append(name)
        return chosen
    if style == "runs":
        # A few stretches of neighbouring cards in one suit: groups of
        # equivalent cards, split or not by the other hand's cards.
        chosen = []
        while len(chosen) < n:
            suit = rng.choice([*SUITS, TAROCKS])
            start = rng.randrange(len(suit))
            for name in suit[start : start + rng.randint(2, 5)]:
                if name not in chosen and len(chosen) < n:
                    chosen.append(name)
        return chosen
    raise ValueError(f"unknown style {style!r}")


def random_ending(rng: random.Random, tricks: int, style: str | None = None, mid_trick: bool | None = None) -> Ending:
    """An ending of ``tricks`` tricks; with ``mid_trick`` a card of the first
    is already led (2 * tricks - 1 cards in the hands)."""
    style = style if style is not None else rng.choice(STYLES)
    mid_trick = mid_trick if mid_trick is not None else rng.random() < 0.4
    cards = _draw(rng, 2 * tricks, style)
    rng.shuffle(cards)
    if style == "runs" and rng.random() < 0.5:
        # Runs dealt to one hand rather than split at random.
        cards.sort(key=CARD_NAMES.index)
        start = rng.randrange(len(cards))
        cards = cards[start:] + cards[:start]
    led = cards.pop() if mid_trick else None
    leader, declarer = rng.choice(SEATS), rng.choice(SEATS)
    n_leader = tricks - (1 if mid_trick else 0)
    lead_hand, follow_hand = tuple(cards[:n_leader]), tuple(cards[n_leader:])
    forehand, dealer = (lead_hand, follow_hand) if leader == "forehand" else (follow_hand, lead_hand)
    return Ending(forehand, dealer, leader, declarer, led)
