"""``kosolve arena``: the same seed gives the same match for any job count,
a resumed or killed match repeats and loses nothing, a protocol bot plays
the same games as the same bot in-process, and a bot that answers out of
range, sleeps past the limit, exits or prints garbage forfeits its games
with a clear reason while the match goes on (a bot that forfeits every
game is then an error, exit status 1)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from support import EXAMPLES
from support.batches import by_key, kill_midway, records
from support.cli import run

RANDOM_BOT = f"exec:{sys.executable} {EXAMPLES / 'bots' / 'random_bot.py'}"


def arena(*args: str) -> dict[str, Any]:
    result = run("arena", "-q", "--json", *args)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def without_names(record: dict[str, Any]) -> dict[str, Any]:
    """A record with the bots' names left out of its games."""
    games = [{key: value for key, value in game.items() if key != "bots"} for game in record["report"]["games"]]
    return {**record, "report": {**record["report"], "games": games}}


def test_the_same_seed_gives_the_same_match_for_any_jobs(tmp_path: Path) -> None:
    one = arena("heuristic", "random", "--deals", "6", "--seed", "4", "-o", str(tmp_path / "1.jsonl"), "--jobs", "1")
    two = arena("heuristic", "random", "--deals", "6", "--seed", "4", "-o", str(tmp_path / "2.jsonl"), "--jobs", "2")
    assert by_key(tmp_path / "1.jsonl") == by_key(tmp_path / "2.jsonl")
    assert {k: v for k, v in one.items() if k != "results"} == {k: v for k, v in two.items() if k != "results"}
    assert one["deals"] == 6 and one["a"]["bot"] == "heuristic" and one["a"]["forfeits"] == 0
    assert one["mean_diff"] == pytest.approx(one["a"]["mean_points"] - one["b"]["mean_points"])


def test_a_match_resumes_and_repeats_nothing(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    arena("heuristic", "random", "--deals", "3", "-o", str(out), "--jobs", "1")
    first = by_key(out)
    summary = arena("heuristic", "random", "--deals", "5", "-o", str(out), "--jobs", "2")
    assert summary["deals"] == 5 and len(records(out)) == 5
    assert {k: v for k, v in by_key(out).items() if k <= 3} == first
    refused = run("arena", "-q", "random", "heuristic", "--deals", "5", "-o", str(out))
    assert refused.exit_code == 2 and "another question" in refused.stderr


def test_a_killed_match_loses_and_repeats_nothing(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    args = ["arena", "pimc:samples=2,auction=1", "heuristic", "--deals", "6", "-o", str(out), "--jobs", "1", "-q"]
    lines, status = kill_midway(args, out, least_lines=3)
    assert status is None and lines >= 3
    arena(*args[1:])
    assert sorted(by_key(out)) == list(range(1, 7))


def test_a_protocol_bot_plays_as_the_same_bot_in_process(tmp_path: Path) -> None:
    arena(RANDOM_BOT, "heuristic", "--deals", "3", "--seed", "9", "-o", str(tmp_path / "exec.jsonl"), "--jobs", "1")
    arena("random", "heuristic", "--deals", "3", "--seed", "9", "-o", str(tmp_path / "own.jsonl"), "--jobs", "1")
    external = [without_names(r) for r in records(tmp_path / "exec.jsonl")]
    own = [without_names(r) for r in records(tmp_path / "own.jsonl")]
    assert sorted(external, key=lambda r: r["line"]) == sorted(own, key=lambda r: r["line"])


BROKEN = {
    "out of range": ('print(json.dumps({"choice": len(message["legal"])}), flush=True)', "no legal choice"),
    "garbage": ('print("sure, the king", flush=True)', "not JSON"),
    "sleeps": ('time.sleep(5); print(json.dumps({"choice": 0}), flush=True)', "no answer within 0.5 s"),
    "exits": ("sys.exit(3)", "the bot exited with status 3"),
}


@pytest.mark.parametrize("kind", list(BROKEN))
def test_a_bot_that_breaks_the_protocol_forfeits(tmp_path: Path, kind: str) -> None:
    answer, reason = BROKEN[kind]
    script = tmp_path / "bot.py"
    script.write_text(
        "import json, sys, time\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if 'legal' in message:\n"
        f"        {answer}\n"
    )
    out = tmp_path / "m.jsonl"
    spec = f"exec:{sys.executable} {script}"
    result = run("arena", "-q", "--json", spec, "heuristic", "--deals", "2", "-o", str(out), "--jobs", "1",
                 "--move-time", "0.5")  # fmt: skip
    # It forfeited every game: the match says nothing of it, exit status 1, one line why.
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"Error: bot A ({spec}) forfeited all 4 games it played (")
    assert reason in result.stderr
    assert len(result.stderr.splitlines()) == 1
    summary = json.loads(result.stdout)
    games = [game for record in records(out) for game in record["report"]["games"]]
    assert len(games) == 4
    for game in games:
        forfeit = game["forfeit"]
        assert forfeit is not None and forfeit["bot"] == spec and reason in forfeit["reason"]
        assert game["points"][forfeit["seat"]] == -24
    assert summary["a"]["forfeits"] == 4 and summary["b"]["forfeits"] == 0
    assert sum(summary["a"]["forfeit_reasons"].values()) == 4 and summary["b"]["forfeit_reasons"] == {}
    assert summary["a"]["mean_points"] == -48


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["alpha", "random", "-o", "m.jsonl"], "'alpha': no bot of that name"),
        (["pimc:samples=x", "random", "-o", "m.jsonl"], "samples must be an integer"),
        (["random", "random", "--deals", "missing.jsonl", "-o", "m.jsonl"], "--deals: missing.jsonl"),
    ],
)
def test_bad_input_is_one_line_exit_2(in_tmp_path: Path, args: list[str], message: str) -> None:
    result = run("arena", "-q", *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (in_tmp_path / "m.jsonl").exists()
