"""``kosolve exchange`` through click's CliRunner: the table, the par and the
declared bid's cost as JSON and text, and bad input as one line."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from support import EXAMPLES

from kosolve.analysis.report import Analyser
from kosolve.cli.main import cli
from kosolve.model.files import load_dealt_file

DEALT = str(EXAMPLES / "dealt.json")
OPEN = str(EXAMPLES / "dealt-open.json")
ROW_KEYS = {
    "declarer",
    "contract",
    "take",
    "lay_away",
    "thirds",
    "points",
    "result",
    "game_points",
    "lay_aways",
    "best_lay_aways",
}


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["exchange", *args], input=input, prog_name="kosolve")


@pytest.fixture(scope="module")
def dealt_json() -> dict[str, Any]:
    result = run("--json", "-q", DEALT)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_the_json_has_the_documented_keys(dealt_json: dict[str, Any]) -> None:
    assert dealt_json["file"] == DEALT and dealt_json["format"] == 2
    rows = dealt_json["exchange_table"]
    assert len(rows) == 24 and all(set(row) >= ROW_KEYS for row in rows)
    assert set(dealt_json["par"]) >= {"declarer", "contract", "take", "lay_away", "game_points", "forehand_score"}
    declared = dealt_json["declared"]
    assert declared["contract"] == "zweiblatt" and declared["declarer"] == "dealer"
    assert {"exchange_cost", "bid_cost"} <= set(declared)


def test_the_json_is_what_the_library_answers(dealt_json: dict[str, Any]) -> None:
    file = load_dealt_file(DEALT)
    assert file.contract is not None and file.declarer is not None and file.exchange is not None
    report = Analyser().analyse_exchange(file.dealt, declared=(file.declarer, file.contract, file.exchange))
    assert {"file": DEALT, **report.to_json()} == dealt_json


def _paths(value: object, path: str = "") -> set[str]:
    """Every key of ``value`` as docs/json.md writes it, the seat, contract
    and goal of ``makeable`` as placeholders."""
    names = ("<seat>", "<contract>", "<goal>")
    paths: set[str] = set()
    if isinstance(value, dict):
        depth = path.count(".") + 1 if path.startswith("makeable") else -1
        for key, item in value.items():
            name = names[depth - 1] if 0 < depth <= len(names) else key
            child = f"{path}.{name}" if path else name
            paths |= {child, *_paths(item, child)}
    elif isinstance(value, list):
        for item in value:
            paths |= _paths(item, f"{path}[]")
    return paths


def test_every_key_is_documented(dealt_json: dict[str, Any]) -> None:
    text = (EXAMPLES.parent / "docs" / "json.md").read_text(encoding="utf-8")
    section = text[text.index("## `kosolve exchange --json`") :]
    documented = set(re.findall(r"^\| `([^`]+)` \|", section, flags=re.MULTILINE))
    undocumented = _paths({key: value for key, value in dealt_json.items() if key not in ("file", "format")})
    assert not undocumented - documented


def test_an_open_deal_has_no_declared_bid() -> None:
    result = run("--json", "-q", OPEN)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["declared"] is None


def test_the_text_shows_the_table_the_par_and_the_cost() -> None:
    result = run(DEALT)
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "Talon exchange" in text and "Par (both bid knowing all cards" in text
    assert "Declared: zweiblatt by the dealer" in text
    assert "exchange table" in result.stderr, "a progress bar on stderr"


def test_standard_input() -> None:
    result = run("--json", "-q", "-", input=Path(OPEN).read_text())
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["file"] == "<stdin>"


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (str(EXAMPLES / "whole-deal.json"), "a play file, not a deal as dealt: kosolve "),
        (str(EXAMPLES / "missing.json"), "cannot read the file"),
        (str(EXAMPLES), "cannot read the file"),
    ],
)
def test_bad_input_is_one_line(path: str, message: str) -> None:
    result = run(path)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr


def test_a_rule_option_judges_the_file() -> None:
    result = run("--discard", "nonsense", DEALT)
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
