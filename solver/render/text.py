"""The text report a card player reads: both hands by suit (tarocks in
rank order), the value, every card's value, an optimal line, the goals,
the post-mortem and the settlement.  It renders a
:class:`~kosolve.analysis.report.Report` and computes nothing itself.

>>> from kosolve.analysis.report import analyse
>>> from kosolve.model.files import load_deal
>>> text = render_report("ending.json", analyse(load_deal("examples/ending.json")), Style(unicode=True))
>>> print(text.splitlines()[0])
ending.json
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from typing import IO

from kosolve.analysis.goals import TRICK_GOALS, FeasibilityTable, Goal, LineBonus
from kosolve.analysis.netscore import NetScore
from kosolve.analysis.postmortem import PostMortem
from kosolve.analysis.report import Report
from kosolve.analysis.scoring import Settlement
from kosolve.analysis.solving import Solution
from kosolve.model.cards import (
    DISPLAY_ORDER,
    SUIT_MASKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    TAROCK,
    Card,
    Hand,
    card_name,
    hand_names,
    points_of,
    thirds_of,
)
from kosolve.model.deal import Deal
from kosolve.model.game import SEATS, TRICKS_PER_GAME, Position, Seat, Trick, seat_name
from kosolve.model.reprs import counted


@dataclass(frozen=True)
class Style:
    """How to draw suits and fractions: Unicode when the output can hold it."""

    unicode: bool

    def points(self, thirds: int) -> str:
        """Exact points of ``thirds``: ``35⅔`` (``35 2/3`` in ASCII)."""
        sign = "-" if thirds < 0 else ""
        whole, rest = divmod(abs(thirds), 3)
        if not rest:
            return f"{sign}{whole}"
        fraction = ("⅓", "⅔")[rest - 1] if self.unicode else ("1/3", "2/3")[rest - 1]
        if self.unicode:
            return f"{sign}{whole or ''}{fraction}"
        return f"{sign}{whole} {fraction}" if whole else f"{sign}{fraction}"

    def value(self, thirds: int) -> str:
        """The exact points and thirds, and what they count as when a third
        is left over (docs/rules.md §2):

        >>> Style(unicode=True).value(128)
        '42⅔ points (128 thirds), counted as 43 (⅔ rounds up)'
        >>> Style(unicode=False).value(109), Style(unicode=True).value(111)
        ('36 1/3 points (109 thirds), counted as 36 (1/3 rounds down)', '37 points (111 thirds)')
        """
        exact = f"{self.points(thirds)} points ({thirds} thirds)"
        rest = thirds % 3
        if not rest:
            return exact
        how = "rounds down" if rest == 1 else "rounds up"
        return f"{exact}, counted as {points_of(thirds)} ({self.points(rest)} {how})"

    def suit(self, suit: int) -> str:
        if suit == TAROCK or not self.unicode:
            return SUIT_NAMES[suit]
        return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}"

    @property
    def none(self) -> str:
        return "—" if self.unicode else "-"


def style_for(stream: IO[str]) -> Style:
    try:
        "♥♦♠♣⅓⅔—".encode(getattr(stream, "encoding", None) or "ascii")
    except (LookupError, UnicodeEncodeError):
        return Style(unicode=False)
    return Style(unicode=True)


def columns(rows: Sequence[Sequence[str]], indent: str = "  ", right: Container[int] = ()) -> list[str]:
    """Rows of cells, each column padded to its widest cell: on the right
    (flush left), or on the left for the columns ``right`` (figures whose
    digits line up)."""
    widths = [max(len(row[i]) for row in rows if i < len(row)) for i in range(max(len(row) for row in rows))]

    def padded(i: int, cell: str) -> str:
        return cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])

    return [indent + "  ".join(padded(i, cell) for i, cell in enumerate(row)).rstrip() for row in rows]


def trick_lines(tricks: Sequence[Trick], style: Style, on_table: bool = False) -> list[str]:
    """A row a trick, each card with its player; ``on_table`` says that the
    first trick's lead lay on the table before these tricks were played."""
    rows = []
    for number, trick in enumerate(tricks):
        row = [f"trick {trick.number}"]
        for index, (seat, card) in enumerate(trick.played()):
            lay = " (on the table)" if index == 0 and number == 0 and on_table else ""
            row.append(f"{seat_name(seat)} {card_name(card)}{lay}")
        if trick.winner is not None:
            row.append(f"{seat_name(trick.winner)} takes {style.points(trick.thirds)}")
        rows.append(row)
    return columns(rows)


def _line_lines(position: Position, line: Sequence[Card], style: Style) -> list[str]:
    """A line of play from ``position``, trick by trick."""
    return trick_lines(position.line_tricks(line), style, on_table=bool(position.trick))


def _hand_lines(deal: Deal, position: Position, style: Style) -> list[str]:
    def role(seat: Seat) -> str:
        return f"{seat_name(seat)} (declarer)" if seat == deal.declarer else seat_name(seat)

    rows = [["", *(role(seat) for seat in SEATS)]]
    for suit in DISPLAY_ORDER:
        cells = [" ".join(hand_names(position.hands[seat] & SUIT_MASKS[suit])) or style.none for seat in SEATS]
        rows.append([style.suit(suit), *cells])
    if deal.piles is not None:
        cells = [
            f"{counted(deal.piles[seat].bit_count(), 'card')}, {style.points(thirds_of(deal.piles[seat]))} points"
            for seat in SEATS
        ]
        rows.append(["pile", *cells])
    return columns(rows)


def _situation(position: Position) -> str:
    trick = position.trick_number
    if position.is_over():
        return "the hand is over"
    mover = seat_name(position.turn)
    if position.trick:
        return f"trick {trick} of {TRICKS_PER_GAME}, the {mover} to play on {card_name(position.trick[0])}"
    return f"trick {trick} of {TRICKS_PER_GAME}, the {mover} to lead"


def _move_lines(solution: Solution, mover: Seat, style: Style) -> list[str]:
    """One row per value: the cards that give it in the hand diagram's order,
    the best group first."""
    declaring = mover == solution.declarer
    groups: dict[int, Hand] = {}
    for move in solution.moves:
        groups[move.thirds] = groups.get(move.thirds, 0) | 1 << move.card
    rows = [["cards", "points", "thirds", ""]]
    for thirds in sorted(groups, reverse=declaring):
        loss = abs(solution.thirds - thirds)
        note = "best" if loss == 0 else f"costs the {seat_name(mover)} {style.points(loss)}"
        rows.append([" ".join(hand_names(groups[thirds])), style.points(thirds), str(thirds), note])
    return columns(rows, indent="    ")


def _result_text(solution: Solution) -> str:
    if solution.win_thirds is None:
        return "tricks only, no piles given"
    return f"{solution.result} ({solution.win_thirds} thirds needed)"


def _feasibility_lines(table: FeasibilityTable, style: Style) -> list[str]:
    rows = [["", *(seat_name(seat) for seat in SEATS)]]
    for goal in table.goals():
        cells = []
        for seat in SEATS:
            try:
                feasible = table.feasible(seat, goal)
            except KeyError:
                cells.append(style.none)
                continue
            cells.append("unknown" if feasible is None else "yes" if feasible else "no")
        rows.append([goal.name.replace("_", " "), *cells])
    lines = columns(rows)
    if any(not row.known for row in table.rows):
        lines.append("  unknown: it depends on the declarer's 16 cards at trick 1, which this file does not give")
    for row in table.rows:
        if row.feasible and row.goal in TRICK_GOALS:
            cards = " ".join(card_name(c) for c in row.line)
            lines.append(f"  {row.goal.name} by the {seat_name(row.seat)}, whatever the other does: {cards}")
    return lines


def _bonus_words(goal: Goal) -> str:
    """``the Pagat (I takes trick 16)``, ``the Valat (every trick)``."""
    bird = goal.bird
    if bird is None:
        return "the Valat (every trick)"
    return f"the {bird.name.title()} ({card_name(bird.card)} takes trick {bird.trick})"


def _line_bonus_lines(bonuses: Sequence[LineBonus]) -> list[str]:
    """Whether a bird or Valat the line makes could be forced: the table of
    goals may say it cannot, and the line must not read as if it could."""
    lines = []
    for bonus in bonuses:
        made = f"  the {seat_name(bonus.seat)} makes {_bonus_words(bonus.goal)} in this line"
        if bonus.forceable:
            lines.append(f"{made}, and he can force it")
        else:
            lines.append(f"{made} only because the {seat_name(1 - bonus.seat)} lets it through; he could stop it")
    return lines


def _net_lines(net: NetScore, position: Position, style: Style) -> list[str]:
    lines = ["", f"Played for the net score instead (game points, not card points): {net.score:+d} for the declarer"]
    points_line = net.points_line_score
    if points_line is not None and points_line < net.score:
        lines.append(f"  the optimal line above, played for points, scores only {points_line:+d} for him")
    elif points_line is not None and points_line > net.score:
        lines.append(
            f"  the optimal line above would score {points_line:+d} for him only because the defender plays it for"
            f" points; played for the score, the defender holds him to {net.score:+d}"
        )
    if net.line:
        lines += ["Line played for the score:", *_line_lines(position, net.line, style)]
    return lines


def _postmortem_lines(review: PostMortem, style: Style) -> list[str]:
    by_score = any(card.net_loss is not None for card in review.cards)

    def loss_cell(loss: int | None, show: Callable[[int], str]) -> str:
        # A mark in every cell: a blank one would read as "not computed".
        return show(loss) if loss else style.none

    rows = [["trick", "player", "card", "before", "after", "loss", *(["score loss"] if by_score else []), "better"]]
    for card in review.cards:
        rows.append(
            [
                str(card.trick),
                seat_name(card.player),
                card_name(card.card),
                style.points(card.before),
                style.points(card.after),
                loss_cell(card.loss, style.points),
                *([loss_cell(card.net_loss, str)] if by_score else []),
                " ".join(card_name(c) for c in card.best),
            ]
        )
    lines = columns(rows)
    losses = ", ".join(
        f"the {seat_name(seat)} {style.points(loss)}" for seat, loss in zip(SEATS, review.total_loss, strict=True)
    )
    lines.append(f"  points given away: {losses}")
    if review.total_net_loss is not None:
        given = zip(SEATS, review.total_net_loss, strict=True)
        lines.append("  game points given away: " + ", ".join(f"the {seat_name(seat)} {loss}" for seat, loss in given))
    for card in review.costliest():
        lines.append(
            f"  costliest: trick {card.trick}, the {seat_name(card.player)}'s {card_name(card.card)}"
            f" cost {style.points(card.loss)} (better: {' '.join(card_name(c) for c in card.best)})"
        )
    for goal in review.goals:
        if goal.lost_at is not None:
            lost = review.cards[goal.lost_at]
            where = f"lost with card {goal.lost_at + 1}, the {seat_name(lost.player)}'s {card_name(lost.card)}"
        elif goal.makeable_at_start is None:
            where = "unknown: it depends on the declarer's 16 cards at trick 1, which this file does not give"
        else:
            where = "makeable to the end" if goal.makeable_at_start else "never makeable"
        lines.append(f"  {goal.goal.name.replace('_', ' ')} by the {seat_name(goal.seat)}: {where}")
    return lines


def _left_out(report: Report) -> str:
    """``after 10 of 32 cards; 22 more in the file, left out by --at``."""
    cards = counted(len(report.deal.play), "card")
    return f"after {report.at} of {cards}; {report.left_out} more in the file, left out by --at"


def render_report(file: str, report: Report, style: Style) -> str:
    """The whole text report of one deal file."""
    deal, at, solution = report.deal, report.at, report.solution
    table, review, net = report.feasibility, report.postmortem, report.net
    position = report.position
    over = position.is_over()
    played = deal.play[:at]
    lines = [file, f"  {deal.contract}, declarer {seat_name(deal.declarer)}; {_situation(position)}"]
    if report.left_out:
        lines.append(f"  solved {_left_out(report)}")
    if not over:
        lines += _hand_lines(deal, position, style)
    if played:
        cards = counted(len(played), "card")
        lines += ["", f"Played, {cards}:"]
        lines += trick_lines(position.tricks, style)
        if not over:
            so_far = position.declarer_thirds()
            lines.append(f"  the declarer has {style.points(so_far)} points ({so_far} thirds) so far")
    if report.held is not None:
        lines += ["", "Held at trick 1 (scored for the holder whatever the play; facts, not goals):"]
        for seat in SEATS:
            names = [name.replace("_", " ").title() for held_by, name in report.held if held_by == seat]
            lines.append(f"  {seat_name(seat)}: {', '.join(names) or 'none'}")
    label = "Result for the declarer" if over else "Value for the declarer"
    lines += ["", f"{label}: {style.value(solution.thirds)}; {_result_text(solution)}"]
    if solution.moves and solution.to_move is not None:
        lines += [f"  the declarer's points after each card of the {seat_name(solution.to_move)}, to move:"]
        lines += _move_lines(solution, solution.to_move, style)
    if solution.line:
        lines += ["Optimal line:", *_line_lines(position, solution.line, style)]
        lines += _line_bonus_lines(report.line_bonuses)
    if net is not None:
        lines += _net_lines(net, position, style)
    if table is not None:
        lines += ["", "Makeable with best play from here (double dummy):", *_feasibility_lines(table, style)]
    if review is not None:
        lines += ["", "Post-mortem of the play (the declarer's points with best play before and after each card):"]
        lines += _postmortem_lines(review, style)
    if report.settlement is not None:
        lines += ["", "Settlement of the played hand:", *settlement_lines(report.settlement, style)]
    if not over:
        stats = solution.stats
        lines.append(
            f"Search: {stats.nodes:,} nodes in {stats.ms:.1f} ms; table: {stats.tt_hits:,} hits of"
            f" {stats.tt_probes:,} probes, {stats.tt_stores:,} stores in {stats.tt_entries:,} slots"
        )
    return "\n".join(lines)


def settlement_lines(settlement: Settlement, style: Style) -> list[str]:
    """A settled hand as a player reads it: the contract and the
    declarer's points, a line per item (who gets how many game points and
    why), then each player's total."""
    lines = [
        f"{settlement.contract}, declared by the {seat_name(settlement.declarer)}:"
        f" {style.value(settlement.declarer_thirds)}"
    ]
    lines += [f"  {item.points:+4d} {seat_name(item.to):<8}  {item.why}" for item in settlement.items]
    lines.append("  " + ", ".join(f"{seat_name(seat)} {settlement.totals[seat]:+d}" for seat in SEATS))
    return lines


def render_value(file: str, report: Report, style: Style) -> str:
    """One line: the file, the value, whether the declarer wins, the net
    score when computed, and what ``--at`` left out."""
    solution = report.solution
    parts = [f"{file}: {style.value(solution.thirds)}"]
    if solution.result:
        parts.append(solution.result)
    if report.net is not None:
        parts.append(f"net score {report.net.score:+d}")
    if report.left_out:
        parts.append(_left_out(report))
    return ", ".join(parts)


__all__ = [
    "Style",
    "columns",
    "render_report",
    "render_value",
    "settlement_lines",
    "style_for",
    "trick_lines",
]
