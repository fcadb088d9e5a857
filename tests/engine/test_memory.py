"""A table larger than the memory left is refused before a byte of it is
committed (the out-of-memory killer would end the run without a word):
one line from every command, exit status 1."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from support import EXAMPLES

from kosolve.cli.main import cli
from kosolve.engine import memory
from kosolve.engine._score import ScoreSolver
from kosolve.engine._search import Solver
from kosolve.engine._table import TableMemoryError

LEFT_MB = 100
"""The memory the tests pretend is left."""


@pytest.fixture
def little_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "available_bytes", lambda: LEFT_MB << 20)


def test_the_memory_left_is_known_here() -> None:
    left = memory.available_bytes()
    assert left is not None and left > 0


@pytest.mark.usefixtures("little_memory")
def test_a_table_larger_than_the_memory_left_is_refused() -> None:
    with pytest.raises(TableMemoryError, match=r"^a table of 128 MB is more than the 100 MB of memory available$"):
        Solver(tt_mb=128)
    with pytest.raises(TableMemoryError):
        ScoreSolver(tt_mb=256)
    assert Solver(tt_mb=64).tt_mb == 64


@pytest.mark.usefixtures("little_memory")
@pytest.mark.parametrize(
    "args",
    [
        [str(EXAMPLES / "ending.json")],
        ["exchange", str(EXAMPLES / "dealt-open.json")],
        ["odds", str(EXAMPLES / "views" / "trick4.json"), "--jobs", "1"],
        ["bench", "--deals", "1"],
        ["batch", "DEALS", "-o", "RESULTS", "--jobs", "1"],
    ],
    ids=lambda args: args[0] if not args[0].endswith(".json") else "solve",
)
def test_every_command_refuses_it_in_one_line(args: list[str], tmp_path: Path) -> None:
    deals = tmp_path / "deals.jsonl"
    deals.write_text((EXAMPLES / "ending.json").read_text().replace("\n", " ") + "\n")
    files = {"DEALS": str(deals), "RESULTS": str(tmp_path / "results.jsonl")}
    result = CliRunner().invoke(cli, [*(files.get(arg, arg) for arg in args), "--tt-mb", "1024"])
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()[-1:]
    assert line.startswith("Error: ") and line.endswith("is more than the 100 MB of memory available")
    assert "Traceback" not in result.stderr and result.stdout == ""
