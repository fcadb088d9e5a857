"""``kosolve odds`` and ``kosolve view`` through click's CliRunner: the
JSON's keys, the text a player reads, the same numbers for any --jobs, a
progress bar on stderr, and bad input or a view no world fits as one line,
exit 2."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from support import DOCS, EXAMPLES
from support.cli import run

from kosolve.model.cards import ALL_CARDS, SUIT_MASKS, TAROCK, hand_names
from kosolve.model.files import load_deal
from kosolve.model.game import DEALER
from kosolve.model.view import parse_view, view_of

VIEW = str(EXAMPLES / "views" / "trick4.json")
AUCTION = str(EXAMPLES / "views" / "auction.json")
PLAYED = str(EXAMPLES / "played.json")
KEYS = {"file", "format", "view", "to_move", "worlds", "exact", "samples", "mean_thirds", "p_win", "cards",
        "feasible", "contracts"}  # fmt: skip


def odds_json(*args: str, input: str | None = None) -> dict[str, Any]:
    result = run("odds", "--json", "-q", *args, input=input)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_the_json_of_an_exact_view_has_the_documented_keys() -> None:
    data = odds_json("--jobs", "1", VIEW)
    assert set(data) >= KEYS and data["file"] == VIEW and data["format"] == 1
    assert data["exact"] is True and data["worlds"] == data["samples"] == 45
    assert data["view"] == data["to_move"] == "forehand"
    assert 0 <= data["p_win"] <= 1
    assert [card["card"] for card in data["cards"]] == ["HK"]  # the only heart: he must follow
    card = data["cards"][0]
    assert card["ci95"] == [card["mean_thirds"], card["mean_thirds"]]
    assert set(data["feasible"]) == {"forehand", "dealer"}
    assert set(data["feasible"]["dealer"]) == {"pagat", "uhu", "pelikan", "quapil", "valat"}
    assert data["contracts"] == []


def test_the_numbers_are_the_same_for_one_job_and_two() -> None:
    view = run("view", PLAYED, "--seat", "dealer", "--at", "2")
    assert view.exit_code == 0, view.output
    alone = odds_json("--samples", "6", "--seed", "3", "--jobs", "1", "-", input=view.stdout)
    shared = odds_json("--samples", "6", "--seed", "3", "--jobs", "2", "-", input=view.stdout)
    assert alone["exact"] is False and alone["samples"] == 6
    assert alone == shared


def test_the_text_reads_as_a_card_player_would() -> None:
    result = run("odds", "--jobs", "1", VIEW)
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "the forehand's view; zweiblatt, declarer forehand" in text
    assert "45 worlds fit the view: every one solved, so the figures are exact." in text
    assert "Sk XXI XIX XVIII XVI XV VII VI III II" in text, "tarocks in rank order"
    assert "best mean, best odds" in text
    assert result.stderr == "", "no progress bar off a terminal"


def test_the_final_points_say_what_the_whole_points_are_and_only_when_they_differ() -> None:
    exact = run("odds", "--jobs", "1", "-q", VIEW)
    assert "  his final points: mean 38.87 (116.60 thirds)\n" in exact.stdout, "the same to two places: said once"
    view = run("view", PLAYED, "--seat", "dealer", "--at", "2")
    drawn = run("odds", "--jobs", "1", "-q", "--samples", "30", "-", input=view.stdout)
    line = next(line for line in drawn.stdout.splitlines() if "his final points" in line)
    assert line.endswith("; counted in whole points, as scored, mean 35.67"), line
    assert "rounded," not in exact.stdout + drawn.stdout


@pytest.mark.usefixtures("terminal")
def test_a_progress_bar_goes_to_stderr_on_a_terminal() -> None:
    result = run("odds", "--jobs", "1", VIEW)
    assert result.exit_code == 0, result.output
    assert "worlds" in result.stderr


def test_before_the_auction_each_contract_is_given() -> None:
    data = odds_json("--samples", "2", "--jobs", "1", AUCTION)
    assert [row["contract"] for row in data["contracts"]] == ["dreiblatt", "zweiblatt", "einblatt", "solo"]
    assert data["to_move"] is None and data["cards"] == [] and data["feasible"] is None
    assert data["exact"] is False and data["worlds"] > 10**9


def broken_view(tmp_path: Path, **changes: Any) -> str:
    data = json.loads(Path(VIEW).read_text()) | changes
    path = tmp_path / "view.json"
    path.write_text(json.dumps(data))
    return str(path)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"version": 2}, "version: unsupported version 2"),
        ({"hand": ["HK"]}, "hand: 1 card (a seat view holds the 16 cards at trick 1)"),
        ({"pile": ["DC"]}, "pile: 1 card (the pile of the declarer in a zweiblatt holds 10)"),
        ({"view": "north"}, "view: unknown seat 'north'"),
        ({"colour": 1}, "colour: unknown key"),
        ({"play": ["DK", "DC"]}, "play[1]: trick 1: DC is played by the dealer but lies in the viewer's pile"),
        ({"play": ["XI"]}, "play[0]: trick 1: XI is not in the forehand's hand (the viewer's)"),
        ({"play": ["DK", "D2", "S10", "XX", "H2", "SK"]}, "play[5]: trick 3: SK is illegal on H2"),
        # The dealer trumped S10, so he holds no spade, yet leads one (issue 19).
        (
            {"play": ["S10", "XX", "SQ"]},
            "play[2]: trick 2: SQ is played by the dealer, who showed out of spades at trick 1",
        ),
        # He showed out of hearts, yet the unseen tarocks are his for sure.
        (
            {"play": ["HK", "DQ"]},
            "play[1]: trick 1: DQ is illegal on HK: the dealer holds XX (no king, trull card or tarock lies face"
            " down in a pile) and must play a tarock",
        ),
        ({"announcements": [{"by": "dealer", "what": "pagat", "when": "after"}]}, "--defender-announcements"),
    ],
)
def test_bad_input_is_one_line_naming_the_field(tmp_path: Path, changes: dict[str, Any], message: str) -> None:
    result = run("odds", broken_view(tmp_path, **changes))
    assert result.exit_code == 2, result.output
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr and result.stdout == ""


def test_a_view_no_world_fits_says_so(tmp_path: Path) -> None:
    # Every unseen plain card seen in the dealer's pile: more than it holds.
    view = parse_view(json.loads(Path(VIEW).read_text()), VIEW)
    crowded = sorted(hand_names(ALL_CARDS & ~view.hand & ~view.pile & ~SUIT_MASKS[TAROCK]))
    result = run("odds", broken_view(tmp_path, other={"pile": crowded, "holds": []}, play=[]))
    assert result.exit_code == 2, result.output
    assert len(result.stderr.splitlines()) == 1 and result.stdout == ""
    assert "Error: " in result.stderr and "no world fits the view: the dealer's pile holds 12 cards" in result.stderr


def test_a_batch_of_views_records_an_impossible_one_and_goes_on(tmp_path: Path) -> None:
    good = json.dumps(json.loads(Path(VIEW).read_text()))
    impossible = json.dumps(json.loads(Path(VIEW).read_text()) | {"play": ["S10", "XX", "SQ", "SK"]})
    views = tmp_path / "views.jsonl"
    views.write_text(f"{impossible}\n{good}\n")
    results = tmp_path / "results.jsonl"
    args = ["batch", str(views), "-o", str(results), "--odds", "5", "--jobs", "1", "-q", "--json"]
    first = run(*args)
    assert first.exit_code == 1, first.output
    records = {
        record["line"]: record for record in map(json.loads, results.read_text().splitlines()) if "line" in record
    }
    assert "showed out of spades at trick 1" in records[1]["error"]
    assert records[2]["report"]["worlds"] == 45
    written = results.read_bytes()
    again = run(*args)  # resumed: nothing left to do, nothing stops it
    assert again.exit_code == 1, again.output
    assert results.read_bytes() == written


def test_samples_and_jobs_are_checked() -> None:
    for option in ("--samples", "--jobs"):
        result = run("odds", option, "0", VIEW)
        assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1 and option in result.stderr


def test_view_writes_what_the_player_knew() -> None:
    result = run("view", PLAYED, "--seat", "dealer", "--at", "4")
    assert result.exit_code == 0, result.output
    written = parse_view(json.loads(result.stdout), "stdout")
    assert written == view_of(load_deal(PLAYED), DEALER, 4)
    assert run("view", PLAYED, "--seat", "forehand").stdout == Path(VIEW).read_text()


@pytest.mark.parametrize("seat", ["Dealer", "DEALER", "dEaLeR"])
def test_the_seat_is_taken_in_any_letter_case_as_deal_files_take_it(seat: str) -> None:
    result = run("view", PLAYED, "--seat", seat, "--at", "4")
    assert result.exit_code == 0, result.output
    assert result.stdout == run("view", PLAYED, "--seat", "dealer", "--at", "4").stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((PLAYED, "--seat", "dealer", "--auction"), "--auction needs a deal as dealt"),
        ((PLAYED, "--seat", "dealer", "--at", "9"), "--at: 9 is beyond the play, which has 7 cards"),
        ((str(EXAMPLES / "ending.json"), "--seat", "dealer"), "a seat view starts at trick 1"),
        ((PLAYED, "--seat", "north"), "--seat"),
    ],
)
def test_view_refuses_in_one_line(args: tuple[str, ...], message: str) -> None:
    result = run("view", *args)
    assert result.exit_code == 2, result.output
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr


def documented_keys() -> set[str]:
    """The keys the JSON table of docs/odds.md describes."""
    text = (DOCS / "odds.md").read_text()
    section = text.split("## The JSON", 1)[1].split("\n## ", 1)[0]
    keys: set[str] = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            keys |= set(re.findall(r"`(\w+)`", line.split("|")[1]))
    return keys


def test_docs_describe_every_key_of_the_json() -> None:
    after = odds_json("--jobs", "1", VIEW)
    before = odds_json("--samples", "1", "--jobs", "1", AUCTION)
    # The key of the inference comes with --infer alone.
    weighted = odds_json("--jobs", "1", "--infer", "0.5", VIEW)
    assert set(after) == set(before) == set(weighted) - {"inference"}
    assert set(weighted) == documented_keys()


def test_bench_odds_adds_its_section(monkeypatch: pytest.MonkeyPatch) -> None:
    import kosolve.tools.bench_odds as bench_odds

    real = bench_odds.run_odds_bench
    monkeypatch.setattr(
        bench_odds, "run_odds_bench", lambda **kw: real(play_samples=3, auction_samples=1, jobs=(1,), **kw)
    )
    result = run(
        "bench", "--deals", "0", "--endings", "0", "--postmortems", "0", "--no-goals", "--odds", "--json", "-q"
    )
    assert result.exit_code == 0, result.output
    runs = json.loads(result.stdout)["odds"]["runs"]
    assert [(r["kind"], r["samples"], r["jobs"]) for r in runs] == [
        ("trick 1", 3, 1),
        ("trick 1 with goals", 3, 1),
        ("before the auction", 1, 1),
    ]
    text = run("bench", "--deals", "0", "--endings", "0", "--postmortems", "0", "--no-goals", "--odds", "-q")
    assert "Odds from one seat" in text.stdout and "same numbers for every job count: yes" in text.stdout


def test_a_hand_played_out_has_one_world_and_nothing_left_to_force() -> None:
    view = run("view", str(EXAMPLES / "played-out.json"), "--seat", "dealer")
    assert view.exit_code == 0, view.output
    data = odds_json("--jobs", "1", "-", input=view.stdout)
    assert data["worlds"] == 1 and data["exact"] and data["to_move"] is None
    assert data["feasible"] is None and data["cards"] == []
    text = run("odds", "-q", "--jobs", "1", "-", input=view.stdout).stdout
    assert "1 world fits the view" in text and "Can still be forced" not in text


def test_no_feasibility_leaves_the_goals_out() -> None:
    data = odds_json("--jobs", "1", "--no-feasibility", VIEW)
    assert data["feasible"] is None and data["cards"] and data["exact"]
    assert data["cards"] == odds_json("--jobs", "1", VIEW)["cards"]


@pytest.mark.parametrize(("weight", "says"), [("1", "a world counts 1 time for each"), ("0.5", "counts 0.5 times for")])
def test_the_weight_of_a_world_reads_as_a_count(weight: str, says: str) -> None:
    result = run("odds", "-q", "--jobs", "1", "--infer", weight, VIEW)
    assert result.exit_code == 0, result.output
    assert says in result.stdout
