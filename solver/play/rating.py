"""Ratings from duplicate matches (docs/arena.md, "Ladder").

Each bot gets one number, its rating in game points a deal, such that A
is expected to lead B in a duplicate match by ``r_A - r_B`` game points a
deal.  It is the linear model behind Bradley–Terry and Elo ratings
(Thurstone's, with normal errors) put on the game points themselves
rather than on the chance of winning: a deal's difference is A's game
points less B's over its two games, and strength adds up along a chain
of matches.

The ratings are fitted to every match at once by weighted least squares:
a match of ``n`` deals whose differences have the variance ``s²`` says
``r_A - r_B ≈ x̄`` with the weight ``n / s²`` (one over the variance of
its mean), so that a long match or a steady one counts for more.  Only
differences are measured, so the ratings are anchored by a choice: their
mean is 0, an average bot of the list rates 0, and a bot's standard error
is its rating's relative to that anchor (from the fit's covariance, the
pseudo-inverse of the weighted Laplacian of the matches).  A bot added
to the list moves the anchor, and so every rating, by the same amount:
only the differences compare across lists.

>>> ratings = fit([MatchResult("pimc", "random", 20, 300.0, 400.0), MatchResult("pimc", "heuristic", 20, 20.0, 16.0)])
>>> [(r.bot, round(r.rating, 1)) for r in ratings.ratings]
[('pimc', 106.7), ('heuristic', 86.7), ('random', -193.3)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final
from xml.sax.saxutils import escape

import numpy as np

from kosolve.model.svg import axis_ticks, svg_text
from kosolve.sampling.odds import Z95

MIN_VARIANCE: Final = 1.0
"""The least variance a match's differences are weighed with (game
points squared).  Game points are whole numbers: a match whose deals all
came out alike (a deterministic bot against itself nets 0 on every deal)
shows the variance 0, and would otherwise weigh infinitely."""
RATINGS_FORMAT: Final = 1
"""The format of the ladder's JSON (:meth:`Ratings.to_json`,
docs/json.md): a renamed or removed key, or one that means something
else, raises it; keys may be added within a format."""


class RatingError(ValueError):
    """Matches that rate nobody: too few deals, or bots no chain of matches joins."""


@dataclass(frozen=True)
class MatchResult:
    """What a duplicate match between bots ``a`` and ``b`` measured: its
    ``deals``, the ``mean`` of their differences (A's game points less
    B's a deal) and their ``variance`` (the sample's, over ``deals - 1``).

    >>> MatchResult.of("dd", "pimc", [10, 4, 7])
    MatchResult(a='dd', b='pimc', deals=3, mean=7.0, variance=9.0)
    """

    a: str
    b: str
    deals: int
    mean: float
    variance: float

    @classmethod
    def of(cls, a: str, b: str, differences: Sequence[float]) -> MatchResult:
        """The result of a match of these per-deal ``differences``; a match
        of fewer than two deals shows no variance, and rates nobody."""
        n = len(differences)
        if n < 2:
            raise RatingError(f"{a} against {b}: {n} deal{'' if n == 1 else 's'}, and a rating needs at least 2")
        mean = math.fsum(differences) / n
        return cls(a, b, n, mean, math.fsum((x - mean) ** 2 for x in differences) / (n - 1))

    @property
    def weight(self) -> float:
        """The match's weight in the fit: one over the variance of its mean."""
        return self.deals / max(self.variance, MIN_VARIANCE)

    @property
    def ci95(self) -> tuple[float, float]:
        """The normal 95% interval of the mean difference (as the arena's summary gives it)."""
        half = Z95 * math.sqrt(self.variance / self.deals)
        return (self.mean - half, self.mean + half)

    def to_json(self) -> dict[str, object]:
        return {
            "a": self.a,
            "b": self.b,
            "deals": self.deals,
            "mean_diff": round(self.mean, 4),
            "ci95": [round(x, 4) for x in self.ci95],
        }


@dataclass(frozen=True)
class Rating:
    """One bot's ``rating`` (game points a deal, the list's mean 0), the
    standard error ``se`` of it, and the ``deals`` of its matches."""

    bot: str
    rating: float
    se: float
    deals: int

    @property
    def ci95(self) -> tuple[float, float]:
        """The rating's 95% interval (normal)."""
        half = Z95 * self.se
        return (self.rating - half, self.rating + half)


@dataclass(frozen=True)
class Ratings:
    """The rating list, the best first, and the matches it was fitted to."""

    ratings: tuple[Rating, ...]
    matches: tuple[MatchResult, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "format": RATINGS_FORMAT,
            "anchor": "mean",
            "ratings": [
                {
                    "rank": rank,
                    "bot": rating.bot,
                    "rating": round(rating.rating, 4),
                    "se": round(rating.se, 4),
                    "ci95": [round(x, 4) for x in rating.ci95],
                    "deals": rating.deals,
                }
                for rank, rating in enumerate(self.ratings, start=1)
            ],
            "matches": [match.to_json() for match in self.matches],
        }

    def _repr_svg_(self) -> str:
        """The list as a picture, in a notebook."""
        return ratings_svg(self)


def fit(matches: Sequence[MatchResult]) -> Ratings:
    """The ratings of every bot of ``matches``, fitted to all at once
    (the module's text says how); :class:`RatingError` when no match is
    given or some bots are joined to the others by no chain of matches
    (their ratings against the others would be anything)."""
    if not matches:
        raise RatingError("no match to rate")
    bots = sorted({bot for match in matches for bot in (match.a, match.b)})
    index = {bot: i for i, bot in enumerate(bots)}
    laplacian = np.zeros((len(bots), len(bots)))
    moments = np.zeros(len(bots))
    deals = dict.fromkeys(bots, 0)
    for match in matches:
        i, j, w = index[match.a], index[match.b], match.weight
        laplacian[i, i] += w
        laplacian[j, j] += w
        laplacian[i, j] -= w
        laplacian[j, i] -= w
        moments[i] += w * match.mean
        moments[j] -= w * match.mean
        deals[match.a] += match.deals
        deals[match.b] += match.deals
    _check_joined(bots, matches)
    # The normal equations L r = m fix r up to a constant; the
    # pseudo-inverse picks the solution of mean 0 (L's null space is the
    # constant vector), and is the covariance of that solution.
    covariance = np.linalg.pinv(laplacian, hermitian=True)
    ratings = covariance @ moments
    rated = [
        Rating(bot, float(ratings[i]), math.sqrt(max(float(covariance[i, i]), 0.0)), deals[bot])
        for bot, i in index.items()
    ]
    rated.sort(key=lambda rating: (-rating.rating, rating.bot))
    return Ratings(tuple(rated), tuple(matches))


def _check_joined(bots: Sequence[str], matches: Sequence[MatchResult]) -> None:
    """Refuse bots that no chain of matches joins to the first."""
    joined = {bots[0]}
    grew = True
    while grew:
        grew = False
        for match in matches:
            if (match.a in joined) != (match.b in joined):
                joined |= {match.a, match.b}
                grew = True
    apart = [bot for bot in bots if bot not in joined]
    if apart:
        raise RatingError(f"no chain of matches joins {apart[0]} to {bots[0]}: their ratings cannot be compared")


PLOT_WIDTH: Final = 470
"""The width of the plot itself, right of the bots' names."""
CHARACTER_WIDTH: Final = 7
"""About the width of a character of the names, 12 px sans-serif."""
ROW_HEIGHT: Final = 26
AXIS_HEIGHT: Final = 40


def ratings_svg(ratings: Ratings) -> str:
    """The rating list as an SVG picture: a row a bot, the best on top,
    its rating a dot on a scale of game points a deal and its 95%
    interval a bar through it, the list's mean (0) a dashed line."""
    rows = ratings.ratings
    ends = [end for rating in rows for end in rating.ci95] + [0.0]
    low, high = min(ends), max(ends)
    margin = max(high - low, 1.0) * 0.05
    low, high = low - margin, high + margin
    # Room for the longest "rank. name" on the left, the plot right of it.
    plot_left = 30 + CHARACTER_WIDTH * max(len(f"{len(rows)}. {rating.bot}") for rating in rows)
    plot_right = plot_left + PLOT_WIDTH
    width = plot_right + 20
    height = AXIS_HEIGHT + ROW_HEIGHT * len(rows) + 30

    def x(value: float) -> float:
        return plot_left + (value - low) / (high - low) * (plot_right - plot_left)

    bottom = AXIS_HEIGHT + ROW_HEIGHT * len(rows)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        "<title>Ratings, game points a deal, with their 95% intervals</title>",
        f'<text x="{plot_left}" y="16" font-weight="bold">Rating, game points a deal (95% interval; mean 0)</text>',
    ]
    for tick in axis_ticks(low, high):
        label = f"{tick:+g}" if tick else "0"
        parts.append(
            f'<line x1="{x(tick):.1f}" y1="{AXIS_HEIGHT - 8}" x2="{x(tick):.1f}" y2="{bottom}" stroke="#ddd"/>'
            f'<text x="{x(tick):.1f}" y="{bottom + 16}" text-anchor="middle" fill="#444">{label}</text>'
        )
    parts.append(
        f'<line x1="{x(0):.1f}" y1="{AXIS_HEIGHT - 8}" x2="{x(0):.1f}" y2="{bottom}" stroke="#888"'
        ' stroke-dasharray="4 3"/>'
    )
    for row, rating in enumerate(rows):
        y = AXIS_HEIGHT + ROW_HEIGHT * row + ROW_HEIGHT / 2
        first, last = rating.ci95
        parts.append(
            f'<g class="rating" data-bot="{svg_text(rating.bot)}">'
            f"<title>{escape(rating.bot)}: {rating.rating:+.2f} ({first:+.2f} to {last:+.2f})</title>"
            f'<text x="{plot_left - 8}" y="{y + 4:.1f}" text-anchor="end">{row + 1}. {escape(rating.bot)}</text>'
            f'<line x1="{x(first):.1f}" y1="{y:.1f}" x2="{x(last):.1f}" y2="{y:.1f}" stroke="#2a5caa"'
            ' stroke-width="2"/>'
            f'<circle cx="{x(rating.rating):.1f}" cy="{y:.1f}" r="4" fill="#2a5caa"/></g>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


__all__ = [
    "MIN_VARIANCE",
    "RATINGS_FORMAT",
    "MatchResult",
    "Rating",
    "RatingError",
    "Ratings",
    "fit",
    "ratings_svg",
]
