"""The odds from one seat as a card player reads them (docs/odds.md): the
viewer's hand and the unseen cards by suit (tarocks in rank order), the
play so far, how many worlds fit and whether all were solved, then each
card's mean and chance, the goals, or before the auction each contract.
It renders an :class:`~kosolve.sampling.odds.Odds` and computes nothing
itself.

>>> from kosolve.model.files import load_view
>>> from kosolve.sampling.odds import odds
>>> text = render_odds("view.json", odds(load_view("examples/views/trick4.json"), 50, jobs=1), Style(unicode=False))
>>> print(text.splitlines()[0])
view.json: the forehand's view; zweiblatt, declarer forehand
"""

from __future__ import annotations

from kosolve.model.cards import ALL_CARDS, DISPLAY_ORDER, SUIT_MASKS, card_name, hand_names, mask_of, thirds_of
from kosolve.model.game import SEATS, TRICKS_PER_GAME, seat_name, trick_number_of
from kosolve.model.reprs import counted
from kosolve.model.view import SeatView
from kosolve.render.text import Style, columns, trick_lines
from kosolve.sampling.odds import Estimate, Odds


def _percent(share: float) -> str:
    return f"{100 * share:.1f}%"


def _interval(estimate: Estimate, scale: float, digits: int) -> str:
    if estimate.ci95 is None:
        return "(one sample)"
    low, high = (x / scale for x in estimate.ci95)
    return f"{low:.{digits}f} to {high:.{digits}f}"


def _heading(file: str, view: SeatView) -> list[str]:
    me = seat_name(view.view)
    if view.before_auction:
        return [f"{file}: the {me}'s view before the auction"]
    assert view.declarer is not None
    lines = [f"{file}: the {me}'s view; {view.contract}, declarer {seat_name(view.declarer)}"]
    trick = trick_number_of(len(view.play))
    mover = view.to_move
    if mover is None:
        lines.append("  the hand is over")
    elif len(view.play) % 2:
        lines.append(
            f"  trick {trick} of {TRICKS_PER_GAME}, the {seat_name(mover)} to play on {card_name(view.play[-1])}"
        )
    else:
        lines.append(f"  trick {trick} of {TRICKS_PER_GAME}, the {seat_name(mover)} to lead")
    return lines


def _cards_lines(view: SeatView, style: Style) -> list[str]:
    """The viewer's cards left and the unseen ones, by suit."""
    other = seat_name(view.other)
    played = mask_of(view.play)
    left = view.hand & ~played
    unseen = ALL_CARDS & ~view.hand & ~view.pile & ~view.other_pile & ~played
    where = "the talon or the other's" if view.before_auction else f"the {other}'s"
    if view.talon_unseen:
        where = f"the {other}'s or the talon"
    rows = [["", f"{seat_name(view.view)} (the viewer)", f"unseen ({where})"]]
    for suit in DISPLAY_ORDER:
        cells = [" ".join(hand_names(cards & SUIT_MASKS[suit])) or style.none for cards in (left, unseen)]
        rows.append([style.suit(suit), *cells])
    seen = " ".join(hand_names(view.other_pile)) or style.none
    mine = f"{counted(view.pile.bit_count(), 'card')}, {style.points(thirds_of(view.pile))} points"
    if view.own_pile_size != view.pile.bit_count():
        mine += f", and {counted(view.own_pile_size - view.pile.bit_count(), 'talon card')} unseen"
    rows.append(["pile", mine, f"{counted(view.other_pile_size, 'card')}, seen: {seen}"])
    if view.other_holds:
        rows.append(["his", "", "seen to be his: " + " ".join(hand_names(view.other_holds))])
    return columns(rows)


def _worlds_lines(result: Odds) -> list[str]:
    if result.exact:
        if result.worlds == 1:
            lines = ["1 world fits the view: solved, so the figures are exact."]
        else:
            lines = [f"{result.worlds:,} worlds fit the view: every one solved, so the figures are exact."]
    else:
        lines = [
            f"{result.samples:,} of the {result.worlds:,} worlds that fit the view, drawn at random"
            f" (seed {result.seed}); the intervals are 95% confidence intervals."
        ]
    return lines + _inference_lines(result)


def _inference_lines(result: Odds) -> list[str]:
    """What the worlds were weighted by, with --infer."""
    model = result.inference
    if model is None:
        return []
    if result.view.before_auction:
        return ["Inference asked for, but a view before the auction holds no calls: every world counts alike."]
    assert result.effective_samples is not None
    return [
        f"Weighted by the other's play: a world counts {model.card_weight:g}"
        f" time{'' if model.card_weight == 1 else 's'} for each of his last"
        f" {model.depth} cards that lost value double dummy in it (docs/inference.md);"
        f" as many as {result.effective_samples:,.1f} equally weighted worlds."
    ]


def _play_odds_lines(result: Odds, style: Style) -> list[str]:
    view = result.view
    assert view.declarer is not None and result.thirds is not None and result.p_win is not None
    declarer = seat_name(view.declarer)
    mean = result.thirds.mean
    spread = "" if result.exact else f", 95% interval {_interval(result.thirds, 3, 2)}"
    # The settlement counts whole points (a third rounds down, two thirds
    # up), whose mean differs from the exact one only now and then.
    scored = f"{result.mean_points:.2f}"
    rounded = "" if scored == f"{mean / 3:.2f}" else f"; counted in whole points, as scored, mean {scored}"
    lines = [
        f"The declarer ({declarer}) wins in {_percent(result.p_win)} of the worlds.",
        f"  his final points: mean {mean / 3:.2f} ({mean:.2f} thirds{spread}){rounded}",
    ]
    if result.cards:
        best_mean, best_win = result.best_card_by_mean(), result.best_card_by_win()
        lines += ["", f"Each card of the {seat_name(view.view)}, to move: the declarer's final points after it"]
        rows = [["card", "mean points", "95% interval", "declarer wins", ""]]
        for card in result.cards:
            notes = [n for c, n in ((best_mean, "best mean"), (best_win, "best odds")) if c == card.card]
            rows.append([card_name(card.card), f"{card.thirds.mean / 3:.2f}", _interval(card.thirds, 3, 2),
                         _percent(card.p_win), ", ".join(notes)])  # fmt: skip
        lines += columns(rows, indent="    ")
    if not result.feasible:
        return lines
    lines += ["", "Can still be forced, share of the worlds:"]
    rows = [["", *(seat_name(seat) for seat in SEATS)]]
    names = list(dict.fromkeys(name for _, name, _ in result.feasible))
    shares = {(seat, name): share for seat, name, share in result.feasible}
    for name in names:
        rows.append([name, *(_percent(shares[(seat, name)]) for seat in SEATS)])
    return lines + columns(rows)


def _auction_lines(result: Odds) -> list[str]:
    me = seat_name(result.view.view)
    lines = [f"The {me} as declarer, each contract with each world's best talon choice and lay-away:"]
    rows = [["contract", "wins", "mean game points", "95% interval"]]
    for contract in result.contracts:
        rows.append([contract.contract, _percent(contract.p_win), f"{contract.game_points.mean:+.2f}",
                     _interval(contract.game_points, 1, 2)])  # fmt: skip
    return lines + columns(rows)


def render_odds(file: str, result: Odds, style: Style) -> str:
    """The whole text of ``kosolve odds`` for one view."""
    view = result.view
    lines = [*_heading(file, view), *_cards_lines(view, style)]
    if view.play:
        lines += [
            "",
            f"Played, {counted(len(view.play), 'card')}:",
            *trick_lines(view.tricks, style),
        ]
    lines += ["", *_worlds_lines(result)]
    lines += _auction_lines(result) if view.before_auction else _play_odds_lines(result, style)
    return "\n".join(lines)


def render_odds_value(file: str, result: Odds) -> str:
    """One line: the file, and the declarer's mean points and chance to win
    (before the auction, each contract's chance and mean game points)."""
    worlds = "exact" if result.exact else f"{result.samples:,} of {result.worlds:,} worlds"
    if result.thirds is None or result.p_win is None:
        contracts = ", ".join(f"{c.contract} {_percent(c.p_win)} {c.game_points.mean:+.2f}" for c in result.contracts)
        return f"{file}: as declarer, won and mean game points: {contracts} ({worlds})"
    mean = result.thirds.mean
    return f"{file}: {mean / 3:.2f} points in mean, the declarer wins {_percent(result.p_win)} ({worlds})"


__all__ = ["render_odds", "render_odds_value"]
