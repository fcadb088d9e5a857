"""In a Solo nobody sees the talon (docs/rules.md §3.5, docs/views.md): its
six cards lie face down in the defender's pile and may be any cards.  The
views of a Solo keep them hidden from both seats, and the worlds split the
unseen cards among the other's hand, his face-down discards and the talon.

The judge here is written from the rules with card names and the
pure-Python reference's rules of play, sharing no code with the sampler: it
tries every (hand, discards, talon) triple of small views, and the count,
the enumeration and the sampler's frequencies are held to it."""

from __future__ import annotations

import collections
import itertools
import json
import math
import random
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from support import EXAMPLES, fast_first

from kosolve.dealing import choose_exchange, deal_as_dealt
from kosolve.model.cards import card_name, hand_names, parse_hand
from kosolve.model.deal import Deal
from kosolve.model.game import SEATS, seat_name
from kosolve.model.view import SEEN_IN_PILES, SeatView, ViewError, parse_view, view_of, view_to_json
from kosolve.sampling.worlds import NoWorldError, all_worlds, random_worlds, sample_worlds, world_space
from kosolve.tools import reference

ALL_NAMES = frozenset(reference.all_card_names())
SEAT_NAMES = ("forehand", "dealer")
Triple = tuple[frozenset[str], frozenset[str], frozenset[str]]
"""A world: the other's hand at trick 1, his discards, the six talon cards."""
Z_999: float = 3.090232306167813


def chi_square_limit(degrees: int) -> float:
    """The statistic ``degrees`` degrees of freedom exceed with probability
    0.001 (Wilson and Hilferty)."""
    k = degrees
    return k * (1 - 2 / (9 * k) + Z_999 * math.sqrt(2 / (9 * k))) ** 3


def solo_deal(rng: random.Random, cards: int | None = None) -> Deal:
    """A realistic deal as dealt, played as a Solo by a random seat (its
    ``laid`` known), with ``cards`` random legal cards of play (the whole
    game by default)."""
    dealt = deal_as_dealt(rng)
    declarer = rng.choice(SEATS)
    exchange = choose_exchange(dealt.held(declarer), "solo", dealt.talon, rng)
    deal = dealt.play_deal("solo", declarer, exchange)
    assert deal.laid is not None
    position = deal.position()
    play = []
    for _ in range(32 if cards is None else cards):
        card = rng.choice(list(position.legal_moves))
        position.push(card)
        play.append(card)
    return replace(deal, play=tuple(play))


def names(hand: int) -> frozenset[str]:
    return frozenset(hand_names(hand))


def face_down_ok(name: str) -> bool:
    """A discard may lie face down: a plain suit card, not a king (§3.3)."""
    return reference.suit(name) != reference.TAROCK and not name.endswith("K")


def whose_cards(view: SeatView) -> list[tuple[str, str]]:
    """The play card by card with the seat that played it, by the reference."""
    leader, led, seats = seat_name(view.leader), None, []
    for name in (card_name(card) for card in view.play):
        mover = leader if led is None else reference.other(leader)
        seats.append((mover, name))
        if led is None:
            led = name
        else:
            leader = reference.other(leader) if reference.trick_winner(led, name) else leader
            led = None
    return seats


def play_fits(view: SeatView, other_hand: frozenset[str]) -> bool:
    """Whether the play replays, card by card by the reference's rules,
    with the viewer's hand and ``other_hand`` at trick 1."""
    hands = [names(view.hand), other_hand]
    state = (hands[0], hands[1]) if view.view == 0 else (hands[1], hands[0])
    leader, led = seat_name(view.leader), None
    for name in (card_name(card) for card in view.play):
        try:
            state, leader, led, _ = reference.play(state, leader, led, name, SEAT_NAMES[0])
        except reference.ReferenceInputError:
            return False
    return True


def brute_force(view: SeatView) -> Iterator[Triple]:
    """Every world of a Solo view with the talon unseen, from the rules: the
    other's 16 cards at trick 1 (the play replays), his 8 discards (the
    tarocks he laid face up, the rest face down: plain cards, no king) and
    the six talon cards (any), together the cards the viewer has not seen.
    A card he played was in his hand."""
    mine = names(view.hand) | names(view.pile)
    face_up = names(view.other_pile)
    other = SEAT_NAMES[1 - view.view]
    his_played = frozenset(name for seat, name in whose_cards(view) if seat == other)
    rest = sorted(ALL_NAMES - mine - face_up - his_played)
    fits = cache(lambda hand: play_fits(view, hand))
    for kept in itertools.combinations(rest, 16 - len(his_played)):
        hand = his_played | frozenset(kept)
        if not fits(hand):
            continue
        away = sorted(frozenset(rest) - hand)
        for down in itertools.combinations(away, 8 - len(face_up)):
            if all(face_down_ok(name) for name in down):
                yield hand, face_up | frozenset(down), frozenset(away) - frozenset(down)


def triple_of(view: SeatView, world: Deal) -> Triple:
    """The (hand, discards, talon) of a world, checked to put the viewer's
    cards where the view has them and the talon in the defender's pile."""
    assert world.piles is not None and world.laid is not None
    v, o = view.view, 1 - view.view
    assert world.hands[v] == view.hand and world.laid[v] == view.pile
    assert (world.contract, world.declarer, world.play, world.leader) == (
        view.contract, view.declarer, view.play, view.leader,
    )  # fmt: skip
    talon = names(world.piles[0] | world.piles[1]) - names(world.laid[0] | world.laid[1])
    assert names(world.piles[1 - world.declarer]) >= talon
    assert names(world.laid[world.declarer]) == names(world.piles[world.declarer])
    return names(world.hands[o]), names(world.laid[o]), talon


def deal_triple(view: SeatView, deal: Deal) -> Triple:
    assert deal.laid is not None and deal.piles is not None
    o = 1 - view.view
    talon = names(deal.piles[1 - deal.declarer] & ~deal.laid[1 - deal.declarer])
    return names(deal.hands[o]), names(deal.laid[o]), talon


def small_solo_views(count: int, low: int, high: int, seed: int) -> list[tuple[SeatView, Deal]]:
    """``count`` Solo views late in the play, from either seat, whose worlds
    number ``low`` to ``high``."""
    rng = random.Random(seed)
    found: list[tuple[SeatView, Deal]] = []
    while len(found) < count:
        deal = solo_deal(rng, rng.randrange(28, 33))
        # The declarer's view and the defender's in turn.
        view = view_of(deal, deal.declarer if len(found) % 2 == 0 else 1 - deal.declarer)
        if low <= world_space(view).worlds <= high:
            found.append((view, deal))
    return found


@pytest.mark.parametrize("seed", fast_first(range(4), keep=2))
def test_the_count_and_the_enumeration_are_those_of_brute_force(seed: int) -> None:
    for view, deal in small_solo_views(4, 1, 3000, seed):
        expected = set(brute_force(view))
        worlds = list(all_worlds(view))
        triples = [triple_of(view, w) for w in worlds if isinstance(w, Deal)]
        assert world_space(view).worlds == len(expected) == len(triples) == len(set(worlds))
        assert set(triples) == expected
        assert deal_triple(view, deal) in expected
        assert list(all_worlds(view)) == worlds  # a fixed order


@pytest.mark.parametrize("seed", fast_first(range(4), keep=2))
def test_the_sampled_worlds_are_uniform_over_the_triples(seed: int) -> None:
    view, _ = small_solo_views(2, 12, 80, 200 + seed)[seed % 2]  # the declarer's, the defender's
    expected = set(brute_force(view))
    draws = 60 * len(expected)
    worlds = [w for w in random_worlds(view, draws, seed=seed) if isinstance(w, Deal)]
    counts = collections.Counter(triple_of(view, w) for w in worlds)
    assert set(counts) <= expected and sum(counts.values()) == draws
    mean = draws / len(expected)
    statistic = sum((counts[t] - mean) ** 2 / mean for t in expected)
    assert statistic < chi_square_limit(len(expected) - 1)
    # From the seed alone; as many worlds as there are: every one once.
    assert list(random_worlds(view, 20, seed=seed)) == worlds[:20]
    assert list(sample_worlds(view, len(expected), seed=seed)) == list(all_worlds(view))


def test_each_card_lies_in_the_talon_as_often_as_counting_says() -> None:
    """On views too large for brute force: the share of the worlds with a
    card in the talon, counted by hand (a card fixed in the talon is one
    more that can only lie there), against the sampler's frequency."""
    rng = random.Random(31)
    deal = solo_deal(rng, 24)
    draws = 3000
    for seat in SEATS:
        view = view_of(deal, seat)
        space = world_space(view)
        e, g, b, c = (
            m.bit_count() for m in (space.hand_or_talon, space.flexible, space.pile_or_talon, space.talon_only)
        )
        assert counted_worlds(e, g, b, c, space.pile_free, space.talon_free) == space.worlds
        worlds = [triple_of(view, w) for w in random_worlds(view, draws, seed=5) if isinstance(w, Deal)]
        cases = [(name, (e - 1, g, b, c + 1)) for name in hand_names(space.hand_or_talon)[:2]]
        cases += [(name, (e, g - 1, b, c + 1)) for name in hand_names(space.flexible)[:2]]
        for name, fixed in cases:
            exact = counted_worlds(*fixed, space.pile_free, space.talon_free) / space.worlds
            share = sum(name in talon for _, _, talon in worlds) / draws
            assert abs(share - exact) < 4 * math.sqrt(exact * (1 - exact) / draws) + 1e-9, (name, share, exact)


def counted_worlds(e: int, g: int, b: int, c: int, down: int, talon: int) -> int:
    """The (hand, discards, talon) triples with ``e`` unplayed kings and
    tarocks (hand or talon), ``g`` plain cards that may lie anywhere, ``b``
    plain cards of suits he showed out of (discards or talon), ``c`` cards
    that can only be talon cards, ``down`` face-down discards and ``talon``
    talon cards: k of the e and j of the g leave his hand, and of the plain
    cards out of it ``down`` are his discards, the rest talon cards."""
    return sum(
        math.comb(e, k) * math.comb(g, j) * math.comb(b + j, down)
        for k in range(e + 1)
        for j in range(g + 1)
        if c + k + b + j - down == talon
    )


@pytest.mark.parametrize("seed", fast_first(range(6), keep=2))
def test_the_dealt_world_is_a_world_of_each_seat_at_every_point(seed: int) -> None:
    rng = random.Random(40 + seed)
    deal = solo_deal(rng)
    for at in range(len(deal.play) + 1):
        for seat in SEATS:
            view = view_of(deal, seat, at)
            assert view.talon_unseen == 6
            assert parse_view(view_to_json(view), "view.json") == view
            space = world_space(view)
            hand, discards, talon = deal_triple(view, deal)
            # The deal lies in the space's kinds (each card where the space allows it) ...
            assert names(space.hand_only) <= hand and names(space.talon_only) <= talon
            assert names(space.pile_only) <= discards and names(space.pile_or_talon) <= discards | talon
            assert names(space.hand_or_talon) <= hand | talon
            assert len(discards - names(space.pile_only)) == space.pile_free and len(talon) == space.talon_free
            # ... and is one of the worlds, when there are few enough to list.
            if space.worlds <= 2000:
                listed = [triple_of(view, w) for w in itertools.islice(all_worlds(view), 2001) if isinstance(w, Deal)]
                assert len(listed) == space.worlds and deal_triple(view, deal) in listed
            for world in random_worlds(view, 2, seed=at):
                assert isinstance(world, Deal)
                w_hand, w_discards, _ = triple_of(view, world)
                assert play_fits(view, w_hand) and all(face_down_ok(n) for n in w_discards - names(view.other_pile))
                world.position()


def swapped(deal: Deal, a: int, b: int, *, laid_too: bool = False) -> Deal:
    """``deal`` with the cards ``a`` and ``b`` trading places (hands, piles,
    and ``laid`` when asked)."""
    assert deal.piles is not None and deal.laid is not None
    both = 1 << a | 1 << b

    def swap(hand: int) -> int:
        return hand ^ both if bool(hand >> a & 1) != bool(hand >> b & 1) else hand

    hands = (swap(deal.hands[0]), swap(deal.hands[1]))
    piles = (swap(deal.piles[0]), swap(deal.piles[1]))
    laid = (swap(deal.laid[0]), swap(deal.laid[1])) if laid_too else deal.laid
    return replace(deal, hands=hands, piles=piles, laid=laid)


def cards_of(hand: int) -> list[int]:
    return [card for card in range(54) if hand >> card & 1]


def test_the_declarer_sees_nothing_of_the_talon_nor_the_defender_s_face_down_discards() -> None:
    rng = random.Random(50)
    tried = 0
    while tried < 30:
        deal = replace(solo_deal(rng, 0), play=())
        assert deal.piles is not None and deal.laid is not None
        declarer, defender = deal.declarer, 1 - deal.declarer
        talon = cards_of(deal.piles[defender] & ~deal.laid[defender])
        down = [c for c in cards_of(deal.laid[defender]) if face_down_ok(card_name(c))]
        high = [c for c in cards_of(deal.hands[defender]) if not face_down_ok(card_name(c))]
        high_talon = [c for c in talon if not face_down_ok(card_name(c))]
        plain_talon = [c for c in talon if face_down_ok(card_name(c))]
        if not (plain_talon and down and high and high_talon):
            continue
        tried += 1
        seen = view_of(deal, declarer)
        # A plain talon card for a face-down discard, or the talon's king or
        # tarock for one of the defender's hand: the declarer cannot tell.
        assert view_of(swapped(deal, plain_talon[0], down[0], laid_too=True), declarer) == seen
        other = next(c for c in cards_of(deal.hands[defender]) if face_down_ok(card_name(c)))
        assert view_of(swapped(deal, high_talon[0], other), declarer) == seen
        assert seen.other_pile == deal.laid[defender] & ~parse_hand(
            [n for n in hand_names(deal.laid[defender]) if reference.suit(n) != reference.TAROCK]
        )
        assert seen.other_pile_size == 14 and seen.other_discards == 8


def test_the_defender_sees_nothing_of_the_talon() -> None:
    rng = random.Random(51)
    for _ in range(30):
        deal = replace(solo_deal(rng, 0), play=())
        assert deal.piles is not None and deal.laid is not None
        declarer, defender = deal.declarer, 1 - deal.declarer
        seen = view_of(deal, defender)
        assert seen.pile == deal.laid[defender] and seen.pile.bit_count() == 8 and seen.own_pile_size == 14
        talon = cards_of(deal.piles[defender] & ~deal.laid[defender])
        # Any talon card for any card of the declarer's hand: the same view.
        for card in talon[:3]:
            theirs = rng.choice(cards_of(deal.hands[declarer]))
            assert view_of(swapped(deal, card, theirs), defender) == seen


def test_a_solo_deal_without_its_laid_cards_hides_what_it_can() -> None:
    rng = random.Random(52)
    for _ in range(20):
        deal = solo_deal(rng, rng.randrange(33))
        bare = replace(deal, laid=None)
        assert bare.piles is not None
        declarer, defender = view_of(bare, bare.declarer), view_of(bare, 1 - bare.declarer)
        # The defender's pile cannot be split: his view lists it, as seen.
        assert defender.talon_unseen == 0 and defender.pile == bare.piles[defender.view]
        if declarer.talon_unseen:
            assert declarer.other_pile == 0
        for view in (declarer, defender):
            space = world_space(view)
            assert space.worlds >= 1
            parse_view(view_to_json(view), "view.json")


def old_view(deal: Deal, seat: int) -> dict[str, Any]:
    """A Solo view file as kosolve wrote it before the talon was hidden: it
    lists the talon, in the defender's pile or (seen by the declarer) the
    other's."""
    assert deal.piles is not None and deal.laid is not None
    data = view_to_json(view_of(deal, seat))
    del data["talon_unseen"]
    other = 1 - seat
    if seat == deal.declarer:
        seen = deal.piles[other] & SEEN_IN_PILES | deal.piles[other] & ~deal.laid[other]
        data["other"] = {"pile": hand_names(seen), "holds": []}
    else:
        data["pile"] = hand_names(deal.piles[seat])
    return data


def test_an_old_solo_view_that_lists_the_talon_still_reads_and_means_what_it_says() -> None:
    rng = random.Random(53)
    for _ in range(10):
        deal = solo_deal(rng, rng.randrange(33))
        for seat in SEATS:
            view = parse_view(old_view(deal, seat), "old.json")
            assert view.talon_unseen == 0
            assert parse_view(view_to_json(view), "copy") == view
            assert "talon_unseen" not in view_to_json(view)
            space = world_space(view)
            assert space.talon_free == 0 and space.worlds >= 1


def solo_view_data(seat: str) -> dict[str, Any]:
    """The view file of a Solo after 4 cards, the declarer's or the defender's."""
    deal = solo_deal(random.Random(54), 4)
    return view_to_json(view_of(deal, deal.declarer if seat == "declarer" else 1 - deal.declarer))


def unseen_king(data: dict[str, Any]) -> str:
    return next((f"{s}K" for s in "HDSC" if f"{s}K" not in data["hand"] + data["pile"] + data.get("play", [])), "")


def zweiblatt() -> dict[str, Any]:
    return dict(json.loads((EXAMPLES / "views" / "trick4.json").read_text()))


BAD: dict[str, tuple[str, dict[str, Any], str]] = {
    "three": ("declarer", {"talon_unseen": 3}, "talon_unseen: 3 (the talon is seen whole or not at all: 0 or 6"),
    "negative": ("declarer", {"talon_unseen": -6}, "talon_unseen: -6 (the talon is seen whole"),
    "true": ("declarer", {"talon_unseen": True}, "talon_unseen: expected the number 0 or 6, got true"),
    "string": ("declarer", {"talon_unseen": "6"}, "talon_unseen: expected the number 0 or 6, got the string"),
    "float": ("declarer", {"talon_unseen": 6.0}, "talon_unseen: expected the number 0 or 6, got"),
    "zweiblatt": ("zweiblatt", {"talon_unseen": 6}, "talon_unseen: 6 talon cards unseen in a zweiblatt (only a solo"),
    "auction": ("auction", {"talon_unseen": 6}, "talon_unseen: 6 talon cards unseen before the auction"),
    "seen defender": ("defender", {"talon_unseen": 0}, "pile: 8 cards (the pile of the defender in a solo holds 14)"),
    "king seen": ("declarer", {"other": "king"}, "other.pile: {king}: with the talon unseen only tarocks laid away"),
    "held": ("defender", {"other": "holds"}, "other.holds: {king}: in a solo no card is seen to be the other's"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_talon_unseen_is_refused_in_one_line(case: str) -> None:
    seat, changes, message = BAD[case]
    if seat == "zweiblatt":
        data = zweiblatt()
    elif seat == "auction":
        data = dict(json.loads((EXAMPLES / "views" / "auction.json").read_text()))
    else:
        data = solo_view_data(seat)
    king = unseen_king(data)
    if changes.get("other") == "king":
        changes = {"other": {"pile": [king], "holds": []}}
    elif changes.get("other") == "holds":
        changes = {"other": {"pile": data["other"]["pile"], "holds": [king]}}
    with pytest.raises(ViewError) as caught:
        parse_view({**data, **changes}, "v.json")
    assert f"v.json: {message.format(king=king)}" in str(caught.value) and "\n" not in str(caught.value)


def test_the_key_is_written_only_when_talon_cards_are_unseen_and_only_a_solo_has_it() -> None:
    data = solo_view_data("defender")
    assert data["talon_unseen"] == 6 and list(data)[list(data).index("pile") + 1] == "talon_unseen"
    assert "talon_unseen" not in view_to_json(parse_view(zweiblatt(), "z.json"))
    assert parse_view({**zweiblatt(), "talon_unseen": 0}, "z.json").talon_unseen == 0
    view = parse_view(data, "v.json")
    assert "6 talon cards unseen" in repr(view)


def test_a_solo_view_whose_talon_cannot_hold_what_must_lie_there_has_no_world() -> None:
    """The defender showed out of tarocks at once while more tarocks than
    the talon holds are unseen: the play reader accepts it (any may be a
    talon card), the sampler says why no world fits."""
    rng = random.Random(55)
    while True:
        deal = solo_deal(rng, 0)
        view = view_of(deal, deal.declarer)
        if view.leader != view.view:
            continue
        tarock = next((c for c in cards_of(view.hand) if reference.suit(card_name(c)) == reference.TAROCK), None)
        unseen = cards_of((1 << 54) - 1 & ~(view.hand | view.pile | view.other_pile))
        plain = [c for c in unseen if face_down_ok(card_name(c))]
        tarocks = [c for c in unseen if reference.suit(card_name(c)) == reference.TAROCK]
        if tarock is None or not plain or len(tarocks) <= 6:
            continue
        showed_out = replace(view, play=(tarock, plain[0]))
        data = view_to_json(showed_out)
        assert parse_view(data, "v.json") == showed_out
        with pytest.raises(NoWorldError, match=r"^no world fits the view: the talon holds 6 cards unseen, but"):
            world_space(showed_out)
        return
