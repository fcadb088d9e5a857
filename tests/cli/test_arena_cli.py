"""``kosolve arena`` through click's CliRunner, where its summary meets the
user: the forfeits' reasons in the text and the JSON, a bot that never
played a game through as an error (exit status 1), no progress label off a
terminal, and counts of one in the singular.  The matches themselves are
tested with the play layer (tests/play)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from support.cli import run

BROKEN_AS_DEALER = (
    "import json, sys\n"
    "seat = None\n"
    "for line in sys.stdin:\n"
    "    message = json.loads(line)\n"
    "    if message.get('notice') == 'start':\n"
    "        seat = message['seat']\n"
    "    elif 'legal' in message:\n"
    "        print('sure, the king' if seat == 'dealer' else json.dumps({'choice': 0}), flush=True)\n"
)
"""A bot that plays its first legal option as the forehand, and answers
garbage as the dealer: it forfeits half its games."""


def test_a_bot_that_never_starts_is_an_error_that_names_the_reason(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    spec = f"exec:{sys.executable} {tmp_path / 'nosuch_bot.py'}"
    result = run("arena", spec, "heuristic", "--deals", "2", "--seed", "1", "-o", str(out))
    assert result.exit_code == 1, result.output
    assert "forfeited 4 games: the bot exited with status 2" in result.stdout, "the reason in the summary"
    assert result.stderr == (
        f"Error: bot A ({spec}) forfeited all 4 games it played (the bot exited with status 2),"
        " so the match says nothing of it\n"
    )
    again = run("arena", "--summary-only", "-o", str(out), "--json")
    assert again.exit_code == 1 and again.stderr.startswith("Error: bot A (")
    summary = json.loads(again.stdout)
    assert (
        summary["a"]["forfeit_reasons"] == {"the bot exited with status 2": 4} and summary["b"]["forfeit_reasons"] == {}
    )


def test_a_bot_that_forfeits_some_games_is_no_error_and_the_summary_says_why(tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text(BROKEN_AS_DEALER, encoding="utf-8")
    spec = f"exec:{sys.executable} {script}"
    out = tmp_path / "m.jsonl"
    result = run("arena", "heuristic", spec, "--deals", "2", "--seed", "1", "-o", str(out), "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert result.stderr == "", "no error, and no progress label off a terminal"
    lines = result.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"  B {spec}:"))
    assert "2 forfeits" in lines[at]
    assert lines[at + 1].startswith("    forfeited 2 games: ") and "not JSON" in lines[at + 1]
    summary = json.loads(run("arena", "--summary-only", "-o", str(out), "--json").stdout)
    (reason, count), *others = summary["b"]["forfeit_reasons"].items()
    assert count == 2 and "not JSON" in reason and not others
    assert summary["a"]["forfeit_reasons"] == {}


def test_the_help_says_when_the_exit_status_is_1() -> None:
    text = " ".join(run("arena", "--help").stdout.split())
    assert "forfeited every game it played" in text and "exit status is 1" in text


def test_counts_of_one_are_singular(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    result = run("arena", "-q", "heuristic", "random", "--deals", "1", "--seed", "3", "-o", str(out))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "1 deal, each played twice with the seats swapped"
    assert "0 forfeits" in lines[1] and ("1 deal won" in lines[1]) != ("1 deal won" in lines[2])
    assert not any(" 1 deals" in line or " 1 forfeits" in line for line in lines)


@pytest.mark.usefixtures("terminal")
def test_a_progress_bar_goes_to_stderr_on_a_terminal(tmp_path: Path) -> None:
    result = run("arena", "heuristic", "random", "--deals", "1", "--seed", "3", "-o", str(tmp_path / "m.jsonl"))
    assert result.exit_code == 0, result.output
    assert "deals" in result.stderr
