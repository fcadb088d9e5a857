"""Inference (docs/inference.md): a world's weight held to a likelihood
worked out here from the rules, with the pure-Python reference alone, for
every world of small views; the call model on hand-made hands; the
auction's worlds resampled deterministically and toward hands that fit
the calls; and the weighted odds."""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace
from pathlib import Path

import pytest
from support import EXAMPLES, fast_first
from support.cli import run
from support.views import random_auction_view, random_view

from kosolve.analysis.solving import new_solver
from kosolve.model.cards import ALL_CARDS, card_name, hand_names, parse_hand
from kosolve.model.deal import Deal
from kosolve.model.dealt import Dealt
from kosolve.model.game import DEALER, FOREHAND, Rules, seat_name
from kosolve.model.view import SeatView, view_to_json
from kosolve.sampling.inference import (
    DEFAULT_CALL_WEIGHT,
    DEFAULT_CARD_WEIGHT,
    DEFAULT_DEPTH,
    Inference,
    InferenceError,
    weighted_auction_worlds,
    weighted_play_worlds,
)
from kosolve.sampling.odds import odds
from kosolve.sampling.worlds import all_worlds, random_worlds, sample_worlds, world_space
from kosolve.tools import reference

WEIGHT = 0.25


def late_views(count: int, seed: int, most: int = 60) -> list[SeatView]:
    """Views two to three tricks from the end, the other having played,
    allowing 2 to ``most`` worlds: the reference solves each of his last
    four cards' positions."""
    rng = random.Random(seed)
    found: list[SeatView] = []
    while len(found) < count:
        view, _ = random_view(rng, cards=rng.randrange(27, 31))
        if view.play and 2 <= world_space(view).worlds <= most:
            found.append(view)
    return found


def telling_views(count: int, seed: int) -> list[tuple[SeatView, list[Deal], list[float]]]:
    """Views of :func:`late_views` whose worlds the other's cards tell apart
    (one view in six or so), the other the declarer in every second one:
    each with its worlds and their likelihoods by the reference
    (:func:`reference_likelihood`).  The solver picks the views (the
    reference would take seconds a view); the likelihoods are the
    reference's alone, and a view is taken only when they differ."""
    found: list[tuple[SeatView, list[Deal], list[float]]] = []
    rng = random.Random(seed)
    solver, rules, model = new_solver(), Rules(), Inference(card_weight=WEIGHT)
    for _ in range(400):
        view = late_views(1, rng.randrange(1 << 30))[0]
        if (view.other == view.declarer) != (len(found) % 2 == 1):
            continue
        worlds = [w for w in all_worlds(view) if isinstance(w, Deal)]
        if len({model.card_blunders(w, view.other, solver, rules) for w in worlds}) == 1:
            continue
        likelihoods = [reference_likelihood(w, seat_name(view.other), WEIGHT, DEFAULT_DEPTH) for w in worlds]
        if len(set(likelihoods)) > 1:
            found.append((view, worlds, likelihoods))
        if len(found) == count:
            return found
    raise AssertionError("too few views whose worlds the other's cards tell apart")


def reference_likelihood(world: Deal, other: str, weight: float, depth: int) -> float:
    """The world's weight from the rules: its play replayed from trick 1 by
    the reference, and each of ``other``'s last ``depth`` cards that is not
    a best card of the reference's minimax (the most thirds for the
    declarer, the fewest for the defender) multiplying it by ``weight``."""
    hands = (frozenset(hand_names(world.hands[0])), frozenset(hand_names(world.hands[1])))
    declarer = seat_name(world.declarer)
    led: str | None = None
    leader = seat_name(world.leader)
    states = []
    for number in world.play:
        mover = leader if led is None else reference.other(leader)
        states.append((mover, hands, leader, led, card_name(number)))
        hands, leader, led, _ = reference.play(hands, leader, led, card_name(number), declarer)
    his = [state for state in states if state[0] == other]
    likelihood = 1.0
    for mover, before, first, lead, card in his[max(0, len(his) - depth) :]:
        values = reference.reference_move_values(before[0], before[1], first, declarer, lead)
        best = max(values.values()) if mover == declarer else min(values.values())
        if values[card] != best:
            likelihood *= weight
    return likelihood


@pytest.mark.parametrize("seed", fast_first(range(4)))
def test_every_world_weighs_its_likelihood_by_the_reference(seed: int) -> None:
    solver, rules = new_solver(), Rules()
    inference = Inference(card_weight=WEIGHT)
    for view, worlds, likelihoods in telling_views(2, seed):
        for world, likelihood in zip(worlds, likelihoods, strict=True):
            blunders = inference.card_blunders(world, view.other, solver, rules)
            assert inference.weight(blunders) == likelihood
        weighted = weighted_play_worlds(view, len(worlds), 0, inference, solver, rules)
        assert [w for w, _ in weighted] == worlds
        total = sum(likelihoods)
        for (_, weight), likelihood in zip(weighted, likelihoods, strict=True):
            assert weight == pytest.approx(len(worlds) * likelihood / total)


def test_the_depth_counts_his_last_cards_only() -> None:
    solver, rules = new_solver(), Rules()
    for view, worlds, _ in telling_views(1, seed=0):
        other = seat_name(view.other)
        for world in worlds:
            for depth in (0, 1, 2):
                model = Inference(card_weight=WEIGHT, depth=depth)
                expected = reference_likelihood(world, other, WEIGHT, depth)
                assert model.weight(model.card_blunders(world, view.other, solver, rules)) == expected


def test_weighted_play_worlds_are_the_sampled_worlds_normalised() -> None:
    solver, rules = new_solver(), Rules()
    rng = random.Random(3)
    view, _ = random_view(rng, cards=20)
    while world_space(view).worlds <= 12:
        view, _ = random_view(rng, cards=20)
    weighted = weighted_play_worlds(view, 12, 7, Inference(card_weight=WEIGHT), solver, rules)
    assert [w for w, _ in weighted] == list(sample_worlds(view, 12, 7))
    assert math.fsum(w for _, w in weighted) == pytest.approx(12)
    uniform = weighted_play_worlds(view, 12, 7, Inference(card_weight=1), solver, rules)
    assert [w for _, w in uniform] == [1.0] * 12


def dealt_holding(seat: int, hand: int) -> Dealt:
    """A deal as dealt in which ``seat`` holds ``hand`` after the pick-up
    (the other cards anywhere legal enough for the calls)."""
    rest = sorted(c for c in range(54) if not hand >> c & 1)
    talon, his, mine, mine_laid = rest[:6], rest[6:14], rest[14:30], rest[30:38]
    laid = [0, 0]
    laid[seat], laid[1 - seat] = sum(1 << c for c in his), sum(1 << c for c in mine_laid)
    held = [0, 0]
    held[seat], held[1 - seat] = hand, sum(1 << c for c in mine)
    assert held[0] | held[1] | laid[0] | laid[1] | sum(1 << c for c in talon) == ALL_CARDS
    return Dealt(tuple(talon), (held[0] | laid[0], held[1] | laid[1]), (0, 0), (laid[0], laid[1]))


# Strengths by the model's rule (docs/dealing.md): a tarock 1, XVII to Sk
# half more, a trull card 2 more, a king 1.5, a void 0.5.
SOLO = parse_hand(
    ["Sk", "XXI", "XX", "XIX", "XVIII", "XVII", "XVI", "XV", "XIV", "XIII", "I", "HK", "DK", "SK", "CK", "S7"]
)
"""Strength 11 + 3 + 6 + 6 = 26: a Solo."""
ZWEIBLATT = parse_hand(
    ["Sk", "XXI", "XII", "XI", "X", "IX", "VIII", "VII", "VI", "I", "HK", "H4", "H3", "D4", "S7", "C7"]
)
"""Strength 10 + 1 + 6 + 1.5 = 18.5: a Zweiblatt."""
DREIBLATT = parse_hand(["V", "IV", "III", "II", "H1", "H2", "H3", "H4", "D1", "D2", "D3", "D4", "S7", "S8", "C7", "C8"])
"""Strength 4: a Dreiblatt."""


@pytest.mark.parametrize(
    ("seat", "hand", "calls", "misses"),
    [
        # The dealer: a bid above his contract misses, a pass below it too.
        (DEALER, DREIBLATT, ["dreiblatt", "zweiblatt", "hold", "pass"], 1),
        (DEALER, ZWEIBLATT, ["dreiblatt", "zweiblatt", "hold", "pass"], 0),
        (DEALER, ZWEIBLATT, ["dreiblatt", "pass"], 1),
        (DEALER, ZWEIBLATT, ["zweiblatt", "pass"], 0),
        (DEALER, SOLO, ["zweiblatt", "einblatt", "solo", "pass"], 0),
        (DEALER, SOLO, ["einblatt", "pass"], 1),
        (DEALER, DREIBLATT, ["pass", "solo"], 1),
        (DEALER, SOLO, ["pass", "solo"], 0),
        (DEALER, SOLO, ["pass", "pass"], 1),  # the model always bids
        # The forehand: an opening pass misses whatever his hand; a hold
        # counts as playing what stands.
        (FOREHAND, DREIBLATT, ["pass", "dreiblatt"], 1),
        (FOREHAND, SOLO, ["pass", "dreiblatt"], 1),
        (FOREHAND, DREIBLATT, ["dreiblatt", "zweiblatt", "hold", "einblatt", "pass"], 1),
        (FOREHAND, ZWEIBLATT, ["dreiblatt", "zweiblatt", "hold", "einblatt", "pass"], 0),
        (FOREHAND, DREIBLATT, ["dreiblatt", "einblatt", "hold", "solo", "hold", "pass"], 2),
        (FOREHAND, SOLO, ["dreiblatt", "einblatt", "pass"], 1),
        (FOREHAND, ZWEIBLATT, [], 0),
    ],
)
def test_the_call_model_on_hand_made_hands(seat: int, hand: int, calls: list[str], misses: int) -> None:
    model = Inference()
    assert model.call_misses(dealt_holding(seat, hand), seat, calls) == misses
    assert model.weight(misses=misses) == DEFAULT_CALL_WEIGHT**misses


@pytest.mark.parametrize(
    ("calls", "message"),
    [
        (["hold"], "calls[0]: 'hold' is not a legal call here"),
        (["dreiblatt", "dreiblatt"], "calls[1]: 'dreiblatt' is not a legal call here"),
        (["dreiblatt", "pass", "pass"], "calls[2]: 'pass' comes after the auction ended"),
    ],
)
def test_calls_that_are_no_auction_are_refused(calls: list[str], message: str) -> None:
    with pytest.raises(InferenceError, match=f"^{message}$".replace("[", r"\[").replace("]", r"\]")):
        Inference().call_misses(dealt_holding(DEALER, SOLO), DEALER, calls)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"card_weight": 0}, "card_weight must be above 0 and at most 1, not 0"),
        ({"card_weight": 1.5}, "card_weight must be above 0 and at most 1, not 1.5"),
        ({"call_weight": -0.5}, "call_weight must be above 0 and at most 1, not -0.5"),
        ({"depth": -1}, "depth must be at least 0, not -1"),
    ],
)
def test_bad_weights_are_refused_in_one_line(fields: dict[str, float], message: str) -> None:
    with pytest.raises(InferenceError) as caught:
        Inference(**fields)  # type: ignore[arg-type]
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)


def test_the_defaults() -> None:
    model = Inference()
    assert (model.card_weight, model.call_weight, model.depth) == (DEFAULT_CARD_WEIGHT, DEFAULT_CALL_WEIGHT, 4)
    assert model.weight() == 1.0 and model.weight(2, 1) == DEFAULT_CARD_WEIGHT**2 * DEFAULT_CALL_WEIGHT


def forehand_bid_view(seed: int) -> SeatView:
    """The dealer's view before the auction, of a random deal."""
    rng = random.Random(seed)
    view, _ = random_auction_view(rng)
    while view.view != DEALER:
        view, _ = random_auction_view(rng)
    return view


def test_auction_worlds_are_the_same_for_the_same_seed_and_lean_to_his_calls() -> None:
    view = forehand_bid_view(4)
    calls = ["zweiblatt"]  # the forehand's: the model bids it with strength 18.5 or more
    model = Inference()
    count, pool = 60, 8
    worlds = weighted_auction_worlds(view, calls, count, 5, model, pool=pool)
    assert worlds == weighted_auction_worlds(view, calls, count, 5, model, pool=pool)
    assert worlds != weighted_auction_worlds(view, calls, count, 6, model, pool=pool)
    drawn = [w for w in random_worlds(view, count * pool, 5) if isinstance(w, Dealt)]
    assert len(worlds) == count and all(world in drawn for world in worlds)
    fits = [model.call_misses(w, FOREHAND, calls) == 0 for w in drawn]
    kept = [model.call_misses(w, FOREHAND, calls) == 0 for w in worlds]
    share = sum(fits) / len(fits)
    assert 0 < share < 0.5, "the calls should fit some worlds and not others"
    # Resampled in proportion to the weights, the fitting worlds' expected
    # share is share / (share + 0.25 * (1 - share)): well above the pool's.
    assert sum(kept) / len(kept) > share + 0.1


def test_auction_worlds_without_weight_are_the_plain_draw() -> None:
    view = forehand_bid_view(4)
    plain = list(random_worlds(view, 6, 9))
    assert weighted_auction_worlds(view, ["einblatt"], 6, 9, Inference(call_weight=1)) == plain
    assert weighted_auction_worlds(view, [], 6, 9, Inference()) == plain
    talon = plain[0].talon if isinstance(plain[0], Dealt) else None
    assert weighted_auction_worlds(view, [], 6, 9, Inference(), talon) == list(random_worlds(view, 6, 9, talon))


def test_worlds_of_the_wrong_kind_are_refused() -> None:
    view = late_views(1, seed=2)[0]
    with pytest.raises(InferenceError, match="no calls"):
        weighted_auction_worlds(view, [], 4, 0, Inference())
    with pytest.raises(InferenceError, match="no play"):
        weighted_play_worlds(forehand_bid_view(4), 4, 0, Inference(), new_solver(), Rules())


@pytest.mark.parametrize("seed", fast_first(range(3)))
def test_weighted_odds_are_the_weighted_means_over_every_world(seed: int) -> None:
    rules = Rules()
    model = Inference(card_weight=WEIGHT)
    for view, _, weights in telling_views(1, seed + 20):
        plain = odds(view, samples=10_000, jobs=1)
        weighted = odds(view, samples=10_000, jobs=1, inference=model)
        total = sum(weights)
        thirds = [v.thirds for v in plain.values]  # type: ignore[union-attr]
        assert weighted.thirds is not None
        assert weighted.thirds.mean == pytest.approx(sum(w * t for w, t in zip(weights, thirds, strict=True)) / total)
        win = sum(w for w, t in zip(weights, thirds, strict=True) if t >= rules.win_thirds) / total
        assert weighted.p_win == pytest.approx(win)
        assert [v.weight for v in weighted.values] == weights  # type: ignore[union-attr]
        assert weighted.effective_samples == pytest.approx(total**2 / sum(w * w for w in weights))
        assert weighted.to_json()["inference"] == {
            "card_weight": WEIGHT,
            "depth": DEFAULT_DEPTH,
            "effective_samples": round(total**2 / sum(w * w for w in weights), 4),
        }


def test_odds_with_a_weight_of_one_are_the_plain_odds(tmp_path: Path) -> None:
    rng = random.Random(5)
    view, _ = random_view(rng, cards=18)
    plain = odds(view, samples=12, seed=1, jobs=1)
    same = odds(view, samples=12, seed=1, jobs=1, inference=Inference(card_weight=1))
    assert replace(same, inference=None, effective_samples=None) == plain
    path = tmp_path / "view.json"
    path.write_text(json.dumps(view_to_json(view)))
    first = json.loads(run("odds", "--json", "-q", "--samples", "12", "--seed", "1", str(path)).stdout)
    second = json.loads(run("odds", "--json", "-q", "--samples", "12", "--seed", "1", "--infer", "1", str(path)).stdout)
    assert second.pop("inference") == {"card_weight": 1.0, "depth": DEFAULT_DEPTH, "effective_samples": 12.0}
    assert first == second


def test_odds_before_the_auction_are_not_weighted() -> None:
    view = forehand_bid_view(4)
    plain = odds(view, samples=2, seed=3, jobs=1)
    asked = odds(view, samples=2, seed=3, jobs=1, inference=Inference())
    assert replace(asked, inference=None, effective_samples=None) == plain
    assert asked.effective_samples == 2.0


@pytest.mark.parametrize("weight", ["0", "1.5", "x"])
def test_the_odds_refuse_a_bad_weight_in_one_line(weight: str) -> None:
    result = run("odds", "--infer", weight, str(EXAMPLES / "views" / "trick4.json"))
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and "--infer" in result.stderr
