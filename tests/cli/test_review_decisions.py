"""``kosolve review`` of a deal as dealt with its play: the decisions before
the play in the documented JSON (before the cards), in the text before
the card table with each player's losses by phase, the same figures for
any --jobs, --no-decisions, and bad input as one line, exit 2."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from support import DOCS, EXAMPLES, without_stats
from support.cli import run

from kosolve.dealing import deal_as_dealt
from kosolve.model.dealt_file import dealt_to_json
from kosolve.play.game import Game

DECISION_KEYS = {"index", "kind", "phase", "seat", "round", "about", "choice", "options", "best", "dd_best", "worlds",
                 "samples", "exact", "seed", "verdict", "knew_loss_points", "knew_loss_points_ci95", "dd_loss_points",
                 "stats"}  # fmt: skip
OPTION_KEYS = {"option", "mean_points", "ci95", "dd_points"}
PHASE_KEYS = {"decisions", "judged", "knew_loss", "dd_loss"}
FAST = ("-q", "--samples", "2", "--from", "28", "--decision-samples", "2")


@functools.cache
def game() -> Game:
    """A Dreiblatt of the forehand with a Pagat announced before the talon,
    played with random legal cards."""
    rng = random.Random(3)
    played = Game(deal_as_dealt(random.Random(3)))
    while not played.over:
        decision = played.decision()
        options = decision.options
        if decision.kind == "bid":
            choice = options.index("dreiblatt") if "dreiblatt" in options else options.index("pass")
        elif decision.kind == "announce" and "pagat" in options:
            choice = options.index("pagat")
        elif decision.kind == "play":
            choice = rng.randrange(len(options))
        else:
            choice = 0
        played.choose(choice)
    return played


@pytest.fixture
def dealt_game(tmp_path: Path) -> str:
    file = game().dealt_file
    assert file is not None
    path = tmp_path / "dealt-game.json"
    path.write_text(json.dumps(dealt_to_json(file)), encoding="utf-8")
    return str(path)


def review_json(*args: str) -> dict[str, Any]:
    result = run("review", "--json", *args)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_the_decisions_come_before_the_cards_with_the_documented_keys(dealt_game: str) -> None:
    data = review_json(*FAST, "--jobs", "1", dealt_game)
    keys = list(data)
    assert keys.index("decisions") < keys.index("cards") and data["decision_samples"] == 2
    kinds = [(d["kind"], d["round"]) for d in data["decisions"]]
    assert kinds == [("bid", None), ("announce", "before"), ("take", None), ("lay_away", None), ("announce", "after")]
    assert [d["index"] for d in data["decisions"]] == list(range(5))
    for decision in data["decisions"]:
        assert set(decision) == DECISION_KEYS
        assert decision["choice"] in [o["option"] for o in decision["options"]]
        assert decision["verdict"] in ("best", "mistake", "unlucky", "lucky", "forced")
        for option in decision["options"]:
            assert set(option) == OPTION_KEYS
    assert data["decisions"][0]["choice"] == "dreiblatt" and data["decisions"][1]["choice"] == "pagat"
    for player in data["players"].values():
        assert set(player["phases"]) == {"auction", "exchange", "announcements", "play"}
        for phase in player["phases"].values():
            assert set(phase) == PHASE_KEYS


def test_the_decision_keys_are_in_the_docs() -> None:
    text = (DOCS / "json.md").read_text(encoding="utf-8")
    for key in DECISION_KEYS | OPTION_KEYS | PHASE_KEYS | {"decisions", "decision_samples", "phases"}:
        assert f"{key}`" in text, key


def test_the_figures_do_not_depend_on_the_jobs(dealt_game: str) -> None:
    one = review_json(*FAST, "--jobs", "1", dealt_game)
    two = review_json(*FAST, "--jobs", "2", dealt_game)
    assert without_stats(one) == without_stats(two)


def test_no_decisions_judges_the_cards_alone(dealt_game: str) -> None:
    data = review_json(*FAST, "--jobs", "1", "--no-decisions", dealt_game)
    assert data["decisions"] == [] and data["decision_samples"] is None
    assert all("phases" not in player for player in data["players"].values())


def test_the_text_shows_the_decisions_before_the_cards(dealt_game: str) -> None:
    result = run("review", *FAST, "--jobs", "1", dealt_game)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    decisions = next(i for i, line in enumerate(lines) if line.startswith("Decisions before the play"))
    cards = next(i for i, line in enumerate(lines) if line.lstrip().startswith("trick"))
    assert decisions < cards
    table = lines[decisions + 2 : decisions + 8]
    assert "bid" in table[1] and "dreiblatt" in table[1] and "announce (before)" in table[2] and "pagat" in table[2]
    assert any(line.startswith("Each player's losses by phase") for line in lines)
    assert any("auction" in line and "exchange" in line and "announcements" in line for line in lines)


def test_a_deal_as_dealt_not_yet_played_has_its_decisions_judged() -> None:
    """examples/dealt.json has a bid and an exchange but no play: its
    decisions are judged and no card is; without the decisions there is
    nothing to judge (one line, exit 2)."""
    dealt = str(EXAMPLES / "dealt.json")
    data = review_json("-q", "--jobs", "1", "--decision-samples", "2", dealt)
    assert data["cards"] == [] and [d["kind"] for d in data["decisions"]][:3] == ["bid", "announce", "take"]
    text = run("review", "-q", "--jobs", "1", "--decision-samples", "2", dealt)
    assert text.exit_code == 0 and text.stdout.rstrip().endswith("the decisions before the play only.")
    refused = run("review", "-q", "--no-decisions", dealt)
    assert refused.exit_code == 2 and refused.stdout == ""
    assert refused.stderr.strip() == f"Error: {dealt}: the deal has no play: there is no card to judge"


def test_the_help_names_the_switches() -> None:
    result = run("review", "--help")
    assert "--decisions / --no-decisions" in result.stdout and "--decision-samples N" in result.stdout


def bad(tmp_path: Path) -> list[tuple[list[str], str]]:
    record = tmp_path / "record.json"
    record.write_text(json.dumps(game().to_json()), encoding="utf-8")
    return [
        ([str(record)], "record.json: calls: unknown key"),
        (["--decision-samples", "0", str(record)], "--decision-samples: 0 is not in the range"),
    ]


@pytest.mark.parametrize("case", [0, 1])
def test_bad_input_is_one_line_exit_2(tmp_path: Path, case: int) -> None:
    args, message = bad(tmp_path)[case]
    result = run("review", "-q", *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1 and result.stdout == ""
