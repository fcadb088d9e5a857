"""The rating fit: it recovers known strengths from simulated matches,
its 95% intervals cover the truth about as often as they say, it weighs a
steady match above a noisy one, and matches that rate nobody are refused."""

from __future__ import annotations

import itertools
import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from kosolve.play.rating import MatchResult, Rating, RatingError, Ratings, fit, ratings_svg

TRUE = {"dd": 30.0, "pimc": 20.0, "heuristic": -5.0, "random": -45.0}
"""Strengths in game points a deal, their mean 0 as the fit's anchor."""


def simulated(rng: random.Random, deals: int = 200, noise: float = 25.0) -> list[MatchResult]:
    """A round robin of duplicate matches between the bots of :data:`TRUE`:
    each deal's difference the true one plus normal noise."""
    return [
        MatchResult.of(a, b, [rng.gauss(TRUE[a] - TRUE[b], noise) for _ in range(deals)])
        for a, b in itertools.combinations(TRUE, 2)
    ]


def test_the_fit_recovers_known_strengths() -> None:
    ratings = fit(simulated(random.Random(1)))
    assert [rating.bot for rating in ratings.ratings] == ["dd", "pimc", "heuristic", "random"]
    assert sum(rating.rating for rating in ratings.ratings) == pytest.approx(0, abs=1e-9)
    for rating in ratings.ratings:
        assert rating.rating == pytest.approx(TRUE[rating.bot], abs=4)
        assert rating.deals == 600


def test_the_intervals_cover_the_truth_about_95_percent_of_the_time() -> None:
    rng = random.Random(2)
    covered = total = 0
    for _ in range(200):
        for rating in fit(simulated(rng, deals=30)).ratings:
            low, high = rating.ci95
            covered += low <= TRUE[rating.bot] <= high
            total += 1
    assert 0.92 <= covered / total <= 0.98


def test_the_standard_errors_are_those_of_the_model() -> None:
    """Two bots: each rating is half the difference, its error half the mean's."""
    match = MatchResult("a", "b", 25, 10.0, 100.0)
    ratings = fit([match])
    first, second = ratings.ratings
    assert first.bot == "a" and first.rating == pytest.approx(5.0) and second.rating == pytest.approx(-5.0)
    assert first.se == pytest.approx(0.5 * (100.0 / 25) ** 0.5) == second.se
    low, high = match.ci95
    assert high - low == pytest.approx(2 * (first.ci95[1] - first.ci95[0]))


def test_a_steady_match_outweighs_a_noisy_one() -> None:
    """A cycle that does not add up: the steady matches win it."""
    ratings = fit(
        [
            MatchResult("a", "b", 100, 10.0, 1.0),
            MatchResult("b", "c", 100, 10.0, 1.0),
            MatchResult("a", "c", 100, 0.0, 1e6),
        ]
    )
    rated = {rating.bot: rating.rating for rating in ratings.ratings}
    assert rated["a"] - rated["b"] == pytest.approx(10, abs=0.01)
    assert rated["a"] - rated["c"] == pytest.approx(20, abs=0.01)


def test_a_match_without_spread_still_weighs_finitely() -> None:
    ratings = fit([MatchResult.of("dd", "dd:copy", [0, 0, 0]), MatchResult.of("dd", "random", [40, 60, 50])])
    rated = {rating.bot: rating.rating for rating in ratings.ratings}
    assert rated["dd"] == pytest.approx(rated["dd:copy"], abs=0.5)


@pytest.mark.parametrize(
    ("matches", "message"),
    [
        ([], "no match"),
        ([MatchResult("a", "b", 5, 1.0, 1.0), MatchResult("c", "d", 5, 1.0, 1.0)], "no chain of matches joins c"),
    ],
)
def test_matches_that_rate_nobody_are_refused(matches: list[MatchResult], message: str) -> None:
    with pytest.raises(RatingError, match=message):
        fit(matches)


def test_one_deal_rates_nobody() -> None:
    with pytest.raises(RatingError, match="1 deal, and a rating needs at least 2"):
        MatchResult.of("a", "b", [3])


def test_the_values_read_back_from_their_reprs() -> None:
    ratings = fit(simulated(random.Random(3), deals=5))
    assert eval(repr(ratings), {"Ratings": Ratings, "Rating": Rating, "MatchResult": MatchResult}) == ratings


def test_the_json_and_the_picture() -> None:
    ratings = fit([*simulated(random.Random(4), deals=20), MatchResult("random", "<exec & co>", 20, 5.0, 9.0)])
    data: dict[str, Any] = ratings.to_json()
    assert data["format"] == 1 and data["anchor"] == "mean"
    assert [entry["rank"] for entry in data["ratings"]] == [1, 2, 3, 4, 5]
    picture = ratings_svg(ratings)
    root = ET.fromstring(picture)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    shown = [g.get("data-bot") for g in root.iter("{http://www.w3.org/2000/svg}g")]
    assert shown == [rating.bot for rating in ratings.ratings] and "<exec & co>" in shown
    assert ratings._repr_svg_() == picture
