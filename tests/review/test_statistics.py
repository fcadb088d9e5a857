"""The review's one statistics module and what is built on it: the interval
of a loss is the odds' ``estimate`` when the worlds are unweighted and
uses the effective sample size when they are not; each accuracy is defined
once, and the review, the batch's summary and the arena agree on it; the
arena's double-dummy counts taken from its review equal the post-mortem's,
and a review of the game's own ``Deal`` equals the review of its file."""

from __future__ import annotations

import math
import random

import pytest

from kosolve.batch.summary import summarise as summarise_batch
from kosolve.model.cards import mask_of
from kosolve.play.arena import Match, dealer_deal, play_deal, play_game
from kosolve.play.bots import make_bot
from kosolve.review.judging import review
from kosolve.review.results import CardJudgement
from kosolve.review.statistics import DD_BEST, KNEW_BEST, accuracy, best_count, interval
from kosolve.sampling.odds import estimate


@pytest.mark.parametrize("seed", range(5))
def test_an_unweighted_interval_is_the_estimate(seed: int) -> None:
    rng = random.Random(seed)
    values = [rng.randint(-30, 30) for _ in range(rng.randint(1, 40))]
    for exact in (False, True):
        assert interval(values, [1.0] * len(values), exact) == estimate(values, exact).ci95


def test_a_weighted_interval_uses_the_effective_sample_size() -> None:
    values, weights = [0, 3, 6, 9], [1.0, 0.5, 0.25, 0.25]
    total = sum(weights)
    mean = sum(w * x for w, x in zip(weights, values, strict=True)) / total
    effective = total**2 / sum(w * w for w in weights)
    variance = sum(w * (x - mean) ** 2 for w, x in zip(weights, values, strict=True)) / total
    half = 1.959963984540054 * math.sqrt(variance / (effective - 1))
    found = interval(values, weights, exact=False)
    assert found == pytest.approx((mean - half, mean + half))
    assert interval(values, weights, exact=True) == pytest.approx((mean, mean))
    # Equal weights other than 1 weigh nothing: the interval is the unweighted one.
    assert interval(values, [0.5] * 4, exact=False) == pytest.approx(estimate(values, exact=False).ci95)
    # All the weight on one world: no interval.
    assert interval([1, 2], [1.0, 1e-300], exact=False) is None


def test_an_accuracy_pools_its_tallies() -> None:
    assert accuracy([(3, 4), (1, 4)]) == 0.5
    assert accuracy([[1, 1], [0, 3]]) == 0.25
    assert accuracy([]) is None and accuracy([(0, 0)]) is None
    counts = {"best": 4, "mistake": 3, "unlucky": 2, "lucky": 1, "forced": 7}
    assert best_count(counts, KNEW_BEST) == 6 and best_count(counts, DD_BEST) == 5


def test_a_card_judgement_is_made_by_keyword_only() -> None:
    with pytest.raises(TypeError):
        CardJudgement(0, 1, 0, 5)  # type: ignore[call-arg]


@pytest.fixture(scope="module")
def reviewed_match() -> tuple[dict[str, object], dict[str, object]]:
    """One deal of a match played with its review and without."""
    dealt = dealer_deal(3, 1)
    with_review = play_deal(Match("heuristic", "random", seed=3, review=3), dealt, 1)
    without = play_deal(Match("heuristic", "random", seed=3), dealt, 1)
    return with_review, without


def test_the_arena_takes_its_double_dummy_counts_from_the_review(
    reviewed_match: tuple[dict[str, object], dict[str, object]],
) -> None:
    with_review, without = reviewed_match
    games, plain = with_review["games"], without["games"]
    assert isinstance(games, list) and isinstance(plain, list)
    for game, alone in zip(games, plain, strict=True):
        assert game["play"] == alone["play"]
        assert game["knew"] is not None and alone["knew"] is None
        # The review's world that was dealt gives the post-mortem's verdicts.
        assert game["dd"] == alone["dd"]


def test_the_review_the_batch_and_the_arena_agree_on_the_accuracy() -> None:
    dealt = dealer_deal(3, 1)
    game, forfeit = play_game(dealt, (make_bot("heuristic"), make_bot("random")), ("heuristic", "random"), 5)
    assert forfeit is None and game.deal is not None and game.dealt_file is not None
    found = review(game.dealt_file, samples=3, seed=5, jobs=1)
    # The game's own Deal, with the talon cards taken, is the same review.
    again = review(game.deal, taken=mask_of(game.take or ()), samples=3, seed=5, jobs=1)
    assert again.cards == found.cards
    batch = summarise_batch([{"line": 1, "report": found.to_json()}])
    knew = accuracy(player.tally(KNEW_BEST) for player in found.players)
    dd = accuracy(player.tally(DD_BEST) for player in found.players)
    assert (batch.knew_accuracy, batch.dd_accuracy) == (knew, dd)
    for player in found.players:
        assert player.knew_accuracy == accuracy([player.tally(KNEW_BEST)])
        assert player.dd_accuracy == accuracy([player.tally(DD_BEST)])
