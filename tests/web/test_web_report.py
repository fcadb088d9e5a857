"""``kosolve report`` and ``kosolve serve`` through click's CliRunner, and the
self-contained page: every answer inline is the API's for that position,
nothing is fetched, bad input is one line with nothing written."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from support import EXAMPLES, without_stats
from support.cli import run

import kosolve.cli.running
from kosolve.analysis.report import Analyser
from kosolve.model.files import load_deal, load_dealt_file
from kosolve.review.judging import review
from kosolve.web.api import exchange_answer, position_answer, review_answer
from kosolve.web.report import render_html, report_data

DATA = re.compile(r'<script id="kosolve-data" type="application/json">(.*?)</script>', re.DOTALL)


def inline_data(page: str) -> dict[str, Any]:
    found = DATA.search(page)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


@pytest.fixture(scope="module")
def played_page(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("report") / "played.html"
    result = run("report", "-q", str(EXAMPLES / "played.json"), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    return out.read_text(encoding="utf-8")


def test_the_report_holds_every_position_of_the_play(played_page: str) -> None:
    deal = load_deal(EXAMPLES / "played.json")
    data = inline_data(played_page)
    analyser = Analyser(tt_mb=16)
    assert len(data["positions"]) == len(deal.play) + 1
    for at, answer in enumerate(data["positions"]):
        assert without_stats(answer) == without_stats(position_answer(analyser, deal, at))
        assert answer["report"]["at"] == at
    review: dict[str, Any] = review_answer(analyser, deal)
    assert data["review"]["report"]["postmortem"] == review["report"]["postmortem"]
    assert data["exchange"] is None and data["name"].endswith("played.json")


def test_the_report_is_self_contained(played_page: str) -> None:
    assert "<link" not in played_page and "<script src" not in played_page
    assert not re.search(r"(src|href)=\"(https?:)?//", played_page)
    assert "<style>" in played_page and "kosolve-data" in played_page
    # One <script> for the data, one for the page's code.
    assert played_page.count("<script") == 2


def test_the_data_cannot_close_its_script_element() -> None:
    data: dict[str, object] = {"api": 1, "name": "</script><b>", "positions": [], "review": None, "exchange": None}
    page = render_html(data)
    assert inline_data(page) == data
    assert page.count("</script>") == 2


def test_a_deal_as_dealt_reports_its_exchange_table(tmp_path: Path) -> None:
    out = tmp_path / "dealt.html"
    result = run("report", "-q", str(EXAMPLES / "dealt.json"), "-o", str(out))
    assert result.exit_code == 0, result.output
    data = inline_data(out.read_text(encoding="utf-8"))
    file = load_dealt_file(EXAMPLES / "dealt.json")
    assert data["exchange"] == exchange_answer(Analyser(tt_mb=16), file)
    assert len(data["positions"]) == 1 and data["review"] is None


@pytest.mark.slow
def test_a_deal_as_dealt_without_a_bid_reports_the_exchange_only(tmp_path: Path) -> None:
    data = report_data(Analyser(tt_mb=16), "open", None, load_dealt_file(EXAMPLES / "dealt-open.json"))
    assert data["positions"] == [] and data["review"] is None
    assert data["exchange"] is not None
    result = run("report", "-q", str(EXAMPLES / "dealt-open.json"), "-o", str(tmp_path / "open.html"))
    assert result.exit_code == 0, result.output


def dealt_game(path: Path) -> Path:
    """A deal as dealt with its bid, exchange and play: a game of two
    heuristic bots, written to ``path``."""
    import random

    from kosolve.dealing import deal_as_dealt
    from kosolve.model.dealt_file import dealt_to_json
    from kosolve.play.bots import make_bot
    from kosolve.play.game import Game
    from kosolve.play.player import ask

    for seed in range(1, 20):
        game = Game(deal_as_dealt(random.Random(seed)))
        bots = [make_bot("heuristic"), make_bot("heuristic")]
        for seat, bot in enumerate(bots):
            bot.start(seed, seat)
        while not game.over:
            decision = game.decision()
            bots[1 - decision.seat].observe(ask(bots[decision.seat], decision, game))
        if game.dealt_file is not None and game.contract != "solo":
            path.write_text(json.dumps(dealt_to_json(game.dealt_file)), encoding="utf-8")
            return path
    raise AssertionError("no game played")


def test_a_played_deal_as_dealt_reports_its_decisions_before_the_play(tmp_path: Path) -> None:
    file = dealt_game(tmp_path / "game.json")
    args = ("report", "-q", "--samples", "2", "--decision-samples", "2", "--jobs", "1", str(file))
    result = run(*args, "-o", str(tmp_path / "game.html"))
    assert result.exit_code == 0, result.output
    knew = inline_data((tmp_path / "game.html").read_text(encoding="utf-8"))["review"]["knew"]
    expected = review(load_dealt_file(file), samples=2, jobs=1, before_play=True, decision_samples=2).to_json()
    assert knew["decision_samples"] == 2 and [d["kind"] for d in knew["decisions"]][:2] == ["bid", "announce"]
    assert without_stats(knew["decisions"]) == without_stats(expected["decisions"])
    result = run(*args, "--no-decisions", "-o", str(tmp_path / "cards.html"))
    assert result.exit_code == 0, result.output
    knew = inline_data((tmp_path / "cards.html").read_text(encoding="utf-8"))["review"]["knew"]
    assert knew["decisions"] == [] and knew["decision_samples"] is None


def test_without_output_the_page_goes_to_stdout() -> None:
    result = run("report", "-q", str(EXAMPLES / "ending.json"))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("<!doctype html>")
    assert len(inline_data(result.stdout)["positions"]) == 1


def test_progress_goes_to_stderr(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A bar is drawn on a terminal only (CliRunner's stderr is not one).
    monkeypatch.setattr(kosolve.cli.running, "on_terminal", lambda: True)
    result = run("report", str(EXAMPLES / "played.json"), "-o", str(tmp_path / "p.html"))
    assert result.exit_code == 0 and result.stdout == ""
    assert "report" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.json"], "Error: missing.json: cannot read the file: No such file or directory"),
        (["-"], "Error: <stdin>: broken JSON"),
        (["--win-thirds", "99", "x.json"], "Error: --win-thirds: '99' is not one of '107', '106'."),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "out.html"
    result = run("report", *args, "-o", str(out), input="{")
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith(message.split("broken")[0])
    assert not out.exists()


def test_the_report_never_replaces_its_deal_file(tmp_path: Path) -> None:
    deal = tmp_path / "deal.json"
    deal.write_text((EXAMPLES / "ending.json").read_text(encoding="utf-8"), encoding="utf-8")
    result = run("report", str(deal), "-o", str(deal))
    assert result.exit_code == 2 and "would replace the deal file it reads" in result.stderr
    assert json.loads(deal.read_text(encoding="utf-8"))["version"] == 1


def test_serve_checks_its_files_before_serving() -> None:
    result = run("serve", "--no-browser", "missing.json")
    assert result.exit_code == 2
    assert result.stderr == "Error: missing.json: cannot read the file: No such file or directory\n"


def test_serve_says_when_it_cannot_listen() -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    result = run("serve", "--no-browser", "--host", "256.0.0.1")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: cannot listen on 256.0.0.1 port 0: ")
    assert len(result.stderr.splitlines()) == 1


def test_serve_and_report_are_in_the_help() -> None:
    result = run("--help")
    assert "report [OPTIONS] DEAL.json -o FILE.html" in result.output
    assert "serve [OPTIONS] [DEAL.json...]" in result.output
    assert "offline" in run("report", "--help").output
    assert "--no-browser" in run("serve", "--help").output


def test_serve_without_the_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    # None in sys.modules makes the import fail, as without Starlette.
    monkeypatch.setitem(sys.modules, "kosolve.web.app", None)
    result = run("serve", "--no-browser", str(EXAMPLES / "ending.json"))
    assert result.exit_code == 1
    assert result.stderr.startswith('Error: kosolve serve needs the web extra (pip install "kosolve[web]")')
    assert len(result.stderr.splitlines()) == 1
