"""``kosolve arena --dask`` on a local cluster of two worker processes: the
same records as the match played here.  Skipped without the optional
``distributed`` package (``pip install "kosolve[dask]"``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.batches import by_key
from support.cli import run

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None, scheduler_port=0
    ) as local:
        yield local


def test_the_cluster_plays_the_match_played_here(cluster: Any, tmp_path: Path) -> None:
    args = ["arena", "heuristic", "random", "--deals", "6", "--seed", "3", "-q", "--tt-mb", "8"]
    here = run(*args, "-o", str(tmp_path / "here.jsonl"), "--jobs", "1")
    assert here.exit_code == 0, here.output
    there = run(*args, "-o", str(tmp_path / "dask.jsonl"), "--dask", cluster.scheduler_address, "--chunk", "2")
    assert there.exit_code == 0, there.output
    assert by_key(tmp_path / "dask.jsonl") == by_key(tmp_path / "here.jsonl")
    assert there.stdout == here.stdout


def test_jobs_and_dask_together_are_refused(tmp_path: Path) -> None:
    result = run("arena", "random", "random", "-o", str(tmp_path / "m.jsonl"), "--jobs", "1", "--dask", "tcp://x:1")
    assert result.exit_code == 2 and "give one" in result.stderr
