"""A sequential probability ratio test on a match's deals
(docs/arena.md, "Sequential tests").

A duplicate match gives one number a deal: A's game points less B's over
the deal's two games.  The test weighs H0, "A leads by ``d0`` game points
a deal or less", against H1, "by ``d1`` or more", after every deal, and
stops the match as soon as the evidence is strong enough either way: the
deals a clear result needs, not a fixed number chosen beforehand.

The deals' differences are far from any named distribution (mostly small,
now and then a Valat or a forfeit), so the test is the generalized SPRT
that fishtest runs for continuous scores: the log-likelihood ratio of two
normal laws of means ``d0`` and ``d1`` sharing the variance estimated
from the sample itself,

    LLR = n (d1 - d0) (2 x̄ - d0 - d1) / (2 s²)

(``n`` deals, ``x̄`` their mean difference, ``s²`` their variance about
it), accepting H0 when it falls to ``log(β / (1 - α))`` and H1 when it
reaches ``log((1 - β) / α)``: Wald's bounds for the error rates α
(accepting H1 when A leads by ``d0``) and β (accepting H0 when A leads by
``d1``).

>>> test = Sprt(Hypotheses(0, 10))
>>> for x in [4, 30, -2, 25, 12, 18, 9, 22, 15, 14, 19, 11]:
...     if test.update(x).accepted:
...         break
>>> test.state.accepted, test.state.deals, round(test.state.llr, 2)
('H1', 10, 11.57)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from kosolve.model.reprs import counted

DEFAULT_ALPHA: Final = 0.05
"""The error rate α by default: H1 accepted when A leads by ``d0``."""
DEFAULT_BETA: Final = 0.05
"""The error rate β by default: H0 accepted when A leads by ``d1``."""
MIN_DEALS: Final = 10
"""Deals before the test may decide.  The LLR divides by the variance
seen so far, and a few deals that happen to agree (a run of plain games
before the first Valat) show almost none: the LLR of a handful would
swing far past either bound on nothing.  Ten deals give the variance
something to stand on and cost little in a match of hundreds."""


class SprtError(ValueError):
    """Hypotheses or error rates that make no test."""


@dataclass(frozen=True)
class Hypotheses:
    """What the test decides between: H0, A leads B by ``d0`` game points a
    deal or less, and H1, by ``d1`` or more (``d0`` < ``d1``), with the
    error rates ``alpha`` (H1 accepted when A leads by ``d0``) and
    ``beta`` (H0 accepted when A leads by ``d1``).

    >>> Hypotheses(0, 5)
    Hypotheses(d0=0, d1=5, alpha=0.05, beta=0.05)
    >>> round(Hypotheses(0, 5).lower, 4), round(Hypotheses(0, 5).upper, 4)
    (-2.9444, 2.9444)
    """

    d0: float
    d1: float
    alpha: float = DEFAULT_ALPHA
    beta: float = DEFAULT_BETA

    def __post_init__(self) -> None:
        if not (math.isfinite(self.d0) and math.isfinite(self.d1)) or self.d0 >= self.d1:
            raise SprtError(f"D0 must be below D1 (given {self.d0:g} and {self.d1:g})")
        for name, rate in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < rate < 1:
                raise SprtError(f"{name} must be between 0 and 1 (given {rate:g})")
        if self.alpha + self.beta >= 1:
            # Then log(β / (1 - α)) >= log((1 - β) / α): no LLR lies between the bounds.
            raise SprtError(f"alpha + beta must be below 1 (given {self.alpha:g} + {self.beta:g})")

    @property
    def lower(self) -> float:
        """The LLR at or below which H0 is accepted: log(β / (1 - α))."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which H1 is accepted: log((1 - β) / α)."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, deals: int, mean: float, variance: float) -> float:
        """The log-likelihood ratio of H1 to H0 after ``deals`` deals of
        this ``mean`` difference and ``variance`` about it (the sample's,
        divided by ``deals``); 0, no evidence, while the variance is 0:
        deals that all came out alike tell nothing of the spread.

        >>> Hypotheses(0, 10).llr(20, 5.0, 100.0)
        0.0
        >>> Hypotheses(0, 10).llr(20, 10.0, 100.0)
        10.0
        """
        if variance <= 0:
            return 0.0
        return deals * (self.d1 - self.d0) * (2 * mean - self.d0 - self.d1) / (2 * variance)

    def to_json(self) -> dict[str, float]:
        return {"d0": self.d0, "d1": self.d1, "alpha": self.alpha, "beta": self.beta}


@dataclass(frozen=True)
class SprtState:
    """Where a test stands after ``deals`` deals: their ``mean``
    difference, the ``llr`` and the hypothesis ``accepted`` (``"H0"``,
    ``"H1"``, or None while the test goes on)."""

    hypotheses: Hypotheses
    deals: int
    mean: float
    llr: float
    accepted: str | None

    def to_json(self) -> dict[str, object]:
        return {
            **self.hypotheses.to_json(),
            "lower": round(self.hypotheses.lower, 4),
            "upper": round(self.hypotheses.upper, 4),
            "deals": self.deals,
            "mean_diff": round(self.mean, 4),
            "llr": round(self.llr, 4),
            "accepted": self.accepted,
        }


class Sprt:
    """The test of ``hypotheses`` on a match's differences, one deal at a
    time (:meth:`update`, in the deals' order); it decides once and then
    takes no more."""

    def __init__(self, hypotheses: Hypotheses) -> None:
        self.hypotheses = hypotheses
        self._deals = 0
        self._mean = 0.0
        self._squares = 0.0
        """The sum of squared deviations from the mean (Welford's: no
        cancellation between large sums)."""
        self._state = SprtState(hypotheses, 0, 0.0, 0.0, None)

    @property
    def state(self) -> SprtState:
        """Where the test stands now."""
        return self._state

    def update(self, difference: float) -> SprtState:
        """Take the next deal's difference (A's game points less B's) and
        say where the test stands; :class:`SprtError` once it has decided."""
        if self._state.accepted is not None:
            raise SprtError(f"the test accepted {self._state.accepted} after {counted(self._state.deals, 'deal')}")
        self._deals += 1
        delta = difference - self._mean
        self._mean += delta / self._deals
        self._squares += delta * (difference - self._mean)
        llr = self.hypotheses.llr(self._deals, self._mean, self._squares / self._deals)
        accepted = None
        if self._deals >= MIN_DEALS:
            if llr <= self.hypotheses.lower:
                accepted = "H0"
            elif llr >= self.hypotheses.upper:
                accepted = "H1"
        self._state = SprtState(self.hypotheses, self._deals, self._mean, llr, accepted)
        return self._state


__all__ = ["DEFAULT_ALPHA", "DEFAULT_BETA", "MIN_DEALS", "Hypotheses", "Sprt", "SprtError", "SprtState"]
