"""``kosolve review`` through click's CliRunner: the documented JSON, the
text a player reads, the same figures for any --jobs, and bad input (a
file without piles, an ending, --from beyond the play, a view file) as
one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support import DOCS, EXAMPLES, without_stats
from support.cli import run

PLAYED_OUT = str(EXAMPLES / "played-out.json")
PLAYED = str(EXAMPLES / "played.json")
CARD_KEYS = {"index", "trick", "seat", "card", "exact", "worlds", "samples", "seed", "moves", "best", "dd_best",
             "dd_loss_thirds", "knew_loss_thirds", "knew_loss_thirds_ci95", "verdict", "stats"}  # fmt: skip
PLAYER_KEYS = {"cards", "judged", "best", "mistake", "unlucky", "lucky", "forced", "knew_loss_thirds",
               "dd_loss_thirds", "knew_accuracy", "dd_accuracy"}  # fmt: skip


def review_json(*args: str) -> dict[str, Any]:
    result = run("review", "--json", "-q", *args)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_the_json_has_the_documented_keys() -> None:
    data = review_json("--jobs", "1", "--from", "20", PLAYED_OUT)
    assert data["file"] == PLAYED_OUT and data["format"] == 1 and data["by"] == "thirds" and data["from"] == 20
    assert [card["index"] for card in data["cards"]] == list(range(20, 32))
    for card in data["cards"]:
        assert set(card) == CARD_KEYS
        assert card["verdict"] in ("best", "mistake", "unlucky", "lucky", "forced")
        for move in card["moves"]:
            assert set(move) == {"card", "mean_thirds", "p_win", "dd_thirds"}
    assert set(data["players"]) == {"forehand", "dealer"}
    for player in data["players"].values():
        assert set(player) == PLAYER_KEYS
    assert set(data["stats"]) == {"worlds", "nodes", "ms"}


def test_the_json_keys_are_in_the_docs() -> None:
    text = (DOCS / "json.md").read_text(encoding="utf-8")
    for key in CARD_KEYS | PLAYER_KEYS | {"dd_thirds", "mean_thirds", "costliest"}:
        assert f"{key}`" in text, key


def test_the_figures_do_not_depend_on_the_jobs() -> None:
    one = review_json("--jobs", "1", "--samples", "20", "--from", "10", PLAYED_OUT)
    two = review_json("--jobs", "2", "--samples", "20", "--from", "10", PLAYED_OUT)
    assert without_stats(one) == without_stats(two)


def test_the_text_shows_both_verdicts_and_each_player() -> None:
    result = run("review", "-q", "--jobs", "1", "--from", "24", PLAYED_OUT)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{PLAYED_OUT}: dreiblatt by the dealer, 8 cards judged")
    assert any("knew loss" in line and "DD loss" in line and "verdict" in line for line in lines)
    assert "Each player:" in lines
    assert result.stderr == ""


@pytest.mark.usefixtures("terminal")
def test_a_progress_bar_goes_to_stderr_on_a_terminal() -> None:
    result = run("review", "--jobs", "1", "--from", "28", PLAYED_OUT)
    assert result.exit_code == 0 and "worlds" in result.stderr and "worlds" not in result.stdout.splitlines()[-1]


def test_no_progress_label_reaches_stderr_off_a_terminal() -> None:
    result = run("review", "--jobs", "1", "--from", "28", PLAYED_OUT)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


@pytest.mark.usefixtures("terminal")
def test_a_deal_without_play_is_one_line_with_no_bar_before_it() -> None:
    result = run("review", str(EXAMPLES / "whole-deal.json"))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"Error: {EXAMPLES / 'whole-deal.json'}: the deal has no play: there is no card to judge\n"


def without_piles(tmp_path: Path) -> str:
    data = json.loads(Path(PLAYED).read_text(encoding="utf-8"))
    del data["piles"]
    path = tmp_path / "no-piles.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--from", "7", PLAYED], "played.json: --from: 7 leaves no card to judge: the play has 7 cards"),
        ([str(EXAMPLES / "ending.json")], "ending.json: the deal starts at trick 13; a seat view starts at trick 1"),
        (
            ["--no-decisions", str(EXAMPLES / "dealt.json")],
            "dealt.json: the deal has no play: there is no card to judge",
        ),
        ([str(EXAMPLES / "views" / "trick4.json")], "trick4.json: a seat view, not a deal"),
        (["--samples", "0", PLAYED], "--samples: 0 is not in the range"),
    ],
)
def test_bad_input_is_one_line_exit_2(args: list[str], message: str) -> None:
    result = run("review", "-q", *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1 and result.stdout == ""


def test_a_file_without_piles_is_one_line_exit_2(tmp_path: Path) -> None:
    result = run("review", "-q", without_piles(tmp_path))
    assert result.exit_code == 2
    assert "no-piles.json: the deal has no piles; a seat view needs the player's pile" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_bench_review_adds_its_section(monkeypatch: pytest.MonkeyPatch) -> None:
    import kosolve.tools.bench_review as bench_review

    real = bench_review.run_review_bench
    monkeypatch.setattr(bench_review, "run_review_bench", lambda **kw: real(hands=1, samples=3, jobs=(1, 2), **kw))
    args = ["bench", "--deals", "0", "--endings", "0", "--postmortems", "0", "--no-goals", "--review", "-q"]
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    section = json.loads(result.stdout)["review"]
    assert section["agree"] is True and section["samples"] == 3
    assert [(r["hand"], r["cards"], r["jobs"]) for r in section["runs"]] == [(1, 32, 1), (1, 32, 2)]
    for run_ in section["runs"]:
        assert sum(part["worlds"] for part in run_["split"]) == run_["worlds"]
        assert sum(part["nodes"] for part in run_["split"]) == run_["nodes"]
    text = run(*args)
    assert "Review by what the player knew" in text.stdout and "same figures for every job count: yes" in text.stdout
