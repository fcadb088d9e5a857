"""The command line as a Unix tool: a reader that stops early (``kosolve
deal | head``) ends kosolve quietly with exit status 0, and SIGTERM stops
it as Ctrl-C does, with exit status 130."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from kosolve.cli.errors import INTERRUPTED

KOSOLVE = [sys.executable, "-m", "kosolve.cli"]


def test_a_reader_that_stops_early_is_no_failure() -> None:
    deal = subprocess.Popen(
        [*KOSOLVE, "deal", "--seed", "1", "-n", "20000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert deal.stdout is not None and deal.stderr is not None
    first = deal.stdout.readline()
    deal.stdout.close()
    assert deal.wait(timeout=60) == 0
    assert first.startswith(b'{"version": 1')
    assert deal.stderr.read() == b""


def test_sigterm_stops_kosolve_as_ctrl_c_does() -> None:
    bench = subprocess.Popen(
        [*KOSOLVE, "bench", "--deals", "100000", "-q", "--threads", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    time.sleep(3)
    bench.send_signal(signal.SIGTERM)
    _, err = bench.communicate(timeout=60)
    assert bench.returncode == INTERRUPTED
    assert err.decode().strip().splitlines() == ["Interrupted"]
