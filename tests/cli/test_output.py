"""What the report says, in text and JSON: output a player can trust."""

from __future__ import annotations

import doctest
import json
import re
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from support import EXAMPLES, ROOT, fast_first, without_stats
from support.cli import run
from support.deal_files import play_examples

from kosolve.analysis.scoring import settle
from kosolve.analysis.solving import solve
from kosolve.cli.main import cli
from kosolve.model.cards import hand_names, parse_card, parse_hand
from kosolve.model.deal import deal_to_json
from kosolve.model.files import load_deal, parse_deal
from kosolve.model.game import TRICKS_PER_GAME
from kosolve.render.text import Style

pytestmark = pytest.mark.usefixtures("in_tmp_path")


def example(name: str) -> str:
    return str(EXAMPLES / name)


def test_no_deprecation_warnings_from_click() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        result = run(example("played.json"))
    assert result.exit_code == 0, result.output


def test_click_is_pinned_below_its_next_major() -> None:
    # tomllib is Python 3.11+; the dependency line is enough to read.
    assert '"click>=8.2,<9"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def json_of(*args: str) -> dict[str, Any]:
    result = run("--json", *args)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def text_of(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def played_to_the_end(name: str = "whole-deal.json") -> str:
    """The example played out along its optimal line, written here: a
    finished hand whose value (109 thirds) leaves a third over."""
    deal = load_deal(EXAMPLES / name)
    line = solve(deal.position()).line
    data = deal_to_json(replace(deal, play=deal.play + line))
    Path("finished.json").write_text(json.dumps(data), encoding="utf-8")
    return "finished.json"


# 1. A finished hand: what happened, not what could still be made.


def test_a_finished_hand_shows_the_settlement_and_post_mortem_instead_of_empty_hands() -> None:
    text = text_of(example("played-out.json"))
    assert "the hand is over" in text
    assert "tarocks " not in text  # no diagram of two empty hands
    assert "Makeable" not in text
    assert "Post-mortem of the play" in text and "Settlement of the played hand:" in text
    assert "Search: 0 nodes" not in text
    data = json_of(example("played-out.json"))
    assert data["to_move"] is None
    assert "feasible" not in data and "feasible_lines" not in data
    assert data["settlement"]["totals"] == {"forehand": 2, "dealer": -2}


# 2. The optimal line and the table of goals agree.


def test_a_bird_the_line_makes_but_nobody_can_force_is_said_to_be_let_through() -> None:
    text = text_of(example("whole-deal.json"))
    assert (
        "the forehand makes the Pagat (I takes trick 16) in this line only because the dealer lets it through" in text
    )
    data = json_of(example("whole-deal.json"))
    assert data["line_makes"] == [{"by": "forehand", "what": "pagat", "forceable": False}]
    assert data["feasible"]["forehand"]["pagat"] is False


@pytest.mark.parametrize("name", ["ending.json", "played.json", "whole-deal.json"])
def test_what_the_line_makes_agrees_with_the_table(name: str) -> None:
    data = json_of(example(name))
    for bonus in data["line_makes"]:
        assert bonus["forceable"] == data["feasible"][bonus["by"]][bonus["what"]]


def test_the_net_score_compares_the_line_shown_and_never_calls_its_score_reachable() -> None:
    data = json_of("--score", example("whole-deal.json"))
    deal = load_deal(EXAMPLES / "whole-deal.json")
    line = tuple(parse_card(name) for name in data["line"])
    shown_score = settle(replace(deal, play=line)).totals[deal.declarer]
    assert data["net_score"]["points_line_score"] == shown_score
    assert shown_score < data["net_score"]["score"]
    text = text_of("--score", example("whole-deal.json"))
    assert f"the optimal line above, played for points, scores only {shown_score:+d} for him" in text
    assert "gives him" not in text


# 3. Rounding said plainly, the same way in every view.


def test_a_value_with_a_third_over_is_shown_exactly_and_said_what_it_counts_as() -> None:
    counted = "36⅓ points (109 thirds), counted as 36 (⅓ rounds down)"
    assert f"Value for the declarer: {counted}; won" in text_of(example("whole-deal.json"))
    assert text_of("-q", example("whole-deal.json")) == f"{example('whole-deal.json')}: {counted}, won\n"
    finished = played_to_the_end()
    assert f"declared by the dealer: {counted}" in text_of(finished)
    for view in (text_of(example("whole-deal.json")), text_of(finished)):
        assert "thirds =" not in view and "36 points (" not in view


def test_two_thirds_round_up() -> None:
    assert Style(unicode=True).value(128) == "42⅔ points (128 thirds), counted as 43 (⅔ rounds up)"
    assert Style(unicode=False).value(128) == "42 2/3 points (128 thirds), counted as 43 (2/3 rounds up)"


# 4. Score mode is never silently ignored, and its column is never blank.


@pytest.mark.parametrize("args", [["--score"], ["-q", "--score"], ["--json", "--score"]])
def test_score_on_a_file_it_cannot_apply_to_is_a_usage_error(args: list[str]) -> None:
    result = run(*args, example("ending.json"))
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert errors == [
        f"Error: {example('ending.json')}: --score: the net score needs a whole game (16 cards each at trick 1)"
        " with its piles"
    ]


def test_quiet_score_prints_the_net_score() -> None:
    assert text_of("-q", "--score", example("whole-deal.json")).rstrip().endswith(", won, net score +4")


def test_every_score_loss_cell_is_filled() -> None:
    text = text_of(example("played-out.json"))
    table = text.split("Post-mortem of the play")[1].split("points given away")[0]
    rows = [line.split() for line in table.splitlines()[2:] if line.strip()]
    assert len(rows) == 32
    # trick, player, card, before, after, loss, score loss (and the better cards)
    assert all(len(row) >= 7 for row in rows)
    assert rows[0][5:7] == ["—", "—"]
    assert "game points given away: the forehand 0, the dealer 0" in text


# 5. Cards of equal value in one row, the best first, in the diagram's order.


def test_the_card_table_groups_equal_cards_best_first_in_diagram_order() -> None:
    text = text_of(example("whole-deal.json"))
    table = text.split("to move:\n")[1].split("Optimal line:")[0].splitlines()
    assert table[0].split() == ["cards", "points", "thirds"]
    assert table[1].split() == [
        "XIX",
        "XVII",
        "XII",
        "X",
        "VIII",
        "VI",
        "V",
        "III",
        "D1",
        "D2",
        "S7",
        "C10",
        "36⅓",
        "109",
        "best",
    ]
    assert table[2].split()[:2] == ["DJ", "D4"] and table[3].split()[:2] == ["XXI", "I"]
    assert len(table) == 4


def test_the_better_cards_of_the_post_mortem_are_in_diagram_order() -> None:
    better = "XIX XVII XII X VIII VI V III DJ D1 D2"
    assert f"(better: {better})" in text_of(example("played-out.json"))
    rows = json_of(example("played-out.json"))["postmortem"]
    for row in rows:
        assert row["best"] == hand_names(parse_hand(row["best"]))
    assert " ".join(rows[6]["best"]) == better


# 6. Without Trull / kings: judged on the 16 cards at trick 1, or unknown.


def test_without_trull_in_an_ending_is_unknown_not_yes() -> None:
    data = json_of(example("ending.json"))
    assert data["feasible"]["forehand"]["without_trull"] is None
    # The forehand still holds HK: without kings is known to fail.
    assert data["feasible"]["forehand"]["without_kings"] is False
    text = text_of(example("ending.json"))
    assert re.search(r"without trull +unknown", text)
    assert "the declarer's 16 cards at trick 1, which this file does not give" in text


def test_without_trull_in_a_whole_game_is_judged_on_the_cards_at_trick_1() -> None:
    # The forehand declares with the Sküs in hand at trick 1 and plays it early.
    data = json_of("--at", "7", example("played.json"))
    assert data["feasible"]["forehand"]["without_trull"] is False
    assert json_of(example("whole-deal.json"))["feasible"]["dealer"]["without_kings"] is False


# 7. Held bonuses: facts, apart from the goals.


def test_held_bonuses_are_shown_apart_from_the_goals_and_in_json() -> None:
    text = text_of(example("whole-deal.json"))
    held = text.index("Held at trick 1")
    assert held < text.index("Value for the declarer") < text.index("Makeable")
    assert "  dealer: Four Kings\n" in text[held:] and "  forehand: none\n" in text[held:]
    assert json_of(example("whole-deal.json"))["held"] == {"forehand": [], "dealer": ["four_kings"]}
    # An ending does not know the cards at trick 1.
    assert "held" not in json_of(example("ending.json"))
    assert "Held at trick 1" not in text_of(example("ending.json"))


# 8. --at says what it left out.


@pytest.mark.parametrize("at", [0, 3, 6])
def test_at_says_what_it_left_out(at: int) -> None:
    left = f"after {at} of 7 cards; {7 - at} more in the file, left out by --at"
    assert f"solved {left}" in text_of("--at", str(at), example("played.json"))
    assert text_of("-q", "--at", str(at), example("played.json")).rstrip().endswith(left)
    data = json_of("--at", str(at), example("played.json"))
    assert (data["at"], data["play_length"]) == (at, 7)


def test_without_at_nothing_is_said_left_out() -> None:
    assert "left out" not in text_of(example("played.json")) + text_of("-q", example("played.json"))


# 10. --write-position: the position solved, as a deal file of its own.

WRITE_CASES = [
    ("ending.json", None),
    ("whole-deal.json", None),
    ("played.json", None),  # inside trick 4: the card on the table is played again
    ("played.json", 0),
    ("played.json", 4),
    ("played-out.json", 9),
    ("played-out.json", 20),
    ("played-out.json", 31),
]


@pytest.mark.parametrize(("name", "at"), WRITE_CASES)
def test_the_position_written_solves_to_the_same_value(name: str, at: int | None) -> None:
    at_args = [] if at is None else ["--at", str(at)]
    shown = json_of(*at_args, "--write-position", "position.json", example(name))
    written = json.loads(Path("position.json").read_text(encoding="utf-8"))
    ending = parse_deal(written, "position.json")
    original = load_deal(EXAMPLES / name)
    position = original.position(at)
    assert len(ending.play) == len(position.trick) <= 1
    assert ending.piles is not None and ending.first_trick == TRICKS_PER_GAME + 1 - max(
        hand.bit_count() for hand in position.hands
    )
    assert solve(ending.position()).thirds == shown["value"]["thirds"]
    assert json_of("position.json")["value"] == shown["value"]
    assert [p.name for p in Path().iterdir()] == ["position.json"]  # no temporary file left


def test_write_position_refuses_what_it_cannot_write() -> None:
    result = run("--write-position", "position.json", example("played-out.json"))
    assert result.exit_code == 2 and "--write-position: the hand is over" in result.stderr
    result = run("--write-position", "position.json", example("ending.json"), example("played.json"))
    assert result.exit_code == 2 and "--write-position takes one deal file, not 2" in result.stderr
    Path("deal.json").write_text((EXAMPLES / "ending.json").read_text(encoding="utf-8"), encoding="utf-8")
    result = run("--write-position", "deal.json", "deal.json")
    assert result.exit_code == 2 and "would replace the deal file it reads" in result.stderr
    assert not Path("position.json").exists()


def test_write_position_into_a_missing_folder_is_refused_before_solving() -> None:
    result = run("--write-position", "missing/position.json", example("ending.json"))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert "missing/position.json" in result.stderr
    assert list(Path().iterdir()) == []


def test_write_position_from_standard_input() -> None:
    Path("position.json").write_text("{}")
    text = (ROOT / "examples" / "played.json").read_text()
    result = CliRunner().invoke(cli, ["--write-position", "position.json", "--at", "4", "-q", "-"], input=text)
    assert result.exit_code == 0, result.output
    assert load_deal("position.json").play == ()


def test_the_ending_module_examples() -> None:
    import kosolve.model.ending

    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        assert doctest.testmod(kosolve.model.ending).failed == 0


# 9. The JSON output: every key documented in docs/json.md.

SEAT_MAPS = {"held", "feasible", "feasible_lines", "loss", "net_loss", "totals"}
GOAL_MAPS = {"feasible", "feasible_lines"}


def documented_keys() -> set[str]:
    text = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    return set(re.findall(r"^\| `([^`]+)` \|", text, flags=re.MULTILINE))


def key_paths(value: object, path: str = "", parent: str = "") -> set[str]:
    """Every key of ``value`` as docs/json.md writes it: ``moves[].card``,
    ``feasible.<seat>.<goal>``."""
    paths: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            name = key
            if parent in SEAT_MAPS and key in ("forehand", "dealer"):
                name = "<seat>"
            elif parent == "<seat>" and path.split(".")[0] in GOAL_MAPS:
                name = "<goal>"
            child = f"{path}.{name}" if path else name
            paths |= {child, *key_paths(item, child, name)}
    elif isinstance(value, list):
        for item in value:
            paths |= key_paths(item, f"{path}[]", parent)
    return paths


def json_runs() -> list[list[str]]:
    runs = []
    for name in (path.name for path in play_examples()):
        runs += [[example(name)], ["--no-feasibility", "--no-postmortem", example(name)]]
        deal = load_deal(EXAMPLES / name)
        if deal.first_trick == 1:
            runs.append(["--score", example(name)])
        if len(deal.play) > 3:
            runs.append(["--at", "3", example(name)])
    return runs


@pytest.mark.parametrize("args", json_runs(), ids=" ".join)
def test_every_json_key_is_documented(args: list[str]) -> None:
    data = json_of(*args)
    assert data["format"] == 3
    undocumented = key_paths(data) - documented_keys()
    assert not undocumented, f"keys missing from docs/json.md: {sorted(undocumented)}"
    always = {"file", "format", "contract", "declarer", "at", "play_length", "to_move", "value", "result"}
    assert always | {"moves", "line", "line_makes", "stats"} <= data.keys()


@pytest.mark.parametrize("args", fast_first(json_runs(), keep=3), ids=" ".join)
def test_only_the_stats_depend_on_the_threads(args: list[str]) -> None:
    one, two = (json_of("--threads", threads, *args) for threads in ("1", "2"))
    assert without_stats(one) == without_stats(two)


def test_json_lists_card_sets_in_the_diagram_order_and_names_cards_of_the_play() -> None:
    data = json_of(example("whole-deal.json"))
    cards = [move["card"] for move in data["moves"]]
    assert cards == hand_names(parse_hand(cards))
    summary = json_of(example("played-out.json"))["postmortem_summary"]
    assert summary["costliest"][0] | {"best": []} == {
        "play_index": 6,
        "trick": 4,
        "player": "forehand",
        "card": "D4",
        "loss": 2,
        "best": [],
    }


def test_a_goal_lost_along_the_play_names_the_card_that_lost_it() -> None:
    deal = {
        "version": 1,
        "contract": "dreiblatt",
        "declarer": "dealer",
        "hands": {"forehand": ["HK", "C8", "C7"], "dealer": ["I", "HQ", "C9"]},
        "announcements": [{"by": "dealer", "what": "pagat", "when": "after"}],
        "play": ["C8", "C9", "I"],  # the dealer leads his Pagat a trick too early
    }
    Path("deal.json").write_text(json.dumps(deal), encoding="utf-8")
    goals = json_of("deal.json")["postmortem_summary"]["goals"]
    lost = {"play_index": 2, "trick": 15, "player": "dealer", "card": "I"}
    assert goals == [{"by": "dealer", "what": "pagat", "makeable_at_start": True, "lost_at": lost}]
    assert "pagat by the dealer: lost with card 3, the dealer's I" in text_of("deal.json")


@pytest.mark.parametrize(
    ("play", "expected"),
    [
        (["HQ", "XII"], (None, None)),  # the win stays: the holding decides, unknown
        (["XVIII", "XII"], (None, 0)),  # the win is lost with the first card: so is Without Trull
    ],
)
def test_an_announced_without_trull_in_an_ending_is_unknown_until_the_win_is_lost(
    play: list[str], expected: tuple[None, int | None]
) -> None:
    data = json.loads((EXAMPLES / "ending.json").read_text(encoding="utf-8"))
    data |= {"announcements": [{"by": "forehand", "what": "without_trull", "when": "after"}], "play": play}
    Path("deal.json").write_text(json.dumps(data), encoding="utf-8")
    (goal,) = json_of("deal.json")["postmortem_summary"]["goals"]
    lost = goal["lost_at"]
    assert (goal["makeable_at_start"], lost and lost["play_index"]) == expected
