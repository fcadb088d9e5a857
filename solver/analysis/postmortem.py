"""Post-mortem of a played hand: the double-dummy value before and after
every card, what each card cost the player who played it, the cards that
would have kept the value, and when each goal stopped being makeable.

Values are the declarer's final thirds (piles, tricks so far and the tricks
to come, with best play from there); a card's loss is how many thirds it
gave away from its player's side, so the declarer's losses less the
defender's add up to the value at the start less the value at the end.

>>> from kosolve.model.cards import parse_hand, card_name
>>> from kosolve.model.deal import Deal
>>> from kosolve.model.game import FOREHAND
>>> hands = (parse_hand(["HK", "H4"]), parse_hand(["HQ", "I"]))
>>> deal = Deal("solo", FOREHAND, hands, play=tuple(parse_hand([c]).bit_length() - 1 for c in ["H4", "HQ"]))
>>> review = postmortem(deal)
>>> [(card_name(r.card), r.before, r.after, r.loss, [card_name(c) for c in r.best]) for r in review.cards]
[('H4', 23, 0, 23, ['HK']), ('HQ', 0, 0, 0, [])]
>>> review.total_loss
(23, 0)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from kosolve.analysis.goals import Goal, solve_goal
from kosolve.analysis.netscore import net_score
from kosolve.analysis.solving import new_solver, search_args
from kosolve.engine import ScoreSolver, Solver
from kosolve.model.cards import Card, card_name, hand_cards, mask_of
from kosolve.model.deal import Deal
from kosolve.model.game import DEFAULT_RULES, Position, Rules, Seat, seat_name
from kosolve.model.reprs import readable_repr


@dataclass(frozen=True)
class CardReview:
    """One card of the play, judged by best play from there on."""

    index: int
    """Its place in the play, from 0."""
    trick: int
    """The trick it was played to, 1 to 16."""
    player: Seat
    card: Card
    before: int
    """The declarer's final thirds with best play before the card ..."""
    after: int
    """... and after it."""
    loss: int
    """Thirds the card gave away from its player's side (0 for a best card)."""
    best: tuple[Card, ...]
    """The cards that would have kept the value, when this one did not, in
    the hand diagram's order (:func:`~kosolve.model.cards.hand_cards`)."""
    net_before: int | None = None
    """The declarer's net game points with score-optimal play before the
    card (None unless asked for) ..."""
    net_after: int | None = None
    """... and after it."""
    net_loss: int | None = None
    """Net game points the card gave away from its player's side."""

    def __repr__(self) -> str:
        return readable_repr(self, cards=("card", "best"))

    @property
    def loss_points(self) -> float:
        """:attr:`loss` in card points, as the text shows it (⅔ is 0.666...):
        the library counts in thirds, exactly, and the text in points."""
        return self.loss / 3

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "trick": self.trick,
            "player": seat_name(self.player),
            "card": card_name(self.card),
            "before": self.before,
            "after": self.after,
            "loss": self.loss,
            "best": [card_name(c) for c in self.best],
        }
        if self.net_before is not None:
            data.update(net_before=self.net_before, net_after=self.net_after, net_loss=self.net_loss)
        return data


@dataclass(frozen=True)
class GoalTrack:
    """When a goal stopped being makeable along the play."""

    seat: Seat
    goal: Goal
    makeable_at_start: bool | None
    """None when unknown: Without Trull or kings in an ending (see
    :attr:`kosolve.analysis.goals.Feasibility.known`)."""
    lost_at: int | None
    """The index of the card after which it was no longer makeable; None if
    it stayed makeable (or never was)."""


@dataclass(frozen=True)
class PostMortem:
    """Every card of a play judged, the goals followed, and what it cost."""

    cards: tuple[CardReview, ...]
    goals: tuple[GoalTrack, ...]
    nodes: int
    ms: float

    @property
    def total_loss(self) -> tuple[int, int]:
        """Each seat's thirds given away (forehand, dealer)."""
        return (
            sum(r.loss for r in self.cards if r.player == 0),
            sum(r.loss for r in self.cards if r.player == 1),
        )

    @property
    def total_loss_points(self) -> tuple[float, float]:
        """:attr:`total_loss` in card points, as the text shows it."""
        forehand, dealer = self.total_loss
        return forehand / 3, dealer / 3

    def costliest(self, count: int = 3) -> list[CardReview]:
        """The cards that cost most, the most first (cards that cost nothing
        are left out)."""
        mistakes = [r for r in self.cards if r.loss > 0]
        return sorted(mistakes, key=lambda r: (-r.loss, r.index))[:count]

    @property
    def total_net_loss(self) -> tuple[int, int] | None:
        """Each seat's net game points given away, when judged by them."""
        if any(r.net_loss is None for r in self.cards):
            return None
        return (
            sum(r.net_loss or 0 for r in self.cards if r.player == 0),
            sum(r.net_loss or 0 for r in self.cards if r.player == 1),
        )

    def to_json(self) -> dict[str, object]:
        forehand, dealer = self.total_loss
        net = self.total_net_loss
        return {
            "postmortem": [r.to_json() for r in self.cards],
            "postmortem_summary": {
                "loss": {"forehand": forehand, "dealer": dealer},
                **({"net_loss": {"forehand": net[0], "dealer": net[1]}} if net is not None else {}),
                "costliest": [
                    {**_card_json(r), "loss": r.loss, "best": [card_name(c) for c in r.best]} for r in self.costliest()
                ],
                "goals": [
                    {
                        "by": seat_name(g.seat),
                        "what": g.goal.name,
                        "makeable_at_start": g.makeable_at_start,
                        "lost_at": None if g.lost_at is None else _card_json(self.cards[g.lost_at]),
                    }
                    for g in self.goals
                ],
                "stats": {"nodes": self.nodes, "ms": round(self.ms, 3)},
            },
        }


def _card_json(review: CardReview) -> dict[str, object]:
    """A card of the play named as a player reads it, with its place in the play."""
    return {
        "play_index": review.index,
        "trick": review.trick,
        "player": seat_name(review.player),
        "card": card_name(review.card),
    }


def postmortem(
    deal: Deal,
    *,
    goals: tuple[tuple[Seat, Goal], ...] = (),
    solver: Solver | None = None,
    rules: Rules = DEFAULT_RULES,
    by_score: bool = False,
    score_solver: ScoreSolver | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> PostMortem:
    """Go through the deal's play card by card, one solver (and its table)
    for all of it.  ``goals`` are ``(seat, goal)`` pairs of
    :mod:`kosolve.analysis.goals` to follow along the play.  With
    ``by_score`` (a whole game with piles) each card is also judged by the
    net game points with score-optimal play, a search of its own per card,
    on ``score_solver`` when given.  ``progress(done, total)`` is called
    after each step: a position valued (by points, by score, along each
    goal) or a card judged; an exception it raises stops the review."""
    solver = solver or new_solver()
    start_nodes = solver.stats["nodes"]
    started = time.perf_counter()
    positions = len(deal.play) + 1
    total = positions * (1 + by_score + len(goals)) + len(deal.play)
    done = 0

    def step(count: int = 1) -> None:
        nonlocal done
        done += count
        if progress is not None:
            progress(done, total)

    # One walk along the play: the position before each card and after the last.
    walk = list(deal.positions())
    values = []
    value = -1
    for position in walk:
        value = solver.value(*search_args(position), guess=value) if not position.is_over() else 0
        values.append(position.declarer_thirds() + value)
        step()
    nets: list[int | None] = [None] * positions
    if by_score:
        score_solver = score_solver or ScoreSolver()
        for index, position in enumerate(walk):
            nets[index] = net_score(
                deal, position, rules=rules, solver=score_solver, with_points_line=False, with_line=False
            ).score
            step()
    reviews = []
    for index, card in enumerate(deal.play):
        position = walk[index]
        player = position.turn
        sign = 1 if player == deal.declarer else -1
        before, after = values[index], values[index + 1]
        loss = sign * (before - after)
        best: tuple[Card, ...] = ()
        if loss:
            future = before - position.declarer_thirds()
            best = tuple(hand_cards(mask_of(solver.keeping_cards(*search_args(position), value=future))))
        trick = position.trick_number
        net_before, net_after = nets[index], nets[index + 1]
        net_loss = sign * (net_before - net_after) if net_before is not None and net_after is not None else None
        reviews.append(
            CardReview(index, trick, player, card, before, after, loss, best, net_before, net_after, net_loss)
        )
        step()
    tracks = tuple(_track(walk, seat, goal, solver, rules, step) for seat, goal in goals)
    return PostMortem(
        cards=tuple(reviews),
        goals=tracks,
        nodes=solver.stats["nodes"] - start_nodes,
        ms=(time.perf_counter() - started) * 1000,
    )


def _track(
    walk: list[Position], seat: Seat, goal: Goal, solver: Solver, rules: Rules, step: Callable[[int], None]
) -> GoalTrack:
    """``goal`` followed along the play, ``walk`` its positions;
    ``step(count)`` counts the positions done, those a goal lost early
    skips included."""
    start = solve_goal(walk[0], seat, goal, solver=solver, rules=rules, with_line=False)
    step(1)
    makeable = start.feasible if start.known else None
    cards = len(walk) - 1
    if makeable is not False:
        # Unknown at the start (a holding in an ending) is followed too: losing
        # the win later settles it.
        for index, position in enumerate(walk[1:]):
            row = solve_goal(position, seat, goal, solver=solver, rules=rules, with_line=False)
            step(1)
            if row.known and not row.feasible:
                step(cards - index - 1)
                return GoalTrack(seat, goal, makeable, index)
    else:
        step(cards)
    return GoalTrack(seat, goal, makeable, None)
