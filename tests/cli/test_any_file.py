"""``kosolve FILE...`` answers each file with what fits it (a play, a deal
as dealt without a bid, a seat view), and a file given to a command that
does not read its kind is refused with the command that does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support import EXAMPLES
from support.cli import run

from kosolve.model.game import CONTRACTS

EVERY_EXAMPLE = sorted(EXAMPLES.glob("*.json")) + sorted(EXAMPLES.glob("views/*.json"))


def test_every_example_gets_one_json_object() -> None:
    # Few worlds of the view before the auction: each is a whole exchange table.
    result = run("--json", "-q", "--tt-mb", "16", "--samples", "6", "--seed", "3", *map(str, EVERY_EXAMPLE))
    assert result.exit_code == 0, result.output
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [answer["file"] for answer in answers] == list(map(str, EVERY_EXAMPLE))
    by_name = {Path(answer["file"]).name: answer for answer in answers}
    assert "exchange_table" in by_name["dealt-open.json"] and "par" in by_name["dealt-open.json"]
    assert by_name["dealt.json"]["contract"] == "zweiblatt" and "value" in by_name["dealt.json"]
    assert by_name["trick4.json"]["worlds"] == 45 and by_name["trick4.json"]["samples"] == 6
    assert [c["contract"] for c in by_name["auction.json"]["contracts"]] == list(CONTRACTS)
    assert by_name["auction.json"]["samples"] == 6 and by_name["auction.json"]["seed"] == 3
    assert result.stderr == ""


@pytest.mark.slow
def test_the_text_answers_each_kind_as_its_own_command_does() -> None:
    open_deal, view = str(EXAMPLES / "dealt-open.json"), str(EXAMPLES / "views" / "trick4.json")
    both = run("--tt-mb", "16", open_deal, view)
    assert both.exit_code == 0, both.output
    exchange, odds = run("exchange", "-q", "--tt-mb", "16", open_deal), run("odds", "-q", "--tt-mb", "16", view)
    # The same text but for the search's time, which the exchange prints last.
    assert exchange.stdout.rsplit("\nSearch:", 1)[0] in both.stdout
    assert odds.stdout in both.stdout


@pytest.mark.parametrize(
    ("command", "file", "message"),
    [
        ("exchange", "played.json", "a play file, not a deal as dealt: kosolve {path} answers it"),
        ("exchange", "views/trick4.json", "a seat view, not a deal as dealt: kosolve odds {path} answers it"),
        ("odds", "played.json", "a play file, not a seat view: kosolve {path} answers it, kosolve view {path}"),
        ("odds", "dealt-open.json", "a deal as dealt, not a seat view: kosolve exchange {path} answers it"),
        ("report", "views/trick4.json", "a seat view, not a deal: kosolve odds {path} answers it"),
        ("report", "dealt-open.json", None),
        ("view", "views/trick4.json", "a seat view, not a deal: kosolve odds {path} answers it"),
    ],
)
def test_a_file_given_to_the_wrong_command_names_the_right_one(
    command: str, file: str, message: str | None, tmp_path: Path
) -> None:
    path = str(EXAMPLES / file)
    extra = {"report": ["-o", str(tmp_path / "r.html"), "-q"], "view": ["--seat", "dealer"]}.get(command, [])
    result = run(command, path, *extra)
    if message is None:
        assert result.exit_code == 0, result.output  # a report shows a deal as dealt's table
        return
    assert result.exit_code == 2, result.output
    assert (
        result.stderr
        == f"Error: {path}: {message.format(path=path)}" + result.stderr.split(message.format(path=path))[1]
    )
    assert len(result.stderr.splitlines()) == 1 and result.stdout == ""


def test_a_file_without_a_play_refuses_the_options_about_one() -> None:
    view = str(EXAMPLES / "views" / "trick4.json")
    for option in (["--at", "2"], ["--score"], ["--write-position", "x.json"]):
        result = run(*option, view)
        assert result.exit_code == 2, result.output
        assert result.stderr == f"Error: {view}: a seat view, answered without a play: {option[0]} needs one\n"


def test_deal_lines_on_the_standard_input_point_to_batch() -> None:
    lines = run("deal", "--seed", "1", "-n", "3").stdout
    result = run("-", input=lines)
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: <stdin>: line 2, column 1: broken JSON: Extra data"
        " (one deal a file; deal lines, one deal a line, are for kosolve batch FILE|- -o RESULTS.jsonl)\n"
    )


def test_batch_reads_the_standard_input(tmp_path: Path) -> None:
    lines = run("deal", "--seed", "3", "-n", "3").stdout
    results = tmp_path / "results.jsonl"
    # A real pipe, as from a shell.
    batch = [sys.executable, "-m", "kosolve.cli", "batch", "-", "-o", str(results), "--jobs", "1", "-q", "--json"]
    done = subprocess.run(batch, input=lines.encode(), capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert sorted(record["line"] for record in records if "line" in record) == [1, 2, 3]
    assert json.loads(done.stdout)["deals"] == 3
    again = subprocess.run(batch, input=lines.encode(), capture_output=True, timeout=120)
    assert again.returncode == 0 and results.read_text().count("\n") == len(records)
    other = subprocess.run(batch, input=run("deal", "--seed", "4", "-n", "3").stdout.encode(), capture_output=True)
    assert other.returncode == 2
    assert b"line 1 of <stdin> is not the deal solved there" in other.stderr
