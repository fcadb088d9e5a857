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
from kosolve.dealing import deal_as_dealt, deal_game  # noqa: E402
from kosolve.model.cards import card_name, hand_cards, hand_names, mask_of, parse_card  # noqa: E402
from kosolve.model.deal import Deal  # noqa: E402
from kosolve.model.files import load_deal, load_dealt_file  # noqa: E402
from kosolve.model.game import SEAT_NAMES, SEATS, Rules, seat_name  # noqa: E402
from kosolve.review.judging import review  # noqa: E402
from kosolve.web.api import Service  # noqa: E402
from kosolve.web.app import serving  # noqa: E402

CHROMIUM = os.environ.get("KOSOLVE_CHROMIUM", "/usr/bin/chromium")
# A browser is started for every test: the full set (-m slow) runs them.
pytestmark = pytest.mark.slow
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


def phone_page(browser: Any, url: str) -> tuple[Any, list[str]]:
    """The page opened at a phone's 390 px and loaded, with the list its
    script errors go to."""
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    phone.on("pageerror", lambda error: errors.append(str(error)))
    phone.goto(url)
    wait_for_line(phone, ())
    return phone, errors


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


VERDICTS = "() => [...document.querySelectorAll('.step .verdict')].map((v) => v.dataset.verdict)"


def test_every_card_of_the_timeline_shows_both_verdicts(page: Any, url: str) -> None:
    deal = load_deal(EXAMPLES / "played.json")
    page.goto(url)
    wait_for_line(page, ())
    page.wait_for_selector(".knew-summary [data-seat]")
    expected = review(deal, jobs=1)
    assert page.evaluate(VERDICTS) == [card.verdict for card in expected.cards]
    summary = page.inner_text(".knew-summary")
    for player in expected.players:
        assert f"{seat_name(player.seat)}: {player.judged} cards judged" in summary


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
    page.wait_for_selector(".knew-summary [data-seat]")
    timeline = page.inner_text("#timeline")
    assert "pagat by the dealer: never makeable" in timeline and "[object" not in timeline


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


SHOWN_PAGE = """() => ({
  name: document.getElementById('name').textContent,
  title: document.title,
  line: document.getElementById('board').dataset.line,
  board: document.getElementById('board').innerHTML,
  side: document.getElementById('side').innerHTML,
  file: document.getElementById('files').value,
})"""


def bad_deal() -> str:
    """played.json with a card that does not exist: the server refuses it."""
    data = json.loads((EXAMPLES / "played.json").read_text(encoding="utf-8"))
    data["hands"]["forehand"][0] = "XXII"
    return json.dumps(data)


def test_a_failed_load_leaves_the_page_as_it_was(page: Any, url: str, analyser: Analyser) -> None:
    deal = load_deal(EXAMPLES / "played.json")
    page.goto(url)
    wait_for_line(page, ())
    page.keyboard.press("ArrowRight")
    wait_for_line(page, deal.play[:1])
    before = page.evaluate(SHOWN_PAGE)
    page.click("#paste-box summary")
    page.fill("#paste", bad_deal())
    page.click("#load-paste")
    page.wait_for_selector("#error:not([hidden])")
    page.wait_for_function("() => document.getElementById('loading').hidden")
    assert "XXII" in page.inner_text("#error") and "\n" not in page.inner_text("#error")
    # The board, the header, the file chosen: all as before the paste.
    assert page.evaluate(SHOWN_PAGE) == before
    # The deal shown is the one played on, not the refused one.
    page.keyboard.press("ArrowRight")
    assert_shows_library(wait_for_line(page, deal.play[:2]), analyser, deal, deal.play[:2])
    assert page.is_hidden("#error")


def test_a_file_chosen_again_after_a_failed_load_loads(page: Any, url: str, tmp_path: Path) -> None:
    page.goto(url)
    wait_for_line(page, ())
    chosen = tmp_path / "mine.json"
    chosen.write_text(bad_deal(), encoding="utf-8")
    page.set_input_files("#open", str(chosen))
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#name") == "played.json"
    chosen.write_text((EXAMPLES / "ending.json").read_text(encoding="utf-8"), encoding="utf-8")
    page.set_input_files("#open", str(chosen))
    page.wait_for_function("() => document.getElementById('board').dataset.name === 'mine.json'")
    assert page.is_hidden("#error")
    # Another deal than the served files shown: choosing the one shown before loads it.
    assert page.evaluate("() => document.getElementById('files').value") == ""
    page.select_option("#files", label="played.json")
    page.wait_for_function("() => document.getElementById('board').dataset.name === 'played.json'")


def test_a_row_of_the_exchange_table_opens_its_position(page: Any, url: str, analyser: Analyser) -> None:
    file = load_dealt_file(EXAMPLES / "dealt.json")
    dealt = file.dealt
    page.goto(url)
    wait_for_line(page, ())
    page.select_option("#files", label="dealt.json")
    page.wait_for_selector("#exchange-table")
    # The cards as dealt, by suit in the hand diagram's order; the talon top first.
    for seat in SEATS:
        for part, cards in (("hand", dealt.hands[seat]), ("personal", dealt.personal[seat]),
                            ("discards", dealt.discards[seat])):  # fmt: skip
            shown = page.evaluate(
                f"() => [...document.querySelectorAll('#dealt [data-seat={seat_name(seat)}] [data-part={part}]"
                " .card')].map((c) => c.dataset.card)"
            )
            assert shown == [card_name(card) for card in hand_cards(cards)]
    talon = page.evaluate(
        "() => [...document.querySelectorAll('#dealt [data-part=talon] .card')].map((c) => c.dataset.card)"
    )
    assert talon == [card_name(card) for card in dealt.talon]
    rows = analyser.analyse_exchange(dealt).table.rows
    for number in (15, 3):
        row = rows[number - 1]
        if number == 15:
            page.click(f'#exchange-table tr[data-row="{number}"]')
        else:
            page.focus(f'#exchange-table tr[data-row="{number}"]')
            page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => document.getElementById('board').dataset.name.startsWith('dealt.json, row {number}:')"
        )
        deal = dealt.play_deal(row.contract, row.declarer, row.exchange)
        shown = wait_for_line(page, ())
        assert shown["value"] == row.thirds
        assert_shows_library(shown, analyser, deal, ())
        assert page.get_attribute("#exchange-table tr.current", "data-row") == str(number)
    # The position plays like any deal.
    card = next(iter(shown["moves"]))
    page.click(f'.card.legal[data-card="{card}"]')
    line = (parse_card(card),)
    assert_shows_library(wait_for_line(page, line), analyser, deal, line)


def test_the_optimal_line_is_shown_trick_by_trick(page: Any, url: str, analyser: Analyser) -> None:
    deal = load_deal(EXAMPLES / "played.json")
    page.goto(url)
    wait_for_line(page, ())
    # After an odd number of cards the line starts with the card on the table.
    page.click('.step[data-index="3"]')
    wait_for_line(page, deal.play[:3])
    report = analyser.analyse(replace(deal, play=deal.play[:3]), Options(feasibility=False, postmortem=False))
    tricks = report.position.line_tricks(report.solution.line)
    shown = page.evaluate(
        "() => [...document.querySelectorAll('#line-table tr')].map((tr) => [tr.dataset.trick,"
        " [...tr.querySelectorAll('.played')].map((p) => p.textContent), tr.lastChild.textContent])"
    )
    expected = []
    for index, trick in enumerate(tricks):
        played = [f"{seat_name(seat)} {card_name(card)}" for seat, card in trick.played()]
        if index == 0:
            played[0] += " (on the table)"
        assert trick.winner is not None
        expected.append([str(trick.number), played, f"{seat_name(trick.winner)} takes {points(trick.thirds)}"])
    assert shown == expected


def test_the_exchange_table_fits_a_phone(browser: Any, url: str) -> None:
    phone, errors = phone_page(browser, url)
    phone.select_option("#files", label="dealt.json")
    phone.wait_for_selector("#exchange-table")
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    right = phone.evaluate("() => document.getElementById('exchange-table').getBoundingClientRect().right")
    phone.close()
    assert width <= 390 and right <= 390
    assert errors == []


NOT_CLICKABLE = """(selector) => [...document.querySelectorAll(selector)].map((node) => {
  const style = getComputedStyle(node);
  return [style.cursor, node.getAttribute('role'), node.getAttribute('tabindex')];
})"""


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
    assert page.evaluate(VERDICTS) == [card.verdict for card in review(deal, jobs=1).cards]
    page.click('.step[data-index="1"]')
    assert_shows_library(wait_for_line(page, deal.play[:1]), analyser, deal, deal.play[:1])
    # Off the file's play the report has no answers: only the file's next
    # card looks and acts like a button.
    page.keyboard.press("Home")
    wait_for_line(page, ())
    assert "holds the file's play only" in page.inner_text("#where")
    following = card_name(deal.play[0])
    assert page.evaluate(NOT_CLICKABLE, ".card.playable") == [["pointer", "button", "0"]]
    assert page.get_attribute(".card.playable", "data-card") == following
    others = f'.card:not([data-card="{following}"])'
    assert {tuple(cell) for cell in page.evaluate(NOT_CLICKABLE, others)} <= {
        ("auto", None, None),
        ("default", None, None),
    }
    other = next(card for card in page.evaluate(SHOWN)["moves"] if card != following)
    page.hover(f'.card.legal[data-card="{other}"]')
    assert (
        page.evaluate(f"() => getComputedStyle(document.querySelector('[data-card=\"{other}\"]')).transform") == "none"
    )
    page.click(f'.card.legal[data-card="{other}"]')
    page.click(f'.card.playable[data-card="{following}"]')
    assert_shows_library(wait_for_line(page, deal.play[:1]), analyser, deal, deal.play[:1])
    assert page.is_hidden("#error")


def test_a_reported_game_shows_its_decisions_before_the_play(page: Any, tmp_path: Path) -> None:
    from kosolve.model.dealt_file import dealt_to_json
    from kosolve.play.game import Game

    game = Game(load_dealt_file(EXAMPLES / "dealt.json").dealt)
    while not game.over:
        decision = game.decision()
        game.choose(decision.options.index("zweiblatt") if "zweiblatt" in decision.options else 0)
    assert game.dealt_file is not None
    file = tmp_path / "game.json"
    file.write_text(json.dumps(dealt_to_json(game.dealt_file)), encoding="utf-8")
    out = tmp_path / "game.html"
    args = ["report", "-q", "--samples", "2", "--decision-samples", "2", "--jobs", "1", str(file), "-o", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    page.goto(out.as_uri())
    page.wait_for_selector("#decision-table")
    judged = review(game.dealt_file, samples=2, jobs=1, before_play=True, decision_samples=2).decisions
    rows = page.eval_on_selector_all(
        "#decision-table tr[data-decision]", "(rows) => rows.map((r) => [r.dataset.kind, r.dataset.verdict])"
    )
    assert rows == [[d.kind, d.verdict] for d in judged]


def test_a_reported_exchange_table_has_no_rows_to_click(page: Any, tmp_path: Path) -> None:
    out = tmp_path / "dealt.html"
    result = CliRunner().invoke(cli, ["report", "-q", str(EXAMPLES / "dealt.json"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    page.goto(out.as_uri())
    page.wait_for_selector("#exchange-table")
    assert {tuple(cell) for cell in page.evaluate(NOT_CLICKABLE, "#exchange-table tr")} == {("auto", None, None)}
    assert page.evaluate(NOT_CLICKABLE, ".card.playable") == []


GAME_WORDS = """() => {
  const game = document.getElementById('game');
  const words = [game.textContent];
  for (const node of game.querySelectorAll('*')) for (const attr of node.attributes) words.push(attr.value);
  return words.join(' ').split(/[^A-Za-z0-9]+/).filter(Boolean);
}"""
"""Every word of the game's section, its text (hidden parts too) and its
attributes: a card's name drawn anywhere is among them."""

DRAWN = """(moves) => document.getElementById('game-log').dataset.moves === String(moves)
  && !document.getElementById('game-board').classList.contains('waiting')
  && document.getElementById('loading').hidden"""
CARDS = "(nodes) => nodes.map((node) => node.dataset.card)"
WIDTH = "() => document.documentElement.scrollWidth"


def is_game(response: Any) -> bool:
    return bool(response.url.endswith("/api/v1/game"))


def hidden_from(seat: str, seed: int) -> set[str]:
    """The cards of the bot's (the other seat's) hand and discards and the
    talon: none may be drawn before the table shows it."""
    dealt = deal_as_dealt(random.Random(seed))
    bot = 1 - SEAT_NAMES.index(seat)
    return set(hand_names(dealt.held(bot) | dealt.discards[bot] | mask_of(dealt.talon)))


def shown_to_the_user(answer: dict[str, Any]) -> set[str]:
    """The cards the user may see in ``answer`` (before the end): his own,
    the talon once turned up, the cards played, what lies face up in the
    bot's pile or was seen taken."""
    view = answer["decision"]["view"]
    played = {card for trick in answer["tricks"] for card in trick["cards"]}
    return (
        set(view["hand"]) | set(view["pile"]) | set(answer["hand"]) | set(view["talon"] or [])
        | set(view["other"]["pile"]) | set(view["other"]["holds"]) | played
    )  # fmt: skip


def check_the_table(page: Any, answer: dict[str, Any], hidden: set[str], width: int | None) -> None:
    """What the table draws of ``answer``: kosolve's cards face down (only
    their number), the trick with who played each card, the bidding table;
    no card of ``hidden`` the user has not been shown; no page wider than
    ``width`` (when given)."""
    if width is not None:
        assert page.evaluate(WIDTH) <= width
    if answer["end"] is not None:
        return
    assert set(page.evaluate(GAME_WORDS)) & hidden <= shown_to_the_user(answer)
    assert page.eval_on_selector_all("#game-other .backs .card", CARDS) == [None] * answer["bot_cards"]
    seat = answer["seat"]
    who = {seat: "you", ("dealer" if seat == "forehand" else "forehand"): "kosolve"}
    if answer["tricks"]:
        trick = answer["tricks"][-1]
        second = "dealer" if trick["leader"] == "forehand" else "forehand"
        expected = [[who[s], card] for s, card in zip((trick["leader"], second), trick["cards"], strict=False)]
        shown = page.eval_on_selector_all(
            "#game-table .trick.now .played[data-card]", "(nodes) => nodes.map((n) => [n.dataset.by, n.dataset.card])"
        )
        assert shown == expected
    bids = [move for move in answer["moves"] if move["decision"] == "bid"]
    calls = page.eval_on_selector_all(
        "#game-auction td", "(cells) => cells.filter((c) => c.textContent).map((c) => [c.dataset.seat, c.textContent])"
    )
    assert [[seat_, call.lower()] for seat_, call in calls] == [[move["seat"], move["option"]] for move in bids]


def play_by_clicking(page: Any, seat: str, bot: str, seed: int, width: int | None = None) -> list[str]:
    """A whole game played on the page by clicking cards and buttons only,
    the user in ``seat`` against ``bot`` on the deal of ``seed``: he bids a
    Dreiblatt when he may (else passes), announces once when offered, says
    no Kontra, takes the first talon group, lays away by clicking cards and
    Confirm, plays his first legal card.  Each answer's table is checked
    (:func:`check_the_table`); the kinds of decision clicked come back."""
    hidden = hidden_from(seat, seed)
    page.click("#play-game")
    page.select_option("#game-seat", seat)
    page.select_option("#game-bot", bot)
    page.fill("#game-seed", str(seed))
    with page.expect_response(is_game) as response:
        page.click("#game-start")
    answer: dict[str, Any] = response.value.json()
    kinds: list[str] = []
    while True:
        page.wait_for_function(DRAWN, arg=len(answer["moves"]))
        check_the_table(page, answer, hidden, width)
        if answer["decision"] is None:
            return kinds
        kind, legal = answer["decision"]["decision"], answer["decision"]["legal"]
        assert page.get_attribute("#game-board", "data-decision") == kind
        kinds.append(kind)
        with page.expect_response(is_game) as response:
            if kind == "bid":
                page.click(f"#game-options button[data-option={'dreiblatt' if 'dreiblatt' in legal else 'pass'}]")
            elif kind == "announce":
                page.click(f"#game-options button[data-index='{1 if 'announce' not in kinds[:-1] else 0}']")
            elif kind == "kontra":
                page.click("#game-options button[data-option=done]")
            elif kind == "take":
                groups = page.eval_on_selector_all(
                    "#game-talon .talon-group.playable",
                    "(nodes) => nodes.map((n) => [...n.children].map((c) => c.dataset.card))",
                )
                assert groups == legal
                page.click("#game-talon .talon-group.playable")
            elif kind == "lay_away":
                # Only cards of a legal lay-away are clickable; Confirm waits for a whole one.
                clickable = page.eval_on_selector_all("#game-hand .card.playable", CARDS)
                assert set(clickable) == {card for option in legal for card in option}
                assert set(answer["taken"]) <= set(page.eval_on_selector_all("#game-hand .card.taken", CARDS))
                while page.is_disabled("#game-lay"):
                    page.click("#game-hand .card.playable:not(.selected)")
                assert page.eval_on_selector_all("#game-hand .card.selected", CARDS) in legal
                page.click("#game-lay")
            else:
                assert page.eval_on_selector_all("#game-hand .card.playable", CARDS) == legal
                page.click("#game-hand .card.playable")
        answer = response.value.json()


def check_the_end(page: Any, answer: dict[str, Any]) -> None:
    """The end drawn: the settlement item by item and for whom, the
    contract's result, both hands and piles turned up, the review with the
    costliest of the user's cards first."""
    end, seat = answer["end"], answer["seat"]
    other = "dealer" if seat == "forehand" else "forehand"
    who = {seat: "you", other: "kosolve"}
    assert json.loads(page.get_attribute("#game-result", "data-totals")) == end["totals"]
    items = page.eval_on_selector_all(
        "#game-settlement tr[data-item]",
        "(rows) => rows.map((r) => [r.dataset.item, r.dataset.to, r.cells[2].textContent])",
    )
    assert items == [[item["name"], who[item["to"]], f"+{item['points']}"] for item in end["items"]]
    assert page.get_attribute("#game-verdict", "data-won") == str(end["result"]["won"]).lower()
    for box, name in (("#game-other", other), ("#game-hand", seat)):
        held = page.eval_on_selector_all(f"{box} [data-part=held] .card", CARDS)
        pile = page.eval_on_selector_all(f"{box} [data-part=pile] .card", CARDS)
        assert (held, pile) == (end["held"][name], end["piles"][name]["cards"])
    losses = page.eval_on_selector_all("#game-cards tr[data-loss]", "(rows) => rows.map((r) => Number(r.dataset.loss))")
    assert len(losses) == 16 and losses == sorted(losses, reverse=True)
    assert page.get_attribute("#game-file", "download") == f"kosolve-game-{end['seed']}.json"


def test_a_whole_game_is_played_by_clicking_cards_and_buttons(page: Any, url: str) -> None:
    """Bid, announce, take, lay away, play to the end, by clicks alone; then
    the game opens in the analysis board, by its rules, at trick 1."""
    page.goto(url)
    wait_for_line(page, ())
    with page.expect_response(lambda r: is_game(r) and r.json()["end"] is not None, timeout=300_000) as last:
        kinds = play_by_clicking(page, "forehand", "heuristic", 5)
    answer = last.value.json()
    assert {"bid", "announce", "take", "lay_away", "play"} <= set(kinds), kinds
    check_the_end(page, answer)
    page.click("#game-open")
    name = "game 5: you the forehand against heuristic"
    page.wait_for_function(f"() => document.getElementById('board').dataset.name === {json.dumps(name)}")
    wait_for_line(page, ())
    for seat in ("forehand", "dealer"):
        assert page.eval_on_selector_all(f"#seat-{seat} .card", CARDS) == answer["end"]["held"][seat]
    assert page.is_hidden("#game") and page.is_hidden("#error")


def test_a_game_fits_a_phone_and_is_played_again_from_the_other_seat(browser: Any, url: str) -> None:
    """At 390 px the page never scrolls sideways, in the game or at its end;
    "Play again from the other seat" starts the same deal with the seats
    changed, against the same bot by the same rules."""
    phone, errors = phone_page(browser, url)
    with phone.expect_response(lambda r: is_game(r) and r.json()["end"] is not None, timeout=300_000) as last:
        play_by_clicking(phone, "dealer", "random", 7, width=390)
    answer = last.value.json()
    check_the_end(phone, answer)
    assert phone.evaluate(WIDTH) <= 390
    # The review's losses are in sight, not in a box scrolled sideways; his own decisions only.
    fits = (
        "(id) => { const t = document.getElementById(id); return !t || t.scrollWidth <= t.parentElement.clientWidth; }"
    )
    assert phone.evaluate(fits, "game-decisions") and phone.evaluate(fits, "game-cards")
    seats = phone.eval_on_selector_all("#game-decisions tr[data-seat]", "rows => rows.map(r => r.dataset.seat)")
    assert set(seats) <= {answer["seat"]}
    with phone.expect_request(lambda r: r.url.endswith("/api/v1/game")) as request:
        phone.click("#game-again")
    sent = json.loads(request.value.post_data)
    assert sent == {"new": {"seat": "forehand", "bot": "random", "seed": 7, "rules": answer["rules"]}}
    phone.wait_for_function("() => document.getElementById('game-board').dataset.decision === 'bid'")
    phone.close()
    assert errors == []


def test_a_game_both_passed_turns_both_hands_up(page: Any, url: str) -> None:
    """Both pass (the random bot after the user, seed 2): the end says so,
    turns both hands up as dealt, and offers the same deal from the other
    seat; there is nothing to open or download."""
    page.goto(url)
    wait_for_line(page, ())
    page.click("#play-game")
    page.select_option("#game-bot", "random")
    page.fill("#game-seed", "2")
    with page.expect_response(is_game):
        page.click("#game-start")
    with page.expect_response(is_game) as response:
        page.click("#game-options button[data-option=pass]")
    answer = response.value.json()
    assert answer["end"] is not None and answer["end"]["held"] is None, "the seed's game is no longer passed out"
    page.wait_for_selector("#game-result")
    assert page.inner_text("#game-result") == "Both passed: nothing was played."
    for box, seat in (("#game-hand", "forehand"), ("#game-other", "dealer")):
        assert page.eval_on_selector_all(f"{box} [data-part=held] .card", CARDS) == answer["end"]["hands"][seat]
    assert page.query_selector("#game-open") is None and page.query_selector("#game-file") is None
    assert page.is_visible("#game-again")


def test_announcements_and_kontras_are_buttons_with_the_game_points_at_stake(page: Any, url: str) -> None:
    """With the defender's announcements and Kontra ticked the user, a
    Solo's declarer, announces Pagat ultimo and says Kontra to the random
    bot's announcement: each button shows the game points the API says are
    at stake (a Kontra's the doubled value), and the table the rules and
    each announcement, whose, its Kontra and value.  The same game is played
    in-process beside it for what each answer should be."""
    page.goto(url)
    wait_for_line(page, ())
    page.click("#play-game")
    # This server plays by the default rules: the boxes start unticked.
    page.wait_for_selector("#game-form[data-rules]", state="attached")
    assert not page.is_checked("#game-kontra") and not page.is_checked("#game-defender-announcements")
    page.select_option("#game-bot", "random")
    page.fill("#game-seed", "0")
    page.check("#game-defender-announcements")
    page.check("#game-kontra")
    page.click("#game-start")
    beside = Service(tt_mb=4)
    switches = {"defender_announcements": True, "kontra": True}
    expected: dict[str, Any] = beside.game({"new": {"seat": "forehand", "bot": "random", "seed": 0, "rules": switches}})
    kinds = []
    while expected["decision"]["decision"] != "play":
        decision = expected["decision"]
        kind, legal = decision["decision"], decision["legal"]
        assert kind in ("bid", "announce", "kontra"), f"the seed's game is no longer a Solo of the user's: {kind}"
        page.wait_for_function(
            "([n, moves]) => document.getElementById('loading').hidden"
            " && document.querySelectorAll('#game-options button.game-option').length === n"
            " && document.getElementById('game-log').dataset.moves === String(moves)",
            arg=[len(legal), len(expected["moves"])],
        )
        buttons = page.query_selector_all("#game-options button.game-option")
        if kind != "bid":
            kinds.append(kind)
            values = decision["values"]
            assert [b.get_attribute("data-value") for b in buttons] == ["" if v is None else str(v) for v in values]
            prefix = "Kontra on " if kind == "kontra" else ""
            # Each button: the announcement (or the one a Kontra doubles) over its stake.
            texts = [
                f"{prefix}{option.replace('_', ' ')}\n{value} game points"
                for option, value in zip(legal, values, strict=True)
            ]
            assert [b.inner_text() for b in buttons[1:]] == texts[1:]
        choice = {"bid": len(legal) - 1, "announce": 0 if "announce" in kinds[:-1] else 1, "kontra": 1}[kind]
        page.click(f"#game-options button[data-index='{choice}']")
        expected = beside.game({"game": expected["game"], "choice": choice, "moves": len(expected["moves"])})
    assert "kontra" in kinds and "announce" in kinds, kinds
    page.wait_for_selector("#game-hand .card.playable")
    assert page.inner_text("#game-rules") == "Rules: the defender announces too; Kontra"
    shown = page.eval_on_selector_all(
        "#game-announced tr",
        "(rows) => rows.map((r) => [r.dataset.what, r.dataset.by, r.dataset.kontra, r.cells[3].textContent])",
    )
    assert shown == [
        [
            made["what"],
            "you" if made["by"] == "forehand" else "kosolve",
            "true" if made.get("kontra") else "false",
            f"{made['value']} game points",
        ]
        for made in expected["announcements"]
    ]


def test_the_game_form_starts_from_the_servers_rules(page: Any) -> None:
    with serving(Service(tt_mb=4, rules=Rules(kontra=True))) as address:
        page.goto(address)
        page.click("#play-game")
        page.wait_for_selector("#game-form[data-rules]", state="attached")
        assert page.is_checked("#game-kontra") and not page.is_checked("#game-defender-announcements")


def test_a_position_is_shared_as_a_link(page: Any, browser: Any, url: str, analyser: Analyser) -> None:
    """The address holds the position shown in one line; opened, it shows
    that position."""
    deal = load_deal(EXAMPLES / "played.json")
    page.goto(url)
    wait_for_line(page, ())
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    wait_for_line(page, deal.play[:2])
    link = page.evaluate("() => location.href")
    assert "#p=kd1" in link
    other = browser.new_page()
    other.set_default_timeout(TIMEOUT_MS)
    other.goto(link)
    assert_shows_library(
        wait_for_line(other, deal.play[:2]), analyser, replace(deal, play=deal.play[:2]), deal.play[:2]
    )
    assert other.inner_text("#name") == "shared position"
