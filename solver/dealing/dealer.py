"""Realistic whole deals made by the dealing procedure of docs/rules.md §3.

A deal is shuffled and dealt as at the table (talon, hand cards, personal
cards), each player lays away eight hand cards, a simple strength estimate
picks the declarer and his contract, and the declarer exchanges with the
talon.  The players' choices follow plausible heuristics, not optimal play:
the point is positions that look like the ones a solver is asked about.

>>> from kosolve.model.cards import ALL_CARDS
>>> deal = deal_game(random.Random(7))
>>> deal.contract in CONTRACTS, [h.bit_count() for h in deal.hands]
(True, [16, 16])
>>> deal.hands[0] | deal.hands[1] | deal.piles[0] | deal.piles[1] == ALL_CARDS
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, TypeVar

from kosolve.model.cards import (
    CARD_VALUES,
    KINGS,
    SUIT_MASKS,
    TAROCK,
    TRULL,
    Card,
    Hand,
    cards_of,
    mask_of,
    suit_of,
    thirds_of,
)
from kosolve.model.deal import Deal
from kosolve.model.dealt import DISCARD_SIZE, KEPT, TAROCKS, Dealt, Exchange, talon_choices
from kosolve.model.dealt_file import DealtFile
from kosolve.model.game import (
    CONTRACTS,
    DEALER,
    DISCARD_VARIANTS,
    FOREHAND,
    SEATS,
    TALON_SIZE,
    TRICKS_PER_GAME,
    Position,
    Seat,
)

T = TypeVar("T")

MAX_SEED: Final = 2**63
"""Seeds of random deals drawn for a user (the web view's games and
``/api/v1/random``, a match's without ``--seed``) are below this."""
PACKET: Final = 4

CONTRACT_THRESHOLDS: Final = {"zweiblatt": 18.5, "einblatt": 21.0, "solo": 23.0}
"""The least hand strength (see :func:`hand_strength`) that bids each contract
above Dreiblatt; tuned so that most deals are Dreiblatt or Zweiblatt and Solo
is rare."""


class DealingError(ValueError):
    """A dealing request the procedure cannot meet."""


def below(rng: random.Random, n: int) -> int:
    """A whole number from 0 to ``n - 1``, each equally likely, from
    :meth:`~random.Random.getrandbits` alone: draws of ``n.bit_length()``
    bits until one is below ``n``.

    >>> [below(random.Random(1), 10) for _ in range(3)] == [below(random.Random(1), 10)] * 3
    True
    >>> below(random.Random(1), 0)
    Traceback (most recent call last):
    ...
    kosolve.dealing.dealer.DealingError: nothing to choose from
    """
    if n < 1:
        raise DealingError("nothing to choose from")
    bits = n.bit_length()
    drawn = rng.getrandbits(bits)
    while drawn >= n:
        drawn = rng.getrandbits(bits)
    return drawn


def shuffle(items: list[T], rng: random.Random) -> None:
    """Shuffle ``items`` in place (Fisher and Yates, from the last place
    down), by :func:`below`.

    >>> pack = list(range(10))
    >>> shuffle(pack, random.Random(5))
    >>> sorted(pack) == list(range(10)), pack != list(range(10))
    (True, True)
    """
    for place in range(len(items) - 1, 0, -1):
        other = below(rng, place + 1)
        items[place], items[other] = items[other], items[place]


def sample(items: Sequence[T], count: int, rng: random.Random) -> list[T]:
    """``count`` distinct items of ``items`` in random order: the first
    places of a partial shuffle of a copy.

    >>> sorted(sample("abcde", 5, random.Random(2)))
    ['a', 'b', 'c', 'd', 'e']
    """
    pool = list(items)
    for place in range(count):
        other = place + below(rng, len(pool) - place)
        pool[place], pool[other] = pool[other], pool[place]
    return pool[:count]


def choose_discard(hand: Hand, count: int, rng: random.Random) -> Hand:
    """A plausible legal lay-away of ``count`` cards from ``hand``.

    The player voids his shortest suits without a king where the whole suit
    fits, then lays away the cards of suits he cannot guard, valuable ones
    first (they are safe in his own pile), and tarocks only when he must, the
    lowest ones.  ``rng`` breaks ties.

    >>> from kosolve.model.cards import parse_hand, hand_names
    >>> hand = parse_hand(["HK", "HQ", "H4", "D1", "D2", "S7", "V", "Sk"])
    >>> hand_names(choose_discard(hand, 3, random.Random(1)))  # void in spades and diamonds
    ['D1', 'D2', 'S7']
    """
    plain = hand & ~TAROCKS & ~KEPT
    tarocks = sorted(cards_of(hand & TAROCKS & ~KEPT))
    if count > plain.bit_count() + len(tarocks):
        raise DealingError(f"cannot lay away {count} cards from {plain.bit_count() + len(tarocks)} that may go")
    if count >= plain.bit_count():
        return plain | mask_of(tarocks[: count - plain.bit_count()])
    noise = {card: rng.random() for card in cards_of(plain)}
    chosen = 0
    suits = [s for s in range(TAROCK) if plain & SUIT_MASKS[s] and not hand & KINGS & SUIT_MASKS[s]]
    suits.sort(key=lambda s: ((hand & SUIT_MASKS[s]).bit_count(), rng.random()))
    for suit in suits:
        cards = plain & SUIT_MASKS[suit]
        if cards.bit_count() <= count - chosen.bit_count():
            chosen |= cards
    rest = sorted(
        cards_of(plain & ~chosen),
        key=lambda c: (
            bool(hand & KINGS & SUIT_MASKS[suit_of(c)]),
            (hand & SUIT_MASKS[suit_of(c)]).bit_count(),
            -CARD_VALUES[c],
            noise[c],
        ),
    )
    return chosen | mask_of(rest[: count - chosen.bit_count()])


def hand_strength(hand: Hand) -> float:
    """A rough bidding strength of a hand: tarocks, the high ones more, trull
    cards and kings, and voids in the suits (which let tarocks trump).

    >>> from kosolve.model.cards import parse_hand
    >>> hand_strength(parse_hand(["Sk", "XXI", "I", "HK"]))  # 3 + 1 + 6 + 1.5 + 1.5
    13.0
    """
    tarocks = hand & TAROCKS
    strength = tarocks.bit_count() + 0.5 * (tarocks >> 48).bit_count()
    strength += 2.0 * (hand & TRULL).bit_count() + 1.5 * (hand & KINGS).bit_count()
    strength += 0.5 * sum(1 for s in range(TAROCK) if not hand & SUIT_MASKS[s])
    return strength


def bid(strength: float) -> str:
    """The contract a player with this hand strength declares.

    >>> bid(10.0), bid(19.0), bid(25.0)
    ('dreiblatt', 'zweiblatt', 'solo')
    """
    contract = CONTRACTS[0]
    for name, least in CONTRACT_THRESHOLDS.items():
        if strength >= least:
            contract = name
    return contract


def choose_exchange(hand: Hand, contract: str, talon: Sequence[Card], rng: random.Random) -> Exchange:
    """The declarer's talon exchange by rule of thumb: the talon choice whose
    resulting hand is strongest, counting half a strength point per point of
    card value laid away and against the cards left to the defender, each
    with a plausible lay-away (:func:`choose_discard`, from the hand and the
    cards taken).

    >>> from kosolve.model.cards import HEARTS, DIAMONDS, card_name, hand_names
    >>> hand = SUIT_MASKS[HEARTS] | SUIT_MASKS[DIAMONDS]
    >>> exchange = choose_exchange(hand, "einblatt", [20, 53, 21, 50, 49, 48], random.Random(2))
    >>> [card_name(c) for c in exchange.take], hand_names(exchange.lay_away)
    (['Sk'], ['HQ'])
    """
    talon_mask = mask_of(talon)
    best: tuple[float, Exchange] | None = None
    for take in talon_choices(contract, talon):
        taken = mask_of(take)
        full = hand | taken
        laid = choose_discard(full, len(take), rng)
        left = talon_mask & ~taken
        score = hand_strength(full & ~laid) + (thirds_of(laid) - thirds_of(left)) / 6
        if best is None or score > best[0]:
            best = (score, Exchange(take, laid))
    assert best is not None
    return best[1]


def _deal_cards(rng: random.Random) -> tuple[list[Card], list[Hand], list[Hand]]:
    """Shuffle and deal: the talon (top first), then packets of four to
    forehand and dealer in turn -- two rounds of hand cards, two of personal
    cards, two more of hand cards -- as the seed describes."""
    pack = list(range(54))
    shuffle(pack, rng)
    talon, rest = pack[:TALON_SIZE], pack[TALON_SIZE:]
    hands = [0, 0]
    personal = [0, 0]
    rounds = (hands, hands, personal, personal, hands, hands)
    for index, target in enumerate(rounds):
        for seat in (FOREHAND, DEALER):
            start = (2 * index + seat) * PACKET
            target[seat] |= mask_of(rest[start : start + PACKET])
    return talon, hands, personal


def deal_as_dealt(rng: random.Random, discard: str = "classic") -> Dealt:
    """Shuffle, deal and discard by the ``discard`` variant (docs/rules.md
    §3.3): a deal as dealt, before the auction.

    >>> dealt = deal_as_dealt(random.Random(3))
    >>> len(dealt.talon), [dealt.held(seat).bit_count() for seat in SEATS]
    (6, [16, 16])
    >>> dealt = deal_as_dealt(random.Random(3), "tactical")
    >>> [dealt.held(seat).bit_count() for seat in SEATS], dealt.picked_up
    ([16, 16], None)
    """
    talon, hands, personal = _deal_cards(rng)
    if discard == "classic":
        discards = [choose_discard(hands[seat], DISCARD_SIZE, rng) for seat in SEATS]
        return Dealt(tuple(talon), (hands[0], hands[1]), (personal[0], personal[1]), (discards[0], discards[1]))
    if discard == "tactical":
        discards = [choose_discard(hands[seat] | personal[seat], DISCARD_SIZE, rng) for seat in SEATS]
        return Dealt(tuple(talon), (hands[0], hands[1]), (personal[0], personal[1]), (discards[0], discards[1]))
    if discard not in DISCARD_VARIANTS:
        raise DealingError(f"unknown discard variant {discard!r}")
    # Medium and easy: the plain suit cards (no kings) go, up to eight, and
    # as many personal cards are picked up unseen.  Easy would allow tarocks
    # too, but a player keeps them (choose_discard lays them away only when
    # he must, and here he need not).
    discards = []
    picked = []
    for seat in SEATS:
        plain = hands[seat] & ~TAROCKS & ~KEPT
        count = min(DISCARD_SIZE, plain.bit_count())
        discards.append(choose_discard(hands[seat], count, rng))
        picked.append(mask_of(sample(sorted(cards_of(personal[seat])), count, rng)))
    return Dealt(
        tuple(talon),
        (hands[0], hands[1]),
        (personal[0], personal[1]),
        (discards[0], discards[1]),
        None if picked == personal else (picked[0], picked[1]),
    )


def choose_contract(dealt: Dealt, contract: str | None = None, declarer: Seat | None = None) -> tuple[Seat, str]:
    """The declarer and contract of the auction by rule of thumb: the
    stronger hand (:func:`hand_strength`) declares, the forehand on equal
    strength (he speaks first and keeps the game), and bids by :func:`bid`.
    A fixed ``declarer`` declares whatever his strength; a fixed
    ``contract`` is what the declarer plays.

    >>> dealt = deal_as_dealt(random.Random(3))
    >>> choose_contract(dealt), choose_contract(dealt, declarer=FOREHAND), choose_contract(dealt, "solo")
    ((1, 'zweiblatt'), (0, 'dreiblatt'), (1, 'solo'))
    """
    if contract is not None and contract not in CONTRACTS:
        raise DealingError(f"unknown contract {contract!r}")
    if declarer is None:
        strengths = [hand_strength(dealt.held(seat)) for seat in SEATS]
        declarer = DEALER if strengths[DEALER] > strengths[FOREHAND] else FOREHAND
    elif declarer not in SEATS:
        raise DealingError(f"unknown seat {declarer!r}")
    return declarer, contract if contract is not None else bid(hand_strength(dealt.held(declarer)))


def deal_bid(
    rng: random.Random, contract: str | None = None, declarer: Seat | None = None, discard: str = "classic"
) -> DealtFile:
    """A deal as dealt under the ``discard`` variant, with the declarer and
    contract of the auction (:func:`choose_contract`, ``contract`` and
    ``declarer`` fixing them) and his talon exchange (:func:`choose_exchange`):
    the file ``kosolve deal --dealt`` writes.

    >>> file = deal_bid(random.Random(3))
    >>> file.contract, file.declarer, file.play_deal() == deal_game(random.Random(3))
    ('zweiblatt', 1, True)
    """
    dealt = deal_as_dealt(rng, discard)
    declarer, contract = choose_contract(dealt, contract, declarer)
    exchange = choose_exchange(dealt.held(declarer), contract, dealt.talon, rng)
    return DealtFile(dealt, contract, declarer, exchange, discard=discard)


def deal_game(
    rng: random.Random, contract: str | None = None, declarer: Seat | None = None, discard: str = "classic"
) -> Deal:
    """A whole deal at trick 1, from shuffle to talon exchange
    (:func:`deal_bid` played).

    >>> from kosolve.model.game import seat_name
    >>> deal = deal_game(random.Random(3))
    >>> deal.contract, seat_name(deal.declarer)
    ('zweiblatt', 'dealer')
    >>> [p.bit_count() for p in deal.piles]  # 8 + 4 talon cards left, 8 + 2 laid away
    [12, 10]
    >>> deal_game(random.Random(3), "solo", FOREHAND).contract
    'solo'
    """
    return deal_bid(rng, contract, declarer, discard).play_deal()


def deal_games(
    n: int, seed: int, contract: str | None = None, declarer: Seat | None = None, discard: str = "classic"
) -> list[Deal]:
    """``n`` deals, the same for the same ``seed`` (and the same fixed
    contract, declarer and discard variant).

    >>> deal_games(2, seed=5) == deal_games(2, seed=5)
    True
    """
    rng = random.Random(seed)
    return [deal_game(rng, contract, declarer, discard) for _ in range(n)]


HARD_TAROCKS: Final = 8
"""The tarocks each hand holds at least in a deal of :func:`deal_hard_games`."""


def deal_hard_games(n: int, seed: int, tarocks: int = HARD_TAROCKS) -> list[Deal]:
    """``n`` deals of :func:`deal_game` in which both hands hold at least
    ``tarocks`` tarocks, the same for the same ``seed``: the even tarock
    splits, whose many tarock tricks keep the search's hardest trees open.
    Deals that miss are skipped, so the set stays realistic otherwise.

    >>> deals = deal_hard_games(3, seed=5)
    >>> all((hand & TAROCKS).bit_count() >= HARD_TAROCKS for deal in deals for hand in deal.hands)
    True
    >>> deals == deal_hard_games(3, seed=5)
    True
    """
    if 2 * tarocks > TAROCKS.bit_count():
        raise DealingError(f"both hands cannot hold {tarocks} tarocks: there are {TAROCKS.bit_count()}")
    rng = random.Random(seed)
    deals: list[Deal] = []
    while len(deals) < n:
        deal = deal_game(rng)
        if all((hand & TAROCKS).bit_count() >= tarocks for hand in deal.hands):
            deals.append(deal)
    return deals


def random_ending(rng: random.Random, max_tricks: int) -> Deal:
    """A deal played on with random legal cards until at most ``max_tricks``
    tricks remain.  The returned deal starts at that trick boundary: its
    hands are the cards left, its piles include the tricks each side has
    taken, and its leader is the winner of the last trick.

    >>> ending = random_ending(random.Random(4), 5)
    >>> [h.bit_count() for h in ending.hands]
    [5, 5]
    >>> sum(thirds_of(p) for p in ending.piles) + thirds_of(ending.hands[0] | ending.hands[1])
    210
    """
    if not 0 <= max_tricks <= TRICKS_PER_GAME:
        raise DealingError(f"max_tricks must be 0 to {TRICKS_PER_GAME}, not {max_tricks}")
    deal = deal_game(rng)
    assert deal.piles is not None
    position = deal.position()
    piles = list(deal.piles)
    while position.hands[0].bit_count() > max_tricks:
        led = _random_card(position, rng)
        reply = _random_card(position, rng)
        piles[position.leader] |= (1 << led) | (1 << reply)
    return Deal(
        deal.contract,
        deal.declarer,
        (position.hands[0], position.hands[1]),
        piles=(piles[0], piles[1]),
        leader=position.leader,
    )


def _random_card(position: Position, rng: random.Random) -> Card:
    moves = list(position.legal_moves)
    card: Card = moves[below(rng, len(moves))]
    position.push(card)
    return card
