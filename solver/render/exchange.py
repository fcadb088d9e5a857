"""The exchange table as a player reads it (docs/exchange.md): the cards
as dealt, then a row per declarer, contract and talon choice with the best
lay-away by suit, the result, the exact points and the game points, how
many lay-aways reach it and the row's number (``kosolve exchange --row N``);
then what each declarer could announce in each contract.  It renders an
:class:`~kosolve.analysis.exchange.ExchangeTable` and computes nothing
itself."""

from __future__ import annotations

from kosolve.analysis.exchange import ExchangeRow, ExchangeTable, Makeable
from kosolve.analysis.goals import Goal
from kosolve.analysis.report import ExchangeReport
from kosolve.model.cards import (
    DISPLAY_ORDER,
    SUIT_LETTERS,
    SUIT_MASKS,
    SUIT_SYMBOLS,
    Hand,
    card_name,
    hand_names,
)
from kosolve.model.dealt import Dealt
from kosolve.model.game import SEATS, seat_name
from kosolve.model.reprs import counted
from kosolve.render.text import Style, columns


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


def render_dealt(dealt: Dealt, style: Style) -> list[str]:
    """The cards as dealt, each seat's by suit: his hand, personal cards,
    discards, the personal cards he picked up when the discard variant left
    some, and the 16 he holds before the exchange; then the talon in its
    order, top first.

    >>> from kosolve.model.files import load_dealt_file
    >>> lines = render_dealt(load_dealt_file("examples/dealt.json").dealt, Style(unicode=True))
    >>> print("\\n".join(lines[:2] + lines[-1:]))
    The deal as dealt:
      forehand  hand       T Sk XIX XVI IX VIII VII IV  ♥ HK  ♦ DQ D2  ♠ SK SQ S7  ♣ CQ CJ C7
      talon     top first  CK CC H1 S10 II S8
    """
    rows: list[list[str]] = []
    for seat in SEATS:
        parts = [("hand", dealt.hands[seat]), ("personal", dealt.personal[seat]), ("discards", dealt.discards[seat])]
        if dealt.picked(seat) != dealt.personal[seat]:
            parts.append(("picked up", dealt.picked(seat)))
        parts.append(("holds", dealt.held(seat)))
        rows += [
            [seat_name(seat) if i == 0 else "", what, by_suit(cards, style)] for i, (what, cards) in enumerate(parts)
        ]
    rows.append(["talon", "top first", " ".join(card_name(card) for card in dealt.talon)])
    return ["The deal as dealt:", *columns(rows)]


def _goal_words(goal: Goal) -> str:
    """``pagat``, ``pagat with the win``, ``without trull``."""
    words = goal.target.replace("_", " ")
    return f"{words} with the win" if goal.with_win else words


def _result(won: bool, valat: bool) -> str:
    return "won, valat" if valat else "won" if won else "lost"


def _row_cells(number: int, row: ExchangeRow, style: Style) -> list[str]:
    return [
        seat_name(row.declarer),
        row.contract,
        " ".join(card_name(c) for c in row.take) or style.none,
        by_suit(row.lay_away, style),
        style.points(row.thirds),
        _result(row.won, row.valat),
        f"{row.game_points:+d}",
        f"{row.best_lay_aways} of {row.lay_aways}",
        str(number),
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
                lines += columns(rows, indent="    ")
    return lines


def render_exchange_table(table: ExchangeTable, style: Style) -> str:
    """The whole text of an exchange table; ``row`` numbers the rows from 1,
    as ``kosolve exchange --row N`` counts them."""
    header = ["declarer", "contract", "take", "best lay-away", "points", "result", "game", "best of lay-aways", "row"]
    lines = ["Talon exchange, each choice with its best lay-away (double dummy, the forehand leads):"]
    lines += columns([header, *(_row_cells(number, row, style) for number, row in enumerate(table.rows, 1))])
    lines += ["", "Makeable with some exchange (double dummy), one exchange each:", *_makeable_lines(table, style)]
    return "\n".join(lines)


def _par_lines(report: ExchangeReport, style: Style) -> list[str]:
    best = report.par
    calls = " – ".join(best.calls)
    if best.declarer is None or best.contract is None:
        return [f"Par (both bid knowing all cards, docs/par.md): both pass, nothing is played ({calls})"]
    row = report.table.best(best.declarer, best.contract)
    take = " ".join(card_name(c) for c in row.take) or style.none
    return [
        f"Par (both bid knowing all cards, docs/par.md): {best.contract} by the {seat_name(best.declarer)},"
        f" {best.game_points:+d} game points for him ({calls})",
        f"  take {take}, lay away {by_suit(row.lay_away, style)}; the forehand scores {best.forehand_score:+d}",
    ]


def _exchange_words(report: ExchangeReport, style: Style) -> str:
    """The declared exchange against the table's best of its contract:
    the best, as good in game points though fewer card points, or what it
    costs in game points."""
    declared = report.declared
    assert declared is not None
    contract = declared.contract
    if declared.exchange_cost > 0:
        return f"costs {counted(declared.exchange_cost, 'game point')} against the best of the {contract}"
    best = report.table.best(declared.declarer, contract)
    if best.thirds <= declared.thirds:
        return f"the best of the {contract}"
    # Game points are what the game pays: the table's best only takes more card points.
    row = report.table.rows.index(best) + 1
    return (
        f"as good as the best of the {contract} in game points ({declared.game_points:+d});"
        f" the table's best, row {row}, makes {style.points(best.thirds)} points"
    )


def _declared_lines(report: ExchangeReport, style: Style) -> list[str]:
    declared = report.declared
    if declared is None:
        return []
    take = " ".join(card_name(c) for c in declared.exchange.take) or style.none
    lines = [
        "",
        f"Declared: {declared.contract} by the {seat_name(declared.declarer)}, take {take},"
        f" lay away {by_suit(declared.exchange.lay_away, style)}",
        f"  {style.points(declared.thirds)} points ({declared.thirds} thirds), {_result(declared.won, declared.valat)},"
        f" {declared.game_points:+d} game points",
    ]
    lines.append(f"  the exchange: {_exchange_words(report, style)}")
    if declared.bid_cost > 0:
        lines.append(f"  the bid: costs {counted(declared.bid_cost, 'game point')} against par")
    elif declared.bid_cost < 0:
        lines.append(
            f"  the bid: {counted(-declared.bid_cost, 'game point')} more than par"
            " (only a mistake of the other allows it)"
        )
    else:
        lines.append("  the bid: par")
    return lines


def render_exchange_report(file: str, report: ExchangeReport, style: Style) -> str:
    """The text of ``kosolve exchange``: the cards as dealt, the table, the
    par, and the file's own bid and exchange with what they cost."""
    lines = [file, *render_dealt(report.dealt, style), "", render_exchange_table(report.table, style)]
    lines += ["", *_par_lines(report, style)]
    lines += _declared_lines(report, style)
    stats = report.table.stats
    lines.append(f"Search: {stats.nodes:,} nodes in {stats.ms:.0f} ms")
    return "\n".join(lines)


def render_exchange_value(file: str, report: ExchangeReport) -> str:
    """One line: the file and its par.

    >>> from kosolve.analysis.report import Analyser
    >>> from kosolve.model.files import load_dealt_file
    >>> report = Analyser().analyse_exchange(load_dealt_file("examples/dealt-open.json").dealt)
    >>> render_exchange_value("dealt-open.json", report)
    'dealt-open.json: par solo by the dealer, +12 game points for him'
    """
    best = report.par
    if best.declarer is None or best.contract is None:
        return f"{file}: par both pass, nothing is played"
    return f"{file}: par {best.contract} by the {seat_name(best.declarer)}, {best.game_points:+d} game points for him"


__all__ = ["by_suit", "render_dealt", "render_exchange_report", "render_exchange_table", "render_exchange_value"]
