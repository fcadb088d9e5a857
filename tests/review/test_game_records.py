"""A game of an arena results file as the review reads it
(:mod:`kosolve.review.records`): each game becomes the deal as dealt it
was played from, with its bid, exchange, announcements and play, which
plays back to the record's settlement under the match's rules; ``kosolve
review --deal N --game G`` judges its decisions as it judges the same
deal-as-dealt file; a game both passed, forfeited or unfinished, a bad
record, a choice the file does not hold, rule options against the
match's are one line, exit 2, nothing on stdout."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support import EXAMPLES, without_stats
from support.cli import run

from kosolve.analysis.scoring import settle
from kosolve.batch.results import read_question, read_results
from kosolve.model.announcements import announcement_to_json
from kosolve.model.cards import card_name, hand_names
from kosolve.model.dealt_file import dealt_to_json
from kosolve.model.game import Rules, seat_name
from kosolve.review.records import RecordError, arena_game, game_file, rules_of

RULES = ("--kontra", "--defender-announcements")
"""The match's rule switches: every kind of decision before the play."""
FAST = ("-q", "--jobs", "1", "--samples", "2", "--from", "28", "--decision-samples", "2")


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An arena match of 3 deals (6 games, a Solo among them) under Kontra
    and the defender's announcements."""
    path = tmp_path_factory.mktemp("arena") / "m.jsonl"
    result = run("arena", "heuristic", "random", "--deals", "3", "--seed", "4", "-o", str(path), "--jobs", "1", "-q",
                 *RULES)  # fmt: skip
    assert result.exit_code == 0, result.output
    return path


def records(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return read_question(str(path)) or {}, read_results(str(path))


def test_every_game_becomes_its_deal_as_dealt_and_plays_back_to_its_settlement(match: Path) -> None:
    question, lines = records(match)
    assert rules_of(question, "m") == Rules(kontra=True, defender_announcements=True)
    contracts = set()
    for line in lines:
        for game in (1, 2):
            file, rules, number = arena_game(question, lines, str(match), line["line"], game)
            record = line["report"]["games"][game - 1]
            assert number == line["line"] and rules.kontra and rules.defender_announcements
            assert file.contract == record["contract"] and seat_name(file.declarer or 0) == record["declarer"]
            assert file.exchange is not None and [card_name(c) for c in file.exchange.take] == (record["take"] or [])
            assert hand_names(file.exchange.lay_away) == (record["lay_away"] or [])
            assert [announcement_to_json(a) for a in file.announcements] == record["announcements"]
            assert [card_name(c) for c in file.play] == record["play"]
            settlement = settle(file.play_deal(), rules)
            assert [item.to_json() for item in settlement.items] == record["settlement"]
            assert dict(zip(("forehand", "dealer"), settlement.totals, strict=True)) == record["totals"]
            contracts.add(file.contract)
    assert "solo" in contracts and len(contracts) > 1


def test_an_arena_game_is_reviewed_as_its_deal_as_dealt_file(match: Path, tmp_path: Path) -> None:
    question, lines = records(match)
    file, _, _ = arena_game(question, lines, str(match), 2, 1)
    dealt = tmp_path / "dealt-game.json"
    dealt.write_text(json.dumps(dealt_to_json(file)), encoding="utf-8")
    shown = run("review", "--json", *FAST, "--deal", "2", "--game", "1", str(match))
    again = run("review", "--json", *FAST, *RULES, str(dealt))
    assert shown.exit_code == 0 and again.exit_code == 0, shown.output + again.output
    data, expected = json.loads(shown.stdout), json.loads(again.stdout)
    assert data["file"] == str(match) and (data["deal"], data["game"]) == (2, 1)
    assert [d["kind"] for d in data["decisions"]].count("kontra") >= 1
    assert without_stats(data["decisions"]) == without_stats(expected["decisions"])
    assert without_stats(data["cards"]) == without_stats(expected["cards"])
    text = run("review", *FAST, "--deal", "2", "--game", "1", str(match))
    assert text.exit_code == 0 and text.stdout.startswith(f"{match} (deal 2, game 1): ")
    assert "Decisions before the play" in text.stdout


def rewritten(path: Path, target: Path, change: Callable[[dict[str, Any]], None], line: int = 2) -> Path:
    """The results file at ``path`` with ``change`` made to its ``line``-th line's JSON (1: the header)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    value = json.loads(lines[line - 1])
    change(value)
    lines[line - 1] = json.dumps(value)
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def _game(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    """A change of the first game of a deal's line."""
    return lambda value: change(value["report"]["games"][0])


def _passed(game: dict[str, Any]) -> None:
    game.update(contract=None, declarer=None, take=None, lay_away=None, play=[], totals=None, settlement=None)


def _forfeited(game: dict[str, Any]) -> None:
    game.update(forfeit={"seat": "dealer", "bot": "random", "reason": "it timed out"}, totals=None, settlement=None)


BAD_RECORDS = [
    (_game(_passed), "report.games[0].contract: both passed: nothing was played to review"),
    (_game(_forfeited), "report.games[0].forfeit: the dealer forfeited the game: its play stopped short"),
    (_game(lambda g: g.update(play=g["play"][:20])), "report.games[0].play: 20 cards: the game did not end"),
    (_game(lambda g: g.update(take=["H10"])), "report.games[0].take[0]: unknown card 'H10'"),
    (_game(lambda g: g.update(play=[*g["play"][:31], "XXI"])), "report.games[0].play[31]: "),
    (_game(lambda g: g["settlement"][0].update(points=1)), "report.games[0].settlement: not what the game's cards"),
    (_game(lambda g: g.update(announcements=[{"by": "forehand", "what": "pagat"}])), "report.games[0].announcements"),
    (lambda value: value["report"].update(games=[]), "report.games: expected the deal's 2 games"),
    (lambda value: value["report"]["deal"]["dealt"].update(talon=[]), "report.deal.dealt.talon: 0 cards"),
]


@pytest.mark.parametrize(("change", "message"), BAD_RECORDS, ids=[m.split(":")[0] + str(i) for i, (_, m) in
                                                                    enumerate(BAD_RECORDS)])  # fmt: skip
def test_a_record_that_cannot_be_reviewed_is_one_line(
    match: Path, tmp_path: Path, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    number = json.loads(match.read_text(encoding="utf-8").splitlines()[1])["line"]
    bad = rewritten(match, tmp_path / "bad.jsonl", change)
    result = run("review", *FAST, "--deal", str(number), "--game", "1", str(bad))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"Error: {bad}: deal {number}: {message}"), result.stderr
    assert result.stderr.count("\n") == 1


def test_a_bad_header_is_one_line(match: Path, tmp_path: Path) -> None:
    def batch(value: dict[str, Any]) -> None:
        value["question"]["kind"] = "batch"

    def rules(value: dict[str, Any]) -> None:
        value["question"]["rules"]["kontra"] = "yes"

    for change, message in ((batch, "question.kind: not the results of a kosolve arena match"),
                            (rules, "question.rules.kontra: expected bool, got the string 'yes'")):  # fmt: skip
        bad = rewritten(match, tmp_path / "bad.jsonl", change, line=1)
        result = run("review", *FAST, "--deal", "1", "--game", "1", str(bad))
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr == f"Error: {bad}: {message}\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--game", "1"), "{m}: it holds 3 deals (1 to 3): choose one (use --deal)"),
        (
            ("--deal", "2"),
            "{m}: each deal was played twice: choose its game (1: A (heuristic) the forehand,"
            " 2: B (random) the forehand) (use --game)",
        ),
        (("--deal", "9", "--game", "1"), "{m}: --deal: no deal 9 in the file (it holds deals 1 to 3)"),
        (("--deal", "1", "--game", "3"), "{m}: --game: 3 is not a game of a deal (1: A (heuristic) the forehand,"),
        (
            ("--deal", "1", "--game", "1", "--win-thirds", "106"),
            "--win-thirds: the match was played with win_thirds 107",
        ),
    ],
)
def test_a_game_the_file_does_not_hold_is_one_line(match: Path, args: tuple[str, ...], message: str) -> None:
    result = run("review", *FAST, *args, str(match))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("Error: " + message.format(m=match)), result.stderr
    assert result.stderr.count("\n") == 1


def test_the_rule_options_of_the_match_may_be_given(match: Path) -> None:
    result = run("review", *FAST, *RULES, "--deal", "1", "--game", "2", str(match))
    assert result.exit_code == 0, result.output


def test_deal_and_game_are_for_an_arena_file_only() -> None:
    result = run("review", "--game", "1", str(EXAMPLES / "played-out.json"))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "Error: --game: only for an arena results file (kosolve arena -o), not a deal file\n"


def test_the_library_names_the_game_field(match: Path) -> None:
    _, lines = records(match)
    line = lines[0]
    game = {**line["report"]["games"][1], "declarer": "north"}
    with pytest.raises(RecordError, match=r"^m: deal 1: report\.games\[1\]\.declarer: "):
        game_file(line["report"]["deal"], game, "m: deal 1", "report.games[1]", "report.deal", rules_of(
            records(match)[0], "m"))  # fmt: skip
