"""The tests, a folder a layer of kosolve (docs/architecture.md): model,
engine, analysis, sampling, tools, batch, web, stats and cli, and project
for what holds across them (the layering itself, the docstring examples).
What they share is the package ``support``, importable from every folder
since this file's folder is on the import path (pytest puts it there), and
the fixtures here: one conftest for all, since mypy takes two files of one
name outside packages for one module."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.cli import run

import kosolve.cli.running


@pytest.fixture
def in_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test runs in a folder of its own: files it writes by a plain name
    land there."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stderr counts as a terminal, so the commands draw their progress
    bars (CliRunner's stderr is not one); click itself still sees
    CliRunner's stream, and writes a bar's label there once."""
    monkeypatch.setattr(kosolve.cli.running, "on_terminal", lambda: True)


@pytest.fixture(scope="session")
def solved_batch(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """For the statistics tests: ``(results, deals)``, 8 realistic deals
    solved with --feasibility, made once a session."""
    folder = tmp_path_factory.mktemp("batch")
    deals, results = folder / "deals.jsonl", folder / "results.jsonl"
    deals.write_text(run("deal", "--seed", "1", "-n", "8").stdout, encoding="utf-8")
    solved = run("batch", str(deals), "-o", str(results), "--feasibility", "--jobs", "1", "-q")
    assert solved.exit_code == 0, solved.output
    return results, deals


@pytest.fixture(scope="session")
def played_match(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """For the statistics tests: a match of random against heuristic over
    6 deals, made once a session."""
    results = tmp_path_factory.mktemp("arena") / "match.jsonl"
    played = run("arena", "random", "heuristic", "--deals", "6", "--seed", "4", "-o", str(results), "--jobs", "1", "-q")
    assert played.exit_code == 0, played.output
    return results
