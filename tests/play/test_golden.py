"""Golden records: a small saved match, two saved reviews and a short log of
each built-in bot's games are played again and compared, exactly, with the
files in ``tests/play/data/``, so that a change meant to keep the behaviour
(issue 29, "House III") shows that it did.

What is compared is the JSON as written, less what varies from run to run:
the ``stats`` of a review (time, nodes, worlds solved: docs/json.md), the
name of the file reviewed and of the results file (paths of this machine).
Nothing else is left out: every decision of every game, the settlements,
the double-dummy counts and the review of the match, every card's values,
verdicts and intervals.

- ``golden-match.jsonl``: ``kosolve arena heuristic pimc:samples=4,auction=2
  --deals 2 --seed 7 --review 2 -o RESULTS`` (the results file: its header
  and one record a deal), and ``golden-match-summary.json`` its ``--json``
  summary;
- ``golden-review.json``: ``kosolve review examples/played-out.json
  --samples 8 --json``, and ``golden-review-score.json`` the same with
  ``--samples 6 --score --infer 0.5 --from 20``;
- ``golden-games.jsonl``: :func:`~kosolve.play.arena.play_game` of each
  built-in bot against itself (random, heuristic, pimc with few worlds, dd)
  on deals 1 to 3 of the match's dealer: one line a game, ``bots``,
  ``deal``, ``forfeit`` and the game's record (``Game.to_json``).

A change that is *meant* to change them (a better bot, a new field)
regenerates them on purpose, and the diff of the data files is then part
of the change to review::

    KOSOLVE_REGOLD=1 python -m pytest tests/play/test_golden.py

With ``KOSOLVE_REGOLD=1`` each test writes its file instead of comparing
(and passes); without it a missing file fails.  These goldens were written
by commit 31fd1f5, the last before issue 29's refactor.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Final

import pytest
from support import EXAMPLES, without_stats
from support.cli import run

from kosolve.play.arena import dealer_deal, play_game
from kosolve.play.bots import make_bot

DATA: Final = Path(__file__).resolve().parent / "data"
REGOLD: Final = os.environ.get("KOSOLVE_REGOLD") == "1"
"""Write the golden files instead of comparing with them."""

MATCH_SEED: Final = 7
MATCH_ARGS: Final = (
    "arena",
    "heuristic",
    "pimc:samples=4,auction=2",
    "--deals",
    "2",
    "--seed",
    str(MATCH_SEED),
    "--review",
    "2",
    "--jobs",
    "1",
    "--json",
    "-q",
)
REVIEWED: Final = EXAMPLES / "played-out.json"
REVIEWS: Final = {
    "golden-review.json": ("--samples", "8"),
    "golden-review-score.json": ("--samples", "6", "--score", "--infer", "0.5", "--from", "20"),
}
BOTS: Final = ("random", "heuristic", "pimc:samples=3,auction=2", "dd")
GAME_DEALS: Final = (1, 2, 3)


def lines_json(text: str) -> list[Any]:
    """Every line of ``text`` as JSON."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def dump_lines(records: list[Any]) -> str:
    return "".join(json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n" for record in records)


def golden(name: str, records: list[Any]) -> None:
    """Compare ``records`` with the golden file ``name`` (one JSON value a
    line), or write them there under ``KOSOLVE_REGOLD=1``."""
    path = DATA / name
    if REGOLD:
        DATA.mkdir(exist_ok=True)
        path.write_text(dump_lines(records), encoding="utf-8")
        return
    assert path.exists(), f"no golden file {path}: write it with KOSOLVE_REGOLD=1"
    saved = lines_json(path.read_text(encoding="utf-8"))
    assert len(records) == len(saved), f"{name}: {len(records)} records, {len(saved)} saved"
    for number, (record, kept) in enumerate(zip(records, saved, strict=True), 1):
        # One record at a time: the first that differs is the one reported.
        assert record == kept, f"{name}: record {number} differs from the saved one"


def test_a_saved_match_is_played_again_the_same(tmp_path: Path) -> None:
    results = tmp_path / "match.jsonl"
    result = run(*MATCH_ARGS, "-o", str(results))
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary.pop("results") == str(results)
    golden("golden-match.jsonl", lines_json(results.read_text(encoding="utf-8")))
    golden("golden-match-summary.json", [summary])


@pytest.mark.parametrize("name", sorted(REVIEWS))
def test_a_saved_review_is_made_again_the_same(name: str) -> None:
    result = run("review", str(REVIEWED), *REVIEWS[name], "--jobs", "1", "--json", "-q")
    assert result.exit_code == 0, result.output
    [judged] = lines_json(result.stdout)
    assert judged.pop("file") == str(REVIEWED)
    golden(name, [without_stats(judged)])


def test_each_bots_saved_games_are_played_again_the_same() -> None:
    records: list[dict[str, object]] = []
    for spec in BOTS:
        for number in GAME_DEALS:
            bots = (make_bot(spec), make_bot(spec))
            game, forfeit = play_game(dealer_deal(MATCH_SEED, number), bots, (spec, spec), seed=number)
            records.append({"bots": spec, "deal": number, "forfeit": forfeit, "game": game.to_json()})
    golden("golden-games.jsonl", records)
