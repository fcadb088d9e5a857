"""What the report says, in text and JSON: output a player can trust."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from kosolve.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), prog_name="kosolve")


@pytest.fixture(autouse=True)
def in_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def example(name: str) -> str:
    return str(EXAMPLES / name)


def test_no_deprecation_warnings_from_click() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        result = run(example("played.json"))
    assert result.exit_code == 0, result.output


def test_click_is_pinned_below_its_next_major() -> None:
    # tomllib is Python 3.11+; the dependency line is enough to read.
    assert '"click>=8.2,<9"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
