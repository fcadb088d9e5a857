"""The review by what each player knew, held to a brute force written from
the rules: every world of the mover's view enumerated by card names (the
other's pile takes the cards seen there and plain non-king cards face
down, docs/rules.md §3.3, and a world is kept when every card the other
played was legal in it, §4; no Solo, see ``played_out``), each solved by the pure-Python reference,
the means and verdicts worked out by hand.  Exact reviews equal it to the
last digit, sampled ones lie within their intervals, the dealt world is
always among the enumerated ones, and a view with one world gives the
double-dummy values."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, replace
from fractions import Fraction

import pytest
from support import without_stats

from kosolve.dealing import deal_game
from kosolve.model.cards import card_name, hand_names
from kosolve.model.deal import Deal
from kosolve.model.game import seat_name
from kosolve.model.view import view_of
from kosolve.review.judging import ReviewError, review
from kosolve.review.results import CardJudgement, Review
from kosolve.review.worlds import INFER_DEPTH
from kosolve.sampling.worlds import all_worlds
from kosolve.tools import reference

ENDING_TRICKS = 4
"""The tricks left where the judged cards start: small enough for the
reference to solve every world."""
KINGS = frozenset({"HK", "DK", "SK", "CK"})


@dataclass(frozen=True)
class Names:
    """A deal by card names, as the brute force reads it."""

    hands: tuple[frozenset[str], frozenset[str]]
    piles: tuple[frozenset[str], frozenset[str]]
    laid: tuple[frozenset[str], frozenset[str]] | None
    declarer: str
    play: tuple[str, ...]


def names_of(deal: Deal) -> Names:
    assert deal.piles is not None
    laid = None if deal.laid is None else (frozenset(hand_names(deal.laid[0])), frozenset(hand_names(deal.laid[1])))
    return Names(
        (frozenset(hand_names(deal.hands[0])), frozenset(hand_names(deal.hands[1]))),
        (frozenset(hand_names(deal.piles[0])), frozenset(hand_names(deal.piles[1]))),
        laid,
        seat_name(deal.declarer),
        tuple(card_name(c) for c in deal.play),
    )


def face_up(name: str) -> bool:
    """A card that is seen wherever it lies in a pile: a king or trull card
    is never laid away, and a tarock laid away is shown."""
    return name in KINGS or reference.suit(name) == reference.TAROCK


def replay(hands: tuple[frozenset[str], frozenset[str]], play: tuple[str, ...], declarer: str):  # type: ignore[no-untyped-def]
    """The hands, leader, led card and the declarer's trick thirds after
    ``play``; a ReferenceInputError when a card was not legal."""
    leader, led, won = "forehand", None, 0
    for card in play:
        hands, leader, led, gain = reference.play(hands, leader, led, card, declarer)
        won += gain
    return hands, leader, led, won


def brute_worlds(deal: Names, mover: str, at: int) -> list[Names]:
    """Every world the ``mover`` could not tell apart before card ``at``."""
    me = reference.SEATS.index(mover)
    other = 1 - me
    unseen = frozenset(reference.all_card_names()) - deal.hands[me] - deal.piles[me]
    seen = frozenset(c for c in deal.piles[other] if face_up(c))
    if mover == deal.declarer and deal.laid is not None:
        seen |= deal.piles[other] - deal.laid[other]  # the talon cards left to the defender
    face_down = sorted(c for c in unseen - seen if not face_up(c))
    size = 22 - len(deal.piles[me])
    worlds = []
    for down in itertools.combinations(face_down, size - len(seen)):
        pile = seen | frozenset(down)
        hand = unseen - pile
        hands = (deal.hands[0], hand) if me == 0 else (hand, deal.hands[1])
        piles = (deal.piles[0], pile) if me == 0 else (pile, deal.piles[1])
        try:
            replay(hands, deal.play[:at], deal.declarer)
        except reference.ReferenceInputError:
            continue
        worlds.append(Names(hands, piles, None, deal.declarer, deal.play[:at]))
    return worlds


def final_thirds(world: Names) -> dict[str, int]:
    """The declarer's final thirds after each legal card of the side to move."""
    hands, leader, led, won = replay(world.hands, world.play, world.declarer)
    base = reference.pile_thirds(world.piles[reference.SEATS.index(world.declarer)]) + won
    values = reference.reference_move_values(hands[0], hands[1], leader, world.declarer, led)
    return {card: base + value for card, value in values.items()}


def played_out(seed: int) -> Deal:
    """A realistic deal played to the end at random; not a Solo, whose
    hidden talon (docs/rules.md §3.5) leaves millions of worlds even four
    tricks from the end, beyond the reference: the Solo's worlds are held
    to a brute force of their own (tests/sampling/test_solo_talon.py)."""
    rng = random.Random(seed)
    deal = deal_game(rng)
    while deal.contract == "solo":
        deal = deal_game(rng)
    position = deal.position()
    while not position.is_over():
        position.push(rng.choice(list(position.legal_moves)))
    return replace(deal, play=tuple(position.move_stack))


def check_card(judged: CardJudgement, deal: Deal, exact: bool) -> None:
    """One card of a review against the brute force."""
    names = names_of(deal)
    mover = seat_name(judged.seat)
    worlds = brute_worlds(names, mover, judged.index)
    assert judged.worlds == len(worlds)
    dealt = Names(names.hands, names.piles, None, names.declarer, names.play[: judged.index])
    assert dealt in worlds, "the dealt world is always one the mover could not rule out"
    if judged.forced:
        return
    sign = 1 if mover == names.declarer else -1
    values = [final_thirds(w) for w in worlds]
    legal = [card_name(m.card) for m in judged.moves]
    assert sorted(legal) == sorted(values[0])
    sums = {card: sum(v[card] for v in values) for card in legal}
    dd = final_thirds(dealt)
    assert [m.dd_thirds for m in judged.moves] == [dd[c] for c in legal]
    dd_best = max(sign * dd[c] for c in legal)
    assert judged.dd_loss == dd_best - sign * dd[card_name(judged.card)]
    assert [card_name(c) for c in judged.dd_best] == [c for c in legal if sign * dd[c] == dd_best]
    n = len(worlds)
    mean = {card: Fraction(total, n) for card, total in sums.items()}
    if exact:
        assert judged.exact and judged.samples == n
        for move in judged.moves:
            assert move.mean_thirds == pytest.approx(float(mean[card_name(move.card)]), abs=1e-9)
        top = max(sign * total for total in sums.values())
        assert [card_name(c) for c in judged.best] == [c for c in legal if sign * sums[c] == top]
        loss = Fraction(top - sign * sums[card_name(judged.card)], n)
        assert judged.knew_loss == pytest.approx(float(loss), abs=1e-9)
        knew_best, dd_optimal = loss == 0, judged.dd_loss == 0
        verdicts = {(True, True): "best", (True, False): "unlucky", (False, True): "lucky", (False, False): "mistake"}
        assert judged.verdict == verdicts[(knew_best, dd_optimal)]
        if n == 1:
            assert [m.mean_thirds for m in judged.moves] == [m.dd_thirds for m in judged.moves]
            assert judged.knew_loss == judged.dd_loss
        return
    # Sampled: the true mean loss against the card it found best lies in its
    # interval, widened to about four standard errors (a fixed seed either
    # passes for ever or shows a real bias).
    assert not judged.exact and judged.samples < n
    top_card = card_name(judged.best[0])
    true_loss = sign * (mean[top_card] - mean[card_name(judged.card)])
    assert judged.knew_loss_ci95 is not None
    low, high = judged.knew_loss_ci95
    centre, half = (low + high) / 2, (high - low) / 2
    assert abs(float(true_loss) - centre) <= 2 * half + 1e-9


def ending_review(seed: int, samples: int) -> tuple[Deal, Review]:
    deal = played_out(seed)
    start = len(deal.play) - 2 * ENDING_TRICKS
    return deal, review(deal, samples=samples, seed=seed, jobs=1, start=start)


@pytest.mark.parametrize("seed", range(12))
def test_exact_reviews_equal_the_brute_force(seed: int) -> None:
    deal, result = ending_review(seed, samples=100_000)
    assert [c.index for c in result.cards] == list(range(len(deal.play) - 2 * ENDING_TRICKS, len(deal.play)))
    for judged in result.cards:
        check_card(judged, deal, exact=True)


@pytest.mark.parametrize("seed", range(100, 108))
def test_sampled_reviews_lie_within_their_intervals(seed: int) -> None:
    deal, result = ending_review(seed, samples=5)
    sampled = [c for c in result.cards if not c.forced and not c.exact]
    for judged in result.cards:
        check_card(judged, deal, exact=judged.exact)
    assert sampled or all(c.worlds <= 5 for c in result.cards)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(200, 300))
def test_many_exact_reviews_equal_the_brute_force(seed: int) -> None:
    deal, result = ending_review(seed, samples=100_000)
    for judged in result.cards:
        check_card(judged, deal, exact=True)


def test_the_dealt_world_is_among_the_worlds_of_every_view() -> None:
    deal = played_out(7)
    for at in range(8, len(deal.play)):
        view = view_of(deal, deal.position(at).turn, at)
        worlds = [w for w in all_worlds(view) if isinstance(w, Deal)]
        assert any(w.hands == deal.hands and w.piles == deal.piles for w in worlds)


def test_the_figures_do_not_depend_on_the_jobs() -> None:
    deal = played_out(3)
    start = len(deal.play) - 12
    one = review(deal, samples=30, seed=5, jobs=1, start=start)
    two = review(deal, samples=30, seed=5, jobs=2, start=start)
    assert without_stats(one.to_json()) == without_stats(two.to_json())


def test_the_losses_add_up_per_player() -> None:
    _, result = ending_review(1, samples=100_000)
    for player in result.players:
        mine = [c for c in result.cards if c.seat == player.seat]
        assert player.cards == len(mine)
        assert player.dd_loss == sum(c.dd_loss for c in mine)
        assert player.knew_loss == pytest.approx(sum(c.knew_loss for c in mine))
        assert sum(count for _, count in player.verdicts) == len(mine)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"start": 32}, "start: 32 leaves no card to judge"),
        ({"samples": 0}, "samples: must be at least 1"),
    ],
)
def test_bad_requests_are_refused(change: dict[str, int], message: str) -> None:
    with pytest.raises(ReviewError, match=message):
        review(played_out(0), jobs=1, **change)  # type: ignore[arg-type]


def knew_part(judged: CardJudgement) -> dict[str, object]:
    """What a card's verdict by what its player knew rests on."""
    data = judged.to_json()
    moves = [{k: v for k, v in m.items() if not k.startswith("dd_")} for m in data["moves"]]  # type: ignore[attr-defined]
    return {
        **{k: v for k, v in data.items() if not k.startswith("dd_") and k not in ("verdict", "stats")},
        "moves": moves,
    }


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("samples", [3, 100_000])
def test_no_hidden_card_leaks_into_the_verdict_by_what_he_knew(seed: int, samples: int) -> None:
    """Deal the other's hidden cards anew in a way the mover's view allows:
    the half of the verdict by what he knew stays the same."""
    deal = played_out(seed)
    rng = random.Random(seed)
    for at in rng.sample(range(10, len(deal.play)), 4):
        view = view_of(deal, deal.position(at).turn, at)
        other = rng.choice(list(all_worlds(view)))
        assert isinstance(other, Deal)
        assert other.piles is not None and deal.piles is not None
        assert deal.laid is not None
        # What the other laid away himself changes with his pile; the talon
        # cards left to him, which the declarer saw, do not.
        mover = view.view
        talon = deal.piles[1 - mover] & ~deal.laid[1 - mover]
        laid = [0, 0]
        laid[mover], laid[1 - mover] = deal.laid[mover], other.piles[1 - mover] & ~talon
        again = replace(other, play=deal.play[: at + 1], laid=(laid[0], laid[1]))
        first = review(replace(deal, play=deal.play[: at + 1]), samples=samples, seed=seed, jobs=1, start=at)
        second = review(again, samples=samples, seed=seed, jobs=1, start=at)
        assert knew_part(first.cards[0]) == knew_part(second.cards[0])


def blunders(world: Names, mover: str, at: int) -> int:
    """How many of the other's last INFER_DEPTH cards before card ``at``
    lost value double dummy in ``world``, by the reference."""
    theirs = []
    leader, led = "forehand", None
    hands = world.hands
    for index, card in enumerate(world.play[:at]):
        player = leader if led is None else reference.other(leader)
        if player != mover:
            theirs.append(index)
        hands, leader, led, _ = reference.play(hands, leader, led, card, world.declarer)
    lost = 0
    for index in theirs[-INFER_DEPTH:]:
        values = final_thirds(replace(world, play=world.play[:index]))
        pick = max if reference.other(mover) == world.declarer else min
        lost += values[world.play[index]] != pick(values.values())
    return lost


@pytest.mark.parametrize("seed", [6, 10, 20, 21, 25, 28])
def test_inference_weighs_the_worlds_as_the_brute_force(seed: int) -> None:
    """Deals where the other's last cards lost value in some worlds and not
    in others, so that the weights change the means."""
    deal = played_out(seed)
    names = names_of(deal)
    weight = 0.25
    start = len(deal.play) - 4
    result = review(deal, samples=100_000, jobs=1, start=start, infer=weight)
    uniform = review(deal, samples=100_000, jobs=1, start=start)
    assert [c.moves for c in result.cards] != [c.moves for c in uniform.cards]
    for judged in result.cards:
        if judged.forced:
            continue
        mover = seat_name(judged.seat)
        worlds = brute_worlds(names, mover, judged.index)
        full = [Names(w.hands, w.piles, None, w.declarer, names.play) for w in worlds]
        weights = [weight ** blunders(w, mover, judged.index) for w in full]
        values = [final_thirds(w) for w in worlds]
        total = sum(weights)
        for move in judged.moves:
            card = card_name(move.card)
            expected = sum(w * v[card] for w, v in zip(weights, values, strict=True)) / total
            assert move.mean_thirds == pytest.approx(expected, abs=1e-9)
        sign = 1 if mover == names.declarer else -1
        means = {card_name(m.card): sign * m.mean_thirds for m in judged.moves}
        assert judged.knew_loss == pytest.approx(max(means.values()) - means[card_name(judged.card)], abs=1e-9)
