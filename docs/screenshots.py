"""Regenerate the screenshots of the web view in docs/ (docs/web.md shows
them): the served page in play, a hand played out with its settlement, the
exchange table of a deal as dealt, a game against kosolve (its lay-away,
its play, its end, on a phone), the page on a phone, and the report opened
from a file.  Headless Chromium (Debian's package) driven by
Playwright, as in tests/web/test_browser.py.

Usage: ``python docs/screenshots.py [--chromium /usr/bin/chromium]``
(needs ``kosolve[web]`` and Playwright).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import ViewportSize, sync_playwright

from kosolve.analysis.report import Analyser
from kosolve.cli.loading import load_viewed
from kosolve.model.game import DEFAULT_RULES
from kosolve.web.api import Service
from kosolve.web.app import serving
from kosolve.web.report import render_html, report_data

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXAMPLES = ("examples/played.json", "examples/played-out.json", "examples/dealt.json")
LAPTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 390, "height": 844}


def shown(page: Any, line: str) -> None:
    """Wait until the page shows the position after ``line``."""
    page.wait_for_function(f"() => document.getElementById('board').dataset.line === {json.dumps(line)}")
    page.wait_for_function("() => document.getElementById('busy').hidden")


def play_game(page: Any, shots: dict[str, str], until: str | None = None, board_only: bool = False) -> None:
    """Play the game of seed 5 as the forehand against the heuristic bot by
    clicking: a Dreiblatt, one announcement, the first talon group, the
    first cards that make a lay-away, the first legal card each trick.
    ``shots`` names the screenshot to take at a moment (``lay_away`` once
    the cards are chosen, ``trick N`` when the user is to lead trick N);
    stop there when it is ``until``, else at the end; ``board_only`` shoots
    the table alone, else the whole page."""
    page.click("#play-game")
    page.select_option("#game-bot", "heuristic")
    page.fill("#game-seed", "5")
    page.click("#game-start")
    announced = False
    while True:
        page.wait_for_selector("#game-board:not(.waiting)[data-decision]", state="attached")
        page.wait_for_function("() => document.getElementById('loading').hidden")
        kind = page.get_attribute("#game-board", "data-decision")
        if not kind:
            page.wait_for_selector("#game-result")
            return
        moves = page.get_attribute("#game-log", "data-moves")
        if kind == "bid":
            page.click("#game-options button[data-option=dreiblatt]")
        elif kind in ("announce", "kontra"):
            page.click(f"#game-options button[data-index='{0 if announced or kind == 'kontra' else 1}']")
            announced = True
        elif kind == "take":
            page.click("#game-talon .talon-group.playable")
        elif kind == "lay_away":
            while page.is_disabled("#game-lay"):
                page.click("#game-hand .card.playable:not(.selected)")
            if "lay_away" in shots:
                page.mouse.move(0, 0)  # no card raised by the pointer resting on it
                page.screenshot(path=str(DOCS / shots["lay_away"]), full_page=True)
            page.click("#game-lay")
        else:
            tricks = page.query_selector_all("#game-log .ttrick")
            moment = f"trick {len(tricks) + 1}"
            leading = not page.query_selector("#game-table .trick.now .slot")
            if leading and moment in shots:
                page.mouse.move(0, 0)
                if board_only:
                    page.locator("#game-board").screenshot(path=str(DOCS / shots[moment]))
                else:
                    page.screenshot(path=str(DOCS / shots[moment]), full_page=True)
            if leading and moment == until:
                return
            page.click("#game-hand .card.playable")
        page.wait_for_function("(moves) => document.getElementById('game-log').dataset.moves !== moves", arg=moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium", help="the Chromium executable")
    args = parser.parse_args()
    # The pages name the examples as given, relative to the root.
    os.chdir(ROOT)
    files = [(name, json.loads((ROOT / name).read_text(encoding="utf-8"))) for name in EXAMPLES]
    with serving(Service(), files) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport=LAPTOP)
        page.goto(url)
        shown(page, "")
        page.wait_for_selector('.step[data-after][data-index="3"]')
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        shown(page, "DK D2 S10")
        page.screenshot(path=str(DOCS / "web-play.png"), full_page=True)

        page.select_option("#files", label="examples/played-out.json")
        page.wait_for_function("() => document.getElementById('board').dataset.name === 'examples/played-out.json'")
        page.wait_for_selector(".step[data-after]")
        page.keyboard.press("End")
        page.wait_for_selector("#settlement-table")
        page.screenshot(path=str(DOCS / "web-played-out.png"), full_page=True)

        page.select_option("#files", label="examples/dealt.json")
        page.wait_for_selector("#exchange-table")
        page.locator("#exchange").screenshot(path=str(DOCS / "web-exchange.png"))

        # A game against kosolve's heuristic bot, played by clicking: the
        # lay-away chosen in the hand, the table in the middle of the play,
        # the end; and the table on a phone.
        game = browser.new_page(viewport=LAPTOP)
        game.goto(url)
        shown(game, "")
        play_game(game, {"lay_away": "web-game-lay-away.png", "trick 5": "web-game.png"})
        game.locator("#game-end").screenshot(path=str(DOCS / "web-game-end.png"))
        on_phone = browser.new_page(viewport=PHONE, device_scale_factor=2)
        on_phone.goto(url)
        shown(on_phone, "")
        play_game(on_phone, {"trick 3": "web-game-phone.png"}, until="trick 3", board_only=True)

        phone = browser.new_page(viewport=PHONE, device_scale_factor=2)
        phone.goto(url)
        shown(phone, "")
        phone.screenshot(path=str(DOCS / "web-phone.png"))

        # The report, written as `kosolve report` writes it and opened from a file.
        name, _, deal, dealt = load_viewed("examples/played.json", DEFAULT_RULES)
        page_html = render_html(report_data(Analyser(), name, deal, dealt))
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "played.html"
            path.write_text(page_html, encoding="utf-8")
            report = browser.new_page(viewport=LAPTOP)
            report.goto(path.as_uri())
            shown(report, "")
            report.keyboard.press("End")
            report.keyboard.press("ArrowLeft")
            shown(report, "DK D2 S10 XX H2 H3")
            report.screenshot(path=str(DOCS / "web-report.png"), full_page=True)
        browser.close()
    for image in (
        "web-play.png",
        "web-played-out.png",
        "web-exchange.png",
        "web-game.png",
        "web-game-lay-away.png",
        "web-game-end.png",
        "web-game-phone.png",
        "web-phone.png",
        "web-report.png",
    ):
        print(DOCS / image)


if __name__ == "__main__":
    main()
