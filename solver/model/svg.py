"""Pictures of hands as SVG: each seat's cards by suit, the tarocks first
in rank order, as the web view's card table draws them.  A deal, a
position and a report show themselves so in a notebook (``_repr_svg_``),
and the web report can embed the same picture.  A report's HTML in a
notebook (``_repr_html_``) is the picture with a table of its cards under it
(:func:`moves_html`): the analysis below the renderers works out the values,
this module lays them out.

>>> from kosolve.model.cards import parse_hand
>>> picture = hands_svg([("forehand", parse_hand(["Sk", "HK", "H4"]), {}), ("dealer", parse_hand(["I"]), {"I": "37"})])
>>> picture.startswith("<svg") and picture.count('class="card') == 4
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Final
from xml.sax.saxutils import escape

from kosolve.model.cards import DISPLAY_ORDER, SUIT_MASKS, Hand, card_name, hand_cards

CARD_W: Final = 34
CARD_H: Final = 48
GAP: Final = 3
SUIT_GAP: Final = 10
LABEL_W: Final = 90
ROW_H: Final = 72
SYMBOLS: Final = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}
RED: Final = "#c0182a"
TAROCK_FILL: Final = "#f6ecd3"


def svg_text(value: str) -> str:
    """``value`` safe in an SVG's text and in its attributes (quotes too).

    >>> svg_text('a "b" & <c>')
    'a &quot;b&quot; &amp; &lt;c&gt;'
    """
    return escape(value, {'"': "&quot;"})


def axis_ticks(low: float, high: float) -> list[float]:
    """Round values for a chart's axis between ``low`` and ``high``, about
    five of them (a step of 1, 2 or 5 times a power of ten): the one rule
    of every chart kosolve draws (the ladder's, the statistics').

    >>> axis_ticks(0, 1)
    [0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0]
    >>> axis_ticks(-12, 30)
    [-10, 0, 10, 20, 30]
    >>> axis_ticks(3, 3)
    [3]
    """
    if high <= low:
        return [low]
    step = 10 ** math.floor(math.log10((high - low) / 5))
    for factor in (1, 2, 5, 10):
        if (high - low) / (step * factor) <= 6:
            step *= factor
            break
    return [k * step for k in range(math.ceil(low / step), math.floor(high / step) + 1)]


def _card(name: str, x: int, y: int, note: str | None) -> str:
    """One card: its rank, its suit's symbol (tarocks plain), a note below."""
    tarock = name == "Sk" or name[0] not in SYMBOLS
    rank = name if tarock else name[1:]
    colour = RED if name[0] in "HD" and not tarock else "#111"
    fill = TAROCK_FILL if tarock else "#fff"
    size = 10 if len(rank) > 3 else 12
    parts = [
        f'<g class="card" data-card="{escape(name)}">',
        f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="{fill}" stroke="#888"/>',
        f'<text x="{x + CARD_W // 2}" y="{y + 18}" font-size="{size}" text-anchor="middle" fill="{colour}"'
        f' font-weight="bold">{escape(rank)}</text>',
    ]
    if not tarock:
        parts.append(
            f'<text x="{x + CARD_W // 2}" y="{y + 38}" font-size="16" text-anchor="middle" fill="{colour}">'
            f"{SYMBOLS[name[0]]}</text>"
        )
    if note is not None:
        parts.append(
            f'<text class="note" x="{x + CARD_W // 2}" y="{y + CARD_H + 13}" font-size="10" text-anchor="middle"'
            f' fill="#333">{escape(note)}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def hands_svg(rows: Sequence[tuple[str, Hand, Mapping[str, str]]], title: str = "") -> str:
    """An SVG picture of ``rows``: a label, a hand drawn by suit (tarocks
    first, in rank order) and a note under any card (its value, say)."""
    body = []
    width = LABEL_W
    top = 24 if title else 6
    for index, (label, hand, notes) in enumerate(rows):
        y = top + index * ROW_H
        body.append(f'<text x="4" y="{y + CARD_H // 2 + 4}" font-size="13" font-weight="bold">{escape(label)}</text>')
        x = LABEL_W
        for suit in DISPLAY_ORDER:
            cards = hand_cards(hand & SUIT_MASKS[suit])
            for card in cards:
                name = card_name(card)
                body.append(_card(name, x, y, notes.get(name)))
                x += CARD_W + GAP
            if cards:
                x += SUIT_GAP
        width = max(width, x)
    height = top + len(rows) * ROW_H
    heading = f'<text x="4" y="16" font-size="13">{escape(title)}</text>' if title else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}"'
        f' font-family="sans-serif">{heading}{"".join(body)}</svg>'
    )


def moves_html(picture: str, moves: Sequence[tuple[str, int, float]]) -> str:
    """``picture`` and, under it, a table of ``moves``: each card's name,
    the declarer's points after it and its cost in points (none without
    moves).

    >>> print(moves_html("<svg/>", [("XXI", 37, 0.0), ("HK", 35, 2.0)]))
    <div><svg/><table><tr><th>card</th>...<tr><td>HK</td><td>35</td><td>2.00</td></tr></table></div>
    >>> moves_html("<svg/>", [])
    '<div><svg/></div>'
    """
    rows = "".join(f"<tr><td>{card}</td><td>{value}</td><td>{cost:.2f}</td></tr>" for card, value, cost in moves)
    table = (
        "<table><tr><th>card</th><th>declarer's points after it</th><th>cost (points)</th></tr>" + rows + "</table>"
        if rows
        else ""
    )
    return f"<div>{picture}{table}</div>"


__all__ = ["axis_ticks", "hands_svg", "moves_html", "svg_text"]
