"""``kosolve exchange`` through click's CliRunner: the table, the par and the
declared bid's cost as JSON and text, and bad input as one line."""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from support import EXAMPLES

from kosolve.analysis.report import Analyser
from kosolve.cli.main import cli
from kosolve.model.cards import card_name, cards_of, parse_card, parse_hand
from kosolve.model.dealt import Exchange
from kosolve.model.dealt_file import DealtFile, dealt_to_json
from kosolve.model.files import load_deal, load_dealt_file
from kosolve.model.game import SEATS, parse_seat, seat_name
from kosolve.render.exchange import by_suit, render_dealt, render_exchange_report
from kosolve.render.text import Style

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
    assert dealt_json["file"] == DEALT and dealt_json["format"] == 3
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
    and goal of ``makeable`` and the seat of ``dealt`` as placeholders."""
    names = ("<seat>", "<contract>", "<goal>")
    paths: set[str] = set()
    if isinstance(value, dict):
        depth = path.count(".") + 1 if path.startswith("makeable") else -1
        for key, item in value.items():
            name = names[depth - 1] if 0 < depth <= len(names) else key
            if path == "dealt" and key != "talon":
                name = "<seat>"
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


def test_the_json_gives_the_cards_as_dealt(dealt_json: dict[str, Any]) -> None:
    file = load_dealt_file(DEALT)
    assert dealt_json["dealt"] == dealt_to_json(DealtFile(file.dealt))["dealt"]
    assert dealt_json["dealt"]["talon"] == [card_name(card) for card in file.dealt.talon]
    assert set(dealt_json["dealt"]["forehand"]) == {"hand", "personal", "discards"}


@pytest.fixture(scope="module")
def dealt_text() -> Result:
    """``kosolve exchange`` of the example (no progress bar: CliRunner's
    stderr is no terminal): one exchange table for every test that reads its text."""
    result = run(DEALT)
    assert result.exit_code == 0, result.output
    return result


def test_the_text_shows_the_cards_as_dealt_and_numbers_the_rows(dealt_json: dict[str, Any], dealt_text: Result) -> None:
    lines = dealt_text.stdout.splitlines()
    dealt = load_dealt_file(DEALT).dealt
    style = Style(unicode=True)
    start = lines.index("The deal as dealt:")
    for seat in SEATS:
        at = next(i for i, line in enumerate(lines) if line.split()[:2] == [seat_name(seat), "hand"])
        parts = (dealt.hands[seat], dealt.personal[seat], dealt.discards[seat], dealt.held(seat))
        for line, what, cards in zip(lines[at : at + 4], ("hand", "personal", "discards", "holds"), parts, strict=True):
            assert line.split(f" {what} ", 1)[1].strip() == by_suit(cards, style)
        assert at > start
    assert any(line.split()[:3] == ["talon", "top", "first"] and line.endswith("CK CC H1 S10 II S8") for line in lines)
    # Each row of the table ends with its number, N for exchange_table[N-1].
    header = next(i for i, line in enumerate(lines) if line.split()[:2] == ["declarer", "contract"])
    assert lines[header].split()[-1] == "row"
    for number, row in enumerate(dealt_json["exchange_table"], 1):
        cells = lines[header + number].split()
        assert cells[:2] == [row["declarer"], row["contract"]] and cells[-1] == str(number)


def test_a_discard_that_leaves_personal_cards_shows_those_picked_up() -> None:
    dealt = load_dealt_file(DEALT).dealt
    picked = next(iter(cards_of(dealt.personal[0])))
    left = replace(dealt, picked_up=(dealt.personal[0] & ~(1 << picked), dealt.personal[1]))
    style = Style(unicode=False)
    lines = render_dealt(left, style)
    shown = [line.split(what, 1)[1].strip() for line in lines for what in ("picked up", "holds") if what in line]
    assert shown == [by_suit(left.picked(0), style), by_suit(left.held(0), style), by_suit(left.held(1), style)]
    assert len(lines) == len(render_dealt(dealt, style)) + 1


def test_a_row_is_written_as_its_position(tmp_path: Path, dealt_json: dict[str, Any]) -> None:
    target = tmp_path / "row15.json"
    result = run("-q", DEALT, "--row", "15", "--write-position", str(target))
    assert result.exit_code == 0, result.output
    row = dealt_json["exchange_table"][14]
    written = json.loads(target.read_text(encoding="utf-8"))
    assert {"piles", "laid"} <= set(written) and written["contract"] == row["contract"]
    assert written["declarer"] == row["declarer"]
    file = load_dealt_file(DEALT)
    assert load_deal(target) == file.dealt.play_deal(row["contract"], parse_seat(row["declarer"]), exchange_of(row))
    solved = CliRunner().invoke(cli, [str(target), "-q"])
    assert solved.exit_code == 0, solved.output
    assert f"({row['thirds']} thirds)" in solved.stdout
    assert solved.stdout.startswith(f"{target}: {Style(unicode=True).points(row['thirds'])} points")


def exchange_of(row: dict[str, Any]) -> Exchange:
    return Exchange(tuple(parse_card(card) for card in row["take"]), parse_hand(row["lay_away"]))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--row", "25", "--write-position", "row.json"], "--row: 25 is not in the range 1<=x<=24"),
        (["--row", "0", "--write-position", "row.json"], "--row: 0 is not in the range 1<=x<=24"),
        (["--row", "x", "--write-position", "row.json"], "--row: 'x' is not a valid integer"),
        (
            ["--row", "3", "--write-position", "missing/row.json"],
            "--write-position missing/row.json: cannot write into",
        ),
        (["--row", "3"], "--row needs --write-position"),
        (["--write-position", "row.json"], "--write-position needs --row"),
    ],
)
def test_a_bad_row_is_one_line_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "row.json").write_text("kept", encoding="utf-8")
    result = run("-q", DEALT, *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr
    assert [(p.name, p.read_text(encoding="utf-8")) for p in tmp_path.iterdir()] == [("row.json", "kept")]


def test_a_row_never_replaces_the_file_it_reads(tmp_path: Path) -> None:
    copy = tmp_path / "dealt.json"
    copy.write_bytes(Path(DEALT).read_bytes())
    result = run("-q", str(copy), "--row", "1", "--write-position", str(copy))
    assert result.exit_code == 2 and "would replace the deal file it reads" in result.stderr
    assert copy.read_bytes() == Path(DEALT).read_bytes()


def test_a_row_is_written_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "row.json"
    target.write_text("kept", encoding="utf-8")

    def fail(source: str, destination: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    result = run("-q", DEALT, "--row", "1", "--write-position", str(target))
    assert result.exit_code == 1 and "No space left on device" in result.stderr
    assert [(p.name, p.read_text(encoding="utf-8")) for p in tmp_path.iterdir()] == [("row.json", "kept")]


def test_the_text_shows_the_table_the_par_and_the_cost(dealt_text: Result) -> None:
    text = dealt_text.stdout
    assert "Talon exchange" in text and "Par (both bid knowing all cards" in text
    assert "Declared: zweiblatt by the dealer" in text
    assert dealt_text.stderr == "", "no progress bar off a terminal"


def test_an_exchange_as_good_in_game_points_says_so_and_names_the_best(dealt_text: Result) -> None:
    # The example lays away CC C10 for 46 1/3 points; row 15 (CK CC too) lays away DJ CC for 47 1/3: +6 both.
    assert (
        "  the exchange: as good as the best of the zweiblatt in game points (+6);"
        " the table's best, row 15, makes 47⅓ points\n" in dealt_text.stdout
    )
    assert "the best exchange" not in dealt_text.stdout


def test_an_exchange_that_costs_says_how_much_and_one_in_the_singular() -> None:
    report = Analyser().analyse_exchange(load_dealt_file(DEALT))
    assert report.declared is not None
    costly = replace(report, declared=replace(report.declared, exchange_cost=1, bid_cost=1))
    text = render_exchange_report("dealt.json", costly, Style(unicode=True))
    assert "  the exchange: costs 1 game point against the best of the zweiblatt\n" in text
    assert "  the bid: costs 1 game point against par\n" in text
    best = report.table.best(report.declared.declarer, "zweiblatt")
    fine = replace(report, declared=replace(report.declared, thirds=best.thirds))
    assert "  the exchange: the best of the zweiblatt\n" in render_exchange_report("dealt.json", fine, Style(True))


def test_an_open_deal_from_the_standard_input_has_no_declared_bid() -> None:
    result = run("--json", "-q", "-", input=Path(OPEN).read_text())
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["file"] == "<stdin>" and answer["declared"] is None


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
