"""The ``kosolve`` command line, through click's CliRunner."""

from __future__ import annotations

import ast
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from support import EXAMPLES
from support.cli import run

from kosolve import __version__
from kosolve.analysis.solving import solve
from kosolve.cli.running import progress_bar
from kosolve.cli.solve import PROGRESS_MIN_FILES
from kosolve.model.cards import (
    ALL_CARDS,
    CARD_VALUES,
    SUIT_MASKS,
    Hand,
    card_name,
    cards_of,
    hand_names,
    parse_card,
    parse_hand,
)
from kosolve.model.files import load_deal
from kosolve.model.game import SEATS, trick_thirds

CONTRACT_KEYS = {"file", "declarer", "to_move", "value", "result", "moves", "line", "stats"}

ENDING: dict[str, Any] = {
    "version": 1,
    "contract": "dreiblatt",
    "declarer": "forehand",
    "hands": {"forehand": ["XX", "HK", "H4"], "dealer": ["I", "HQ", "S7"]},
}

pytestmark = pytest.mark.usefixtures("in_tmp_path")


def write(data: object, name: str = "deal.json") -> str:
    """Write ``data`` as JSON (or a string as it is) into the current folder."""
    Path(name).write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return name


def ending(**changes: Any) -> dict[str, Any]:
    return {**json.loads(json.dumps(ENDING)), **changes}


def assert_bad_input(result: Result, message: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert "Traceback" not in result.output
    assert message in result.stderr
    error_lines = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(error_lines) == 1


FILE_ERRORS = [
    (
        "unknown card",
        ending(hands={"forehand": ["HK"], "dealer": ["H10"]}),
        "deal.json: hands.dealer[0]: unknown card 'H10'",
    ),
    (
        "card twice",
        ending(hands={"forehand": ["HK", "H4"], "dealer": ["HQ", "HK"]}),
        "deal.json: hands.dealer[1]: HK is also at hands.forehand[0]",
    ),
    ("no cards", ending(hands={"forehand": [], "dealer": []}), "deal.json: hands.forehand: 0 cards"),
    (
        "too many cards",
        ending(hands={"forehand": hand_names(ALL_CARDS)[:17], "dealer": hand_names(ALL_CARDS)[17:34]}),
        "deal.json: hands.forehand: 17 cards",
    ),
    (
        "unequal hands",
        ending(hands={"forehand": ["HK", "H4"], "dealer": ["HQ"]}),
        "deal.json: hands: unequal hands: forehand holds 2 cards, dealer 1",
    ),
    (
        "piles short of 54",
        ending(piles={"forehand": ["SK"], "dealer": []}),
        "deal.json: piles: hands and piles hold 7 of the 54 cards",
    ),
    (
        "illegal card in play",
        ending(play=["HK", "S7"]),
        "deal.json: play[1]: trick 14: S7 is illegal on HK: the dealer must follow suit",
    ),
    (
        "card not held",
        ending(play=["HK", "HQ", "I"]),
        "deal.json: play[2]: trick 15: I is not in the forehand's hand",
    ),
    (
        "play too long",
        ending(play=["HK", "HQ", "XX", "I", "H4", "S7", "SK"]),
        "deal.json: play: 7 cards played, but the hands hold only 6",
    ),
    ("unknown key", ending(talon=[]), "deal.json: talon: unknown key"),
    ("unknown contract", ending(contract="bettel"), "deal.json: contract: unknown contract 'bettel'"),
    ("unknown seat", ending(declarer="north"), "deal.json: declarer: unknown seat 'north'"),
    ("wrong version", ending(version=2), "deal.json: version: unsupported version 2"),
    ("wrong type", ending(hands=["HK"]), "deal.json: hands: expected an object"),
    ("broken JSON", '{"version": 1,\n "contract": "solo"\n "declarer": "dealer"}', "deal.json: line 3, column 2"),
    ("empty file", "", "deal.json: line 1, column 1: broken JSON"),
]


@pytest.mark.parametrize(("data", "message"), [case[1:] for case in FILE_ERRORS], ids=[c[0] for c in FILE_ERRORS])
def test_bad_deal_files_exit_2_with_one_line(data: object, message: str) -> None:
    assert_bad_input(run(write(data)), f"Error: {message}")


def test_a_missing_file_exits_2() -> None:
    assert_bad_input(run("missing.json"), "Error: missing.json: cannot read the file: No such file or directory")


def test_every_file_is_checked_before_anything_is_printed() -> None:
    good = write(ENDING, "good.json")
    bad = write(ending(contract="bettel"), "bad.json")
    assert_bad_input(run(good, bad), "Error: bad.json: contract: unknown contract")
    assert_bad_input(run("--json", good, bad), "Error: bad.json: contract: unknown contract")


def test_at_beyond_the_play_is_a_bad_parameter() -> None:
    played = write(ending(play=["HK", "HQ"]))
    result = run("--at", "3", played)
    assert_bad_input(result, "Error: deal.json: --at: 3 is beyond the play, which has 2 cards")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--at", "-1"], "Error: --at: "),
        (["--tt-mb", "0"], "Error: --tt-mb: "),
        (["--tt-mb", "lots"], "Error: --tt-mb: "),
        (["--win-thirds", "100"], "Error: --win-thirds: "),
        (["--colour"], "Error: --colour: no such option"),
    ],
)
def test_bad_options_exit_2(args: list[str], message: str) -> None:
    assert_bad_input(run(*args, write(ENDING)), message)


@pytest.mark.parametrize("size", ["1e13", "inf", "nan", "0.0001", "0.5", "16385"])
@pytest.mark.parametrize("command", [[], ["bench", "--deals", "0", "--endings", "0", "--postmortems", "0"]])
def test_table_sizes_outside_the_range_are_usage_errors(command: list[str], size: str) -> None:
    files = [write(ENDING)] if not command else []
    assert_bad_input(run(*command, "--tt-mb", size, *files), "1.0<=x<=16384.0")


def test_no_deal_file_is_a_usage_error() -> None:
    assert_bad_input(run("solve"), "Missing argument 'DEAL.json...'")


def solved(path: str | Path, at: int | None = None) -> dict[str, object]:
    solution = solve(load_deal(path).position(at))
    return solution.to_json()


def assert_matches_library(line: str, path: str | Path, at: int | None = None) -> None:
    data = json.loads(line)
    assert data.keys() >= CONTRACT_KEYS
    assert data["file"] == str(path)
    expected = solved(path, at)
    for key in ("declarer", "to_move", "value", "result", "moves"):
        assert data[key] == expected[key], key
    assert {"nodes", "ms"} <= data["stats"].keys()
    # Another optimal line may come from a warm table; any line must reach the value.
    position = load_deal(path).position(at)
    for name in data["line"]:
        position.push(next(card for card in position.legal_moves if card_name(card) == name))
    assert position.is_over()
    assert position.declarer_thirds() == data["value"]["thirds"]


@pytest.mark.parametrize("name", ["ending.json", "played.json", "whole-deal.json"])
def test_json_output_equals_the_library(name: str) -> None:
    path = EXAMPLES / name
    result = run("--json", str(path))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    assert_matches_library(lines[0], path)
    assert json.loads(lines[0])["line"] == solved(path)["line"]


def test_json_without_piles_has_a_null_result() -> None:
    result = run("--json", write(ENDING))
    assert json.loads(result.stdout)["result"] is None
    assert_matches_library(result.stdout, "deal.json")


def test_several_files_print_one_json_line_each_in_order() -> None:
    paths = [str(EXAMPLES / name) for name in ("whole-deal.json", "ending.json", "played.json")]
    paths.append(write(ENDING))
    result = run("--json", *paths)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [json.loads(line)["file"] for line in lines] == paths
    for line, path in zip(lines, paths, strict=True):
        assert_matches_library(line, path)


def test_at_solves_an_earlier_position() -> None:
    path = EXAMPLES / "played.json"
    played = len(load_deal(path).play)
    for at in (0, 3, played):
        result = run("--at", str(at), "--json", str(path))
        assert result.exit_code == 0, result.output
        assert_matches_library(result.stdout, path, at)


def test_solve_is_the_default_command() -> None:
    path = str(EXAMPLES / "ending.json")
    named, default = (json.loads(run(*args, "--json", path).stdout) for args in (["solve"], []))
    del named["stats"], default["stats"]
    assert named == default


def test_text_output_shows_the_hands_the_value_the_cards_and_the_line() -> None:
    path = EXAMPLES / "played.json"
    deal = load_deal(path)
    position = deal.position()
    solution = solve(position)
    result = run(str(path))
    assert result.exit_code == 0, result.output
    out = result.stdout
    for seat in SEATS:
        for suit_mask in SUIT_MASKS:
            cards = hand_names(position.hands[seat] & suit_mask)
            if cards:
                assert " ".join(cards) in out
    assert f"{solution.points} points ({solution.thirds} thirds" in out
    assert str(solution.result) in out
    for move in solution.moves:
        assert f"{card_name(move.card)} " in out
    assert "Optimal line:" in out
    assert "Search: " in out and " nodes in " in out
    assert "trick 16" in out


def test_tarocks_show_in_rank_order() -> None:
    deal = {**ENDING, "hands": {"forehand": ["I", "Sk", "XX"], "dealer": ["II", "XXI", "V"]}}
    out = run(write(deal)).stdout
    assert "Sk XX I" in out
    assert "XXI V II" in out


def deal_worth(thirds: int) -> dict[str, object]:
    """A one-trick ending with piles in which the declarer (forehand, HK
    over H4) ends with exactly ``thirds``."""
    hands = {"forehand": ["HK"], "dealer": ["H4"]}
    need = thirds - trick_thirds(parse_card("HK"), parse_card("H4"))
    pile: Hand = 0
    rest = ALL_CARDS & ~parse_hand(hands["forehand"] + hands["dealer"])
    for card in sorted(cards_of(rest), key=lambda c: -CARD_VALUES[c]):
        worth = 3 * CARD_VALUES[card] - 2
        if worth <= need:
            pile |= 1 << card
            need -= worth
    assert need == 0
    return {**ENDING, "hands": hands, "piles": {"forehand": hand_names(pile), "dealer": hand_names(rest & ~pile)}}


def test_win_thirds_106_accepts_35_and_a_third() -> None:
    path = write(deal_worth(106))
    assert json.loads(run("--json", path).stdout)["value"]["thirds"] == 106
    assert json.loads(run("--json", path).stdout)["result"] == "lost"
    assert json.loads(run("--json", "--win-thirds", "106", path).stdout)["result"] == "won"
    assert "lost (107 thirds needed)" in run(path).stdout


def test_quiet_prints_one_value_line_a_file() -> None:
    paths = [str(EXAMPLES / name) for name in ("ending.json", "whole-deal.json")]
    result = run("-q", *paths)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == len(paths)
    for line, path in zip(lines, paths, strict=True):
        solution = solve(load_deal(path).position(), with_moves=False, with_line=False)
        assert line.startswith(f"{path}: ") and f" points ({solution.thirds} thirds)" in line
        assert f"counted as {solution.points}" in line or solution.thirds % 3 == 0
        assert line.endswith(f", {solution.result}")


def test_a_finished_hand_has_no_cards_to_value() -> None:
    path = write({**ENDING, "hands": {"forehand": ["HK"], "dealer": ["HQ"]}, "play": ["HK", "HQ"]})
    data = json.loads(run("--json", path).stdout)
    assert data["moves"] == [] and data["line"] == []
    assert data["value"]["thirds"] == trick_thirds(parse_card("HK"), parse_card("HQ"))
    assert "the hand is over" in run(path).stdout


def test_plain_text_when_the_output_cannot_show_symbols() -> None:
    result = run(str(EXAMPLES / "whole-deal.json"), charset="latin-1")
    assert result.exit_code == 0, result.output
    result.stdout_bytes.decode("ascii")
    assert "hearts" in result.stdout


@pytest.mark.usefixtures("terminal")
def test_many_files_show_a_progress_bar_on_a_terminal_unless_quiet() -> None:
    paths = [write(ENDING, f"deal{i}.json") for i in range(PROGRESS_MIN_FILES)]
    result = run("--json", *paths)
    assert result.exit_code == 0, result.output
    assert "solving" in result.stderr
    assert len(result.stdout.splitlines()) == len(paths)
    assert "solving" not in run("-q", "--json", *paths).stderr
    assert "solving" not in run("--json", *paths[:-1]).stderr


def test_many_files_show_no_progress_label_off_a_terminal() -> None:
    paths = [write(ENDING, f"deal{i}.json") for i in range(PROGRESS_MIN_FILES)]
    result = run("--json", *paths)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


class FakeTerminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_the_progress_bar_is_drawn_on_a_terminal_from_its_first_step(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", stream)
    with progress_bar("worlds", quiet=False, per_second="deals") as progress:
        assert progress is not None
        assert stream.getvalue() == "", "nothing before the first step: the input is checked by then"
        progress(1, 4)
        assert "worlds" in stream.getvalue() and "1/4" in stream.getvalue()
        progress(4, 4)
    assert "4/4" in stream.getvalue()
    with progress_bar("worlds", quiet=True) as progress:
        assert progress is None


def test_no_progress_bar_off_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    with progress_bar("worlds", quiet=False) as progress:
        assert progress is None
    assert stream.getvalue() == ""


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout == f"kosolve {__version__}\n"


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help_teaches_the_deal_file_and_an_example(flag: str) -> None:
    result = run(flag)
    assert result.exit_code == 0
    assert '"version": 1' in result.stdout
    assert "kosolve examples/whole-deal.json" in result.stdout
    assert "bench" in result.stdout


def test_solve_help_lists_its_options() -> None:
    result = run("solve", "-h")
    assert result.exit_code == 0
    for option in ("--at", "--json", "--tt-mb", "--quiet", "--win-thirds"):
        assert option in result.stdout


def test_python_m_kosolve_cli_works() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "kosolve.cli", "--help"], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "Usage: kosolve" in result.stdout


class FakeReport:
    def format(self) -> str:
        return "fake report"

    def to_json(self) -> dict[str, object]:
        return {"fake": True}


def test_bench_passes_its_options_to_run_bench(monkeypatch: pytest.MonkeyPatch) -> None:
    import kosolve.tools.bench

    calls: list[dict[str, Any]] = []

    def fake_run_bench(**kwargs: Any) -> FakeReport:
        calls.append(kwargs)
        if kwargs["progress"] is not None:
            kwargs["progress"](1, 2)
            kwargs["progress"](2, 2)
        return FakeReport()

    monkeypatch.setattr(kosolve.tools.bench, "run_bench", fake_run_bench)
    args = ["--deals", "3", "--seed", "7", "--endings", "2", "--ending-tricks", "5", "--tt-mb", "16", "--repeat", "2"]
    result = run("bench", *args, "--exchange", "4", "--score", "5")
    assert result.exit_code == 0, result.output
    assert result.stdout == "fake report\n"
    assert calls[0]["deals"] == 3 and calls[0]["seed"] == 7 and calls[0]["tt_mb"] == 16 and calls[0]["repeat"] == 2
    assert calls[0]["endings"] == 2 and calls[0]["ending_tricks"] == 5
    assert calls[0]["exchanges"] == 4 and calls[0]["scores"] == 5
    result = run("bench", "--json", "-q")
    assert json.loads(result.stdout) == {"fake": True}
    assert calls[1]["progress"] is None
    assert "deals" not in calls[1] and "exchanges" not in calls[1] and "scores" not in calls[1]


def test_bench_runs_for_real() -> None:
    result = run("bench", "--deals", "0", "--endings", "1", "--ending-tricks", "2", "--tt-mb", "1", "--json", "-q")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)


def test_bench_rejects_a_negative_count() -> None:
    assert_bad_input(run("bench", "--deals", "-1"), "Error: --deals: ")
    assert_bad_input(run("bench", "--repeat", "0"), "Error: --repeat: ")


def test_json_has_the_feasibility_of_every_goal() -> None:
    from kosolve.analysis.goals import feasibility

    path = EXAMPLES / "whole-deal.json"
    result = run("--json", str(path))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["feasible"] == feasibility(load_deal(path).position()).to_json()
    assert set(data["feasible"]["forehand"]) >= {"pagat", "uhu", "pelikan", "quapil", "valat"}
    assert "feasible" not in json.loads(run("--json", "--no-feasibility", str(path)).stdout)


def test_a_play_gets_a_post_mortem_that_adds_up() -> None:
    path = EXAMPLES / "played-out.json"
    data = json.loads(run("--json", str(path)).stdout)
    rows = data["postmortem"]
    assert len(rows) == 32
    assert {"trick", "player", "card", "before", "after", "loss", "best"} <= rows[0].keys()
    deal = load_deal(path)
    declarer = ("forehand", "dealer")[deal.declarer]
    signed = sum(r["loss"] if r["player"] == declarer else -r["loss"] for r in rows)
    assert signed == rows[0]["before"] - rows[-1]["after"]
    assert data["postmortem_summary"]["goals"] == [
        {"by": "dealer", "what": "pagat", "makeable_at_start": False, "lost_at": None}
    ]
    assert "postmortem" not in json.loads(run("--json", "--no-postmortem", str(path)).stdout)


def test_a_hand_played_to_the_end_is_settled() -> None:
    from kosolve.analysis.scoring import settle

    path = EXAMPLES / "played-out.json"
    data = json.loads(run("--json", str(path)).stdout)
    assert data["settlement"] == settle(load_deal(path)).to_json()
    text = run(str(path)).stdout
    assert "Settlement of the played hand:" in text and "pagat announced after, failed" in text
    # Earlier in the play there is nothing to settle yet.
    assert "settlement" not in json.loads(run("--json", "--at", "10", str(path)).stdout)


def test_a_defender_announcement_needs_the_rule_option() -> None:
    data = json.loads((EXAMPLES / "played-out.json").read_text(encoding="utf-8"))
    data["announcements"] = [{"by": "forehand", "what": "pagat", "when": "after"}]
    name = write(data)
    assert_bad_input(run(name), "deal.json: announcements[0].by: the forehand defends")
    # Also before the hand is over, when there is nothing to settle yet.
    assert_bad_input(run("--at", "5", name), "deal.json: announcements[0].by: the forehand defends")
    result = run("--json", "--defender-announcements", name)
    assert result.exit_code == 0, result.output
    items = json.loads(result.stdout)["settlement"]["items"]
    # The forehand plays his Pagat to the last trick: the announcement is
    # his if it took that trick, the dealer's otherwise.
    deal = load_deal(name)
    assert deal.play[-1] == parse_card("I")
    last_winner = ("forehand", "dealer")[deal.position().leader]
    assert [item["to"] for item in items if item["name"] == "pagat"] == [last_winner]


def test_announcements_bring_the_net_score_and_score_losses() -> None:
    from kosolve.analysis.netscore import net_score

    path = EXAMPLES / "played-out.json"
    deal = load_deal(path)
    data = json.loads(run("--json", "--at", "8", str(path)).stdout)
    assert data["net_score"]["score"] == net_score(deal, deal.position(at=8)).score
    assert all("net_loss" in row for row in data["postmortem"])
    plain = json.loads(run("--json", "--at", "8", "--no-score", str(path)).stdout)
    assert "net_score" not in plain and "net_loss" not in plain["postmortem"][0]
    # Without announcements the score search runs only when asked for.
    assert "net_score" not in json.loads(run("--json", str(EXAMPLES / "whole-deal.json")).stdout)
    asked = json.loads(run("--json", "--score", str(EXAMPLES / "whole-deal.json")).stdout)
    assert asked["net_score"]["score"] == net_score(load_deal(EXAMPLES / "whole-deal.json")).score


def test_point_announcements_without_piles_are_not_followed() -> None:
    data = ending(
        hands={"forehand": ["I", "XXI", "Sk"], "dealer": ["HK", "H4", "H3"]},
        announcements=[
            {"by": "forehand", "what": "absolut", "when": "after"},
            {"by": "forehand", "what": "pagat", "when": "before"},
        ],
        play=["XXI", "H4"],
    )
    result = run("--json", write(data))
    assert result.exit_code == 0, result.output
    goals = json.loads(result.stdout)["postmortem_summary"]["goals"]
    assert [goal["what"] for goal in goals] == ["pagat"]


@pytest.mark.parametrize("argument", ["--version", "-h"])
def test_the_version_and_the_help_import_no_command(argument: str) -> None:
    # Each command's module is imported when it runs: the version and the
    # group's help start at once (issue 20 measured 0.45 s before, 0.10 s after).
    program = (
        "import sys\n"
        "from kosolve.cli.main import main\n"
        f"sys.argv = ['kosolve', {argument!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(name for name in sys.modules if name.startswith(('kosolve', 'numpy'))), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    loaded = set(ast.literal_eval(done.stderr.strip().splitlines()[-1]))
    assert loaded <= {"kosolve", "kosolve._version", "kosolve.cli", "kosolve.cli.main", "kosolve.cli.errors"}, loaded
