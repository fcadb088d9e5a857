"""``kosolve batch --review``: each played hand's record holds what
``kosolve review --json`` prints for it, whatever the jobs; a line that
gives no review is an error record; the summary pools the accuracies."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from support import EXAMPLES, without_stats
from support.batches import by_key, sha256

from kosolve.cli.main import cli

HANDS = ("played.json", "played-out.json", "views/trick4.json", "ending.json")


def one_line(name: str) -> str:
    return json.dumps(json.loads((EXAMPLES / name).read_text(encoding="utf-8")))


def test_each_hand_gets_its_review_and_the_summary_pools_them(tmp_path: Path) -> None:
    deals = tmp_path / "hands.jsonl"
    lines = [one_line(name) for name in HANDS]
    deals.write_text("\n".join(lines) + "\n")
    found = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"reviews-{jobs}.jsonl"
        result = CliRunner().invoke(
            cli, ["batch", str(deals), "-o", str(out), "--review", "20", "--seed", "3", "--jobs", jobs, "--json", "-q"]
        )
        assert result.exit_code == 1, result.output  # two lines give no review
        found[jobs] = by_key(out)
        summary = json.loads(result.stdout)
        assert summary["reviews"] == 2 and summary["failed"] == 2
        assert 0 < summary["knew_accuracy"] <= 1 and 0 < summary["dd_accuracy"] <= 1
    assert found["1"] == found["2"]
    for number, name in enumerate(HANDS[:2], start=1):
        single = CliRunner().invoke(
            cli, ["review", "--json", "-q", "--samples", "20", "--seed", "3", "--jobs", "1", str(EXAMPLES / name)]
        )
        expected = json.loads(single.stdout)
        del expected["file"]
        assert found["1"][number] == {
            "line": number,
            "sha256": sha256(lines[number - 1]),
            "report": without_stats(expected),
        }
    assert found["1"][3]["error"] == "line 3: a seat view, not a deal"
    assert found["1"][4]["error"] == "line 4: the deal starts at trick 13; a seat view starts at trick 1"


def test_review_and_odds_cannot_be_asked_together(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["batch", str(EXAMPLES / "played.json"), "-o", str(tmp_path / "r.jsonl"), "--review", "5", "--odds", "5"]
    )
    assert result.exit_code == 2 and "give one" in result.output
