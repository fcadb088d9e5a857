"""kosolve: the exact double-dummy solver for Kosakeln, the two-player game
of the Austrian Tarock family.

The names a program needs are here, each imported from its layer when it
is first used (so ``import kosolve`` itself costs nothing)::

    >>> import kosolve
    >>> deal = kosolve.load_deal("examples/ending.json")
    >>> report = kosolve.analyse(deal)
    >>> report.solution.points, report.solution.result
    (37, 'won')
    >>> report.feasibility.feasible("forehand", "win")
    True
    >>> print(kosolve.to_text(report).splitlines()[0])
    examples/ending.json
    >>> kosolve.load_file("examples/views/trick4.json")
    <SeatView examples/views/trick4.json: the forehand's view, zweiblatt by the forehand, 7 cards played>
    >>> played = kosolve.load_deal("examples/played.json")
    >>> kosolve.parse_notation(kosolve.to_notation(played)) == played
    True
    >>> kosolve.review(played, samples=4, jobs=1)
    <Review examples/played.json: 7 cards, 6 judged, 1 of them exactly>

``kosolve.review`` is the subpackage :mod:`kosolve.review`, callable as
its function :func:`kosolve.review.review` (the spelling a type checker
follows).

The layers below (:mod:`kosolve.model`, :mod:`kosolve.engine`,
:mod:`kosolve.analysis`, :mod:`kosolve.sampling`, :mod:`kosolve.review`,
:mod:`kosolve.render`, :mod:`kosolve.tools`, :mod:`kosolve.batch`,
:mod:`kosolve.play`, :mod:`kosolve.env`, :mod:`kosolve.web`) are in
docs/architecture.md.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

from kosolve._version import __version__

if TYPE_CHECKING:
    from kosolve.analysis.report import Analyser, ExchangeReport, Options, OptionsError, Report, analyse
    from kosolve.analysis.scoring import Settlement, settle
    from kosolve.analysis.solving import Solution, solve
    from kosolve.engine import ScoreSolver, Solver
    from kosolve.model.cards import card_name, hand_names, parse_card, parse_hand
    from kosolve.model.deal import Deal, DealError, deal_to_json
    from kosolve.model.dealt_file import DealtFile, dealt_to_json
    from kosolve.model.files import KindError, load_deal, load_dealt_file, load_file, load_view, parse_deal, parse_file
    from kosolve.model.game import DEALER, FOREHAND, Position, Rules, parse_seat, seat_name
    from kosolve.model.jsonfile import FileError
    from kosolve.model.notation import parse_notation, to_notation
    from kosolve.model.view import SeatView, ViewError, view_of, view_to_json
    from kosolve.review.results import Review
    from kosolve.sampling.odds import Odds, odds
    from kosolve.sampling.worlds import sample_worlds, world_space

_HOMES: Final = {
    "kosolve.analysis.report": ("Analyser", "ExchangeReport", "Options", "OptionsError", "Report", "analyse"),
    "kosolve.analysis.scoring": ("Settlement", "settle"),
    "kosolve.analysis.solving": ("Solution", "solve"),
    "kosolve.engine": ("ScoreSolver", "Solver"),
    "kosolve.model.cards": ("card_name", "hand_names", "parse_card", "parse_hand"),
    "kosolve.model.deal": ("Deal", "DealError", "deal_to_json"),
    "kosolve.model.dealt_file": ("DealtFile", "dealt_to_json"),
    "kosolve.model.files": (
        "KindError",
        "load_deal",
        "load_dealt_file",
        "load_file",
        "load_view",
        "parse_deal",
        "parse_file",
    ),
    "kosolve.model.game": ("DEALER", "FOREHAND", "Position", "Rules", "parse_seat", "seat_name"),
    "kosolve.model.jsonfile": ("FileError",),
    "kosolve.model.notation": ("parse_notation", "to_notation"),
    "kosolve.model.view": ("SeatView", "ViewError", "view_of", "view_to_json"),
    "kosolve.review.results": ("Review",),
    "kosolve.sampling.odds": ("Odds", "odds"),
    "kosolve.sampling.worlds": ("sample_worlds", "world_space"),
}
_HOME_OF: Final = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    if name == "review":
        # The subpackage, callable as its function (kosolve/review/__init__.py);
        # importing it makes it this module's attribute.
        return importlib.import_module("kosolve.review")
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'kosolve' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


def to_text(answer: Report | ExchangeReport | Odds | Review, file: str | None = None) -> str:
    """The text ``kosolve`` prints for an answer: a report of a deal (as
    ``kosolve DEAL.json``), an exchange table (``kosolve exchange``), the
    odds of a seat view (``kosolve odds``) or a review (``kosolve
    review``), headed by ``file`` (by default the name of the file the
    deal or view was read from).  The renderers sit above the analyses
    (docs/architecture.md), so the text is asked for here, not of the
    answer itself.

    >>> import kosolve
    >>> view = kosolve.load_view("examples/views/trick4.json")
    >>> print(kosolve.to_text(kosolve.odds(view, jobs=1)).splitlines()[0])
    examples/views/trick4.json: the forehand's view; zweiblatt, declarer forehand
    """
    from kosolve.analysis.report import ExchangeReport, Report
    from kosolve.render.exchange import render_exchange_report
    from kosolve.render.odds import render_odds
    from kosolve.render.review import render_review
    from kosolve.render.text import Style, render_report
    from kosolve.review.results import Review
    from kosolve.sampling.odds import Odds

    style = Style(unicode=True)
    if isinstance(answer, Report):
        return render_report(file or answer.deal.source, answer, style)
    if isinstance(answer, ExchangeReport):
        return render_exchange_report(file or "", answer, style)
    if isinstance(answer, Review):
        return render_review(file or answer.deal.source or "deal", answer, style)
    if isinstance(answer, Odds):
        return render_odds(file or answer.view.source, answer, style)
    raise TypeError(f"to_text takes a Report, an ExchangeReport, an Odds or a Review, not {type(answer).__name__}")


__all__ = [
    "DEALER",
    "FOREHAND",
    "Analyser",
    "Deal",
    "DealError",
    "DealtFile",
    "ExchangeReport",
    "FileError",
    "KindError",
    "Odds",
    "Options",
    "OptionsError",
    "Position",
    "Report",
    "Review",
    "Rules",
    "ScoreSolver",
    "SeatView",
    "Settlement",
    "Solution",
    "Solver",
    "ViewError",
    "__version__",
    "analyse",
    "card_name",
    "deal_to_json",
    "dealt_to_json",
    "hand_names",
    "load_deal",
    "load_dealt_file",
    "load_file",
    "load_view",
    "odds",
    "parse_card",
    "parse_deal",
    "parse_file",
    "parse_hand",
    "parse_notation",
    "parse_seat",
    "review",
    "sample_worlds",
    "seat_name",
    "settle",
    "solve",
    "to_notation",
    "to_text",
    "view_of",
    "view_to_json",
    "world_space",
]
