"""The review benchmark (``kosolve bench --review``): how fast a whole
played hand is judged by what each player knew (:func:`~kosolve.review.judging.review`).

Each hand is a deal as dealt from the seed by the realistic dealer
(:mod:`kosolve.dealing`), its contract and exchange chosen as the
dealer does, played out by a fair club player: the double-dummy best card
three times in four, else a legal card at random.  It is reviewed whole
(32 cards) with up to 200 worlds a card, once with each number of jobs,
timed whole with the worker processes' start; the figures of the runs
must agree.  The split says where the work lies: the worlds solved, the
nodes and the workers' time, by tricks.

>>> report = run_review_bench(hands=1, samples=2, jobs=(1,))
>>> [(t.hand, t.cards, t.jobs) for t in report.timings]
[(1, 32, 1)]
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from kosolve.analysis.solving import solve
from kosolve.dealing import deal_bid
from kosolve.model.cards import mask_of
from kosolve.model.deal import Deal
from kosolve.review.judging import Review, review

HANDS: Final = 3
SAMPLES: Final = 200
TARGET_S: Final = 30.0
"""The issue's target for one hand with 2 jobs (docs/benchmarks.md, "Review by what the player knew")."""
BEST_SHARE: Final = 0.75
"""How often the benchmark's player plays a double-dummy best card."""
SPLIT: Final = ((1, 4), (5, 8), (9, 12), (13, 16))
"""The trick ranges the split reports."""


@dataclass(frozen=True)
class SplitPart:
    """The part of a review spent on the cards of some tricks."""

    tricks: tuple[int, int]
    cards: int
    exact: int
    """The judged cards whose every world was solved."""
    worlds: int
    nodes: int
    ms: float
    """The workers' time on those worlds."""

    def to_json(self) -> dict[str, object]:
        return {"tricks": list(self.tricks), "cards": self.cards, "exact": self.exact, "worlds": self.worlds,
                "nodes": self.nodes, "ms": round(self.ms, 3)}  # fmt: skip


@dataclass(frozen=True)
class ReviewTiming:
    """One review of one hand."""

    hand: int
    contract: str
    cards: int
    jobs: int
    seconds: float
    worlds: int
    nodes: int
    split: tuple[SplitPart, ...]
    target_s: float

    def to_json(self) -> dict[str, object]:
        return {
            "hand": self.hand,
            "contract": self.contract,
            "cards": self.cards,
            "jobs": self.jobs,
            "seconds": self.seconds,
            "worlds": self.worlds,
            "nodes": self.nodes,
            "split": [part.to_json() for part in self.split],
            "target_s": self.target_s,
        }


@dataclass(frozen=True)
class ReviewBenchReport:
    """The review section of the benchmark, which the command line adds to
    :class:`~kosolve.tools.bench.BenchReport` with ``--review``."""

    seed: int
    samples: int
    timings: tuple[ReviewTiming, ...]
    agree: bool
    """Whether every figure of a hand came out the same for every job count."""

    def to_json(self) -> dict[str, object]:
        return {
            "seed": self.seed,
            "samples": self.samples,
            "agree": self.agree,
            "runs": [t.to_json() for t in self.timings],
        }

    def format(self) -> str:
        """The section of ``kosolve bench --review``."""
        lines = [
            f"Review by what the player knew (whole hands, up to {self.samples} worlds a card; wall time with the"
            " workers' start; target on 2 cores):"
        ]
        for t in self.timings:
            target = f" (target {t.target_s:g} s)" if t.target_s and t.jobs == 2 else ""
            lines.append(
                f"  hand {t.hand} ({t.contract}), {t.cards} cards, {t.jobs} job{'s' if t.jobs > 1 else ' '}:"
                f" {t.seconds:7.2f} s, {t.worlds:,} worlds, {t.nodes / 1e6:.1f}M nodes{target}"
            )
        jobs = self.timings[0].jobs
        first = [t for t in self.timings if t.jobs == jobs]
        lines.append(f"  split by tricks, all hands ({jobs} job{'s' if jobs > 1 else ''}):")
        for index, (low, high) in enumerate(SPLIT):
            parts = [t.split[index] for t in first]
            worlds, nodes = sum(p.worlds for p in parts), sum(p.nodes for p in parts)
            ms = math.fsum(p.ms for p in parts)
            exact = sum(p.exact for p in parts)
            lines.append(
                f"    tricks {low:>2}-{high:<2}: {sum(p.cards for p in parts):>3} cards judged ({exact} exact),"
                f" {worlds:>6,} worlds, {nodes / 1e6:7.1f}M nodes, {ms / 1000:6.2f} s in the workers"
            )
        lines.append(f"  same figures for every job count: {'yes' if self.agree else 'NO <-- DISAGREEMENT'}")
        return "\n".join(lines)


def played_hand(rng: random.Random) -> tuple[Deal, int]:
    """A deal as dealt with its bid and exchange, played out, and the talon
    cards the declarer took."""
    file = deal_bid(rng)
    assert file.exchange is not None
    deal, exchange = file.play_deal(), file.exchange
    position = deal.position()
    while not position.is_over():
        legal = list(position.legal_moves)
        if rng.random() < BEST_SHARE:
            moves = solve(position, with_line=False).moves
            pick = max if position.turn == deal.declarer else min
            best = pick(m.thirds for m in moves)
            legal = [m.card for m in moves if m.thirds == best]
        position.push(rng.choice(sorted(legal)))
    return replace(deal, play=tuple(position.move_stack)), mask_of(exchange.take)


def _split(result: Review) -> tuple[SplitPart, ...]:
    parts = []
    for low, high in SPLIT:
        cards = [c for c in result.cards if low <= c.trick <= high and not c.forced]
        parts.append(
            SplitPart(
                (low, high),
                len(cards),
                sum(c.exact for c in cards),
                sum(c.stats.worlds for c in cards),
                sum(c.stats.nodes for c in cards),
                math.fsum(c.stats.ms for c in cards),
            )
        )
    return tuple(parts)


def run_review_bench(
    *,
    seed: int = 1,
    hands: int = HANDS,
    samples: int = SAMPLES,
    jobs: Sequence[int] = (2, 1),
    progress: Callable[[int, int], None] | None = None,
) -> ReviewBenchReport:
    """Review ``hands`` played hands with each number of ``jobs``;
    ``progress(done, total)`` after each run."""
    rng = random.Random(seed)
    games = [played_hand(rng) for _ in range(hands)]
    timings: list[ReviewTiming] = []
    agree = True
    for number, (deal, taken) in enumerate(games, start=1):
        results: list[Review] = []
        for count in jobs:
            start = time.perf_counter()
            result = review(deal, samples=samples, seed=seed, jobs=count, taken=taken)
            seconds = time.perf_counter() - start
            results.append(result)
            timings.append(
                ReviewTiming(
                    number,
                    deal.contract,
                    len(result.cards),
                    count,
                    seconds,
                    result.stats.worlds,
                    result.stats.nodes,
                    _split(result),
                    TARGET_S,
                )
            )
            if progress is not None:
                progress(len(timings), hands * len(jobs))
        agree = agree and all(r == results[0] for r in results)
    return ReviewBenchReport(seed, samples, tuple(timings), agree)


__all__ = ["ReviewBenchReport", "ReviewTiming", "SplitPart", "played_hand", "run_review_bench"]
