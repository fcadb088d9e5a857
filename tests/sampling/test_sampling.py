"""The worlds a seat view allows: each consistent with the view, counted
right, enumerated whole, and sampled uniformly (chi-square against the
uniform distribution, which a card-by-card dealer fails)."""

from __future__ import annotations

import collections
import itertools
import math
import random
from dataclasses import replace

import pytest
from support import fast_first
from support.views import (
    brute_force_piles,
    consistent,
    consistent_dealt,
    face_down_problem,
    other_pile,
    random_auction_view,
    random_view,
    talon_hands_to_try,
)

from kosolve.model.cards import ALL_CARDS, HEARTS, HK, SUIT_MASKS, TAROCK, hand_names, mask_of, suit_of
from kosolve.model.deal import Deal
from kosolve.model.dealt import Dealt
from kosolve.model.view import SEEN_IN_PILES, SeatView, ViewError, parse_view, view_to_json
from kosolve.sampling.worlds import NoWorldError, all_worlds, random_worlds, sample_worlds, world_space

PROPERTY_VIEWS = 2000
"""Views of the property test, each made from a real deal."""
Z_999: float = 3.090232306167813
"""The one-sided normal quantile of 0.999: a fixed-seed uniform sampler
fails a test at that level once in a thousand views."""


SOLO_HANDS = 1000
"""The most hands of the other brute force tries for a Solo view with the
talon unseen (:func:`support.views.talon_hands_to_try`): such views come
only late in the play."""


def chi_square_limit(degrees: int) -> float:
    """The chi-square statistic that ``degrees`` degrees of freedom exceed
    with probability 0.001 (Wilson and Hilferty's approximation)."""
    k = degrees
    return k * (1 - 2 / (9 * k) + Z_999 * math.sqrt(2 / (9 * k))) ** 3


def chi_square(counts: collections.Counter[frozenset[str]], worlds: set[frozenset[str]], draws: int) -> float:
    expected = draws / len(worlds)
    assert set(counts) <= worlds
    return sum((counts[world] - expected) ** 2 / expected for world in worlds)


def small_views(count: int, low: int, high: int, seed: int, contract: str | None = None) -> list[SeatView]:
    """``count`` views with ``low`` to ``high`` consistent worlds, late in
    play so that few cards are unseen; in the ``contract`` (the auction's
    by default).  A Solo's views (the talon unseen) come later still:
    brute force tries the other's hands (:data:`SOLO_HANDS`) and each
    split of the rest into discards and talon."""
    rng = random.Random(seed)
    found: list[SeatView] = []
    while len(found) < count:
        view, _ = random_view(rng, rng.randrange(18, 30) if contract != "solo" else rng.randrange(24, 33), contract)
        if view.talon_unseen and talon_hands_to_try(view) > SOLO_HANDS:
            continue
        if low <= world_space(view).worlds <= high:
            found.append(view)
    return found


@pytest.mark.parametrize(("contract", "views"), [(None, PROPERTY_VIEWS), ("solo", PROPERTY_VIEWS // 4)])
def test_every_world_fits_its_view_and_the_hidden_deal_is_one(contract: str | None, views: int) -> None:
    rng = random.Random(11)
    showed_out = talon_unseen = 0
    for _ in range(views):
        view, deal = random_view(rng, contract=contract)
        assert consistent(view, deal) is None
        space = world_space(view)
        assert space.worlds >= 1
        showed_out += bool(space.pile_only & ~view.other_pile | space.talon_only | space.pile_or_talon)
        talon_unseen += view.talon_unseen > 0
        for world in sample_worlds(view, 3, seed=rng.randrange(1000)):
            assert isinstance(world, Deal)
            assert consistent(view, world) is None, view
            world.position()  # the play replays in kosolve's model too
    # The play showed a void, and so sent cards to the pile, in many views;
    # and Solo views with the talon unseen were judged too, from both seats.
    assert showed_out > views // 10
    assert talon_unseen > (views // 2 if contract == "solo" else views // 100)


def test_every_world_before_the_auction_fits_its_view() -> None:
    rng = random.Random(12)
    for _ in range(300):
        view, _ = random_auction_view(rng)
        for world in sample_worlds(view, 3, seed=rng.randrange(1000)):
            assert isinstance(world, Dealt)
            assert consistent_dealt(view, world) is None


def test_every_world_with_the_talon_exposed_keeps_it_and_fits_the_view() -> None:
    rng = random.Random(13)
    for _ in range(100):
        view, dealt = random_auction_view(rng)
        for world in sample_worlds(view, 3, seed=rng.randrange(1000), talon=dealt.talon):
            assert isinstance(world, Dealt) and world.talon == dealt.talon
            assert consistent_dealt(view, world) is None


@pytest.mark.parametrize("seed", range(3))
def test_with_the_talon_exposed_the_worlds_are_the_other_s_discards_of_brute_force(seed: int) -> None:
    """Every set of 8 discards the other may have laid (his face-up tarocks
    and face-down plain cards other than kings, of the cards neither the
    viewer's nor the talon's), once each, and nothing else moves."""
    view, dealt = random_auction_view(random.Random(seed))
    other = 1 - view.view
    unseen = ALL_CARDS & ~(view.hand | view.pile | mask_of(dealt.talon))
    face_down = [
        c for c in iter_cards(unseen & ~view.other_pile) if face_down_problem(frozenset(hand_names(1 << c))) is None
    ]
    free = 8 - view.other_pile.bit_count()
    piles = {view.other_pile | mask_of(chosen) for chosen in itertools.combinations(face_down, free)}
    worlds = [w for w in all_worlds(view, dealt.talon) if isinstance(w, Dealt)]
    assert world_space(view, dealt.talon).worlds == len(worlds) == len(piles) == math.comb(len(face_down), free)
    assert {w.laid(other) for w in worlds} == piles
    assert {w.held(other) | w.laid(other) for w in worlds} == {unseen}


def test_a_talon_goes_only_with_a_view_before_the_play() -> None:
    (view,) = small_views(1, 1, 400, seed=0)
    with pytest.raises(ValueError, match="only with a view before the play"):
        world_space(view, talon=(0, 1, 2, 3, 4, 5))


SEEDS_AND_CONTRACTS = [(0, None), (1, None), (0, "solo"), (2, None), (3, None), (1, "solo"), (2, "solo"), (3, "solo")]
"""Seeds, each with the auction's contract or a Solo (the talon unseen),
the first three in the fast set."""


@pytest.mark.parametrize(("seed", "contract"), fast_first(SEEDS_AND_CONTRACTS, keep=3))
def test_the_count_and_the_enumeration_are_those_of_brute_force(seed: int, contract: str | None) -> None:
    for view in small_views(5, 1, 400, seed, contract):
        found = list(brute_force_piles(view))
        piles = set(found)
        enumerated = [other_pile(view, world) for world in all_worlds(view) if isinstance(world, Deal)]
        assert world_space(view).worlds == len(found) == len(piles) == len(enumerated) == len(set(enumerated))
        assert set(enumerated) == piles


def test_the_sampler_enumerates_when_asked_for_as_many_worlds_as_there_are() -> None:
    (view,) = small_views(1, 5, 30, seed=7)
    worlds = world_space(view).worlds
    assert list(sample_worlds(view, worlds, seed=3)) == list(all_worlds(view))
    assert len(list(sample_worlds(view, worlds - 1, seed=3))) == worlds - 1


@pytest.mark.parametrize(("seed", "contract"), fast_first([*SEEDS_AND_CONTRACTS, (4, None), (4, "solo")], keep=3))
def test_the_sampled_worlds_pass_a_chi_square_test_of_uniformity(seed: int, contract: str | None) -> None:
    (view,) = small_views(1, 8, 60, 100 + seed, contract)
    worlds = set(brute_force_piles(view))
    draws = 50 * len(worlds)
    counts = collections.Counter(
        other_pile(view, w) for w in random_worlds(view, draws, seed=seed) if isinstance(w, Deal)
    )
    assert sum(counts.values()) == draws
    assert chi_square(counts, worlds, draws) < chi_square_limit(len(worlds) - 1)


def deal_card_by_card(view: SeatView, rng: random.Random) -> frozenset[str]:
    """A dealer that is fast but not uniform: it goes through the unseen
    cards in order and puts each in the pile with even odds while the pile
    has room and the card may lie there."""
    space = world_space(view)
    flexible = sorted(hand_names(space.flexible))
    chosen: list[str] = []
    for index, name in enumerate(flexible):
        room = space.pile_free - len(chosen)
        left = len(flexible) - index
        if room and (room == left or rng.random() < 0.5):
            chosen.append(name)
    return frozenset(hand_names(space.pile_only)) | frozenset(chosen)


def test_the_chi_square_test_rejects_a_card_by_card_dealer() -> None:
    (view,) = small_views(1, 20, 60, seed=5)
    assert not view.talon_unseen  # the dealer deals the other's pile only
    worlds = set(brute_force_piles(view))
    draws = 50 * len(worlds)
    rng = random.Random(0)
    counts = collections.Counter(deal_card_by_card(view, rng) for _ in range(draws))
    assert chi_square(counts, worlds, draws) > chi_square_limit(len(worlds) - 1)


def test_before_the_auction_each_card_goes_to_each_place_as_often_as_counting_says() -> None:
    view, _ = random_auction_view(random.Random(4))
    space = world_space(view)
    draws = 4000
    worlds = [w for w in random_worlds(view, draws, seed=9) if isinstance(w, Dealt)]
    other = 1 - view.view
    flexible = space.flexible.bit_count()
    rest = space.unseen.bit_count() - 8  # the cards left for his hand and the talon
    for card in list(iter_cards(space.flexible))[:3]:
        # A flexible card lies in his pile with odds pile_free / flexible,
        # else is the talon's i-th card with odds 1/rest each, else in his hand.
        p_pile = space.pile_free / flexible
        places = collections.Counter(place_of(world, other, card) for world in worlds)
        expected = {"pile": p_pile, "hand": (1 - p_pile) * (rest - 6) / rest}
        expected |= {f"talon{i}": (1 - p_pile) / rest for i in range(6)}
        statistic = sum((places[k] - draws * p) ** 2 / (draws * p) for k, p in expected.items())
        assert set(places) <= set(expected)
        assert statistic < chi_square_limit(len(expected) - 1)


def iter_cards(hand: int) -> list[int]:
    return [card for card in range(64) if hand >> card & 1]


def place_of(world: Dealt, seat: int, card: int) -> str:
    if card in world.talon:
        return f"talon{world.talon.index(card)}"
    return "pile" if world.laid(seat) >> card & 1 else "hand"


def leading_view(seed: int) -> SeatView:
    """A view at trick 1 whose viewer leads and holds a heart, the king of
    hearts unseen, and that saw the talon (with the talon unseen HK may be a
    talon card: test_solo_talon.py has that case)."""
    rng = random.Random(seed)
    while True:
        view, _ = random_view(rng, cards=0)
        if view.talon_unseen:
            continue
        if view.view == view.leader and view.hand & SUIT_MASKS[HEARTS] and not (view.hand | view.pile) >> HK & 1:
            return view


def test_a_view_no_world_fits_says_why() -> None:
    view = leading_view(3)
    heart = next(c for c in iter_cards(view.hand) if suit_of(c) == HEARTS)
    tarock = next(c for c in iter_cards(ALL_CARDS & ~view.hand & ~view.pile & ~view.other_pile) if suit_of(c) == TAROCK)
    # He showed out of hearts, yet the unseen HK cannot lie face down.
    showed_out = replace(view, play=(heart, tarock))
    with pytest.raises(NoWorldError, match=r"^no world fits the view: play\[1\]: trick 1: .* holds HK .* follow suit$"):
        world_space(showed_out)
    crowded = replace(view, other_pile=ALL_CARDS & ~view.hand & ~view.pile & ~SUIT_MASKS[TAROCK])
    with pytest.raises(NoWorldError, match=r"pile holds .* but .* must lie there"):
        world_space(crowded)


MUTATED_VIEWS = 300
"""Views whose play was altered, each judged against brute force."""
BRUTE_FORCE_PILES = 10_000
"""The most piles brute force tries for one view."""


def mutated_view(rng: random.Random, contract: str | None = None) -> SeatView:
    """A view late in a real deal (in the ``contract``, the auction's by
    default) whose last card, one of the other's, is swapped for another
    card he might have: the play may now contradict itself (a suit he
    showed out of played again, a suit left while he surely held some of
    it), or not."""
    while True:
        view, _ = random_view(rng, rng.randrange(20, 33), contract)
        others = [index for index, played in enumerate(view.played()) if played.seat == view.other]
        if not others:
            continue
        index = rng.choice(others)
        candidates = iter_cards(ALL_CARDS & ~view.hand & ~view.pile & ~view.other_pile & ~mask_of(view.play))
        return replace(view, play=(*view.play[:index], rng.choice(candidates)))


def piles_to_try(view: SeatView) -> int:
    if view.talon_unseen:
        # Each hand of the other, and for each up to C(14, 6) talons.
        return talon_hands_to_try(view) * math.comb(14, 6)
    seen = view.other_pile.bit_count()
    hidden = ALL_CARDS & ~(view.hand | view.pile | view.other_pile | SEEN_IN_PILES)
    return math.comb(hidden.bit_count(), view.other_pile_size - seen)


SOLO_BRUTE_FORCE_PILES = 20 * math.comb(14, 6)
"""The most (hand, discards, talon) triples brute force tries for one Solo
view with the talon unseen: 20 hands of the other, the last tricks."""


@pytest.mark.parametrize(
    ("views", "contract"), fast_first([(40, None), (20, "solo"), (MUTATED_VIEWS, None), (100, "solo")], keep=2)
)
def test_a_view_is_refused_exactly_when_no_world_fits_it(views: int, contract: str | None) -> None:
    # Brute force tries every pile against the rules of play; the reader
    # and the world space must agree with it on every altered view: none
    # refused that some world fits, none accepted that no world fits.
    rng = random.Random(19)
    refused = judged = 0
    while judged < views:
        view = mutated_view(rng, contract)
        if piles_to_try(view) > (SOLO_BRUTE_FORCE_PILES if view.talon_unseen else BRUTE_FORCE_PILES):
            continue
        if contract == "solo" and not view.talon_unseen:
            continue
        judged += 1
        try:
            parse_view(view_to_json(view), "view.json")
            count = world_space(view).worlds
        except (ViewError, NoWorldError):
            with pytest.raises(NoWorldError):
                world_space(view)
            count = 0
        assert count == len(set(brute_force_piles(view))), view
        refused += count == 0
    # Both answers are common.
    assert views // 10 < refused < views * 9 // 10


def test_every_world_of_an_accepted_altered_view_replays() -> None:
    rng = random.Random(20)
    for _ in range(PROPERTY_VIEWS // 2):
        view = mutated_view(rng)
        try:
            world_space(view)
        except NoWorldError:
            continue
        for world in sample_worlds(view, 3, seed=rng.randrange(1000)):
            assert isinstance(world, Deal)
            assert consistent(view, world) is None, view
            world.position()


def high_in_talon(pile: frozenset[str]) -> int:
    """How many kings and tarocks a world's talon holds (a
    :class:`~support.views.PileWithTalon`)."""
    return sum(face_down_problem(frozenset([name])) is not None for name in getattr(pile, "talon", ()))


@pytest.mark.parametrize("seed", fast_first(range(3)))
def test_a_solo_sampler_puts_kings_and_tarocks_in_the_talon_as_often_as_brute_force(seed: int) -> None:
    """On Solo views with more worlds than a chi-square over each world
    suits: the kings and tarocks in the talon, counted over brute force's
    worlds, against the sampler's draws (a sampler that chose that number
    by anything but its share of the worlds fails)."""
    rng = random.Random(300 + seed)
    while True:
        (view,) = small_views(1, 200, 20_000, rng.randrange(10**6), "solo")
        exact = collections.Counter(high_in_talon(pile) for pile in brute_force_piles(view))
        if len(exact) > 1:
            break
    draws = 4000
    drawn = collections.Counter(
        high_in_talon(other_pile(view, w)) for w in random_worlds(view, draws, seed=seed) if isinstance(w, Deal)
    )
    total = sum(exact.values())
    assert total == world_space(view).worlds and set(drawn) <= set(exact)
    statistic = sum((drawn[k] - draws * n / total) ** 2 / (draws * n / total) for k, n in exact.items())
    assert statistic < chi_square_limit(len(exact) - 1)
