"""The odds benchmark (``kosolve bench --odds``): how fast the odds from
one seat come, on realistic views, with one job and with two.

Two views are timed, each dealt from the seed by the realistic dealer
(:mod:`kosolve.dealing`): the forehand's view at trick 1 of a deal
as dealt (he leads, so every legal card is valued in every world), without
and with the birds and the Valat of both players, and the forehand's view
before the auction of another (every contract, each world with its best
exchange).  Each run is timed whole, the worker
processes' start included, and the numbers of the runs must agree.

>>> report = run_odds_bench(play_samples=4, auction_samples=1, jobs=(1,))
>>> [(t.kind, t.samples, t.jobs) for t in report.timings]
[('trick 1', 4, 1), ('trick 1 with goals', 4, 1), ('before the auction', 1, 1)]
"""

from __future__ import annotations

import random
import resource
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from kosolve.dealing import deal_as_dealt, deal_bid
from kosolve.model.cards import mask_of
from kosolve.model.game import FOREHAND
from kosolve.model.view import SeatView, auction_view, view_of
from kosolve.sampling.odds import Odds, odds
from kosolve.sampling.worlds import world_space

PLAY_SAMPLES: Final = 1000
AUCTION_SAMPLES: Final = 200
PLAY_TARGET_S: Final = 10.0
"""The issue's targets on the 2 cores here (docs/benchmarks.md, "Odds from one seat")."""
AUCTION_TARGET_S: Final = 60.0


@dataclass(frozen=True)
class OddsTiming:
    """One run of :func:`~kosolve.sampling.odds.odds`."""

    kind: str
    samples: int
    """The worlds solved (every world, when fewer fit the view)."""
    worlds: int
    jobs: int
    seconds: float
    cpu_seconds: float
    """The processor time of this process and its workers: what the run
    cost, whatever else the machine was doing."""
    target_s: float
    """The issue's target for this run (0: none)."""

    @property
    def samples_per_second(self) -> float:
        return self.samples / self.seconds if self.seconds > 0 else 0.0

    @property
    def samples_per_cpu_second(self) -> float:
        return self.samples / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "samples": self.samples,
            "worlds": self.worlds,
            "jobs": self.jobs,
            "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
            "samples_per_second": self.samples_per_second,
            "samples_per_cpu_second": self.samples_per_cpu_second,
            "target_s": self.target_s,
        }


@dataclass(frozen=True)
class OddsBenchReport:
    """The odds section of the benchmark, which the command line adds to
    :class:`~kosolve.tools.bench.BenchReport` with ``--odds``."""

    seed: int
    timings: tuple[OddsTiming, ...]
    agree: bool
    """Whether every number of a view came out the same for every job count."""

    def to_json(self) -> dict[str, object]:
        return {"seed": self.seed, "agree": self.agree, "runs": [t.to_json() for t in self.timings]}

    def format(self) -> str:
        """The section of ``kosolve bench --odds``.

        >>> text = OddsBenchReport(1, (OddsTiming("trick 1", 10, 20, 2, 2.0, 4.0, 10.0),), True).format()
        >>> print(text.splitlines()[1].split(":", 1)[1])
             2.00 s, 5.0 samples/s; cpu 4.00 s, 2.5 samples/cpu-s (target 10 s)
        """
        lines = [
            "Odds from one seat (samples solved; wall time with the workers' start, and processor time;"
            " target on 2 cores):"
        ]
        for t in self.timings:
            lines.append(
                f"  {t.kind:18}{t.samples:>6} of {t.worlds:>11,} worlds, {t.jobs} job{'s' if t.jobs > 1 else ' '}:"
                f" {t.seconds:8.2f} s, {t.samples_per_second:.1f} samples/s;"
                f" cpu {t.cpu_seconds:.2f} s, {t.samples_per_cpu_second:.1f} samples/cpu-s"
                + (f" (target {t.target_s:g} s)" if t.target_s else "")
            )
        lines.append(f"  same numbers for every job count: {'yes' if self.agree else 'NO <-- DISAGREEMENT'}")
        return "\n".join(lines)


def play_view(rng: random.Random, samples: int) -> SeatView:
    """The forehand's view at trick 1 of the first deal as dealt from
    ``rng`` that leaves him at least ``samples`` worlds (so that the run
    samples rather than enumerates)."""
    while True:
        file = deal_bid(rng)
        assert file.exchange is not None
        view = view_of(file.play_deal(), FOREHAND, taken=mask_of(file.exchange.take))
        if world_space(view).worlds >= samples:
            return view


def _cpu_seconds() -> float:
    """This process's processor time and that of its finished children
    (the pool's workers, once it has stopped them)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def run_odds_bench(
    *,
    seed: int = 1,
    play_samples: int = PLAY_SAMPLES,
    auction_samples: int = AUCTION_SAMPLES,
    jobs: Sequence[int] = (1, 2),
    progress: Callable[[int, int], None] | None = None,
) -> OddsBenchReport:
    """Time the odds of both views with each number of ``jobs``;
    ``progress(done, total)`` after each run."""
    rng = random.Random(seed)
    trick1 = play_view(rng, play_samples)
    views = [
        ("trick 1", trick1, play_samples, False, PLAY_TARGET_S),
        ("trick 1 with goals", trick1, play_samples, True, 0.0),
        ("before the auction", auction_view(deal_as_dealt(rng), FOREHAND), auction_samples, False, AUCTION_TARGET_S),
    ]
    timings: list[OddsTiming] = []
    agree = True
    total = len(views) * len(jobs)
    for kind, view, samples, goals, target in views:
        results: list[Odds] = []
        for count in jobs:
            start, cpu = time.perf_counter(), _cpu_seconds()
            result = odds(view, samples, seed, count, feasibility=goals)
            seconds, cpu = time.perf_counter() - start, _cpu_seconds() - cpu
            results.append(result)
            timings.append(OddsTiming(kind, result.samples, result.worlds, count, seconds, cpu, target))
            if progress is not None:
                progress(len(timings), total)
        agree = agree and all(r == results[0] for r in results)
    return OddsBenchReport(seed, tuple(timings), agree)


__all__ = ["OddsBenchReport", "OddsTiming", "run_odds_bench"]
