"""The review by what each player knew as a card player reads it
(docs/review.md): trick by trick, every card with the worlds its player
could not tell apart, its loss by what he knew and double dummy, and the
verdict; then the costliest mistakes by what the player knew and each
player's summary.  It renders a :class:`~kosolve.review.results.Review`
and computes nothing itself.

>>> from kosolve.model.files import load_deal
>>> from kosolve.review.judging import review
>>> text = render_review("played.json", review(load_deal("examples/played.json"), jobs=1), Style(unicode=False))
>>> print(text.splitlines()[0])
played.json: zweiblatt by the forehand, 7 cards judged by what each player knew and double dummy
"""

from __future__ import annotations

from kosolve.model.cards import card_name
from kosolve.model.game import seat_name
from kosolve.render.text import Style, columns
from kosolve.review.results import CardJudgement, DecisionJudgement, PlayerSummary, Review


def _loss(loss: float, score: bool, style: Style) -> str:
    """A mean loss: game points as they are, thirds as points."""
    if not loss:
        return style.none
    return f"{loss:.2f}" if score else f"{loss / 3:.2f}"


def _dd_loss(loss: int, score: bool, style: Style) -> str:
    if not loss:
        return style.none
    return str(loss) if score else style.points(loss)


def _worlds(card: CardJudgement) -> str:
    if card.forced:
        return f"{card.worlds:,}"
    return f"{card.worlds:,} (all)" if card.exact else f"{card.samples:,} of {card.worlds:,}"


SHOWN_CARDS = 4
"""The most of a list of equally good cards a row names."""


def _names(cards: tuple[int, ...]) -> str:
    """Up to :data:`SHOWN_CARDS` cards by name, and how many more."""
    names = " ".join(card_name(c) for c in cards[:SHOWN_CARDS])
    return names if len(cards) <= SHOWN_CARDS else f"{names} (+{len(cards) - SHOWN_CARDS})"


def _card_rows(result: Review, style: Style) -> list[str]:
    score = result.score
    rows = [["trick", "player", "card", "worlds", "knew loss", "best by what he knew", "DD loss", "best DD", "verdict"]]
    trick = None
    for card in result.cards:
        shown_trick = str(card.trick) if card.trick != trick else ""
        trick = card.trick
        if card.forced:
            rows.append([shown_trick, seat_name(card.seat), card_name(card.card), _worlds(card), "", "", "", "",
                         "forced"])  # fmt: skip
            continue
        knew_best = "" if card.verdict in ("best", "unlucky") else _names(card.best)
        dd_best = "" if card.verdict in ("best", "lucky") else _names(card.dd_best)
        rows.append([shown_trick, seat_name(card.seat), card_name(card.card), _worlds(card),
                     _loss(card.knew_loss, score, style), knew_best, _dd_loss(card.dd_loss, score, style), dd_best,
                     card.verdict])  # fmt: skip
    return columns(rows)


def _percent(share: float | None) -> str:
    return "-" if share is None else f"{100 * share:.0f}%"


def _player_rows(players: tuple[PlayerSummary, ...], score: bool, style: Style) -> list[str]:
    rows = [["", "cards", "judged", "best", "mistake", "unlucky", "lucky", "knew loss", "DD loss", "accuracy knew",
             "accuracy DD"]]  # fmt: skip
    for p in players:
        counts = [str(p.count(verdict)) for verdict in ("best", "mistake", "unlucky", "lucky")]
        losses = [_loss(p.knew_loss, score, style), _dd_loss(p.dd_loss, score, style)]
        shares = [_percent(p.knew_accuracy), _percent(p.dd_accuracy)]
        rows.append([seat_name(p.seat), str(p.cards), str(p.judged), *counts, *losses, *shares])
    return columns(rows)


KINDS = {"bid": "bid", "announce": "announce", "kontra": "kontra", "take": "talon", "lay_away": "lay away"}
"""A decision's kind as the table names it."""


def _points(value: float) -> str:
    return f"{value:+.2f}" if value != int(value) else f"{int(value):+d}"


def _what(decision: DecisionJudgement) -> str:
    """The decision's kind, with its round, or the announcement a Kontra answers."""
    name = KINDS[decision.kind]
    if decision.kind == "kontra":
        return f"{name} {decision.about} ({decision.round})" if decision.round else f"{name} {decision.about}"
    return f"{name} ({decision.round})" if decision.round else name


def _decision_rows(result: Review, style: Style) -> list[str]:
    rows = [["#", "player", "decision", "chosen", "worlds", "mean", "knew loss", "best by what he knew", "DD",
             "DD loss", "best DD", "verdict"]]  # fmt: skip
    for d in result.decisions:
        chosen = next(o for o in d.options if o.option == d.choice)
        worlds = f"{d.worlds:,} (all)" if d.exact else f"{d.samples:,} of {d.worlds:,}"
        knew_best = "" if d.verdict in ("best", "unlucky", "forced") else _options(d.best)
        dd_best = "" if d.verdict in ("best", "lucky", "forced") else _options(d.dd_best)
        knew = f"{d.knew_loss_points:.2f}" if d.knew_loss_points else style.none
        dd = str(d.dd_loss_points) if d.dd_loss_points else style.none
        rows.append([str(d.index), seat_name(d.seat), _what(d), d.choice, worlds, _points(chosen.mean_points), knew,
                     knew_best, _points(chosen.dd_points), dd, dd_best, d.verdict])  # fmt: skip
    return columns(rows)


def _options(options: tuple[str, ...]) -> str:
    """Up to two options by name, and how many more."""
    shown = ", ".join(options[:2])
    return shown if len(options) <= 2 else f"{shown} (+{len(options) - 2})"


def _phase_rows(players: tuple[PlayerSummary, ...], score: bool, style: Style) -> list[str]:
    play = "play (net)" if score else "play (card points)"
    rows = [["", "auction", "exchange", "announcements", play, "total before the play"]]
    for p in players:
        cells = []
        for phase in p.phases:
            if phase.phase == "play":
                knew, dd = _loss(phase.knew_loss, score, style), _dd_loss(phase.dd_loss, score, style)
            else:
                knew = f"{phase.knew_loss:.2f}" if phase.knew_loss else style.none
                dd = str(phase.dd_loss) if phase.dd_loss else style.none
            cells.append(f"{knew} / {dd}")
        before = [phase for phase in p.phases if phase.phase != "play"]
        total_knew = sum(phase.knew_loss for phase in before)
        total_dd = sum(phase.dd_loss for phase in before)
        cells.append(f"{total_knew:.2f} / {total_dd}" if total_knew or total_dd else f"{style.none} / {style.none}")
        rows.append([seat_name(p.seat), *cells])
    return columns(rows)


def render_decisions(result: Review, style: Style) -> list[str]:
    """The decisions before the play, one row each, and the option values
    of each decision that lost by either measure; empty without them."""
    if not result.decisions:
        return []
    lines = [
        "Decisions before the play, in the decider's game points (mean by what he knew; DD: the world dealt):",
        f"  worlds: every one of his view then when at most {result.decision_samples:,},"
        f" else {result.decision_samples:,} drawn (seed {result.seed}); the rest of the game double dummy",
        *_decision_rows(result, style),
    ]
    lost = [d for d in result.decisions if d.verdict not in ("best", "forced")]
    for d in lost:
        ranked = sorted(d.options, key=lambda o: -o.mean_points)[:4]
        shown = ", ".join(f"{o.option} {_points(o.mean_points)} (DD {_points(o.dd_points)})" for o in ranked)
        lines.append(f"  #{d.index} {_what(d)}: {shown}")
    return [*lines, ""]


def render_review(file: str, result: Review, style: Style) -> str:
    """The whole text of ``kosolve review`` for one deal."""
    deal = result.deal
    unit = "net game points" if result.score else "points"
    judged = len(result.cards)
    lines = [
        f"{file}: {deal.contract} by the {seat_name(deal.declarer)},"
        f" {judged} card{'s' if judged != 1 else ''} judged by what each player knew and double dummy",
        f"  worlds: every one that fits the player's view when at most {result.samples:,},"
        f" else {result.samples:,} drawn (seed {result.seed} + the card's index)",
        f"  losses in the declarer's {unit}, from the player's side; knew: against his best card by the mean",
        "",
        *render_decisions(result, style),
    ]
    if not result.cards:
        # A deal as dealt not yet played: its decisions are all there is.
        return "\n".join([*lines, "No card played: the decisions before the play only."])
    lines += _card_rows(result, style)
    costly = result.costliest()
    if costly:
        lines += ["", "Costliest by what the player knew:"]
        for card in costly:
            lines.append(
                f"  trick {card.trick}, the {seat_name(card.seat)}'s {card_name(card.card)}:"
                f" {_loss(card.knew_loss, result.score, style)} in mean (best: {_names(card.best)}), {card.verdict}"
            )
    lines += ["", "Each player:", *_player_rows(result.players, result.score, style)]
    if result.decision_samples is not None:
        lines += [
            "",
            "Each player's losses by phase, by what he knew / double dummy (game points, the play in its unit):",
            *_phase_rows(result.players, result.score, style),
        ]
    return "\n".join(lines)


__all__ = ["render_decisions", "render_review"]
