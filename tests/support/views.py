"""Seat views made from real deals, and an independent judge of worlds.

A view is made by hiding the other's cards of a realistic deal (the
realistic dealer's, :mod:`kosolve.dealing`) after random legal play,
which shows voids.  :func:`consistent` judges a world with the pure-Python
reference's rules of play and plain sets of card names, sharing no code
with the sampler it checks."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

from kosolve.dealing import choose_contract, choose_exchange, deal_as_dealt
from kosolve.model.cards import card_name, hand_names, mask_of, parse_hand
from kosolve.model.deal import Deal
from kosolve.model.dealt import Dealt
from kosolve.model.game import FOREHAND, seat_name
from kosolve.model.view import SeatView, auction_view, view_of
from kosolve.tools import reference

ALL_NAMES = frozenset(reference.all_card_names())
SEATS = ("forehand", "dealer")


def played_deal(rng: random.Random, cards: int) -> tuple[Deal, int]:
    """A realistic deal as dealt (its discards known) with ``cards`` random
    legal cards of play, and the talon cards its declarer took."""
    dealt = deal_as_dealt(rng)
    declarer, contract = choose_contract(dealt)
    exchange = choose_exchange(dealt.held(declarer), contract, dealt.talon, rng)
    deal = dealt.play_deal(contract, declarer, exchange)
    position = deal.position()
    play = []
    for _ in range(cards):
        card = rng.choice(list(position.legal_moves))
        position.push(card)
        play.append(card)
    deal = Deal(deal.contract, deal.declarer, deal.hands, deal.piles, deal.leader, tuple(play), (), deal.laid)
    return deal, mask_of(exchange.take)


def random_view(rng: random.Random, cards: int | None = None) -> tuple[SeatView, Deal]:
    """A view from a random seat of a random deal after ``cards`` cards of
    play (random by default), and the deal it hides.  Half of the views see
    what a deal as dealt shows (the talon cards), half what a play file shows."""
    deal, taken = played_deal(rng, rng.randrange(33) if cards is None else cards)
    seat = rng.choice((0, 1))
    if rng.random() < 0.5:
        view = view_of(deal, seat, taken=taken)
    else:
        view = view_of(Deal(deal.contract, deal.declarer, deal.hands, deal.piles, deal.leader, deal.play), seat)
    return view, deal


def random_auction_view(rng: random.Random) -> tuple[SeatView, Dealt]:
    dealt = deal_as_dealt(rng)
    seat = rng.choice((0, 1))
    return auction_view(dealt, seat), dealt


def _names(hand: int) -> frozenset[str]:
    return frozenset(hand_names(hand))


def face_down_problem(cards: frozenset[str]) -> str | None:
    """Why these cards cannot lie face down in a pile: a king or a tarock
    (trull cards included) is never hidden there."""
    for name in sorted(cards):
        if reference.suit(name) == "T" or name[1:] == "K":
            return f"{name} lies face down"
    return None


def consistent(view: SeatView, world: Deal) -> str | None:
    """What makes ``world`` inconsistent with ``view``, or None."""
    v, o = view.view, 1 - view.view
    if (world.contract, world.declarer, world.leader, world.play, world.announcements) != (
        view.contract, view.declarer, view.leader, view.play, view.announcements,
    ):  # fmt: skip
        return "the public facts differ"
    assert world.piles is not None
    if world.hands[v] != view.hand or world.piles[v] != view.pile:
        return "the viewer's cards differ"
    hand, pile = _names(world.hands[o]), _names(world.piles[o])
    mine = _names(view.hand) | _names(view.pile)
    if hand & pile or (hand | pile) & mine or len(hand | pile | mine) != len(ALL_NAMES):
        return "the cards do not make one pack"
    if len(hand) != 16:
        return f"the other holds {len(hand)} cards"
    if not _names(view.other_pile) <= pile:
        return "a card seen in his pile is not there"
    if not _names(view.other_holds) <= hand | pile:
        return "a card seen to be his is not"
    problem = face_down_problem(pile - _names(view.other_pile))
    if problem is not None:
        return problem
    hands = (hand, _names(view.hand)) if o == FOREHAND else (_names(view.hand), hand)
    state = (frozenset(hands[0]), frozenset(hands[1]))
    leader, led = seat_name(view.leader), None
    for name in (card_name(card) for card in view.play):
        try:
            state, leader, led, _ = reference.play(state, leader, led, name, SEATS[0])
        except reference.ReferenceInputError as error:
            return str(error)
    return None


def consistent_dealt(view: SeatView, world: Dealt) -> str | None:
    """What makes a world before the auction inconsistent with ``view``."""
    v, o = view.view, 1 - view.view
    if world.held(v) != view.hand or world.laid(v) != view.pile:
        return "the viewer's cards differ"
    talon = [card_name(c) for c in world.talon]
    hand, pile = _names(world.held(o)), _names(world.laid(o))
    mine = _names(view.hand) | _names(view.pile)
    groups = [hand, pile, mine, frozenset(talon)]
    if len(talon) != 6 or sum(map(len, groups)) != 54 or frozenset().union(*groups) != ALL_NAMES:
        return "the cards do not make one pack"
    if len(hand) != 16 or len(pile) != 8:
        return "the other's holding is the wrong size"
    if not _names(view.other_pile) <= pile:
        return "a tarock seen laid away is not in his pile"
    return face_down_problem(pile - _names(view.other_pile))


def brute_force_piles(view: SeatView) -> Iterator[frozenset[str]]:
    """The other's pile in every world consistent with ``view`` after the
    auction: every way to fill it, each judged by :func:`consistent`.  A
    pile is the cards seen there and face-down cards of the rest."""
    o = 1 - view.view
    seen = _names(view.other_pile)
    rest = sorted(ALL_NAMES - _names(view.hand) - _names(view.pile) - seen)
    hidden = [name for name in rest if face_down_problem(frozenset([name])) is None]
    for laid in itertools.combinations(hidden, view.other_pile_size - len(seen)):
        pile = seen | frozenset(laid)
        hand = frozenset(rest) - pile
        hands = [0, 0]
        piles = [0, 0]
        hands[view.view], piles[view.view] = view.hand, view.pile
        hands[o], piles[o] = parse_hand(hand), parse_hand(pile)
        assert view.contract is not None and view.declarer is not None
        world = Deal(
            view.contract,
            view.declarer,
            (hands[0], hands[1]),
            (piles[0], piles[1]),
            view.leader,
            view.play,
            view.announcements,
        )
        if consistent(view, world) is None:
            yield pile


def other_pile(view: SeatView, world: Deal) -> frozenset[str]:
    assert world.piles is not None
    return _names(world.piles[1 - view.view])
