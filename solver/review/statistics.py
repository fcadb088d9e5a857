"""The review's figures: weighted means, the interval of a loss, and the one
definition of each accuracy, which the review, the batch's summary and the
arena all use.

A card is **best by what its player knew** when its verdict is ``best`` or
``unlucky``, and **best double dummy** when it is ``best`` or ``lucky``; a
forced card is neither, not being judged.  An accuracy is the share of
the good cards among those counted, pooled over ``(good, counted)``
tallies (a player's, a game's, a match's): the sums are divided once, so
that many small tallies weigh by their cards.

>>> accuracy([(3, 4), (1, 4)]), accuracy([(0, 0)])
(0.5, None)
>>> best_count({"best": 5, "unlucky": 1, "lucky": 2}, KNEW_BEST)
6
>>> interval([1, 2, 3, 4], [1.0] * 4, exact=False) == estimate([1, 2, 3, 4], exact=False).ci95
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from kosolve.sampling.odds import estimate, weighted_estimate

KNEW_BEST: Final = ("best", "unlucky")
"""The verdicts of a card best by what its player knew."""
DD_BEST: Final = ("best", "lucky")
"""The verdicts of a card best double dummy."""


def best_count(verdicts: Mapping[str, int], best: Sequence[str]) -> int:
    """How many cards of the ``verdicts`` counts (a player's summary, or its
    JSON) have one of the verdicts ``best`` (:data:`KNEW_BEST`,
    :data:`DD_BEST`)."""
    return sum(verdicts.get(verdict, 0) for verdict in best)


def accuracy(tallies: Iterable[Sequence[int]]) -> float | None:
    """The share of the good cards among the counted, over ``(good,
    counted)`` tallies pooled (a results file's are ``[good, counted]``
    lists); None when none was counted."""
    good = counted = 0
    for best, count in tallies:
        good, counted = good + best, counted + count
    return good / counted if counted else None


def weighted_sum(values: Iterable[float], weights: Sequence[float]) -> float:
    """The sum of ``values`` each times its weight, exactly rounded: with
    equal whole weights it is a whole number, so that sums compare
    exactly."""
    return math.fsum(weight * value for weight, value in zip(weights, values, strict=True))


def interval(values: Sequence[float], weights: Sequence[float], exact: bool) -> tuple[float, float] | None:
    """The 95% interval of the weighted mean of ``values``: the mean itself
    when ``exact``, None from less than two worlds' worth of weight.
    Unweighted (every weight 1) it is :func:`~kosolve.sampling.odds.estimate`'s,
    the usual normal interval; weighted, the same with the effective sample
    size, (sum of weights)^2 / sum of squared weights, for the count."""
    if all(weight == 1 for weight in weights):
        return estimate(values, exact).ci95
    return weighted_estimate(values, weights, exact).ci95


__all__ = ["DD_BEST", "KNEW_BEST", "accuracy", "best_count", "interval", "weighted_sum"]
