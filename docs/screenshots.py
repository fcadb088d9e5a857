"""Regenerate the screenshots of the web view in docs/ (docs/web.md shows
them): the served page in play, a hand played out with its settlement, the
exchange table of a deal as dealt, the page on a phone, and the report
opened from a file.  Headless Chromium (Debian's package) driven by
Playwright, as in tests/test_browser.py.

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

        # A game against kosolve's heuristic bot, the first option taken
        # each time, shown in the middle of the play.
        game = browser.new_page(viewport=LAPTOP)
        game.goto(url)
        shown(game, "")
        game.click("#play-game")
        game.select_option("#game-bot", "heuristic")
        game.fill("#game-seed", "5")
        game.click("#game-start")
        for _ in range(14):
            game.wait_for_selector("#game-options button, #game-hand .card.playable")
            status = game.inner_text("#game-log") + game.inner_text("#game-hand")
            game.click(
                "#game-hand .card.playable"
                if game.query_selector("#game-hand .card.playable")
                else "#game-options button"
            )
            game.wait_for_function(
                "(before) => document.getElementById('game-log').innerText"
                " + document.getElementById('game-hand').innerText !== before",
                arg=status,
            )
        game.screenshot(path=str(DOCS / "web-game.png"), full_page=True)

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
        "web-phone.png",
        "web-report.png",
    ):
        print(DOCS / image)


if __name__ == "__main__":
    main()
