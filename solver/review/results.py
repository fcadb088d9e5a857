"""What a review found, as values with their JSON (docs/json.md, ``kosolve
review --json``): every legal card of a decision (:class:`MoveJudgement`),
every card of the play (:class:`CardJudgement`), each player's summary
(:class:`PlayerSummary`) and the whole (:class:`Review`), and what they
cost (:class:`ReviewStats`).  :mod:`~kosolve.review.judging` makes them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from kosolve.model.cards import Card, card_name
from kosolve.model.deal import Deal
from kosolve.model.game import SEATS, Seat, seat_name
from kosolve.model.reprs import counted, readable_repr
from kosolve.review.statistics import DD_BEST, KNEW_BEST, accuracy, best_count

FORMAT_VERSION: Final = 1
"""The version of the JSON object :meth:`Review.to_json` writes (docs/json.md)."""
VERDICTS: Final = ("best", "mistake", "unlucky", "lucky", "forced")
"""The verdicts, in the order the summaries count them."""


@dataclass(frozen=True)
class ReviewStats:
    """What a review, or one card of it, cost: the worlds solved (the dealt
    one included), the search nodes, the time (a card's: its workers' time
    on its worlds; the review's: the wall time)."""

    worlds: int
    nodes: int
    ms: float

    def to_json(self) -> dict[str, object]:
        return {"worlds": self.worlds, "nodes": self.nodes, "ms": round(self.ms, 3)}


@dataclass(frozen=True)
class MoveJudgement:
    """One legal card of the mover over the worlds he could not tell apart,
    and in the world that was dealt."""

    card: Card
    mean_thirds: float
    """The declarer's mean final thirds after the card."""
    p_win: float
    """The share of the worlds in which the declarer wins after it."""
    dd_thirds: int
    """The declarer's final thirds after it in the world that was dealt."""
    mean_net: float | None = None
    """With ``score``: the declarer's mean net game points after it ..."""
    dd_net: int | None = None
    """... and in the world that was dealt."""

    def __repr__(self) -> str:
        return readable_repr(self, cards=("card",))

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "card": card_name(self.card),
            "mean_thirds": _round(self.mean_thirds),
            "p_win": _round(self.p_win),
            "dd_thirds": self.dd_thirds,
        }
        if self.mean_net is not None:
            data.update(mean_net=_round(self.mean_net), dd_net=self.dd_net)
        return data


@dataclass(frozen=True, kw_only=True)
class CardJudgement:
    """One card of the play, judged by what its player knew and double dummy.
    Losses are in thirds (net game points with ``score``), from the
    player's side: 0 for his best card.  Made by keyword only: sixteen
    fields by position are too easy to swap."""

    index: int
    """Its place in the play, from 0."""
    trick: int
    seat: Seat
    card: Card
    worlds: int
    """How many worlds fit the player's view."""
    samples: int
    """How many of them were solved (0 for a forced card)."""
    exact: bool
    """Whether every world was solved: then the means are exact."""
    seed: int
    """The seed the worlds were drawn from (when not all were solved)."""
    moves: tuple[MoveJudgement, ...]
    """Every legal card, in the hand diagram's order; empty when forced."""
    best: tuple[Card, ...]
    """The cards best by what he knew (the best mean)."""
    dd_best: tuple[Card, ...]
    """The cards best double dummy."""
    knew_loss: float
    """How much the card lost against his best by what he knew, in mean."""
    knew_loss_ci95: tuple[float, float] | None
    """The 95% interval of that loss over the worlds drawn (the loss itself
    when exact; None from a single sample)."""
    dd_loss: int
    verdict: str
    stats: ReviewStats = field(default=ReviewStats(0, 0, 0.0), compare=False)

    def __repr__(self) -> str:
        return readable_repr(self, cards=("card", "best", "dd_best"))

    @property
    def forced(self) -> bool:
        return self.verdict == "forced"

    def to_json(self, score: bool = False) -> dict[str, object]:
        unit = "net" if score else "thirds"
        return {
            "index": self.index,
            "trick": self.trick,
            "seat": seat_name(self.seat),
            "card": card_name(self.card),
            "exact": self.exact,
            "worlds": self.worlds,
            "samples": self.samples,
            "seed": self.seed,
            "moves": [m.to_json() for m in self.moves],
            "best": [card_name(c) for c in self.best],
            "dd_best": [card_name(c) for c in self.dd_best],
            f"dd_loss_{unit}": self.dd_loss,
            f"knew_loss_{unit}": _round(self.knew_loss),
            f"knew_loss_{unit}_ci95": None if self.knew_loss_ci95 is None else [_round(x) for x in self.knew_loss_ci95],
            "verdict": self.verdict,
            "stats": self.stats.to_json(),
        }


@dataclass(frozen=True)
class OptionJudgement:
    """One option of a decision before the play, valued in game points
    from the decider's side: the mean over the worlds he could not tell
    apart with its 95% interval, and in the world that was dealt."""

    option: str
    mean_points: float
    ci95: tuple[float, float] | None
    dd_points: int

    def to_json(self) -> dict[str, object]:
        return {
            "option": self.option,
            "mean_points": _round(self.mean_points),
            "ci95": None if self.ci95 is None else [_round(x) for x in self.ci95],
            "dd_points": self.dd_points,
        }


@dataclass(frozen=True, kw_only=True)
class DecisionJudgement:
    """One decision before the play (the bid, an announcement round, a
    Kontra, the talon choice, the lay-away), judged by what its player knew
    and double dummy, in game points from his side (docs/review.md)."""

    index: int
    """Its place among the decisions, from 0."""
    kind: str
    """``bid``, ``announce``, ``kontra``, ``take`` or ``lay_away``."""
    phase: str
    """``auction``, ``exchange`` or ``announcements``."""
    seat: Seat
    round: str | None
    """An announcement's or Kontra's round: ``before``, ``after``, None (a Solo's, or not one)."""
    about: str | None
    """A Kontra's announcement."""
    choice: str
    """The option taken."""
    options: tuple[OptionJudgement, ...]
    best: tuple[str, ...]
    """The options best by what he knew."""
    dd_best: tuple[str, ...]
    worlds: int
    samples: int
    exact: bool
    seed: int
    verdict: str
    knew_loss_points: float
    knew_loss_ci95: tuple[float, float] | None
    dd_loss_points: int
    stats: ReviewStats = field(default=ReviewStats(0, 0, 0.0), compare=False)

    def __repr__(self) -> str:
        return readable_repr(self, cards=("card", "best", "dd_best"))

    @property
    def forced(self) -> bool:
        return self.verdict == "forced"

    def to_json(self) -> dict[str, object]:
        return {
            "index": self.index,
            "kind": self.kind,
            "phase": self.phase,
            "seat": seat_name(self.seat),
            "round": self.round,
            "about": self.about,
            "choice": self.choice,
            "options": [o.to_json() for o in self.options],
            "best": list(self.best),
            "dd_best": list(self.dd_best),
            "worlds": self.worlds,
            "samples": self.samples,
            "exact": self.exact,
            "seed": self.seed,
            "verdict": self.verdict,
            "knew_loss_points": _round(self.knew_loss_points),
            "knew_loss_points_ci95": None if self.knew_loss_ci95 is None else [_round(x) for x in self.knew_loss_ci95],
            "dd_loss_points": self.dd_loss_points,
            "stats": self.stats.to_json(),
        }


PHASE_NAMES: Final = ("auction", "exchange", "announcements", "play")
"""The phases a player's losses are added up by."""


@dataclass(frozen=True)
class PhaseLoss:
    """What a player's decisions of one phase lost, by what he knew and
    double dummy: game points, except the play's, in the cards' unit
    (thirds, or net game points with ``score``)."""

    phase: str
    decisions: int
    judged: int
    knew_loss: float
    dd_loss: int

    def to_json(self) -> dict[str, object]:
        return {
            "decisions": self.decisions,
            "judged": self.judged,
            "knew_loss": _round(self.knew_loss),
            "dd_loss": self.dd_loss,
        }


@dataclass(frozen=True)
class PlayerSummary:
    """One player's cards reviewed: how many, each verdict's count, what
    they lost by each measure, and the accuracies."""

    seat: Seat
    cards: int
    judged: int
    """The cards that were not forced."""
    verdicts: tuple[tuple[str, int], ...]
    knew_loss: float
    dd_loss: int
    phases: tuple[PhaseLoss, ...] = ()
    """His losses by phase (:data:`PHASE_NAMES`), when the review judged
    the decisions before the play; else empty."""

    def count(self, verdict: str) -> int:
        return dict(self.verdicts)[verdict]

    def tally(self, best: Sequence[str]) -> tuple[int, int]:
        """His judged cards with one of the verdicts ``best``
        (:data:`~kosolve.review.statistics.KNEW_BEST`, ``DD_BEST``), and
        his judged cards: what an accuracy pools."""
        return best_count(dict(self.verdicts), best), self.judged

    @property
    def knew_accuracy(self) -> float | None:
        """The share of his judged cards that were best by what he knew."""
        return accuracy([self.tally(KNEW_BEST)])

    @property
    def dd_accuracy(self) -> float | None:
        """The share of his judged cards that were best double dummy."""
        return accuracy([self.tally(DD_BEST)])

    def to_json(self, score: bool = False) -> dict[str, object]:
        unit = "net" if score else "thirds"
        knew, dd = self.knew_accuracy, self.dd_accuracy
        return {
            "cards": self.cards,
            "judged": self.judged,
            **{verdict: count for verdict, count in self.verdicts},
            f"knew_loss_{unit}": _round(self.knew_loss),
            f"dd_loss_{unit}": self.dd_loss,
            "knew_accuracy": None if knew is None else _round(knew),
            "dd_accuracy": None if dd is None else _round(dd),
            **({"phases": {p.phase: p.to_json() for p in self.phases}} if self.phases else {}),
        }


@dataclass(frozen=True)
class Review:
    """The result of :func:`~kosolve.review.judging.review`."""

    deal: Deal
    start: int
    """The first card judged."""
    samples: int
    seed: int
    score: bool
    """Whether the cards were compared by net game points."""
    infer: float
    """A world's weight per blunder of the other's (1: every world alike)."""
    cards: tuple[CardJudgement, ...]
    stats: ReviewStats = field(compare=False)
    decisions: tuple[DecisionJudgement, ...] = ()
    """The decisions before the play, in order (a deal as dealt reviewed
    with ``decisions``; else empty)."""
    decision_samples: int | None = None
    """The most worlds a decision was valued in; None when none was judged."""

    def __repr__(self) -> str:
        exact = sum(c.exact for c in self.cards if not c.forced)
        judged = sum(not c.forced for c in self.cards)
        return (
            f"<Review {self.deal.source or 'deal'}: {counted(len(self.cards), 'card')},"
            f" {judged} judged, {exact} of them exactly>"
        )

    @property
    def unit(self) -> str:
        """The unit of the cards' values and losses: ``"thirds"`` of card
        points, or ``"net"`` game points with :attr:`score`."""
        return "net" if self.score else "thirds"

    def in_points(self, value: float) -> float:
        """A card's value or loss of this review (in :attr:`unit`) as the
        text shows it: card points (thirds / 3), or net game points as they
        are.  The decisions before the play are in game points already.

        >>> from kosolve.model.files import load_deal
        >>> from kosolve.review.judging import review
        >>> result = review(load_deal("examples/played.json"), samples=4, jobs=1)
        >>> card = result.cards[3]
        >>> card.dd_loss, result.in_points(card.dd_loss)
        (2, 0.6666666666666666)
        """
        return value if self.score else value / 3

    @property
    def players(self) -> tuple[PlayerSummary, PlayerSummary]:
        forehand, dealer = (self.player(seat) for seat in SEATS)
        return forehand, dealer

    def player(self, seat: Seat) -> PlayerSummary:
        """The summary of ``seat``'s cards."""
        mine = [c for c in self.cards if c.seat == seat]
        phases: tuple[PhaseLoss, ...] = ()
        if self.decision_samples is not None:
            made = [d for d in self.decisions if d.seat == seat]
            phases = tuple(
                PhaseLoss(
                    phase,
                    len(of),
                    sum(not d.forced for d in of),
                    math.fsum(d.knew_loss_points for d in of),
                    sum(d.dd_loss_points for d in of),
                )
                for phase in PHASE_NAMES[:-1]
                for of in [[d for d in made if d.phase == phase]]
            )
            phases += (
                PhaseLoss(
                    "play",
                    len(mine),
                    sum(not c.forced for c in mine),
                    math.fsum(c.knew_loss for c in mine),
                    sum(c.dd_loss for c in mine),
                ),
            )
        return PlayerSummary(
            seat=seat,
            cards=len(mine),
            judged=sum(not c.forced for c in mine),
            verdicts=tuple((verdict, sum(c.verdict == verdict for c in mine)) for verdict in VERDICTS),
            knew_loss=math.fsum(c.knew_loss for c in mine),
            dd_loss=sum(c.dd_loss for c in mine),
            phases=phases,
        )

    def costliest(self, count: int = 3) -> list[CardJudgement]:
        """The cards that lost most by what their player knew, the most
        first (those that lost nothing left out)."""
        lost = [c for c in self.cards if c.knew_loss > 0]
        return sorted(lost, key=lambda c: (-c.knew_loss, c.index))[:count]

    def to_json(self) -> dict[str, object]:
        """The JSON object of ``kosolve review --json`` (docs/json.md), without the file name."""
        return {
            "format": FORMAT_VERSION,
            "by": "net" if self.score else "thirds",
            "from": self.start,
            "samples": self.samples,
            "seed": self.seed,
            "infer": self.infer,
            "decision_samples": self.decision_samples,
            "decisions": [d.to_json() for d in self.decisions],
            "cards": [c.to_json(self.score) for c in self.cards],
            "players": {seat_name(p.seat): p.to_json(self.score) for p in self.players},
            "costliest": [c.index for c in self.costliest()],
            "stats": self.stats.to_json(),
        }


def _round(value: float) -> float:
    return round(value, 4)


__all__ = [
    "FORMAT_VERSION",
    "PHASE_NAMES",
    "VERDICTS",
    "CardJudgement",
    "DecisionJudgement",
    "MoveJudgement",
    "OptionJudgement",
    "PhaseLoss",
    "PlayerSummary",
    "Review",
    "ReviewStats",
]
