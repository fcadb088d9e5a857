"""Seat views made from real deals, and an independent judge of worlds.

A view is made by hiding the other's cards of a realistic deal (the
realistic dealer's, :mod:`kosolve.dealing`) after random legal play,
which shows voids.  :func:`consistent` judges a world with the pure-Python
reference's rules of play and plain sets of card names, sharing no code
with the sampler it checks.

In a Solo nobody sees the talon (``talon_unseen`` 6, docs/rules.md §3.5,
docs/views.md): its six cards may be any of the cards the viewer has not
seen and lie face down in the defender's pile (the other's when the viewer
declares, the viewer's own when he defends), and the defender's discards
are his tarocks laid away face up and face-down plain cards other than
kings (§3.3).  A world is then a (hand, discards, talon) triple, and the
judge and the brute force know it from those rules alone."""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Iterable, Iterator

from kosolve.dealing import choose_contract, choose_exchange, deal_as_dealt
from kosolve.model.cards import card_name, hand_names, mask_of, parse_hand
from kosolve.model.deal import Deal
from kosolve.model.dealt import Dealt
from kosolve.model.game import FOREHAND, seat_name
from kosolve.model.view import SeatView, auction_view, view_of
from kosolve.tools import reference

ALL_NAMES = frozenset(reference.all_card_names())
SEATS = ("forehand", "dealer")
_BIT = {name: parse_hand([name]) for name in ALL_NAMES}


def _hand(names: Iterable[str]) -> int:
    """The hand of these card names (:func:`parse_hand`, faster)."""
    return sum(_BIT[name] for name in names)


def played_deal(rng: random.Random, cards: int, contract: str | None = None) -> tuple[Deal, int]:
    """A realistic deal as dealt (its discards known) with ``cards`` random
    legal cards of play, and the talon cards its declarer took; the
    ``contract`` the auction's by default."""
    dealt = deal_as_dealt(rng)
    declarer, contract = choose_contract(dealt, contract)
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


def random_view(rng: random.Random, cards: int | None = None, contract: str | None = None) -> tuple[SeatView, Deal]:
    """A view from a random seat of a random deal (in the ``contract``, the
    auction's by default) after ``cards`` cards of play (random by
    default), and the deal it hides.  Half of the views see what a deal as
    dealt shows (the talon cards, and in a Solo the discards of each pile),
    half what a play file shows; the deal returned is the one the view was
    made from, so without its ``laid`` cards in the second case."""
    deal, taken = played_deal(rng, rng.randrange(33) if cards is None else cards, contract)
    seat = rng.choice((0, 1))
    if rng.random() < 0.5:
        return view_of(deal, seat, taken=taken), deal
    bare = Deal(deal.contract, deal.declarer, deal.hands, deal.piles, deal.leader, deal.play)
    return view_of(bare, seat), bare


def random_auction_view(rng: random.Random) -> tuple[SeatView, Dealt]:
    dealt = deal_as_dealt(rng)
    seat = rng.choice((0, 1))
    return auction_view(dealt, seat), dealt


@functools.lru_cache(maxsize=1 << 16)
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
    """What makes ``world`` inconsistent with ``view``, or None.  With the
    talon unseen (a Solo) the world's ``laid`` says which cards of each pile
    are its owner's discards, the rest of the defender's pile being the
    talon; a world without ``laid`` is consistent when some such split of
    its piles is."""
    v, o = view.view, 1 - view.view
    if (world.contract, world.declarer, world.leader, world.play, world.announcements) != (
        view.contract, view.declarer, view.leader, view.play, view.announcements,
    ):  # fmt: skip
        return "the public facts differ"
    assert world.piles is not None
    if view.talon_unseen:
        return _talon_problem(view, world)
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
    return _play_problem(view, hand)


def _play_problem(view: SeatView, hand: frozenset[str]) -> str | None:
    """Why the play does not replay by the reference's rules with the
    viewer's hand and the other's ``hand`` at trick 1, or None."""
    return _replay(view.view, _names(view.hand), hand, seat_name(view.leader), view.play)


@functools.lru_cache(maxsize=1 << 16)
def _replay(viewer: int, mine: frozenset[str], his: frozenset[str], leader: str, play: tuple[int, ...]) -> str | None:
    hands = (his, mine) if viewer != FOREHAND else (mine, his)
    state, led = (hands[0], hands[1]), None
    for name in (card_name(card) for card in play):
        try:
            state, leader, led, _ = reference.play(state, leader, led, name, SEATS[0])
        except reference.ReferenceInputError as error:
            return str(error)
    return None


def _talon_problem(view: SeatView, world: Deal) -> str | None:
    """:func:`consistent` for a Solo view with the talon unseen: the viewer's
    cards as the view has them, the declarer's pile his 8 discards, the
    defender's his 8 discards and the six talon cards, which may be any
    cards; every discard of the other's face down a plain card other than a
    king, but the tarocks seen laid away face up; the play replays."""
    assert world.piles is not None and view.declarer is not None
    v, o = view.view, 1 - view.view
    declarer, defender = view.declarer, 1 - view.declarer
    if world.hands[v] != view.hand:
        return "the viewer's cards differ"
    piles = (_names(world.piles[0]), _names(world.piles[1]))
    if len(piles[declarer]) != 8 or len(piles[defender]) != 14:
        return "the piles are not the declarer's 8 discards and the defender's 8 and the talon"
    if world.laid is not None:
        laid = (_names(world.laid[0]), _names(world.laid[1]))
        if laid[declarer] != piles[declarer] or not laid[defender] <= piles[defender]:
            return "the discards are not the piles less the talon"
        talon = piles[defender] - laid[defender]
    elif v == defender:
        talon = piles[v] - _names(view.pile)
    else:
        # Any split will do: the talon takes what may not lie face down.
        free = piles[o] - _names(view.other_pile)
        must = frozenset(name for name in free if face_down_problem(frozenset([name])) is not None)
        talon = must | frozenset(sorted(free - must)[: max(0, 6 - len(must))])
    if len(talon) != 6:
        return f"the talon holds {len(talon)} cards"
    if (piles[v] - talon if v == defender else piles[v]) != _names(view.pile):
        return "the viewer's cards differ"
    hand, discards = _names(world.hands[o]), piles[o] - (talon if o == defender else frozenset())
    mine = _names(view.hand) | _names(view.pile)
    groups = (hand, discards, talon, mine)
    if sum(map(len, groups)) != len(ALL_NAMES) or frozenset().union(*groups) != ALL_NAMES:
        return "the cards do not make one pack"
    if len(hand) != 16:
        return f"the other holds {len(hand)} cards"
    if not _names(view.other_pile) <= discards:
        return "a tarock seen laid away face up is not among his discards"
    if view.other_holds:
        return "a card is seen to be his, but in a Solo nobody takes talon cards"
    problem = face_down_problem(discards - _names(view.other_pile))
    if problem is not None:
        return problem
    return _play_problem(view, hand)


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


class PileWithTalon(frozenset[str]):
    """The other's pile in a world of a view with the talon unseen, which
    also knows the six ``talon`` cards (in it when the viewer declares, in
    the viewer's pile when he defends): two worlds that differ only in
    which cards are the talon are two, and their piles differ."""

    talon: frozenset[str]

    def __new__(cls, pile: Iterable[str], talon: Iterable[str]) -> PileWithTalon:
        self = super().__new__(cls, pile)
        self.talon = frozenset(talon)
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PileWithTalon) and frozenset(self) == frozenset(other) and self.talon == other.talon

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((frozenset(self), self.talon))

    def __repr__(self) -> str:
        return f"PileWithTalon({sorted(self)}, talon={sorted(self.talon)})"


def brute_force_piles(view: SeatView) -> Iterator[frozenset[str]]:
    """The other's pile in every world consistent with ``view`` after the
    auction: every way to fill it, each judged by :func:`consistent`.  A
    pile is the cards seen there and face-down cards of the rest.  With
    the talon unseen, one :class:`PileWithTalon` for each world instead
    (:func:`brute_force_talon_worlds`)."""
    if view.talon_unseen:
        yield from brute_force_talon_worlds(view)
        return
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


def his_played(view: SeatView) -> frozenset[str]:
    """The cards the other played, seat by seat as the reference's trick
    winner gives the lead."""
    leader, led, his = seat_name(view.leader), None, set()
    for name in (card_name(card) for card in view.play):
        if (leader if led is None else reference.other(leader)) == SEATS[view.other]:
            his.add(name)
        if led is None:
            led = name
        else:
            leader = reference.other(leader) if reference.trick_winner(led, name) else leader
            led = None
    return frozenset(his)


def talon_hands_to_try(view: SeatView) -> int:
    """How many hands of the other :func:`brute_force_talon_worlds` tries."""
    played = his_played(view)
    rest = ALL_NAMES - _names(view.hand) - _names(view.pile) - _names(view.other_pile) - played
    return math.comb(len(rest), max(0, 16 - len(played)))


def brute_force_talon_worlds(view: SeatView) -> Iterator[PileWithTalon]:
    """Every world of a view with the talon unseen (a Solo), from the
    rules: the other's 16 cards at trick 1 (the cards he played and any
    others), his discards (the tarocks seen face up and face-down cards of
    the rest) and the six talon cards (what is left, any cards), each
    world judged by :func:`consistent`; as the other's pile and the talon."""
    assert view.contract is not None and view.declarer is not None
    v, o = view.view, 1 - view.view
    defender = 1 - view.declarer
    face_up = _names(view.other_pile)
    unseen = ALL_NAMES - _names(view.hand) - _names(view.pile)
    played = his_played(view)
    rest = sorted(unseen - face_up - played)
    for kept in itertools.combinations(rest, 16 - len(played)):
        hand = played | frozenset(kept)
        away = sorted(unseen - face_up - hand)
        hidden = [name for name in away if face_down_problem(frozenset([name])) is None]
        for down in itertools.combinations(hidden, 8 - len(face_up)):
            discards = face_up | frozenset(down)
            talon = frozenset(away) - discards
            hands, piles, laid = [0, 0], [0, 0], [0, 0]
            hands[v], piles[v], laid[v] = view.hand, view.pile, view.pile
            hands[o], piles[o], laid[o] = _hand(hand), _hand(discards), _hand(discards)
            piles[defender] |= _hand(talon)
            world = Deal(
                view.contract,
                view.declarer,
                (hands[0], hands[1]),
                (piles[0], piles[1]),
                view.leader,
                view.play,
                view.announcements,
                (laid[0], laid[1]),
            )
            if consistent(view, world) is None:
                yield PileWithTalon(_names(piles[o]), talon)


def other_pile(view: SeatView, world: Deal) -> frozenset[str]:
    """The other's pile in a world of ``view``: with the talon unseen, as a
    :class:`PileWithTalon` (the talon the defender's pile less his ``laid``)."""
    assert world.piles is not None
    pile = _names(world.piles[1 - view.view])
    if not view.talon_unseen:
        return pile
    assert world.laid is not None and view.declarer is not None
    defender = 1 - view.declarer
    return PileWithTalon(pile, _names(world.piles[defender] & ~world.laid[defender]))
