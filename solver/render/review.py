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
from kosolve.review.results import CardJudgement, PlayerSummary, Review


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
        *_card_rows(result, style),
    ]
    costly = result.costliest()
    if costly:
        lines += ["", "Costliest by what the player knew:"]
        for card in costly:
            lines.append(
                f"  trick {card.trick}, the {seat_name(card.seat)}'s {card_name(card.card)}:"
                f" {_loss(card.knew_loss, result.score, style)} in mean (best: {_names(card.best)}), {card.verdict}"
            )
    lines += ["", "Each player:", *_player_rows(result.players, result.score, style)]
    return "\n".join(lines)


__all__ = ["render_review"]
