"""The SVG pictures: well-formed, every card of both hands drawn once in
the order a player reads a hand (tarocks first in rank order), labels,
notes and titles escaped, a note under each legal card of a report's
player to move; the HTML report shows the picture without JavaScript."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from support import EXAMPLES

from kosolve.analysis.report import analyse
from kosolve.model.cards import card_name, hand_names, parse_hand, points_of
from kosolve.model.files import load_deal
from kosolve.model.svg import CARD_W, GAP, LABEL_W, ROW_H, SUIT_GAP, hands_svg
from kosolve.web.report import render_html

SVG = "{http://www.w3.org/2000/svg}"


def drawn(picture: str) -> list[str]:
    root = ET.fromstring(picture)
    assert root.tag == f"{SVG}svg"
    return [g.attrib["data-card"] for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "card"]


@pytest.mark.parametrize("name", ["played.json", "whole-deal.json", "ending.json", "played-out.json"])
def test_a_deal_and_its_position_draw_every_card_once_in_order(name: str) -> None:
    deal = load_deal(EXAMPLES / name)
    position = deal.position()
    expected = hand_names(position.hands[1]) + hand_names(position.hands[0])
    assert drawn(deal._repr_svg_()) == expected
    assert drawn(position._repr_svg_()) == expected


def test_a_report_notes_each_legal_card() -> None:
    report = analyse(load_deal(EXAMPLES / "whole-deal.json"))
    root = ET.fromstring(report._repr_svg_())
    notes = {
        g.attrib["data-card"]: text.text
        for g in root.iter(f"{SVG}g")
        for text in g.iter(f"{SVG}text")
        if text.attrib.get("class") == "note"
    }
    assert notes == {card_name(m.card): str(points_of(m.thirds)) for m in report.solution.moves}


def test_a_report_table_lists_each_legal_card() -> None:
    report = analyse(load_deal(EXAMPLES / "ending.json"))
    html = report._repr_html_()
    assert html.count("<tr><td>") == len(report.solution.moves)
    assert html.startswith("<div><svg")


def test_hands_svg_draws_each_row_its_label_its_notes_and_the_title() -> None:
    """Cards by suit, tarocks first in rank order; every label, note and
    the title escaped (the picture stays well-formed); each row one row
    high, the width that of the longest row."""
    hand = parse_hand(["HK", "S7", "I", "Sk", "CK", "H4", "XV"])
    picture = hands_svg(
        [("for<e>hand & co", hand, {"HK": "12", "I": "<3", "DK": "not held"}), ("dealer", parse_hand(["DJ"]), {})],
        title="Trick 3 & <b>",
    )
    root = ET.fromstring(picture)
    assert drawn(picture) == ["Sk", "XV", "I", "HK", "H4", "S7", "CK", "DJ"]
    notes = {
        g.attrib["data-card"]: text.text
        for g in root.iter(f"{SVG}g")
        for text in g.iter(f"{SVG}text")
        if text.attrib.get("class") == "note"
    }
    assert notes == {"HK": "12", "I": "<3"}
    loose = [text.text for text in root if text.tag == f"{SVG}text"]
    assert loose == ["Trick 3 & <b>", "for<e>hand & co", "dealer"]
    ranks = {g.attrib["data-card"]: [t.text for t in g.iter(f"{SVG}text")] for g in root.iter(f"{SVG}g")}
    assert ranks["Sk"] == ["Sk"] and ranks["XV"] == ["XV"] and ranks["S7"] == ["7", "♠"] and ranks["DJ"] == ["J", "♦"]
    # Three suits and the tarocks in the first row: its cards and four gaps less one.
    assert int(root.attrib["width"]) == LABEL_W + 7 * (CARD_W + GAP) + 4 * SUIT_GAP
    assert int(root.attrib["height"]) == 24 + 2 * ROW_H


def test_the_html_report_shows_the_deal_without_javascript() -> None:
    picture = load_deal(EXAMPLES / "played.json").svg()
    page = render_html({"deal": None}, picture)
    fallback = page.split("<noscript>", 1)[1].split("</noscript>", 1)[0]
    assert fallback[fallback.index("<svg") :] == picture
    assert "<noscript>" not in render_html({"deal": None})


def test_the_command_line_report_holds_the_picture() -> None:
    """The command line's one check of the picture (no test of the
    ``report`` command in tests/cli looks at it)."""
    from support.cli import run

    result = run("report", "-q", str(EXAMPLES / "played.json"))
    assert result.exit_code == 0
    fallback = result.stdout.split("<noscript>", 1)[1].split("</noscript>", 1)[0]
    assert drawn(fallback[fallback.index("<svg") :]) == drawn(load_deal(EXAMPLES / "played.json").svg())
