"""The worker pool: the same results for one job and for two, in item
order, and every item once."""

from __future__ import annotations

import random

import pytest

from kosolve.analysis.pool import JobsError, WorkerPool, worker_analyser
from kosolve.analysis.report import Analyser, Options
from kosolve.dealing import random_ending
from kosolve.model.deal import Deal


def value_of(analyser: Analyser, deal: Deal) -> int:
    """A task: the declarer's final thirds of an ending."""
    return analyser.analyse(deal, Options.value_only()).solution.thirds


def pid_of(analyser: Analyser, item: int) -> tuple[int, int]:
    """A task: the item and the worker's analyser, by identity."""
    return item, id(analyser)


ENDINGS = [random_ending(random.Random(seed), 5) for seed in range(12)]


def test_one_job_and_two_give_the_same_values_in_item_order() -> None:
    with WorkerPool(jobs=1, tt_mb=1) as pool:
        alone = pool.map(value_of, ENDINGS)
    with WorkerPool(jobs=2, tt_mb=1) as pool:
        shared = pool.map(value_of, ENDINGS)
    fresh = [value_of(Analyser(tt_mb=1), deal) for deal in ENDINGS]
    assert alone == shared == fresh


def test_every_item_comes_back_once_with_its_index() -> None:
    with WorkerPool(jobs=2, tt_mb=1) as pool:
        seen = list(pool.imap_unordered(pid_of, iter(range(30))))
    assert sorted(index for index, _ in seen) == list(range(30))
    assert all(index == item for index, (item, _) in seen)


def test_a_worker_keeps_one_analyser() -> None:
    assert worker_analyser(1) is worker_analyser(1)
    with WorkerPool(jobs=1, tt_mb=1) as pool:
        analysers = {analyser for _, analyser in pool.map(pid_of, range(5))}
    assert len(analysers) == 1


def test_a_pool_needs_a_job() -> None:
    with pytest.raises(JobsError, match="at least 1"):
        WorkerPool(jobs=0)
