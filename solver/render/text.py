"""The text report a card player reads: both hands by suit (tarocks in
rank order), the value, every card's value, an optimal line, the goals,
the post-mortem and the settlement.  It renders a
:class:`~kosolve.analysis.report.Report` and computes nothing itself.

>>> from kosolve.analysis.report import analyse
>>> from kosolve.model.deal import load_deal
>>> text = render_report("ending.json", analyse(load_deal("examples/ending.json")), Style(unicode=True))
>>> print(text.splitlines()[0])
ending.json
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO

from kosolve.analysis.goals import TRICK_GOALS, FeasibilityTable
from kosolve.analysis.postmortem import PostMortem
from kosolve.analysis.report import Report
from kosolve.analysis.solving import Solution
from kosolve.model.cards import (
    DISPLAY_ORDER,
    SUIT_MASKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    TAROCK,
    Card,
    card_name,
    hand_names,
    points_of,
    thirds_of,
)
from kosolve.model.deal import Deal
from kosolve.model.game import SEATS, TRICKS_PER_GAME, Position, Seat, seat_name, trick_thirds


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
        """``36 points (107 thirds = 35⅔)``: rounded, then exact."""
        exact = self.points(thirds)
        rounded = points_of(thirds)
        detail = f"{thirds} thirds" if exact == str(rounded) else f"{thirds} thirds = {exact}"
        return f"{rounded} points ({detail})"

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


def _columns(rows: Sequence[Sequence[str]], indent: str = "  ") -> list[str]:
    """Rows of cells, each column padded to its widest cell."""
    widths = [max(len(row[i]) for row in rows if i < len(row)) for i in range(max(len(row) for row in rows))]
    return [indent + "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows]


@dataclass(frozen=True)
class _Trick:
    number: int
    leader: Seat
    cards: tuple[Card, ...]
    on_table: bool
    """Whether the first card lay on the table before these cards."""
    winner: Seat | None


def _tricks(position: Position, cards: Sequence[Card], first_trick: int) -> list[_Trick]:
    """``cards`` played on from ``position``, grouped into tricks."""
    position = position.copy()
    tricks = []
    current = list(position.trick)
    on_table = bool(current)
    for card in cards:
        if not position.trick:
            current, on_table = [], False
        leader = position.leader
        position.push(card)
        current.append(card)
        if not position.trick:
            number = first_trick + sum(position.tricks_won) - 1
            tricks.append(_Trick(number, leader, tuple(current), on_table, position.leader))
    if position.trick and current:
        tricks.append(_Trick(first_trick + sum(position.tricks_won), position.leader, tuple(current), on_table, None))
    return tricks


def _trick_lines(tricks: Sequence[_Trick], style: Style) -> list[str]:
    rows = []
    for trick in tricks:
        row = [f"trick {trick.number}"]
        for index, card in enumerate(trick.cards):
            seat = trick.leader if index == 0 else 1 - trick.leader
            on_table = " (on the table)" if index == 0 and trick.on_table else ""
            row.append(f"{seat_name(seat)} {card_name(card)}{on_table}")
        if trick.winner is not None:
            row.append(f"{seat_name(trick.winner)} takes {style.points(trick_thirds(*trick.cards))}")
        rows.append(row)
    return _columns(rows)


def _hand_lines(deal: Deal, position: Position, style: Style) -> list[str]:
    def role(seat: Seat) -> str:
        return f"{seat_name(seat)} (declarer)" if seat == deal.declarer else seat_name(seat)

    rows = [["", *(role(seat) for seat in SEATS)]]
    for suit in DISPLAY_ORDER:
        cells = [" ".join(hand_names(position.hands[seat] & SUIT_MASKS[suit])) or style.none for seat in SEATS]
        rows.append([style.suit(suit), *cells])
    if deal.piles is not None:
        cells = [
            f"{deal.piles[seat].bit_count()} cards, {style.points(thirds_of(deal.piles[seat]))} points"
            for seat in SEATS
        ]
        rows.append(["pile", *cells])
    return _columns(rows)


def _situation(deal: Deal, position: Position) -> str:
    trick = deal.first_trick + sum(position.tricks_won)
    if position.is_over():
        return "the hand is over"
    mover = seat_name(position.turn)
    if position.trick:
        return f"trick {trick} of {TRICKS_PER_GAME}, the {mover} to play on {card_name(position.trick[0])}"
    return f"trick {trick} of {TRICKS_PER_GAME}, the {mover} to lead"


def _move_lines(solution: Solution, style: Style) -> list[str]:
    declaring = solution.to_move == solution.declarer

    def cost(thirds: int) -> int:
        return solution.thirds - thirds if declaring else thirds - solution.thirds

    order = hand_names(sum(1 << move.card for move in solution.moves))
    moves = sorted(solution.moves, key=lambda move: (cost(move.thirds), order.index(card_name(move.card))))
    rows = [["card", "points", "thirds", ""]]
    for move in moves:
        loss = cost(move.thirds)
        note = "best" if loss == 0 else f"costs the {seat_name(solution.to_move)} {style.points(loss)}"
        rows.append([card_name(move.card), style.points(move.thirds), str(move.thirds), note])
    return _columns(rows, indent="    ")


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
                cells.append("yes" if table.feasible(seat, goal) else "no")
            except KeyError:
                cells.append(style.none)
        rows.append([goal.name.replace("_", " "), *cells])
    lines = _columns(rows)
    for row in table.rows:
        if row.feasible and row.goal in TRICK_GOALS:
            cards = " ".join(card_name(c) for c in row.line)
            lines.append(f"  {row.goal.name} by the {seat_name(row.seat)}, whatever the other does: {cards}")
    return lines


def _postmortem_lines(review: PostMortem, style: Style) -> list[str]:
    by_score = any(card.net_loss is not None for card in review.cards)
    rows = [["trick", "player", "card", "before", "after", "loss", *(["score loss"] if by_score else []), "better"]]
    for card in review.cards:
        net = [f"{card.net_loss:+d}" if card.net_loss else ""] if by_score else []
        rows.append(
            [
                str(card.trick),
                seat_name(card.player),
                card_name(card.card),
                style.points(card.before),
                style.points(card.after),
                style.points(card.loss) if card.loss else "",
                *net,
                " ".join(card_name(c) for c in card.best),
            ]
        )
    lines = _columns(rows)
    losses = ", ".join(
        f"the {seat_name(seat)} {style.points(loss)}" for seat, loss in zip(SEATS, review.total_loss, strict=True)
    )
    lines.append(f"  points given away: {losses}")
    if review.total_net_loss is not None:
        given = zip(SEATS, review.total_net_loss, strict=True)
        lines.append(
            "  game points given away: " + ", ".join(f"the {seat_name(seat)} {loss:+d}" for seat, loss in given)
        )
    for card in review.costliest():
        lines.append(
            f"  costliest: trick {card.trick}, the {seat_name(card.player)}'s {card_name(card.card)}"
            f" cost {style.points(card.loss)} (better: {' '.join(card_name(c) for c in card.best)})"
        )
    for goal in review.goals:
        if goal.lost_at is not None:
            where = f"lost with card {goal.lost_at + 1} ({card_name(review.cards[goal.lost_at].card)})"
        else:
            where = "makeable to the end" if goal.makeable_at_start else "never makeable"
        lines.append(f"  {goal.goal.name.replace('_', ' ')} by the {seat_name(goal.seat)}: {where}")
    return lines


def render_report(file: str, report: Report, style: Style) -> str:
    """The whole text report of one deal file."""
    deal, at, solution = report.deal, report.at, report.solution
    table, review, net = report.feasibility, report.postmortem, report.net
    position = report.position
    played = deal.play[:at]
    lines = [file, f"  {deal.contract}, declarer {seat_name(deal.declarer)}; {_situation(deal, position)}"]
    lines += _hand_lines(deal, position, style)
    if played:
        unplayed = len(deal.play) - len(played)
        more = f" ({unplayed} more in the file, left out by --at)" if unplayed else ""
        cards = "1 card" if len(played) == 1 else f"{len(played)} cards"
        lines += ["", f"Played, {cards}{more}:"]
        lines += _trick_lines(_tricks(deal.position(0), played, deal.first_trick), style)
        so_far = position.declarer_thirds()
        lines.append(f"  the declarer has {style.points(so_far)} points ({so_far} thirds) so far")
    lines += ["", f"Value: {style.value(solution.thirds)} for the declarer: {_result_text(solution)}"]
    if solution.moves:
        lines += [f"  the declarer's points after each card of the {seat_name(solution.to_move)}, to move:"]
        lines += _move_lines(solution, style)
    if solution.line:
        lines += ["Optimal line:", *_trick_lines(_tricks(position, solution.line, deal.first_trick), style)]
    if net is not None:
        lines += ["", f"Net game points for the declarer, played for the score: {net.score:+d}"]
        if net.points_line_score is not None and net.points_line_score != net.score:
            lines.append(f"  (the line played for points above gives him {net.points_line_score:+d})")
        if net.line:
            lines += ["Line played for the score:", *_trick_lines(_tricks(position, net.line, deal.first_trick), style)]
    if report.held is not None:
        lines += ["", "Held at trick 1 (bonuses that count whatever the play):"]
        for seat in SEATS:
            names = [name.replace("_", " ") for held_by, name in report.held if held_by == seat]
            lines.append(f"  {seat_name(seat)}: {', '.join(names) or 'none'}")
    if table is not None:
        lines += ["", "Makeable with best play from here (double dummy):", *_feasibility_lines(table, style)]
    if review is not None:
        lines += ["", "Post-mortem of the play (the declarer's points with best play before and after each card):"]
        lines += _postmortem_lines(review, style)
    stats = solution.stats
    lines.append(
        f"Search: {stats.nodes:,} nodes in {stats.ms:.1f} ms; table: {stats.tt_hits:,} hits of"
        f" {stats.tt_probes:,} probes, {stats.tt_stores:,} stores in {stats.tt_entries:,} slots"
    )
    if report.settlement is not None:
        lines += ["", "Settlement of the played hand:", report.settlement.format()]
    return "\n".join(lines)


def render_value(file: str, report: Report, style: Style) -> str:
    """One line: the file, the value and whether the declarer wins."""
    solution = report.solution
    result = f", {solution.result}" if solution.result else ""
    return f"{file}: {style.value(solution.thirds)}{result}"
