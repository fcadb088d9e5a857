"""``kosolve batch --dask`` on a local cluster of two worker processes: the
results equal the local batch's, each worker keeps one analyser, and a
batch killed midway and resumed against the cluster loses and repeats
nothing.  Skipped without the optional ``distributed`` package
(``pip install "kosolve[dask]"``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from support.batches import by_key, kill_midway, write_deals

import kosolve.batch.cluster
from kosolve.cli.main import cli

distributed = pytest.importorskip("distributed")

DEALS = 24


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None, scheduler_port=0
    ) as local:
        yield local


def batch(*args: str) -> Result:
    return CliRunner().invoke(cli, ["batch", "--tt-mb", "8", *args])


def _analysers() -> int:
    from kosolve.analysis import pool

    return len(pool._WORKER)


def test_the_cluster_gives_the_local_results_with_one_analyser_a_worker(cluster: Any, tmp_path: Path) -> None:
    deals = tmp_path / "deals.jsonl"
    write_deals(deals, 12, DEALS)
    local = batch(str(deals), "-o", str(tmp_path / "local.jsonl"), "--jobs", "1")
    assert local.exit_code == 0, local.output
    remote = batch(str(deals), "-o", str(tmp_path / "dask.jsonl"), "--dask", cluster.scheduler_address, "--chunk", "3")
    assert remote.exit_code == 0, remote.output
    assert by_key(tmp_path / "dask.jsonl") == by_key(tmp_path / "local.jsonl")
    with distributed.Client(cluster.scheduler_address) as client:
        assert set(client.run(_analysers).values()) == {1}


@pytest.mark.slow
def test_a_batch_killed_midway_resumes_on_the_cluster(cluster: Any, tmp_path: Path) -> None:
    deals = tmp_path / "deals.jsonl"
    write_deals(deals, 13, 80)
    results = tmp_path / "results.jsonl"
    args = ["batch", str(deals), "-o", str(results), "--dask", cluster.scheduler_address, "--chunk", "2", "-q"]
    written, _ = kill_midway([*args, "--tt-mb", "8"], results, least_lines=6)
    assert 6 <= written < 80, "the batch finished before it was killed"
    kept = results.read_bytes()
    kept = kept[: kept.rfind(b"\n") + 1]
    result = batch(*args[1:])
    assert result.exit_code == 0, result.output
    assert results.read_bytes().startswith(kept)
    assert sorted(by_key(results)) == list(range(1, 81))


def test_an_unreachable_scheduler_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kosolve.batch.cluster, "CONNECT_SECONDS", 1)
    deals = tmp_path / "deals.jsonl"
    write_deals(deals, 1, 1)
    result = CliRunner().invoke(
        cli, ["batch", str(deals), "-o", str(tmp_path / "r.jsonl"), "--dask", "tcp://127.0.0.1:9", "--chunk", "1"]
    )
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "r.jsonl").exists()
