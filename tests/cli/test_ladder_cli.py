"""``kosolve ladder``: the rating list as text, as JSON of its schema and
as an SVG picture, one results file a pair, a rerun that resumes and
repeats nothing, and bad input as one line, exit status 2."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from support.batches import by_key
from support.cli import run

BOTS = ("random", "heuristic", "heuristic:announce=none")


def ladder(*args: str) -> dict[str, Any]:
    result = run("ladder", "-q", "--json", *args)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_a_ladder_plays_every_pair_and_rates_the_bots(tmp_path: Path) -> None:
    folder = tmp_path / "ladder"
    data = ladder(*BOTS, "--deals", "3", "--seed", "5", "-o", str(folder), "--jobs", "1")
    assert sorted(path.name for path in folder.iterdir()) == sorted(Path(m["results"]).name for m in data["matches"])
    assert len(data["matches"]) == 3 and all(m["deals"] == 3 for m in data["matches"])
    assert [r["rank"] for r in data["ratings"]] == [1, 2, 3] and data["ratings"][-1]["bot"] == "random"
    assert sum(r["rating"] for r in data["ratings"]) == pytest.approx(0, abs=1e-3)
    assert all(r["ci95"][0] < r["rating"] < r["ci95"][1] and r["deals"] == 6 for r in data["ratings"])
    # Every match of the same deals: the pair's file is the arena's, of the same seed.
    arena = run(
        "arena", "-q", "--json", "heuristic", "random", "--deals", "3", "--seed", "5", "-o", str(tmp_path / "m.jsonl")
    )
    assert by_key(tmp_path / "m.jsonl") == by_key(folder / "heuristic-vs-random.jsonl")
    pair = next(m for m in data["matches"] if (m["a"], m["b"]) == ("heuristic", "random"))
    assert pair["mean_diff"] == json.loads(arena.stdout)["mean_diff"]


def test_the_text_and_the_picture(tmp_path: Path) -> None:
    plot = tmp_path / "ratings.svg"
    result = run("ladder", "-q", *BOTS, "--deals", "3", "--seed", "5", "-o", str(tmp_path / "l"), "--plot", str(plot))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("3 bots, 3 duplicate matches; ratings in game points a deal, their mean 0")
    assert lines[4].split()[:2] == ["3.", "random"] and "±" in lines[4] and lines[4].endswith(" 6")
    assert "heuristic - random: " in result.stdout and result.stderr == ""
    root = ET.fromstring(plot.read_text(encoding="utf-8"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert {g.get("data-bot") for g in root.iter("{http://www.w3.org/2000/svg}g")} == set(BOTS)


def test_counts_of_one_are_singular(tmp_path: Path) -> None:
    result = run("ladder", "heuristic", "random", "--deals", "2", "--seed", "5", "-o", str(tmp_path / "l"))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("2 bots, 1 duplicate match; ")
    assert result.stderr == "", "no progress label off a terminal"


def test_the_same_ladder_again_resumes_and_a_bot_added_plays_its_own(tmp_path: Path) -> None:
    folder = tmp_path / "l"
    first = ladder("random", "heuristic", "--deals", "3", "-o", str(folder), "--jobs", "1")
    played = by_key(folder / "heuristic-vs-random.jsonl")
    assert ladder("heuristic", "random", "--deals", "3", "-o", str(folder), "--jobs", "1") == first
    more = ladder(*BOTS, "--deals", "4", "-o", str(folder), "--jobs", "2")
    again = by_key(folder / "heuristic-vs-random.jsonl")
    assert {key: again[key] for key in played} == played and len(again) == 4
    # The seed drawn for the first match is its own; the new matches share one.
    seeds = {json.loads(Path(m["results"]).read_text().splitlines()[0])["question"]["seed"] for m in more["matches"]}
    assert len(seeds) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["random"], "a ladder needs at least two bots"),
        (["random", "heuristic", "random"], "'random' is given twice"),
        (["random", "alpha"], "'alpha': no bot of that name"),
        (["random", "heuristic", "--deals", "missing.jsonl"], "--deals: missing.jsonl"),
        (["random", "heuristic", "--deals", "1"], "heuristic against random: 1 deal, and a rating needs at least 2"),
        (["random", "heuristic", "--plot", "nowhere/r.svg"], "--plot nowhere/r.svg: cannot write into"),
    ],
)
def test_bad_input_is_one_line_exit_2(in_tmp_path: Path, args: list[str], message: str) -> None:
    result = run("ladder", "-q", *args, "-o", "l")
    assert result.exit_code == 2, result.output
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_an_output_that_is_a_file_is_one_line_exit_2(in_tmp_path: Path) -> None:
    Path("l").write_text("")
    result = run("ladder", "-q", "random", "heuristic", "-o", "l")
    assert result.exit_code == 2 and result.stderr.startswith("Error: -o: l: ") and len(result.stderr.splitlines()) == 1
