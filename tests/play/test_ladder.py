"""The ladder's library: the round robin plays every pair once, each
into its own results file named after the pair, the same ladder again
repeats nothing, a bot added plays only its own matches, and the ratings
are those of the matches' per-deal differences."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.batches import records

from kosolve.batch.results import ResultsError
from kosolve.play.arena import Match, deal_records, dealer_deal
from kosolve.play.ladder import Rung, pair_path, play_ladder, rate, round_robin
from kosolve.play.rating import MatchResult, RatingError, fit


def rungs(bots: list[str], folder: Path, deals: int, seed: int = 2) -> list[Rung]:
    dealt = [dealer_deal(seed, number) for number in range(1, deals + 1)]
    return [Rung(Match(a, b, seed), dealt, str(pair_path(folder, a, b))) for a, b in round_robin(bots)]


def test_the_round_robin_is_every_pair_once_whatever_the_order() -> None:
    pairs = round_robin(["random", "heuristic", "dd"])
    assert pairs == [("heuristic", "random"), ("dd", "random"), ("dd", "heuristic")]
    assert sorted(round_robin(["dd", "random", "heuristic"])) == sorted(pairs)


def test_each_pair_has_a_file_name_of_its_own(tmp_path: Path) -> None:
    assert pair_path(tmp_path, "heuristic", "random") == tmp_path / "heuristic-vs-random.jsonl"
    specs = ["exec:python3 bots/a.py", "exec:python3 bots_a.py", "pimc:samples=20", "x" * 80, "x" * 81]
    names = {pair_path(tmp_path, spec, "random").name for spec in specs}
    assert len(names) == len(specs)
    assert all("/" not in name and ":" not in name and " " not in name for name in names)


def test_a_ladder_rates_its_matches_and_resumes(tmp_path: Path) -> None:
    ladder = rungs(["random", "heuristic"], tmp_path, 4)
    seen: list[tuple[int, int]] = []
    play_ladder(ladder, jobs=1, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    differences = [deal.difference for deal in deal_records(records(tmp_path / "heuristic-vs-random.jsonl")).values()]
    assert rate(ladder) == fit([MatchResult.of("heuristic", "random", differences)])
    # A bot added plays its own two matches, and nothing of the first again.
    before = (tmp_path / "heuristic-vs-random.jsonl").read_bytes()
    seen.clear()
    bigger = rungs(["random", "heuristic", "heuristic:announce=none"], tmp_path, 4)
    play_ladder(bigger, jobs=1, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (8, 8)
    assert (tmp_path / "heuristic-vs-random.jsonl").read_bytes() == before
    assert len(list(tmp_path.glob("*.jsonl"))) == 3
    assert [rating.deals for rating in rate(bigger).ratings] == [8, 8, 8]


def test_a_file_that_cannot_resume_is_refused_before_anything_is_played(tmp_path: Path) -> None:
    ladder = rungs(["random", "heuristic", "dd"], tmp_path, 2)
    Path(ladder[-1].results).write_text('{"batch_format": 2, "question": {"kind": "arena", "a": "x"}}\n')
    with pytest.raises(ResultsError, match="another question"):
        play_ladder(ladder, jobs=1)
    assert all(records(Path(rung.results)) == [] for rung in ladder[:-1])


def test_a_match_of_one_deal_rates_nobody(tmp_path: Path) -> None:
    ladder = rungs(["random", "heuristic"], tmp_path, 1)
    play_ladder(ladder, jobs=1)
    with pytest.raises(RatingError, match="heuristic against random: 1 deal"):
        rate(ladder)
