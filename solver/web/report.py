"""``kosolve report``: one self-contained HTML file with the page of
``kosolve serve`` and every answer it needs for the file's play
precomputed (the position after each card, with every legal card's value,
the review of the play, the settlement, and for a deal as dealt the
exchange table and par).  The CSS and JavaScript are inline and the file
opens from the file system, offline.  No web framework is needed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from typing import Final

from kosolve.analysis.report import Analyser
from kosolve.model.deal import Deal
from kosolve.model.dealt_file import DealtFile
from kosolve.model.game import DEFAULT_RULES, Rules
from kosolve.review.choices import DEFAULT_DECISION_SAMPLES
from kosolve.sampling.odds import DEFAULT_SAMPLES
from kosolve.web.api import API_VERSION, exchange_answer, position_answer, review_answer

STYLE_TAG: Final = '<link rel="stylesheet" href="static/app.css">'
SCRIPT_TAG: Final = '<script src="static/app.js"></script>'


def static_text(name: str) -> str:
    """A file of the page, as shipped in the package."""
    return resources.files("kosolve.web").joinpath("static").joinpath(name).read_text(encoding="utf-8")


def report_data(
    analyser: Analyser,
    name: str,
    deal: Deal | None,
    dealt: DealtFile | None = None,
    rules: Rules = DEFAULT_RULES,
    progress: Callable[[int, int], None] | None = None,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    jobs: int | None = None,
    before_play: bool = False,
    decision_samples: int = DEFAULT_DECISION_SAMPLES,
) -> dict[str, object]:
    """Every answer the page reads for ``deal``'s play: ``positions[k]`` is
    the API's answer for the position after ``k`` cards; ``review`` the
    review of the play (None without one), by what each player knew too
    (``samples`` worlds a card from ``seed``, on ``jobs`` processes), and
    with ``before_play`` every decision before the play of a deal as dealt
    (``decision_samples`` worlds a group); ``exchange`` the exchange table
    of ``dealt`` (None unless the file is a deal as dealt).  ``deal`` is
    None for a deal as dealt without a bid, which has the exchange only.
    ``progress`` is called with the steps done and the steps in all."""
    steps = (len(deal.play) + 2 if deal is not None else 0) + (1 if dealt is not None else 0)
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, steps)

    positions = []
    review = None
    if deal is not None:
        for at in range(len(deal.play) + 1):
            positions.append(position_answer(analyser, deal, at, rules))
            step()
        review = (
            review_answer(
                analyser,
                deal,
                rules,
                dealt=dealt,
                samples=samples,
                seed=seed,
                jobs=jobs,
                before_play=before_play,
                decision_samples=decision_samples,
            )
            if deal.play
            else None
        )
        step()
    exchange = exchange_answer(analyser, dealt, rules) if dealt is not None else None
    if dealt is not None:
        step()
    return {"api": API_VERSION, "name": name, "positions": positions, "review": review, "exchange": exchange}


def script_json(data: object) -> str:
    """``data`` as JSON that cannot end the ``<script>`` element holding it:
    every ``<`` escaped (JSON has it only inside strings).

    >>> script_json({"name": "</script>"})
    '{"name": "\\\\u003c/script>"}'
    """
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")


def render_html(data: dict[str, object], picture: str = "") -> str:
    """The page with its CSS, its script and ``data`` inline; ``picture``
    (an SVG of the deal, :meth:`~kosolve.model.game.Position.svg`) is what
    a reader without JavaScript sees."""
    page = static_text("index.html")
    script = static_text("app.js")
    if STYLE_TAG not in page or SCRIPT_TAG not in page or "</script" in script.lower():
        raise RuntimeError("the page's static files do not fit the report's template")
    style = "<style>\n" + static_text("app.css") + "</style>"
    inline = (
        f'<script id="kosolve-data" type="application/json">{script_json(data)}</script>\n<script>\n{script}</script>'
    )
    # Replaced by position, not by str.replace: the data may hold any text.
    before, _, after = page.partition(STYLE_TAG)
    page = before + style + after
    before, _, after = page.partition(SCRIPT_TAG)
    fallback = f"<noscript><p>This report draws itself with JavaScript. The deal:</p>{picture}</noscript>\n"
    return before + (fallback if picture else "") + inline + after


__all__ = ["render_html", "report_data", "script_json", "static_text"]
