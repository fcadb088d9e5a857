"""The page in a real browser: headless Chromium (Debian's package) driven by
Playwright.  The tests serve the examples on a free port, click cards and
press keys, and check that every value shown is the library's for the
position shown; the same for the report opened from a file.  Skipped
without Playwright, the extra ``kosolve[web]`` or Chromium
(``KOSOLVE_CHROMIUM`` names another executable than /usr/bin/chromium)."""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from support import EXAMPLES

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from click.testing import CliRunner  # noqa: E402

from kosolve.analysis.report import Analyser, Options  # noqa: E402
from kosolve.cli.main import cli  # noqa: E402
from kosolve.model.cards import card_name, parse_card  # noqa: E402
from kosolve.model.deal import Deal  # noqa: E402
from kosolve.model.files import load_deal, load_dealt_file  # noqa: E402
from kosolve.model.game import SEATS, seat_name  # noqa: E402
from kosolve.tools.dealing import deal_game  # noqa: E402
from kosolve.web.api import Service  # noqa: E402
from kosolve.web.app import serving  # noqa: E402

CHROMIUM = os.environ.get("KOSOLVE_CHROMIUM", "/usr/bin/chromium")
if not Path(CHROMIUM).is_file():
    pytest.skip(f"no Chromium at {CHROMIUM}", allow_module_level=True)

FILES = ("played.json", "played-out.json", "dealt.json")
TIMEOUT_MS = 30_000
SHOWN = """() => ({
  line: document.getElementById('board').dataset.line,
  value: Number(document.getElementById('value').dataset.thirds),
  moves: Object.fromEntries([...document.querySelectorAll('.card.legal')].map(
    (c) => [c.dataset.card,
            [Number(c.dataset.thirds), Number(c.dataset.loss), c.querySelector('.badge').textContent]])),
})"""


@pytest.fixture(scope="module")
def analyser() -> Analyser:
    return Analyser(tt_mb=16)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    files = [(name, json.loads((EXAMPLES / name).read_text(encoding="utf-8"))) for name in FILES]
    with serving(Service(tt_mb=16), files) as address:
        yield address


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    opened = browser.new_page(viewport={"width": 1280, "height": 900})
    opened.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    opened.close()
    assert errors == []


def names(cards: tuple[int, ...] | list[int]) -> str:
    return " ".join(card_name(card) for card in cards)


def wait_for_line(page: Any, cards: tuple[int, ...] | list[int]) -> dict[str, Any]:
    """What the page shows once it shows the position after ``cards``."""
    page.wait_for_function(f"() => document.getElementById('board').dataset.line === {json.dumps(names(cards))}")
    page.wait_for_function("() => document.getElementById('busy').hidden")
    shown: dict[str, Any] = page.evaluate(SHOWN)
    return shown


def points(thirds: int) -> str:
    """As the page writes them: 109 -> 36⅓."""
    whole, rest = divmod(abs(thirds), 3)
    text = (str(whole) if whole or not rest else "") + ("", "⅓", "⅔")[rest]
    return ("−" if thirds < 0 else "") + text


def assert_shows_library(shown: dict[str, Any], analyser: Analyser, deal: Deal, cards: tuple[int, ...]) -> None:
    solution = analyser.analyse(replace(deal, play=cards), Options(postmortem=False, score=False)).solution
    assert shown["value"] == solution.thirds
    expected = {}
    for move in solution.moves:
        loss = abs(solution.thirds - move.thirds)
        expected[card_name(move.card)] = [
            move.thirds,
            loss,
            points(move.thirds) + ("best" if loss == 0 else f"−{points(loss)}"),
        ]
    assert shown["moves"] == expected


def test_clicks_and_keys_show_the_library_values(page: Any, url: str, analyser: Analyser) -> None:
    deal = load_deal(EXAMPLES / "played.json")
    page.goto(url)
    shown = wait_for_line(page, ())
    assert_shows_library(shown, analyser, deal, ())
    # A card that is not the file's: the line leaves the file's play.
    other = next(card for card in shown["moves"] if parse_card(card) != deal.play[0])
    page.click(f'.card.legal[data-card="{other}"]')
    line: tuple[int, ...] = (parse_card(other),)
    assert_shows_library(wait_for_line(page, line), analyser, deal, line)
    reply = next(iter(page.evaluate(SHOWN)["moves"]))
    page.click(f'.card.legal[data-card="{reply}"]')
    line = (*line, parse_card(reply))
    assert_shows_library(wait_for_line(page, line), analyser, deal, line)
    page.keyboard.press("ArrowLeft")
    assert_shows_library(wait_for_line(page, line[:1]), analyser, deal, line[:1])
    page.click("#undo")
    wait_for_line(page, ())
    page.keyboard.press("ArrowRight")
    page.click("#redo")
    assert_shows_library(wait_for_line(page, line), analyser, deal, line)


def test_the_timeline_jumps_and_the_best_line_plays_out(page: Any, url: str, analyser: Analyser) -> None:
    deal = load_deal(EXAMPLES / "played.json")
    page.goto(url)
    wait_for_line(page, ())
    page.wait_for_selector('.step[data-after][data-index="3"]')
    review = analyser.analyse(deal, Options(moves=False, feasibility=False)).postmortem
    assert review is not None
    steps = page.evaluate(
        "() => [...document.querySelectorAll('.step[data-after]')].map((s) => [Number(s.dataset.after),"
        " Number(s.dataset.loss), s.classList.contains('mistake')])"
    )
    assert steps == [[card.after, card.loss, card.loss > 0] for card in review.cards]
    page.click('.step[data-index="3"]')
    assert_shows_library(wait_for_line(page, deal.play[:3]), analyser, deal, deal.play[:3])
    page.keyboard.press("End")
    assert_shows_library(wait_for_line(page, deal.play), analyser, deal, deal.play)
    best = analyser.analyse(deal, Options(feasibility=False, postmortem=False)).solution
    page.click("#best")
    shown = wait_for_line(page, deal.play + best.line)
    assert shown["value"] == best.thirds and shown["moves"] == {}


def test_a_played_out_hand_is_settled(page: Any, url: str, analyser: Analyser) -> None:
    deal = load_deal(EXAMPLES / "played-out.json")
    page.goto(url)
    wait_for_line(page, ())
    page.select_option("#files", label="played-out.json")
    page.wait_for_function("() => document.getElementById('board').dataset.name === 'played-out.json'")
    wait_for_line(page, ())
    page.keyboard.press("End")
    wait_for_line(page, deal.play)
    settlement = analyser.analyse(deal, Options(feasibility=False, postmortem=False)).settlement
    assert settlement is not None
    totals = json.loads(page.get_attribute("[data-totals]", "data-totals"))
    assert totals == {seat_name(seat): settlement.totals[seat] for seat in SEATS}


def test_a_deal_as_dealt_shows_the_exchange_table_and_par(page: Any, url: str, analyser: Analyser) -> None:
    file = load_dealt_file(EXAMPLES / "dealt.json")
    page.goto(url)
    wait_for_line(page, ())
    page.select_option("#files", label="dealt.json")
    page.wait_for_selector("#par")
    report = analyser.analyse_exchange(file.dealt)
    assert int(page.get_attribute("#par", "data-game-points")) == report.par.game_points
    shown = page.evaluate(
        "() => [...document.querySelectorAll('#exchange-table td[data-thirds]')].map((td) => Number(td.dataset.thirds))"
    )
    assert shown == [row.thirds for row in report.table.rows]
    page.wait_for_function("() => document.getElementById('board').dataset.name === 'dealt.json'")
    assert_shows_library(wait_for_line(page, ()), analyser, file.play_deal(), ())


def test_a_random_deal_is_the_realistic_deal_of_its_seed(page: Any, url: str, analyser: Analyser) -> None:
    page.goto(url)
    wait_for_line(page, ())
    page.fill("#seed", "42")
    page.click("#random")
    page.wait_for_function("() => document.getElementById('board').dataset.name === 'random deal, seed 42'")
    assert_shows_library(wait_for_line(page, ()), analyser, deal_game(random.Random(42)), ())


class SlowService(Service):
    """Each position takes a third of a second more: clicks come faster than
    answers."""

    def position(self, request: Mapping[str, object]) -> dict[str, object]:
        time.sleep(0.3)
        return super().position(request)


def test_a_click_dropped_for_a_newer_one_is_no_error(page: Any, analyser: Analyser) -> None:
    deal = load_deal(EXAMPLES / "played.json")
    with serving(SlowService(tt_mb=16), [("played.json", json.loads((EXAMPLES / "played.json").read_text()))]) as url:
        statuses: list[int] = []
        page.on("response", lambda response: statuses.append(response.status) if "position" in response.url else None)
        page.goto(url)
        wait_for_line(page, ())
        for _ in range(4):
            page.keyboard.press("ArrowRight")
        assert_shows_library(wait_for_line(page, deal.play[:4]), analyser, deal, deal.play[:4])
        # The server dropped the clicks still waiting when a newer one came.
        assert 409 in statuses
        assert page.is_hidden("#error")


def test_a_bad_deal_is_one_line_on_the_page(page: Any, url: str) -> None:
    page.goto(url)
    wait_for_line(page, ())
    page.click("#paste-box summary")
    page.fill("#paste", json.dumps({"version": 1, "contract": "solo"}))
    page.click("#load-paste")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == "deal: declarer: required key missing"


def test_the_report_steps_from_the_file_system(page: Any, analyser: Analyser, tmp_path: Path) -> None:
    deal = load_deal(EXAMPLES / "played.json")
    out = tmp_path / "played.html"
    result = CliRunner().invoke(cli, ["report", "-q", str(EXAMPLES / "played.json"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    page.route("**/*", lambda route: route.abort() if not route.request.url.startswith("file:") else route.continue_())
    page.goto(out.as_uri())
    assert_shows_library(wait_for_line(page, ()), analyser, deal, ())
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert_shows_library(wait_for_line(page, deal.play[:2]), analyser, deal, deal.play[:2])
    page.keyboard.press("End")
    assert_shows_library(wait_for_line(page, deal.play), analyser, deal, deal.play)
    page.click('.step[data-index="1"]')
    assert_shows_library(wait_for_line(page, deal.play[:1]), analyser, deal, deal.play[:1])
    # Off the file's play the report has no answers, and says so.
    page.keyboard.press("Home")
    wait_for_line(page, ())
    other = next(card for card in page.evaluate(SHOWN)["moves"] if parse_card(card) != deal.play[0])
    page.click(f'.card.legal[data-card="{other}"]')
    page.wait_for_selector("#error:not([hidden])")
    assert "holds the file's play only" in page.inner_text("#error")
    assert page.evaluate(SHOWN)["line"] == ""
