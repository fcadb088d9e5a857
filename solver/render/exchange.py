"""The exchange table as a player reads it (docs/exchange.md): a row per
declarer, contract and talon choice with the best lay-away by suit, the
result, the exact points and the game points, and how many lay-aways
reach it; then what each declarer could announce in each contract.
It renders an :class:`~kosolve.analysis.exchange.ExchangeTable` and
computes nothing itself."""

from __future__ import annotations

from kosolve.analysis.exchange import ExchangeRow, ExchangeTable, Makeable
from kosolve.analysis.goals import Goal
from kosolve.model.cards import (
    DISPLAY_ORDER,
    SUIT_LETTERS,
    SUIT_MASKS,
    SUIT_SYMBOLS,
    Hand,
    card_name,
    hand_names,
)
from kosolve.model.game import SEATS, seat_name
from kosolve.render.text import Style, _columns


def by_suit(hand: Hand, style: Style) -> str:
    """A set of cards by suit, tarocks first: ``T XV  ♥ HQ H1``.

    >>> from kosolve.model.cards import parse_hand
    >>> by_suit(parse_hand(["H1", "XV", "HQ", "S7"]), Style(unicode=True))
    'T XV  ♥ HQ H1  ♠ S7'
    >>> by_suit(0, Style(unicode=False))
    '-'
    """
    marks = SUIT_SYMBOLS if style.unicode else SUIT_LETTERS
    groups = [
        f"{marks[suit]} {' '.join(hand_names(hand & SUIT_MASKS[suit]))}"
        for suit in DISPLAY_ORDER
        if hand & SUIT_MASKS[suit]
    ]
    return "  ".join(groups) or style.none


def _goal_words(goal: Goal) -> str:
    """``pagat``, ``pagat with the win``, ``without trull``."""
    words = goal.target.replace("_", " ")
    return f"{words} with the win" if goal.with_win else words


def _row_cells(row: ExchangeRow, style: Style) -> list[str]:
    return [
        seat_name(row.declarer),
        row.contract,
        " ".join(card_name(c) for c in row.take) or style.none,
        by_suit(row.lay_away, style),
        style.points(row.thirds),
        "won, valat" if row.valat else row.result,
        f"{row.game_points:+d}",
        f"{row.best_lay_aways} of {row.lay_aways}",
    ]


def _makeable_lines(table: ExchangeTable, style: Style) -> list[str]:
    lines: list[str] = []
    for seat in SEATS:
        for contract in dict.fromkeys(r.contract for r in table.rows if r.declarer == seat):
            entries: list[Makeable] = [
                m for m in table.makeable if m.declarer == seat and m.contract == contract and m.makeable
            ]
            lines.append(f"  {seat_name(seat)} in {contract}: {'' if entries else 'nothing'}".rstrip())
            rows = []
            for entry in entries:
                assert entry.exchange is not None
                take = " ".join(card_name(c) for c in entry.exchange.take) or style.none
                laid = by_suit(entry.exchange.lay_away, style)
                rows.append([_goal_words(entry.goal), f"take {take}", f"lay away {laid}"])
            if rows:
                lines += _columns(rows, indent="    ")
    return lines


def render_exchange_table(table: ExchangeTable, style: Style) -> str:
    """The whole text of an exchange table."""
    header = ["declarer", "contract", "take", "best lay-away", "points", "result", "game", "best of lay-aways"]
    lines = ["Talon exchange, each choice with its best lay-away (double dummy, the forehand leads):"]
    lines += _columns([header, *(_row_cells(row, style) for row in table.rows)])
    lines += ["", "Makeable with some exchange (double dummy), one exchange each:", *_makeable_lines(table, style)]
    return "\n".join(lines)


__all__ = ["by_suit", "render_exchange_table"]
