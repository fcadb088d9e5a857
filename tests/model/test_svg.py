"""The SVG pictures: well-formed, every card of both hands drawn once in
the order a player reads a hand (tarocks first in rank order), a note
under each legal card of a report's player to move."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from support import EXAMPLES

from kosolve.analysis.report import analyse
from kosolve.model.cards import card_name, hand_names, points_of
from kosolve.model.files import load_deal

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


def test_the_html_report_shows_the_deal_without_javascript(tmp_path: object) -> None:
    from support.cli import run

    result = run("report", "-q", str(EXAMPLES / "played.json"))
    assert result.exit_code == 0
    fallback = result.stdout.split("<noscript>", 1)[1].split("</noscript>", 1)[0]
    assert drawn(fallback[fallback.index("<svg") :]) == drawn(load_deal(EXAMPLES / "played.json").svg())
