"""The worlds a seat view allows, counted, enumerated or sampled uniformly.

A world deals the cards the viewer cannot see.  After the auction it gives
the other player a 16-card hand at trick 1 and his pile such that every
card seen to be his is his, where the view says; his face-down pile cards
are legal lay-aways (plain suit cards, no kings: a king or trull card is
never laid away and a tarock is laid away face up, docs/rules.md §3.3);
every card he played was in his hand; and he holds no card of a suit he
failed to follow, and no tarock once he neither followed nor trumped.

So each unseen card either must be in his hand, must lie in his pile, or
may be in either, and the pile takes a fixed number of the last kind: the
consistent worlds are exactly the ways to choose those, every one equally
likely.  A uniform draw is one random choice of that many cards, with no
rejection and no weighting.

In a Solo nobody sees the talon (:attr:`~kosolve.model.view.SeatView.talon_unseen`):
its six cards lie face down in the defender's pile, the other's when the
viewer is the declarer, the viewer's own when he is the defender, and may
be any cards.  The unseen cards then split three ways: the other's hand,
his face-down discards (plain suit cards other than kings, as above) and
the talon.  A king, trull card or tarock he did not play is in his hand or
the talon; a card of a suit he showed out of is among his discards or the
talon.  A world is one such (hand, discards, talon) triple, and every
triple is equally likely: it is a :class:`~kosolve.model.deal.Deal` with
the piles, and with ``laid`` (each pile's own cards, his discards) so that
two triples are never the same deal and the held bonuses count the right
cards (docs/rules.md §5.3).  The count is a sum over how many unplayed
kings and tarocks lie in the talon, and a uniform draw picks that number
by its exact share of the worlds, then makes uniform choices: again no
rejection.

Before the auction the other's 16 cards, his 8 discards and the talon (in
its order, which decides the talon choices) are all unseen; his face-down
discards are plain suit cards other than kings, as above.  Once the talon
is exposed (the talon choice, before the play) the worlds of that view are
the same with the ``talon`` given: only the other's cards are unseen.

>>> from kosolve.model.files import load_view
>>> space = world_space(load_view("examples/views/trick4.json"))
>>> space.worlds, space.pile_free, hand_names(space.flexible)
(45, 8, ['HQ', 'HC', 'HJ', 'H1', 'DQ', 'D4', 'CC', 'C10', 'C9', 'C7'])
>>> hand_names(space.pile_only)  # seen there, or spades: the dealer trumped S10
['XI', 'SQ', 'SC', 'S7']
>>> worlds = list(sample_worlds(load_view("examples/views/trick4.json"), 2, seed=1))
>>> [hand_names(world.hands[1] & space.flexible) for world in worlds]
[['C10', 'C7'], ['DQ', 'C9']]
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass

from kosolve.model.cards import (
    ALL_CARDS,
    SUIT_MASKS,
    TAROCK,
    Card,
    Hand,
    cards_of,
    hand_names,
    mask_of,
    suit_of,
)
from kosolve.model.deal import Deal
from kosolve.model.dealt import DISCARD_SIZE, PERSONAL_SIZE, Dealt
from kosolve.model.game import SEATS, TALON_SIZE, Seat, seat_name, trick_number_of
from kosolve.model.reprs import readable_repr
from kosolve.model.view import FACE_DOWN, SeatView, play_problem


class NoWorldError(ValueError):
    """A seat view that no world is consistent with; the message says why."""


@dataclass(frozen=True)
class WorldSpace:
    """What a view leaves open about the other's cards: those that ``hand_only``
    can be in his hand, those ``pile_only`` can lie in his pile, and the
    ``flexible`` ones, ``pile_free`` of which lie in his pile.  Before the
    auction the talon's six come, in order, from what is left of his 30,
    unless the ``talon`` is exposed."""

    view: SeatView
    hand_only: Hand
    pile_only: Hand
    flexible: Hand
    pile_free: int
    talon: tuple[Card, ...] | None = None
    """A view before the play's talon once exposed (in order); None: unseen."""
    talon_free: int = 0
    """The talon cards the view has not seen after the auction
    (:attr:`~kosolve.model.view.SeatView.talon_unseen`, a Solo's six): then
    ``pile_only`` holds his tarocks seen face up, ``hand_only`` the cards he
    played, ``flexible`` the cards that may be anywhere, and the kinds
    below; ``pile_free`` of ``pile_or_talon | flexible`` are his face-down
    discards, and the talon takes ``talon_only``, the rest of
    ``pile_or_talon`` and ``talon_free`` cards in all."""
    talon_only: Hand = 0
    """With talon cards unseen: the cards that can only be talon cards
    (kings, trull cards and tarocks of a suit he showed out of)."""
    pile_or_talon: Hand = 0
    """With talon cards unseen: the cards among his discards or the talon
    (plain cards of a suit he showed out of)."""
    hand_or_talon: Hand = 0
    """With talon cards unseen: the cards in his hand or the talon (kings,
    trull cards and tarocks he has not played, of no suit he showed out of)."""

    def __repr__(self) -> str:
        return readable_repr(self, hands=("hand_only", "pile_only", "flexible"))

    @property
    def worlds(self) -> int:
        """How many worlds are consistent with the view."""
        if self.talon_free:
            return sum(weight for _, _, weight in self._talon_splits())
        piles = math.comb(self.flexible.bit_count(), self.pile_free)
        if not self.view.before_auction or self.talon is not None:
            return piles
        return piles * math.perm(self.unseen.bit_count() - DISCARD_SIZE, TALON_SIZE)

    def _talon_splits(self) -> list[tuple[int, int, int]]:
        """With talon cards unseen, the worlds by how many cards of
        ``hand_or_talon`` (k) lie in the talon: (k, g, worlds), where g
        cards of ``flexible`` leave his hand (for his discards or the
        talon) and the worlds are C(kings and tarocks, k) · C(flexible, g)
        · C(plain cards out of his hand, his face-down discards)."""
        b, e, g = (mask.bit_count() for mask in (self.pile_or_talon, self.hand_or_talon, self.flexible))
        # The flexible cards out of his hand when no king or tarock is a talon card.
        away = self.pile_free + self.talon_free - self.talon_only.bit_count() - b
        splits = []
        for k in range(e + 1):
            out = away - k
            if 0 <= out <= g:
                weight = math.comb(e, k) * math.comb(g, out) * math.comb(b + out, self.pile_free)
                if weight:
                    splits.append((k, out, weight))
        return splits

    @property
    def unseen(self) -> Hand:
        """Every card the viewer has not seen: the other's, and the talon
        while it is not exposed."""
        return ALL_CARDS & ~(self.view.hand | self.view.pile | mask_of(self.talon or ()))

    def world(self, laid: Hand, talon: tuple[Card, ...] = (), *, hidden: Hand = 0) -> Deal | Dealt:
        """The world in which the flexible cards ``laid`` lie in the other's
        pile (and, before the auction, the ``talon`` in its order: the one
        exposed when it is).  With talon cards unseen, ``laid`` are his
        face-down discards and ``hidden`` the unseen talon cards."""
        view = self.view
        talon = self.talon or talon
        pile = self.pile_only | laid
        hand = self.unseen & ~pile & ~mask_of(talon) & ~hidden
        if view.before_auction:
            return _dealt(view, hand, pile, talon)
        hands, piles = [0, 0], [0, 0]
        hands[view.view], piles[view.view] = view.hand, view.pile
        hands[view.other], piles[view.other] = hand, pile
        assert view.contract is not None and view.declarer is not None
        # With the talon hidden, each pile's own cards are told apart from it.
        own = (piles[0], piles[1]) if self.talon_free else None
        piles[view.other if view.talon_with_other else view.view] |= hidden
        return Deal(
            view.contract,
            view.declarer,
            (hands[0], hands[1]),
            piles=(piles[0], piles[1]),
            leader=view.leader,
            play=view.play,
            announcements=view.announcements,
            laid=own,
        )


def _dealt(view: SeatView, hand: Hand, pile: Hand, talon: tuple[Card, ...]) -> Dealt:
    """A world before the auction as a deal as dealt.  Which of his 16
    cards each player picked up is not in the view and changes no value:
    his personal cards are taken to be the 8 lowest of them by card number."""
    held, laid = [0, 0], [0, 0]
    held[view.view], laid[view.view] = view.hand, view.pile
    held[view.other], laid[view.other] = hand, pile
    personal = [mask_of(_low(held[seat])[:PERSONAL_SIZE]) for seat in SEATS]
    hands = [held[seat] & ~personal[seat] | laid[seat] for seat in SEATS]
    return Dealt(talon, (hands[0], hands[1]), (personal[0], personal[1]), (laid[0], laid[1]))


def _low(hand: Hand) -> list[Card]:
    """The cards of ``hand``, lowest card number first: the enumeration's
    and the sampler's fixed order."""
    return sorted(cards_of(hand))


def _voids(view: SeatView) -> Hand:
    """The suits the other showed out of (and the tarocks, once he neither
    followed nor trumped), as one mask."""
    mask = 0
    for played in view.played():
        if played.seat != view.other or played.led is None:
            continue
        led, card = suit_of(played.led), suit_of(played.card)
        if card != led:
            mask |= SUIT_MASKS[led] | (SUIT_MASKS[TAROCK] if card != TAROCK else 0)
    return mask


def world_space(view: SeatView, talon: tuple[Card, ...] | None = None) -> WorldSpace:
    """The worlds ``view`` allows, with the ``talon`` as exposed (before
    the play: ``view`` has no contract) or unseen (None); raises
    :class:`NoWorldError` when there is none, saying why."""
    other = seat_name(view.other)
    if talon is not None and not view.before_auction:
        raise ValueError("a talon is given only with a view before the play: after it the piles hold its cards")
    unseen = ALL_CARDS & ~(view.hand | view.pile | mask_of(talon or ()))
    size = view.other_pile_size
    if view.before_auction:
        # His pile: the tarocks seen face up and face-down plain cards.
        pile_only = view.other_pile
        flexible = unseen & FACE_DOWN & ~pile_only
        free = DISCARD_SIZE - pile_only.bit_count()
        if free < 0 or free > flexible.bit_count():
            raise NoWorldError(
                f"the {other}'s 8 discards cannot be made of {pile_only.bit_count()} tarocks seen"
                f" and {flexible.bit_count()} plain cards unseen"
            )
        return WorldSpace(view, unseen & ~pile_only & ~flexible, pile_only, flexible, free, talon)
    problem = play_problem(view)
    if problem is not None:
        index, message = problem
        raise NoWorldError(f"no world fits the view: play[{index}]: trick {trick_number_of(index)}: {message}")
    if view.talon_unseen:
        return _talon_space(view, unseen)
    played = view.played_by(view.other)
    pile_only = view.other_pile | unseen & _voids(view) & ~played
    hand_only = played | unseen & ~view.other_pile & ~FACE_DOWN
    # play_problem refuses a view whose play puts a card in both.
    assert not pile_only & hand_only
    flexible = unseen & ~pile_only & ~hand_only
    free = size - pile_only.bit_count()
    if free < 0:
        raise NoWorldError(
            f"no world fits the view: the {other}'s pile holds {size} cards,"
            f" but {pile_only.bit_count()} must lie there ({', '.join(hand_names(pile_only))})"
        )
    if free > flexible.bit_count():
        raise NoWorldError(
            f"no world fits the view: the {other}'s pile holds {size} cards,"
            f" but only {pile_only.bit_count() + flexible.bit_count()} may lie there"
        )
    return WorldSpace(view, hand_only, pile_only, flexible, free)


def _talon_space(view: SeatView, unseen: Hand) -> WorldSpace:
    """The worlds of a view after the auction with talon cards unseen."""
    other = seat_name(view.other)
    if view.other_holds:
        raise NoWorldError("no world fits the view: with the talon unseen no card is seen to be the other's")
    played = view.played_by(view.other)
    voids = unseen & _voids(view) & ~played & ~view.other_pile
    free = unseen & ~view.other_pile & ~played & ~voids
    talon_only, pile_or_talon = voids & ~FACE_DOWN, voids & FACE_DOWN
    hand_or_talon, flexible = free & ~FACE_DOWN, free & FACE_DOWN
    discards, talon = view.other_discards, view.talon_unseen
    face_down = discards - view.other_pile.bit_count()
    space = WorldSpace(
        view, played, view.other_pile, flexible, face_down, None, talon, talon_only, pile_or_talon, hand_or_talon
    )
    where = f"the {other}'s discards"
    if face_down < 0:
        raise NoWorldError(
            f"no world fits the view: {where} are {discards} cards, but {view.other_pile.bit_count()} are seen there"
        )
    if talon_only.bit_count() > talon:
        raise NoWorldError(
            f"no world fits the view: the talon holds {talon} cards unseen, but {talon_only.bit_count()}"
            f" must lie there ({', '.join(hand_names(talon_only))})"
        )
    if voids.bit_count() > face_down + talon:
        raise NoWorldError(
            f"no world fits the view: {where} and the talon hold {face_down + talon} cards face down,"
            f" but {voids.bit_count()} must lie there ({', '.join(hand_names(voids))})"
        )
    if (pile_or_talon | flexible).bit_count() < face_down:
        raise NoWorldError(
            f"no world fits the view: {where} hold {face_down} cards face down,"
            f" but only {(pile_or_talon | flexible).bit_count()} may lie there"
        )
    if not space.worlds:
        raise NoWorldError(f"no world fits the view: {where} and the talon cannot be filled")
    return space


def _talon_worlds(space: WorldSpace) -> Iterator[Deal | Dealt]:
    """Every world of ``space`` (talon cards unseen), each once, in a fixed
    order: by the kings and tarocks in the talon, the flexible cards out of
    his hand, then his face-down discards among the plain cards out of it."""
    pile_or_talon, hand_or_talon, flexible = (
        _low(mask) for mask in (space.pile_or_talon, space.hand_or_talon, space.flexible)
    )
    for k, out, _ in space._talon_splits():
        for high in itertools.combinations(hand_or_talon, k):
            for away in itertools.combinations(flexible, out):
                plain = sorted(pile_or_talon + list(away))
                for laid in itertools.combinations(plain, space.pile_free):
                    pile = mask_of(laid)
                    hidden = space.talon_only | mask_of(high) | mask_of(plain) & ~pile
                    yield space.world(pile, hidden=hidden)


def _random_talon_world(space: WorldSpace, splits: list[tuple[int, int, int]], rng: random.Random) -> Deal | Dealt:
    """One world of ``space`` (talon cards unseen) drawn uniformly: how many
    kings and tarocks lie in the talon by its exact share of the worlds,
    then which, which flexible cards leave his hand, and which of the plain
    cards out of it are his discards, each a uniform choice."""
    pick, index = rng.randrange(sum(weight for _, _, weight in splits)), 0
    while pick >= splits[index][2]:
        pick -= splits[index][2]
        index += 1
    k, out, _ = splits[index]
    high = mask_of(rng.sample(_low(space.hand_or_talon), k))
    plain = sorted(_low(space.pile_or_talon) + rng.sample(_low(space.flexible), out))
    pile = mask_of(rng.sample(plain, space.pile_free))
    return space.world(pile, hidden=space.talon_only | high | mask_of(plain) & ~pile)


def all_worlds(view: SeatView, talon: tuple[Card, ...] | None = None) -> Iterator[Deal | Dealt]:
    """Every world ``view`` allows (with the ``talon`` as exposed, or
    unseen: :func:`world_space`), each once, in a fixed order."""
    space = world_space(view, talon)
    if space.talon_free:
        yield from _talon_worlds(space)
        return
    flexible = _low(space.flexible)
    for laid in itertools.combinations(flexible, space.pile_free):
        pile = mask_of(laid)
        if not view.before_auction or talon is not None:
            yield space.world(pile)
            continue
        rest = _low(space.unseen & ~space.pile_only & ~pile)
        for order in itertools.permutations(rest, TALON_SIZE):
            yield space.world(pile, order)


def random_worlds(
    view: SeatView, n: int, seed: int = 0, talon: tuple[Card, ...] | None = None
) -> Iterator[Deal | Dealt]:
    """``n`` worlds of ``view`` (with the ``talon`` as exposed, or unseen:
    :func:`world_space`) drawn independently and uniformly, from the
    ``seed`` alone: the other's pile, then the talon while unseen (as many
    talons are left after any pile, so the two draws in turn are uniform
    over the worlds).  Raises :class:`NoWorldError` when no world fits."""
    space = world_space(view, talon)
    rng = random.Random(seed)
    if space.talon_free:
        splits = space._talon_splits()
        for _ in range(n):
            yield _random_talon_world(space, splits, rng)
        return
    flexible = _low(space.flexible)
    for _ in range(n):
        pile = mask_of(rng.sample(flexible, space.pile_free))
        if not view.before_auction or talon is not None:
            yield space.world(pile)
            continue
        rest = _low(space.unseen & ~space.pile_only & ~pile)
        yield space.world(pile, tuple(rng.sample(rest, TALON_SIZE)))


def sample_worlds(
    view: SeatView, n: int, seed: int = 0, talon: tuple[Card, ...] | None = None
) -> Iterator[Deal | Dealt]:
    """``n`` worlds of ``view`` (with the ``talon`` as exposed, or unseen:
    :func:`world_space`) drawn independently and uniformly from the
    ``seed`` alone (:func:`random_worlds`); when the view allows no more
    than ``n``, every world once instead (:func:`all_worlds`), which makes
    an average over them exact.  Raises :class:`NoWorldError` when no
    world fits."""
    if world_space(view, talon).worlds <= n:
        return all_worlds(view, talon)
    return random_worlds(view, n, seed, talon)


def solving_order(world: Deal | Dealt, other: Seat) -> int:
    """The key that puts worlds in the order to solve them in: the
    ``other`` seat's cards (held, for a deal as dealt) read as a number,
    so that the Skus and the top tarocks decide first.  Worlds that follow
    each other so share their high cards, and the positions a table holds
    from one serve the next (docs/benchmarks-history.md, "Issue 31")."""
    return world.held(other) if isinstance(world, Dealt) else world.hands[other]


__all__ = [
    "NoWorldError",
    "WorldSpace",
    "all_worlds",
    "random_worlds",
    "sample_worlds",
    "solving_order",
    "world_space",
]
