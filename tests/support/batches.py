"""What the batch tests share: deal lines, the results read back, the
results without what depends on the run (times, node counts with warm
tables), and a batch killed midway."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from kosolve.cli.main import cli
from support import interruptible, without_stats
from support.schemas import check_results


def write_deals(path: Path, seed: int, count: int, *extra: str) -> list[str]:
    """``count`` deals of ``seed`` from ``kosolve deal``, written to ``path``."""
    result = CliRunner().invoke(cli, ["deal", "--seed", str(seed), "-n", str(count), *extra])
    assert result.exit_code == 0, result.output
    path.write_text(result.stdout)
    return result.stdout.splitlines()


def sha256(text: str) -> str:
    """The digest a result record keeps of its deal."""
    return hashlib.sha256(text.encode()).hexdigest()


def records(path: Path) -> list[dict[str, Any]]:
    """The records of a results file, its header left out."""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0].keys() == {"batch_format", "question"}, "a results file starts with its header"
    check_results(lines)
    return lines[1:]


def by_key(path: Path, field: str = "line") -> dict[Any, Any]:
    """The steady records by deal key; a key twice fails."""
    found: dict[Any, Any] = {}
    for record in records(path):
        key = record[field]
        assert key not in found, f"{field} {key} written twice"
        found[key] = without_stats(record)
    return found


def kill_midway(
    args: list[str], results: Path, least_lines: int, timeout: float = 120.0, how: signal.Signals = signal.SIGKILL
) -> tuple[int, int | None]:
    """Run ``kosolve`` with ``args`` in a process group of its own and kill
    it (``how``: SIGKILL, the whole group; SIGINT, as Ctrl-C, the command
    alone) once ``results`` has ``least_lines`` lines; the number of
    complete lines it had then, and its exit status (None if killed)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "kosolve.cli", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=interruptible,
    )
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline and process.poll() is None:
            if results.exists() and results.read_bytes().count(b"\n") >= least_lines:
                break
            time.sleep(0.01)
    finally:
        if process.poll() is None:
            if how == signal.SIGKILL:
                os.killpg(process.pid, how)
            else:
                process.send_signal(how)
        status = process.wait(timeout)
    return results.read_bytes().count(b"\n"), None if status == -signal.SIGKILL else status
