"""``kosolve batch`` under abuse: killed, its workers die with it and its
output reaches EOF; interrupted, it stops them at once and exits 130; it
resumes only the results of its own deals and question; a second batch
cannot write the same results file; it starts no more processes than there
is work or cores; and a line too long for a deal is never held whole."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from click.testing import CliRunner, Result
from support import EXAMPLES, interruptible
from support.batches import by_key, records, sha256, write_deals

import kosolve.batch.source
from kosolve.analysis.pool import WorkerPool, default_jobs
from kosolve.analysis.report import Analyser
from kosolve.batch import runner
from kosolve.batch.source import DealSource, Entry
from kosolve.cli.errors import INTERRUPTED
from kosolve.cli.main import cli

KOSOLVE: Final = [sys.executable, "-m", "kosolve.cli"]
TOO_LARGE: Final = "line 2: more than 64 MB, too large for a deal"
SECONDS: Final = 120.0
"""The longest wait for anything here; each is far shorter when all is well."""
linux_only = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes from /proc")


def batch(*args: str) -> Result:
    return CliRunner().invoke(cli, ["batch", "--tt-mb", "8", *args])


def one_line_error(result: Result, status: int = 2) -> str:
    assert result.exit_code == status, result.output
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    return result.stderr


# --- killed and interrupted: the workers die with the batch -----------------


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid``: its children and theirs."""
    children = [int(name) for name in os.listdir("/proc") if name.isdigit() and _parent(int(name)) == pid]
    return children + [grandchild for child in children for grandchild in _descendants(child)]


def _gone(pid: int) -> bool:
    """Whether ``pid`` has ended (a zombie has: it runs nothing and holds
    no file open; reaping it is its new parent's business)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def _command_line(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode()
    except OSError:
        return ""


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], list[int], list[str]]]:
    """A batch of 40 deals on two workers, its stdout and stderr pipes,
    caught midway (3 results written): the process, the processes below
    it and the arguments that resume it.  What is left of them after the
    test is killed."""
    if default_jobs() < 2:
        pytest.skip("two workers need two cores")
    deals = tmp_path / "deals.jsonl"
    write_deals(deals, 8, 40)
    results = tmp_path / "results.jsonl"
    args = [str(deals), "-o", str(results), "--jobs", "2", "-q"]
    below: list[int] = []
    with subprocess.Popen(
        [*KOSOLVE, "batch", "--tt-mb", "8", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=interruptible,
    ) as process:
        try:
            deadline = time.monotonic() + SECONDS
            while time.monotonic() < deadline and process.poll() is None:
                if results.exists() and results.read_bytes().count(b"\n") >= 4:
                    break
                time.sleep(0.01)
            below = _descendants(process.pid)
            assert process.poll() is None, "the batch finished before it was caught"
            lines = [_command_line(pid) for pid in below]
            assert sum("spawn_main" in line for line in lines) == 2, lines
            assert sum("resource_tracker" in line for line in lines) == 1, lines
            yield process, below, args
        finally:
            for pid in [process.pid, *below]:
                if not _gone(pid):
                    os.kill(pid, signal.SIGKILL)


def _all_gone(pids: list[int]) -> list[int]:
    """Those of ``pids`` still running a few seconds on (none, if all is well)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not all(_gone(pid) for pid in pids):
        time.sleep(0.02)
    return [pid for pid in pids if not _gone(pid)]


@linux_only
def test_a_killed_batch_takes_its_workers_and_their_output_with_it(
    running: tuple[subprocess.Popen[bytes], list[int], list[str]],
) -> None:
    process, below, args = running
    process.kill()
    assert process.wait(SECONDS) == -signal.SIGKILL
    assert _all_gone(below) == []
    # Nothing holds the pipes open any more: reading them ends.
    process.communicate(timeout=10)
    assert 3 <= len(by_key(Path(args[2]))) < 40  # every line once


@linux_only
def test_sigterm_stops_the_workers_at_once_and_exits_130(
    running: tuple[subprocess.Popen[bytes], list[int], list[str]],
) -> None:
    process, below, args = running
    process.terminate()
    _, err = process.communicate(timeout=10)
    assert process.returncode == INTERRUPTED
    assert err == b"Interrupted\n"
    assert _all_gone(below) == []
    assert 3 <= len(by_key(Path(args[2]))) < 40  # every line once
    result = batch(*args)
    assert result.exit_code == 0, result.output
    assert sorted(by_key(Path(args[2]))) == list(range(1, 41))


@linux_only
def test_ctrl_c_in_a_terminal_reaches_the_workers_too_and_is_one_line(
    running: tuple[subprocess.Popen[bytes], list[int], list[str]],
) -> None:
    process, below, _ = running
    os.killpg(process.pid, signal.SIGINT)  # as a terminal sends it: to the whole group
    _, err = process.communicate(timeout=10)
    assert process.returncode == INTERRUPTED
    assert err == b"Interrupted\n"
    assert _all_gone(below) == []


@linux_only
def test_a_worker_killed_midway_is_a_one_line_failure(
    running: tuple[subprocess.Popen[bytes], list[int], list[str]],
) -> None:
    process, below, args = running
    worker = next(pid for pid in below if "spawn_main" in _command_line(pid))
    os.kill(worker, signal.SIGKILL)
    _, err = process.communicate(timeout=SECONDS)
    assert process.returncode == 1
    assert err.decode().startswith("Error: a worker process died (killed, or out of memory)")
    assert len(err.strip().splitlines()) == 1
    assert 3 <= len(by_key(Path(args[2]))) < 40  # every line once


def nap(analyser: Analyser, seconds: float) -> float:
    """A task that takes ``seconds``."""
    time.sleep(seconds)
    return seconds


def test_an_interrupted_pool_stops_its_workers_at_once() -> None:
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt), WorkerPool(jobs=2, tt_mb=1) as pool:
        for _ in pool.imap_unordered(nap, [0.0, 600.0, 600.0, 600.0]):
            raise KeyboardInterrupt
    assert time.monotonic() - start < 60
    assert multiprocessing.active_children() == []


# --- resumed: only the results of the same deals and question ---------------


@pytest.fixture
def solved(tmp_path: Path) -> tuple[Path, Path]:
    """Three deal lines and their results, by one job."""
    deals = tmp_path / "deals.jsonl"
    write_deals(deals, 3, 3)
    results = tmp_path / "results.jsonl"
    assert batch(str(deals), "-o", str(results), "--jobs", "1").exit_code == 0
    return deals, results


def test_the_results_of_other_deals_are_refused(solved: tuple[Path, Path], tmp_path: Path) -> None:
    deals, results = solved
    before = results.read_bytes()
    other = tmp_path / "other.jsonl"
    write_deals(other, 4, 5)
    error = one_line_error(batch(str(other), "-o", str(results), "--jobs", "1"))
    assert "results.jsonl: the results of other deals (line 1 of" in error
    assert "other.jsonl is not the deal solved there): give another -o" in error
    shorter = tmp_path / "shorter.jsonl"
    shorter.write_text(deals.read_text().splitlines()[0] + "\n")
    assert "(no line 2 in" in one_line_error(batch(str(shorter), "-o", str(results), "--jobs", "1"))
    assert results.read_bytes() == before


def test_deals_appended_to_the_input_resume_and_line_ends_do_not_matter(
    solved: tuple[Path, Path], tmp_path: Path
) -> None:
    deals, results = solved
    more = write_deals(tmp_path / "more.jsonl", 4, 2)
    deals.write_bytes(deals.read_bytes().replace(b"\n", b"\r\n") + "".join(f"{line}\n" for line in more).encode())
    result = batch(str(deals), "-o", str(results), "--jobs", "1", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["run"]["deals"] == 2
    assert sorted(by_key(results)) == [1, 2, 3, 4, 5]
    assert by_key(results)[5]["sha256"] == sha256(more[1])


@pytest.mark.parametrize(
    ("options", "difference"),
    [
        (["--feasibility"], "options.feasibility: false in the file, true now"),
        (["--win-thirds", "106"], "options.rules.win_thirds: 107 in the file, 106 now"),
        (["--exchange"], 'kind: "analyse" in the file, "exchange" now'),
    ],
)
def test_the_answers_to_another_question_are_refused(
    solved: tuple[Path, Path], options: list[str], difference: str
) -> None:
    deals, results = solved
    before = results.read_bytes()
    error = one_line_error(batch(str(deals), "-o", str(results), "--jobs", "1", *options))
    assert f"results.jsonl: the answers to another question ({difference}):" in error
    assert error.endswith("resume with the same options, or give another -o\n")
    assert results.read_bytes() == before


def test_the_odds_record_their_samples_and_seed(tmp_path: Path) -> None:
    view = EXAMPLES / "views" / "trick4.json"
    views = tmp_path / "views.jsonl"
    views.write_text(json.dumps(json.loads(view.read_text())) + "\n")
    results = str(tmp_path / "odds.jsonl")
    assert batch(str(views), "-o", results, "--odds", "4", "--seed", "1", "--jobs", "1").exit_code == 0
    error = one_line_error(batch(str(views), "-o", results, "--odds", "4", "--seed", "2", "--jobs", "1"))
    assert "(seed: 1 in the file, 2 now)" in error


def test_a_changed_file_of_a_folder_is_refused(solved: tuple[Path, Path], tmp_path: Path) -> None:
    deals, _ = solved
    folder = tmp_path / "deals"
    folder.mkdir()
    lines = deals.read_text().splitlines()
    for number, line in enumerate(lines[:2], start=1):
        (folder / f"deal{number}.json").write_text(line)
    results = str(tmp_path / "folder.jsonl")
    assert batch(str(folder), "-o", results, "--jobs", "1").exit_code == 0
    (folder / "deal2.json").write_text(lines[2])
    error = one_line_error(batch(str(folder), "-o", results, "--jobs", "1"))
    assert "(file deal2.json of " in error and "is not the deal solved there)" in error


def test_the_results_of_an_older_kosolve_are_refused_but_summarised(solved: tuple[Path, Path]) -> None:
    deals, results = solved
    older = [{key: value for key, value in record.items() if key != "sha256"} for record in records(results)]
    results.write_text("".join(json.dumps(record) + "\n" for record in older))
    error = one_line_error(batch(str(deals), "-o", str(results), "--jobs", "1"))
    assert "made by an older kosolve, which did not record the question and the deals it answers" in error
    summary = batch("--summary-only", "-o", str(results), "--json")
    assert summary.exit_code == 0, summary.output
    assert json.loads(summary.stdout)["deals"] == 3


@pytest.mark.parametrize("kept", [0, 10, -1], ids=["empty", "header torn", "header alone"])
def test_a_header_torn_or_alone_is_resumed(solved: tuple[Path, Path], kept: int) -> None:
    deals, results = solved
    header = results.read_bytes().splitlines(keepends=True)[0]
    results.write_bytes(header[:kept] if kept >= 0 else header)
    result = batch(str(deals), "-o", str(results), "--jobs", "1", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["deals"] == 3
    assert results.read_bytes().startswith(header)
    assert sorted(by_key(results)) == [1, 2, 3]


def test_a_file_of_one_line_that_is_no_results_is_refused_not_cut(solved: tuple[Path, Path], tmp_path: Path) -> None:
    deals, _ = solved
    notes = tmp_path / "notes.txt"
    notes.write_text("remember the milk")
    assert "notes.txt: line 1: not a result record" in one_line_error(batch(str(deals), "-o", str(notes)))
    assert notes.read_text() == "remember the milk"


# --- one writer ----------------------------------------------------------------


def test_a_second_batch_on_the_same_results_is_refused(tmp_path: Path) -> None:
    deals = tmp_path / "deals.jsonl"
    write_deals(deals, 9, 40)
    results = tmp_path / "results.jsonl"
    args = [str(deals), "-o", str(results), "--jobs", "2", "-q"]
    first = subprocess.Popen([*KOSOLVE, "batch", "--tt-mb", "8", *args], stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + SECONDS
        while not (results.exists() and results.read_bytes().count(b"\n") >= 2) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert first.poll() is None, "the first batch finished before the second started"
        error = one_line_error(batch(*args))
        assert "results.jsonl: another kosolve batch is writing it: wait for it to end, or give another -o" in error
    finally:
        _, err = first.communicate(timeout=SECONDS)
    assert first.returncode == 0, err
    assert sorted(by_key(results)) == list(range(1, 41))  # every line once


# --- no more processes than work or cores ---------------------------------------


def test_a_pool_starts_no_more_workers_than_items_or_cores() -> None:
    assert WorkerPool(jobs=1000).jobs == default_jobs()
    assert WorkerPool(jobs=1000, items=2).jobs == min(2, default_jobs())
    assert WorkerPool(jobs=1000, items=0).jobs == 1
    with WorkerPool(jobs=1000, tt_mb=1, items=5) as pool:
        assert pool.map(nap, [0.0] * 5) == [0.0] * 5
        assert len(multiprocessing.active_children()) <= default_jobs()


def test_a_batch_sizes_its_pool_by_the_deals_left(solved: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    deals, results = solved
    results.write_bytes(b"".join(results.read_bytes().splitlines(keepends=True)[:3]))  # lines 1 and 2 done
    sizes: list[int] = []

    class Spy(WorkerPool):
        def __enter__(self) -> WorkerPool:
            sizes.append(self.jobs)
            return super().__enter__()

    monkeypatch.setattr(runner, "WorkerPool", Spy)
    assert batch(str(deals), "-o", str(results), "--jobs", "1000").exit_code == 0
    assert sizes == [1]


# --- a line too long for a deal -------------------------------------------------


def test_a_line_too_long_for_a_deal_is_never_held_whole(tmp_path: Path) -> None:
    """A 70 MB line: hashed in pieces, its record an error, the deals after
    it read as usual, and never more than a few pieces in memory."""
    deals = tmp_path / "deals.jsonl"
    good = write_deals(deals, 5, 2)
    long = b'{"version": 1, "x": "' + b"x" * (70 << 20) + b'"}'
    with deals.open("wb") as file:
        file.write(f"{good[0]}\n".encode() + long + f"\n{good[1]}\n".encode())
    tracemalloc.start()
    try:
        entries = list(DealSource(str(deals)).deals())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20
    assert [entry.key for entry in entries] == [1, 2, 3]
    assert entries[1] == Entry(
        2, b"", hashlib.sha256(long).hexdigest(), "line 2: more than 64 MB, too large for a deal"
    )
    assert entries[2].text == good[1].encode()


def test_the_batch_goes_on_after_a_line_too_long(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kosolve.batch.source, "MAX_FILE_BYTES", 100)
    monkeypatch.setattr(kosolve.batch.source, "PIECE_BYTES", 16)
    deals = tmp_path / "deals.jsonl"
    deals.write_text('{"version": 1}\n' + "[" * 101 + "\n[]\n")
    result = batch(str(deals), "-o", str(tmp_path / "r.jsonl"), "--jobs", "1")
    assert result.exit_code == 1
    found = by_key(tmp_path / "r.jsonl")
    assert found[2] == {
        "line": 2,
        "sha256": sha256("[" * 101),
        "error": "line 2: more than 64 MB, too large for a deal",
    }
    assert sorted(found) == [1, 2, 3] and "error" in found[3]


LINES: Final = [b'{"a": 1}\r\n', b"   \r\n", b"\n", b'{"bb": [2, 3]}\r\r\n', b"x" * 40 + b"\n", b'{"c": 3}\r']


@pytest.mark.parametrize("piece", [1, 2, 3, 5, 8, 13])
def test_a_line_read_in_pieces_is_the_line_read_whole(
    piece: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "deals.jsonl"
    path.write_bytes(b"".join(LINES))
    whole = list(DealSource(str(path)).deals())
    assert [(entry.key, entry.text) for entry in whole] == [
        (1, b'{"a": 1}'),
        (4, b'{"bb": [2, 3]}'),
        (5, b"x" * 40),
        (6, b'{"c": 3}'),
    ]
    assert all(entry.sha256 == hashlib.sha256(entry.text).hexdigest() for entry in whole)
    monkeypatch.setattr(kosolve.batch.source, "PIECE_BYTES", piece)
    assert list(DealSource(str(path)).deals()) == whole
    assert list(DealSource(str(path)).index(hashed={5})) == [(1, None), (4, None), (5, whole[2].sha256), (6, None)]
