"""Bad input of every kind gets one short line: the deal file's reader and
the command line's loading and usage errors (docs/deal-files.md)."""

from __future__ import annotations

import doctest
import io
import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

import pytest
from click.testing import Result
from support import EXAMPLES, interruptible
from support.cli import run
from support.deal_files import ENDING, ending, error_of, one_line

import kosolve.cli.errors
import kosolve.cli.loading
import kosolve.model.quoting
from kosolve.analysis.report import Analyser, Options
from kosolve.cli.errors import INTERRUPTED, shown
from kosolve.cli.loading import DealFileError
from kosolve.cli.main import main
from kosolve.model.announcements import AnnouncementError, check_announcements
from kosolve.model.cards import CARD_NAMES, CardError, card_name, parse_card
from kosolve.model.deal import DealError, deal_to_json
from kosolve.model.files import load_deal, parse_deal, read_deal
from kosolve.model.game import Rules, RulesError
from kosolve.model.jsonfile import MAX_FILE_BYTES
from kosolve.model.quoting import QUOTE_LIMIT, describe, quote


def text_error_of(text: str | bytes) -> str:
    data = text.encode() if isinstance(text, str) else text
    with pytest.raises(DealError) as caught:
        read_deal(io.BytesIO(data), "deal.json")
    return one_line(caught.value)


def nested(depth: int) -> object:
    value: object = "HK"
    for _ in range(depth):
        value = [value]
    return value


# Task 1: nesting a thousand deep.


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_deep_json_is_a_deal_error(depth: int) -> None:
    assert text_error_of("[" * depth + "]" * depth) == "deal.json: broken JSON: nested too deep (a deal nests 3 levels)"
    text = json.dumps(ending(play="PLAY")).replace('"PLAY"', "[" * depth + "]" * depth)
    assert "nested too deep" in text_error_of(text)


def test_deep_json_in_a_file_is_a_deal_error(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_text('{"hands": ' * 5000, encoding="utf-8")
    with pytest.raises(DealError, match="nested too deep"):
        load_deal(path)


@pytest.mark.parametrize("key", ["version", "contract", "hands", "play", "announcements", "piles"])
def test_deep_python_data_is_a_deal_error(key: str) -> None:
    assert error_of(ending(**{key: nested(100_000)})).startswith(f"deal.json: {key}")


def test_deep_python_data_inside_fields_is_a_deal_error() -> None:
    deep = nested(100_000)
    assert "hands.dealer[0]: expected a card name, got an array" in error_of(
        ending(hands={"forehand": ["HK"], "dealer": [deep]})
    )
    assert "announcements[0].kontra: expected true or false, got an array" in error_of(
        ending(announcements=[{"by": "forehand", "what": "pagat", "when": "after", "kontra": deep}])
    )


def test_a_list_holding_itself_is_a_deal_error() -> None:
    loop: list[object] = []
    loop.append(loop)
    assert error_of(ending(play=[loop])) == "deal.json: play[0]: expected a card name, got an array"


# Task 2: whatever is echoed is quoted, escaped and short.


def test_quote_escapes_control_characters_and_non_ascii() -> None:
    assert quote("a\nb\r\t\x1b\x00") == r"'a\nb\r\t\x1b\x00'"
    assert quote("\u212a") == r"'\u212a'"
    assert quote("\U0001f0a1") == r"'\U0001f0a1'"
    assert quote("'\\") == r"'\'\\'"


@pytest.mark.parametrize("text", ["x" * 50_000_000, "\n" * 1000, "é" * 1000, "\U0001f0a1" * 100])
def test_quote_is_short(text: str) -> None:
    quoted = quote(text)
    assert quoted.endswith("'...")
    assert len(quoted) <= QUOTE_LIMIT + 5
    assert quoted.isascii() and quoted.isprintable()


def test_describe_never_shows_a_huge_number() -> None:
    assert describe(10**5000) == "a number too long to show"
    assert describe(-(10**39)) == f"the number {-(10**39)}"
    assert describe(1e308) == "the number 1e+308"


HUGE = "x" * 50_000_000

ECHOED = [
    ending(contract=HUGE),
    ending(declarer="fore\nhand"),
    ending(hands={"forehand": ["HK"], "dealer": [HUGE]}),
    ending(hands={"forehand": ["HK"], "dealer": ["H\n4"]}),
    ending(announcements=[{"by": "forehand", "what": HUGE, "when": "after"}]),
    ending(announcements=[{"by": "forehand", "what": "pagat", "when": "aft\ner"}]),
    ending(announcements=[{"by": "forehand", "what": "pagat", "when": "after", "kontra": HUGE}]),
    ending(version=HUGE),
    ending(version=10**5000),
    ending(version=-(10**4000)),
    ending(play=HUGE),
    {**ENDING, HUGE: 1},
    {**ENDING, "col\nour": 1},
    ending(hands={"forehand": ["HK"], "dealer": ["HQ"], "nor\nth": []}),
    ending(hands={"forehand": ["HK"], "dealer": ["HQ"], HUGE: []}),
    ending(announcements=[{"by": "forehand", "what": "pagat", "when": "after", "a\nt": 1}]),
    ending(announcements=[{"by": "forehand", "what": "pagat", "when": "after", HUGE: 1}]),
    HUGE,
]


@pytest.mark.parametrize("data", ECHOED, ids=range(len(ECHOED)))
def test_echoed_input_is_escaped_and_shortened(data: object) -> None:
    message = error_of(data)
    assert "xxxxx" * 9 not in message


def test_an_odd_key_is_quoted_in_brackets() -> None:
    assert error_of({**ENDING, "col\nour": 1}).startswith(r"deal.json: ['col\nour']: unknown key (a deal has ")
    assert error_of(ending(hands={"forehand": ["HK"], "dealer": ["HQ"], "nor th": []})).startswith(
        "deal.json: hands['nor th']: unknown seat"
    )
    numbered: dict[Any, Any] = {**ENDING, 3: 1}
    assert error_of(numbered) == "deal.json: a key is the number 3, not a string"


def test_a_file_name_that_would_break_the_line_is_quoted(tmp_path: Path) -> None:
    path = tmp_path / "a\nb.json"
    with pytest.raises(DealError) as caught:
        load_deal(path)
    assert r"a\nb.json': cannot read the file" in one_line(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"version": 1, "version": 1}', "deal.json: version: key given twice"),
        (
            '{"version": 1, "contract": "solo", "declarer": "forehand",'
            ' "hands": {"forehand": ["HK"], "forehand": ["HQ"], "dealer": ["H4"]}}',
            "deal.json: hands.forehand: key given twice",
        ),
        ('{"version": NaN}', "deal.json: broken JSON: NaN is not a JSON value"),
        ('{"version": -Infinity}', "deal.json: broken JSON: -Infinity is not a JSON value"),
        ('{"version": 1' + "0" * 5000 + "}", "deal.json: a number of 5001 digits (no field of a deal needs more"),
        (
            json.dumps(ENDING).replace(": 1,", ": 1e999,"),
            "deal.json: version: expected the number 1, got the number inf",
        ),
        (b'{"version": 1, "contract": "\xff"}', "deal.json: not UTF-8 text (byte 28: invalid start byte)"),
        (b"\xef\xbb\xbf[]", "deal.json: expected a JSON object (a deal), got an array"),
        ('{"version": 1, "contract": "' + HUGE[:100_000], "deal.json: line 1, column 28: broken JSON: Unterminated"),
    ],
)
def test_reading_json_text(text: str | bytes, message: str) -> None:
    assert text_error_of(text).startswith(message)


def test_a_file_larger_than_any_deal_is_refused() -> None:
    message = text_error_of(b" " * (MAX_FILE_BYTES + 1))
    assert message == f"deal.json: more than {MAX_FILE_BYTES >> 20} MB, too large for a deal file"


# Task 5: only the ASCII spellings kept on purpose are aliases.

ALIASES = [
    ("hk", "HK"),
    ("s10", "S10"),
    ("xxi", "XXI"),
    ("Xxi", "XXI"),
    ("skus", "Sk"),
    ("SKIS", "Sk"),
    ("Skus", "Sk"),
    ("pagat", "I"),
    ("Mond", "XXI"),
    ("SK", "SK"),
    ("Sk", "Sk"),
]


@pytest.mark.parametrize(("spelling", "name"), ALIASES)
def test_ascii_aliases_of_cards(spelling: str, name: str) -> None:
    assert card_name(parse_card(spelling)) == name


@pytest.mark.parametrize("spelling", ["Sk\u00fcs", "sk\u00fcs", "SK\u00dcS"])
def test_the_skus_by_its_own_name(spelling: str) -> None:
    assert card_name(parse_card(spelling)) == "Sk"


LOOK_ALIKES = [
    ("\u017f10", "S10"),  # long s
    ("H\u212a", "HK"),  # Kelvin sign
    ("\uff28\uff2b", "HK"),  # full-width letters
    ("HK\n", "HK"),
    (" HK", "HK"),
    ("HK\u00a0", "HK"),
    ("xx\u0131", "XXI"),  # dotless i
    ("\u2160", "I"),  # Roman numeral one
    ("\u2665Q", "HQ"),  # suit symbols are no longer read
    ("\u266010", "S10"),
    ("Sku\u0308s", "Sk"),  # u and a combining diaeresis: only the precomposed ü is the card's name
    ("\U0001d407K", "HK"),  # mathematical bold H
]


@pytest.mark.parametrize(("spelling", "name"), LOOK_ALIKES)
def test_look_alike_card_names_are_refused_with_a_suggestion(spelling: str, name: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_card(spelling)
    message = one_line(caught.value)
    assert message.startswith(f"unknown card {quote(spelling)}")
    assert f"did you mean {name}" in message or f"or {name}?" in message


def test_a_look_alike_in_a_deal_is_a_deal_error() -> None:
    message = error_of(ending(hands={"forehand": ["HK", "H4", "XX"], "dealer": ["I", "HQ", "S\u212a"]}))
    assert message == r"deal.json: hands.dealer[2]: unknown card 'S\u212a' (did you mean SK or Sk?)"


WORDS = [("contract", "Solo", "solo"), ("declarer", "DEALER", "dealer"), ("leader", "Dealer", "dealer")]


@pytest.mark.parametrize(("key", "spelling", "word"), WORDS)
def test_words_ignore_ascii_letter_case(key: str, spelling: str, word: str) -> None:
    deal = parse_deal(ending(**{key: spelling}), "deal.json")
    assert deal_to_json(deal)[key] == word


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            ending(declarer="ForeHand\n"),
            r"deal.json: declarer: unknown seat 'ForeHand\n' (expected forehand or dealer)",
        ),
        (ending(declarer=" forehand"), "deal.json: declarer: unknown seat ' forehand'"),
        (ending(leader="\uff44ealer"), r"deal.json: leader: unknown seat '\uff44ealer'"),
        (ending(contract="\u017folo"), r"deal.json: contract: unknown contract '\u017folo'"),
        (ending(contract="SOLO\u200b"), r"deal.json: contract: unknown contract 'SOLO\u200b'"),
        (
            ending(announcements=[{"by": "forehand", "what": "without_\u212aings", "when": "after"}]),
            r"deal.json: announcements[0].what: unknown announcement 'without_\u212aings'",
        ),
        (
            ending(announcements=[{"by": "forehand", "what": "pagat", "when": "AFTER "}]),
            "deal.json: announcements[0].when: unknown timing 'AFTER '",
        ),
        (
            ending(hands={"forehand": ["HK"], "dealer": ["HQ"], "Dealer": ["H4"]}),
            "deal.json: hands.Dealer: unknown seat (expected forehand and dealer)",
        ),
        ({**ENDING, "Version": 1}, "deal.json: Version: unknown key"),
    ],
)
def test_look_alike_words_are_refused(data: object, message: str) -> None:
    assert error_of(data).startswith(message)


# Task 6: an unknown card names the cards it resembles.


@pytest.mark.parametrize(
    ("spelling", "hint"),
    [
        ("10S", "(did you mean S10?)"),
        ("KH", "(did you mean HK?)"),
        ("1D", "(did you mean D1?)"),
        ("XXII", "(did you mean XII or XXI?)"),
        ("XXIII", "(did you mean XIII?)"),
        ("Q", "(did you mean HQ or DQ or SQ or CQ?)"),
        ("Mound", "(did you mean XXI?)"),
        ("H10", "(did you mean H1?)"),
        ("S1", "(did you mean S10?)"),
        ("21", "(did you mean XXI?)"),
        ("Skues", "(did you mean Sk?)"),
        ("\u017fk", "(did you mean SK or Sk?)"),
        ("HA", "(hearts are HK HQ HC HJ H1 H2 H3 H4)"),
        ("S6", "(spades are SK SQ SC SJ S10 S9 S8 S7)"),
        ("Cx", "(clubs are CK CQ CC CJ C10 C9 C8 C7)"),
    ],
)
def test_an_unknown_card_suggests_the_nearest_names(spelling: str, hint: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_card(spelling)
    assert one_line(caught.value) == f"unknown card {quote(spelling)} {hint}"


@pytest.mark.parametrize("spelling", ["", "joker", "x" * 10_000, "\U0001f0a1", "??"])
def test_a_name_like_no_card_gets_no_suggestion(spelling: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_card(spelling)
    assert one_line(caught.value) == f"unknown card {quote(spelling)}"


def test_suggestions_are_canonical_names() -> None:
    for name in CARD_NAMES:
        for spelling in (name + "x", "x" + name, name[::-1] + "\n"):
            try:
                parse_card(spelling)
            except CardError as error:
                suggested = re.search(r"did you mean (.*)\?\)$", str(error))
                if suggested:
                    assert set(suggested[1].split(" or ")) <= set(CARD_NAMES), str(error)


# The command line: tasks 3 (one line for usage errors), 4 (Ctrl-C), 7 (stdin), 8 (rule switches).


def assert_one_line(result: Result, line: str) -> None:
    """Bad input: exactly ``line`` on stderr, exit status 2, nothing on stdout."""
    assert result.exit_code == 2, (result.exit_code, result.output[:300])
    assert result.stdout == ""
    assert result.stderr == line + "\n"


def write(data: object, name: str = "deal.json") -> str:
    Path(name).write_text(json.dumps(data), encoding="utf-8")
    return name


@pytest.mark.usefixtures("in_tmp_path")
@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["."], "Error: .: cannot read the file: Is a directory"),
        (["missing.json"], "Error: missing.json: cannot read the file: No such file or directory"),
        (["--at", "-1", "deal.json"], "Error: --at: -1 is not in the range x>=0."),
        (["--at", "x", "deal.json"], "Error: --at: 'x' is not a valid integer range."),
        (["--at", "1\n2", "deal.json"], r"Error: --at: '1\n2' is not a valid integer range."),
        (["--at", "3", "deal.json"], "Error: deal.json: --at: 3 is beyond the play, which has 0 cards"),
        (["--tt-mb", "-5", "deal.json"], "Error: --tt-mb: -5.0 is not in the range 1.0<=x<=16384.0."),
        (["--win-thirds", "105", "deal.json"], "Error: --win-thirds: '105' is not one of '107', '106'."),
        (["--zzz", "deal.json"], "Error: --zzz: no such option"),
        (["--at"], "Error: Option '--at' requires an argument."),
        (["solve"], "Error: Missing argument 'DEAL.json...' (or --position TEXT)"),
        (["bench", "--deals", "x"], "Error: --deals: 'x' is not a valid integer range."),
        (["bench", "extra"], "Error: Got unexpected extra argument (extra)"),
    ],
)
def test_usage_errors_are_one_line(args: list[str], line: str) -> None:
    write(ENDING)
    assert_one_line(run(*args), line)


@pytest.mark.usefixtures("in_tmp_path")
def test_an_unknown_option_gets_click_s_guesses_in_one_line() -> None:
    result = run("--scor", write(ENDING))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("Error: --scor: no such option (did you mean --score")
    assert result.stderr.count("\n") == 1


@pytest.mark.usefixtures("in_tmp_path")
def test_a_file_given_as_a_directory_path_is_named() -> None:
    Path("deals").mkdir()
    assert_one_line(run("deals/"), "Error: deals/: cannot read the file: Is a directory")
    assert_one_line(run("-q", write(ENDING), "deals"), "Error: deals: cannot read the file: Is a directory")


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["solve", "--help"], ["bench", "-h"], ["--at", "x", "-h"]])
def test_help_is_unchanged(args: list[str]) -> None:
    result = run(*args)
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: kosolve")
    assert "Options:" in result.stdout


def test_solve_help_tells_of_the_standard_input() -> None:
    assert "A DEAL.json of - reads one deal from the standard input" in run("solve", "-h").stdout


def test_ctrl_c_while_solving_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> NoReturn:
        raise KeyboardInterrupt

    monkeypatch.setattr(Analyser, "analyse", interrupted)
    result = run(str(EXAMPLES / "ending.json"))
    assert result.exit_code == INTERRUPTED == 130
    assert result.stdout == ""
    assert result.stderr == "Interrupted\n"


def test_ctrl_c_while_reading_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> NoReturn:
        raise KeyboardInterrupt

    monkeypatch.setattr(kosolve.cli.loading, "read_json", interrupted)
    assert run("-q", "-", input="{}").exit_code == 130


def test_out_of_memory_is_a_one_line_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    def exhausted(*args: object, **kwargs: object) -> NoReturn:
        raise MemoryError

    monkeypatch.setattr(Analyser, "analyse", exhausted)
    result = run(str(EXAMPLES / "ending.json"))
    assert result.exit_code == 1
    assert result.stderr == "Error: out of memory\n"


def test_the_console_script_exits_2_on_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--at", "x", str(EXAMPLES / "ending.json")])
    assert caught.value.code == 2
    assert capsys.readouterr().err == "Error: --at: 'x' is not a valid integer range.\n"


def test_a_real_interrupt_exits_130() -> None:
    # The child says when it is about to read its standard input, which the
    # test never closes: the SIGINT finds it blocked in that read.
    code = "import sys, kosolve.cli.main as m; print('ready', flush=True); m.main(['-q', '-'])"
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=interruptible,
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
        time.sleep(0.5)
        child.send_signal(signal.SIGINT)
        _, stderr = child.communicate(timeout=30)
    finally:
        child.kill()
    assert child.returncode == 130, stderr
    assert stderr == "Interrupted\n"


def test_a_deal_on_the_standard_input() -> None:
    text = (EXAMPLES / "ending.json").read_text(encoding="utf-8")
    result = run("-q", "-", input=text)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("<stdin>: 37 points (111 thirds), won")
    data = json.loads(run("--json", "--no-feasibility", "-", input=text).stdout)
    assert data["file"] == "<stdin>"
    assert run("-q", "-", input=b"\xef\xbb\xbf" + text.encode()).exit_code == 0


@pytest.mark.parametrize(
    ("args", "input", "line"),
    [
        (["-"], "", "Error: <stdin>: line 1, column 1: broken JSON: Expecting value"),
        (["-"], "[" * 5000, "Error: <stdin>: broken JSON: nested too deep (a deal nests 3 levels)"),
        (["-"], b'{"version": "\xff"}', "Error: <stdin>: not UTF-8 text (byte 13: invalid start byte)"),
        (
            ["-"],
            json.dumps(ending(contract="Solo\n")),
            r"Error: <stdin>: contract: unknown contract 'Solo\n' (expected",
        ),
        (["-", "-"], json.dumps(ENDING), "Error: <stdin>: given 2 times, but holds one deal"),
        (["--at", "2", "-"], json.dumps(ENDING), "Error: <stdin>: --at: 2 is beyond the play, which has 0 cards"),
    ],
)
def test_bad_input_on_the_standard_input(args: list[str], input: str | bytes, line: str) -> None:
    result = run(*args, input=input)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(line) and result.stderr.count("\n") == 1


ANNOUNCED = ending(announcements=[{"by": "dealer", "what": "pagat", "when": "after"}])
KONTRA = ending(announcements=[{"by": "forehand", "what": "uhu", "when": "after", "kontra": True}])


@pytest.mark.usefixtures("in_tmp_path")
@pytest.mark.parametrize(
    ("data", "switch", "line"),
    [
        (
            ANNOUNCED,
            "--defender-announcements",
            "Error: deal.json: announcements[0].by: the dealer defends,"
            " and defender announcements are off (use --defender-announcements)",
        ),
        (KONTRA, "--kontra", "Error: deal.json: announcements[0].kontra: Kontra is off (use --kontra)"),
    ],
)
def test_a_message_about_a_rule_option_names_its_switch(data: object, switch: str, line: str) -> None:
    name = write(data)
    assert switch in line
    assert_one_line(run("-q", name), line)
    assert run("-q", switch, name).exit_code == 0


def test_the_library_names_a_rule_option_by_its_field_and_the_command_line_by_its_switch() -> None:
    with pytest.raises(RulesError, match=r"^win_thirds: 105 is not one of the rule option's values \(107 or 106\)$"):
        Rules(win_thirds=105)
    result = run("--win-thirds", "36", str(EXAMPLES / "ending.json"))
    assert result.exit_code == 2 and result.stderr.startswith("Error: --win-thirds: ")
    deal = parse_deal(ending(announcements=[{"by": "dealer", "what": "uhu", "when": "after", "kontra": True}]), "d")
    with pytest.raises(
        AnnouncementError, match=r"defender announcements are off \(rule option defender_announcements\)$"
    ):
        check_announcements(deal.announcements, deal.contract, deal.declarer, Rules(kontra=True))
    with pytest.raises(AnnouncementError, match=r"Kontra is off \(rule option kontra\)$") as raised:
        check_announcements(deal.announcements, deal.contract, deal.declarer, Rules(defender_announcements=True))
    assert raised.value.option == "kontra" and shown(raised.value).endswith("Kontra is off (use --kontra)")


@pytest.mark.parametrize("module", [kosolve.model.quoting, kosolve.cli.errors, kosolve.cli.loading])
def test_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_a_huge_holding_stops_at_the_first_card_given_twice() -> None:
    names: list[object] = ["HK"] * 1_000_000
    assert error_of(ending(hands={"forehand": names, "dealer": ["HQ"]})) == (
        "deal.json: hands.forehand[1]: HK is also at hands.forehand[0]"
    )
    assert error_of(ending(play=[7] * 1_000_000)) == "deal.json: play: 1000000 cards played, but the hands hold only 6"


def test_a_closed_standard_input_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    # Python sets sys.stdin to None when the process has no file 0 (kosolve - <&-).
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(DealFileError, match=r"^<stdin>: cannot read the file: there is no standard input$"):
        kosolve.cli.loading.load_deals(["-"], Options())
