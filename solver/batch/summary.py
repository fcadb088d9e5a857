"""The summary of a results file: how many deals, how many failed, how often
the declarer wins, his points' mean and spread, how often each
announcement was makeable, and the time.

The declarer's result is the position's (``result``, ``value.points``) for
a deal solved, the declared bid's (``declared``) for an exchange table;
makeable is read from ``feasible`` (``--feasibility``), by role, so that
the declarer's Valat of one deal and of the next count together whichever
seat declared.

>>> reports = [
...     {"declarer": "forehand", "value": {"thirds": 120, "points": 40}, "result": "won", "stats": {"ms": 20.0},
...      "feasible": {"forehand": {"valat": False, "win": True}, "dealer": {"valat": False}}},
...     {"declarer": "dealer", "value": {"thirds": 90, "points": 30}, "result": "lost", "stats": {"ms": 30.0},
...      "feasible": {"forehand": {"valat": True}, "dealer": {"valat": False, "win": False}}}]
>>> records = [{"line": 1, "report": reports[0]}, {"line": 2, "report": reports[1]},
...            {"line": 3, "error": "line 3: broken JSON"}]
>>> summary = summarise(records)
>>> summary.deals, summary.failed, summary.won, summary.points_mean, summary.points_spread
(3, 1, 0.5, 35.0, 5.0)
>>> summary.makeable["declarer"]["win"], summary.makeable["defender"]["valat"]
(0.5, 0.5)
>>> summary.solver_seconds
0.05
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

import numpy as np

from kosolve.batch.runner import BatchRun, Record
from kosolve.batch.tasks import REPORT
from kosolve.review.statistics import DD_BEST, KNEW_BEST, accuracy, best_count

SUMMARY_FORMAT: Final = 1
"""The version of :meth:`Summary.to_json` (docs/batch.md)."""
ROLES: Final = ("declarer", "defender")


@dataclass(frozen=True)
class Summary:
    """What :func:`summarise` found; None where no record says."""

    deals: int
    failed: int
    results: int
    """Records with a won or lost result (a deal with piles)."""
    won: float | None
    """The share of them the declarer wins."""
    points_mean: float | None
    points_spread: float | None
    """The standard deviation of the declarer's points."""
    points_range: tuple[int, int] | None
    makeable: dict[str, dict[str, float]] = field(default_factory=dict)
    """Role, goal: the share of the deals with an answer for it in which
    that role could force it."""
    exchange_tables: int = 0
    par_mean: float | None = None
    """The mean of the par's game points from the forehand's side."""
    reviews: int = 0
    """Played hands reviewed by what each player knew (``--review``)."""
    knew_accuracy: float | None = None
    """Of their judged cards, the share best by what the player knew ..."""
    dd_accuracy: float | None = None
    """... and the share best double dummy."""
    solver_seconds: float = 0.0
    """The value searches' time summed over the records (``stats.ms``)."""
    run: BatchRun | None = None
    """The run the summary follows; None for ``--summary-only``."""

    @property
    def answered(self) -> int:
        return self.deals - self.failed

    def to_json(self) -> dict[str, object]:
        """The JSON object of ``kosolve batch --json`` (docs/batch.md)."""
        return {
            "summary_format": SUMMARY_FORMAT,
            "deals": self.deals,
            "failed": self.failed,
            "results": self.results,
            "won": self.won,
            "lost": None if self.won is None else 1 - self.won,
            "points": None
            if self.points_mean is None or self.points_range is None
            else {
                "mean": self.points_mean,
                "spread": self.points_spread,
                "min": self.points_range[0],
                "max": self.points_range[1],
            },
            "makeable": self.makeable,
            "exchange_tables": self.exchange_tables,
            "par_forehand_mean": self.par_mean,
            "reviews": self.reviews,
            "knew_accuracy": self.knew_accuracy,
            "dd_accuracy": self.dd_accuracy,
            "solver_seconds": round(self.solver_seconds, 3),
            "run": None
            if self.run is None
            else {
                "deals": self.run.done,
                "failed": self.run.failed,
                "seconds": round(self.run.seconds, 3),
                "deals_per_second": round(self.run.rate, 3),
            },
        }


def _declarer_result(record: Mapping[str, object]) -> tuple[str | None, int | None]:
    """The declarer's result and points of a record: the position's, or the declared bid's."""
    declared = record.get("declared")
    source = declared if isinstance(declared, Mapping) else record
    value = source.get("value")
    points = value.get("points") if isinstance(value, Mapping) else source.get("points")
    result = source.get("result")
    return (result if isinstance(result, str) else None), (points if isinstance(points, int) else None)


def _makeable(records: Sequence[Record]) -> dict[str, dict[str, float]]:
    counts: dict[tuple[str, str], list[int]] = {}
    for record in records:
        feasible = record.get("feasible")
        if not isinstance(feasible, Mapping):
            continue
        for seat, goals in feasible.items():
            role = ROLES[0] if seat == record.get("declarer") else ROLES[1]
            for goal, makeable in goals.items():
                if isinstance(makeable, bool):
                    counts.setdefault((role, goal), []).append(makeable)
    return {
        role: {goal: float(np.mean(values)) for (r, goal), values in counts.items() if r == role}
        for role in ROLES
        if any(r == role for r, _ in counts)
    }


def _accuracies(records: Sequence[Record]) -> tuple[int, float | None, float | None]:
    """The reviews among ``records``, and the shares of all their judged
    cards that were best by what the player knew and double dummy (each
    player's summary pooled, :func:`~kosolve.review.statistics.accuracy`)."""
    players = [
        player
        for r in records
        if isinstance(summaries := r.get("players"), Mapping)
        for player in summaries.values()
        if isinstance(player, Mapping)
    ]
    knew = accuracy((best_count(p, KNEW_BEST), p.get("judged", 0)) for p in players)
    dd = accuracy((best_count(p, DD_BEST), p.get("judged", 0)) for p in players)
    return len(players) // 2, knew, dd


def summarise(records: Sequence[Record], run: BatchRun | None = None) -> Summary:
    """The summary of ``records`` (a results file's, :func:`~kosolve.batch.results.read_results`),
    and of the ``run`` that wrote them when there was one."""
    answered = [report for r in records if isinstance(report := r.get(REPORT), dict)]
    outcomes = [_declarer_result(r) for r in answered]
    won = np.array([result == "won" for result, _ in outcomes if result is not None], dtype=bool)
    points = np.array([p for _, p in outcomes if p is not None], dtype=np.int64)
    pars = np.array(
        [
            par["forehand_score"]
            for r in answered
            if isinstance(par := r.get("par"), Mapping) and isinstance(par.get("forehand_score"), int)
        ],
        dtype=np.int64,
    )
    ms = np.array(
        [stats["ms"] for r in answered if isinstance(stats := r.get("stats"), Mapping) and "ms" in stats],
        dtype=np.float64,
    )
    reviews, knew_accuracy, dd_accuracy = _accuracies(answered)
    return Summary(
        deals=len(records),
        failed=sum("error" in r for r in records),
        results=int(won.size),
        won=float(won.mean()) if won.size else None,
        points_mean=float(points.mean()) if points.size else None,
        points_spread=float(points.std()) if points.size else None,
        points_range=(int(points.min()), int(points.max())) if points.size else None,
        makeable=_makeable(answered),
        exchange_tables=int(pars.size),
        par_mean=float(pars.mean()) if pars.size else None,
        reviews=reviews,
        knew_accuracy=knew_accuracy,
        dd_accuracy=dd_accuracy,
        solver_seconds=float(ms.sum()) / 1000,
        run=run,
    )


__all__ = ["SUMMARY_FORMAT", "Summary", "summarise"]
