"""A ladder: the round robin of duplicate matches between several bots,
and their rating list (docs/arena.md, "Ladder").

Every pair of bots plays a duplicate match (:mod:`kosolve.play.arena`)
into a results file of its own in the ladder's folder, named after the
pair, so that the same ladder again resumes every match, and a bot added
later plays only its own matches.  The ratings are fitted to all the
matches at once (:func:`kosolve.play.rating.fit`).

>>> round_robin(["random", "pimc", "heuristic"])
[('pimc', 'random'), ('heuristic', 'random'), ('heuristic', 'pimc')]
>>> pair_path("ladder", "heuristic", "pimc:samples=20").name
'heuristic-vs-pimc_samples=20-8abc5d31.jsonl'
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from kosolve.analysis.solving import DEFAULT_BUDGET_MB
from kosolve.batch.cluster import DEFAULT_CHUNK
from kosolve.batch.results import read_results
from kosolve.model.dealt import Dealt
from kosolve.play.arena import Match, deal_records, deals_to_play, run_match
from kosolve.play.rating import MatchResult, Ratings, fit

NAME_LENGTH: Final = 40
"""The most characters of a bot's spec a file name keeps."""
_UNSAFE: Final = re.compile(r"[^A-Za-z0-9.=,+-]+")
"""What a file name does not keep of a spec: the path separators, the
colon Windows refuses, spaces and quotes an ``exec:`` spec holds."""


def round_robin(bots: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair of ``bots`` once, in the order given, each pair's bots in
    alphabetical order: the same pair is the same match, and the same
    file, whichever order the bots are given in."""
    return [(min(a, b), max(a, b)) for j, b in enumerate(bots) for a in bots[:j]]


def _file_name(spec: str) -> str:
    """A bot's spec as part of a file name: itself when it is short and
    safe, else what is safe of it and a digest of the whole, so that two
    specs never share a name."""
    safe = _UNSAFE.sub("_", spec)
    if safe == spec and len(spec) <= NAME_LENGTH:
        return spec
    return f"{safe[:NAME_LENGTH]}-{hashlib.sha256(spec.encode()).hexdigest()[:8]}"


def pair_path(folder: str | Path, a: str, b: str) -> Path:
    """The results file of the match between ``a`` and ``b`` in ``folder``."""
    return Path(folder) / f"{_file_name(a)}-vs-{_file_name(b)}.jsonl"


@dataclass(frozen=True)
class Rung:
    """One match of a ladder: the match, its deals and its results file."""

    match: Match
    deals: Sequence[Dealt]
    results: str


def play_ladder(
    rungs: Sequence[Rung],
    *,
    jobs: int | None = None,
    dask: str | None = None,
    chunk: int = DEFAULT_CHUNK,
    tt_mb: float = DEFAULT_BUDGET_MB,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """Play every match of the ladder, one after the other, each on
    ``jobs`` processes or the Dask cluster at ``dask`` (as
    :func:`~kosolve.play.arena.run_match` plays one), resuming each from
    its file; ``progress`` counts the deals of the whole ladder.  Every
    file is checked before any deal is played: a results file that cannot
    be resumed raises :class:`~kosolve.batch.results.ResultsError`."""
    totals = [deals_to_play(rung.match, rung.deals, rung.results) for rung in rungs]
    before = 0
    for rung, total in zip(rungs, totals, strict=True):
        moved = None if progress is None else functools.partial(_moved, progress, before, sum(totals))
        run_match(rung.match, rung.deals, rung.results, jobs=jobs, dask=dask, chunk=chunk, tt_mb=tt_mb, progress=moved)
        before += total


def _moved(progress: Callable[[int, int], None], before: int, total: int, done: int, _: int) -> None:
    """A match's progress as the ladder's: the deals of the matches before it added."""
    progress(before + done, total)


def rate(rungs: Sequence[Rung]) -> Ratings:
    """The rating list of the ladder's matches, from their results files
    (:class:`~kosolve.play.rating.RatingError` when a match has fewer
    than two deals)."""
    results = []
    for rung in rungs:
        differences = [deal.difference for deal in deal_records(read_results(rung.results)).values()]
        results.append(MatchResult.of(rung.match.a, rung.match.b, differences))
    return fit(results)


__all__ = ["Rung", "pair_path", "play_ladder", "rate", "round_robin"]
