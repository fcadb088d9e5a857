"""The Python API a program starts from: the names at the top of the
package, each from its layer and imported only when used; seats by name
wherever a seat is taken; a deal as dealt read from a file analysed as it
is; reprs a person can read."""

from __future__ import annotations

import ast
import importlib
import random
import re
import subprocess
import sys

import pytest
from support import EXAMPLES, ROOT, without_stats

import kosolve
from kosolve.analysis.goals import solve_goal
from kosolve.analysis.report import Analyser
from kosolve.dealing import deal_as_dealt
from kosolve.model.cards import card_name
from kosolve.model.game import DEALER, FOREHAND, SeatError, as_seat
from kosolve.play.game import Game


def type_checking_imports() -> dict[str, str]:
    """Each name the package's ``if TYPE_CHECKING:`` block imports, and its module."""
    tree = ast.parse((ROOT / "solver" / "__init__.py").read_text())
    block = next(node for node in tree.body if isinstance(node, ast.If))
    return {alias.name: node.module for node in block.body if isinstance(node, ast.ImportFrom) for alias in node.names}  # type: ignore[misc]


def test_every_name_at_the_top_is_its_layers_own() -> None:
    homes = type_checking_imports()
    assert set(homes) | {"__version__", "review", "to_text"} == set(kosolve.__all__)
    for name, module in homes.items():
        assert getattr(kosolve, name) is getattr(importlib.import_module(module), name), name


def test_importing_the_package_imports_no_layer() -> None:
    program = "import sys, kosolve; print(sorted(m for m in sys.modules if m.startswith('kosolve')))"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True)
    assert ast.literal_eval(done.stdout) == ["kosolve", "kosolve._version"]


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'solve_everything'"):
        kosolve.solve_everything  # noqa: B018


def test_seats_by_name_wherever_a_seat_is() -> None:
    deal = kosolve.load_deal(EXAMPLES / "whole-deal.json")
    report = kosolve.analyse(deal)
    assert report.feasibility is not None
    assert report.feasibility.feasible("dealer", "win") == report.feasibility.feasible(DEALER, "win")
    position = deal.position()
    assert solve_goal(position, "forehand", "valat").feasible == solve_goal(position, FOREHAND, "valat").feasible
    assert kosolve.view_of(deal, "dealer") == kosolve.view_of(deal, DEALER)
    with pytest.raises(SeatError, match="unknown seat 'north'"):
        as_seat("north")


def test_a_deal_as_dealt_read_from_a_file_is_analysed_with_its_bid() -> None:
    file = kosolve.load_dealt_file(EXAMPLES / "dealt.json")
    analyser = Analyser(tt_mb=16)
    from_file = analyser.analyse_exchange(file)
    assert file.declared is not None and from_file.declared is not None
    by_hand = analyser.analyse_exchange(file.dealt, declared=file.declared)
    assert without_stats(from_file.to_json()) == without_stats(by_hand.to_json())


def test_the_text_of_each_kind_of_answer() -> None:
    report = kosolve.analyse(kosolve.load_deal(EXAMPLES / "ending.json"))
    assert kosolve.to_text(report).startswith(f"{EXAMPLES / 'ending.json'}\n  dreiblatt, declarer forehand")
    view = kosolve.load_view(EXAMPLES / "views" / "trick4.json")
    chances = kosolve.odds(view, jobs=1)
    assert "45 worlds fit the view" in kosolve.to_text(chances, "trick4.json")
    # Headed by the file the view was read from unless told otherwise.
    assert kosolve.to_text(chances).startswith(f"{EXAMPLES / 'views' / 'trick4.json'}: the forehand's view")
    judged = kosolve.review(kosolve.load_deal(EXAMPLES / "played.json"), samples=2, jobs=1)
    assert kosolve.to_text(judged).startswith(f"{EXAMPLES / 'played.json'}: zweiblatt by the forehand, 7 cards judged")
    assert kosolve.to_text(judged, "mine.json").startswith("mine.json: ")
    with pytest.raises(TypeError, match="to_text takes a Report, an ExchangeReport, an Odds or a Review, not NoneType"):
        kosolve.to_text(None)  # type: ignore[arg-type]


def test_the_review_and_the_notation_at_the_top() -> None:
    played = kosolve.load_deal(EXAMPLES / "played.json")
    assert kosolve.review is importlib.import_module("kosolve.review")
    # A type checker sees a module here; it follows kosolve.review.review.
    called = kosolve.review(played, samples=2, jobs=1)  # type: ignore[operator]
    assert without_stats(called.to_json()) == without_stats(kosolve.review.review(played, samples=2, jobs=1).to_json())
    assert kosolve.review.Review is type(called)
    assert kosolve.parse_notation(kosolve.to_notation(played)) == played


def test_a_played_file_from_trick_1_keeps_its_post_mortem() -> None:
    played = kosolve.load_deal(EXAMPLES / "played.json")
    whole = kosolve.analyse(played)
    assert whole.postmortem is not None and len(whole.postmortem.cards) == len(played.play)
    for at in (0, 3):
        report = kosolve.analyse(played, kosolve.Options(at=at))
        assert report.at == at and report.postmortem is not None
        assert (report.postmortem.cards, report.postmortem.goals) == (whole.postmortem.cards, whole.postmortem.goals)
    assert kosolve.analyse(played, kosolve.Options(at=0)).solution.thirds == whole.postmortem.cards[0].before


def test_losses_in_the_points_the_text_shows() -> None:
    played = kosolve.load_deal(EXAMPLES / "played.json")
    postmortem = kosolve.analyse(played).postmortem
    assert postmortem is not None
    costly = postmortem.costliest(1)[0]
    assert (costly.loss, costly.loss_points) == (2, 2 / 3)
    assert postmortem.total_loss_points == tuple(loss / 3 for loss in postmortem.total_loss)
    judged = kosolve.review(played, samples=2, jobs=1)
    assert judged.unit == "thirds" and judged.in_points(judged.cards[3].dd_loss) == judged.cards[3].dd_loss / 3


def test_reprs_summarise() -> None:
    deal = kosolve.load_deal(EXAMPLES / "played.json")
    assert repr(deal) == (
        f"<Deal {EXAMPLES / 'played.json'}: zweiblatt by the forehand, 16 cards each at trick 1, piles, 7 cards played>"
    )
    assert repr(kosolve.analyse(deal).solution).startswith("<Solution: 111 thirds (37 points), won; ")
    assert repr(Analyser(tt_mb=8, threads=2)) == "Analyser(tt_mb=8, threads=2)"
    assert repr(kosolve.load_view(EXAMPLES / "views" / "auction.json")) == (
        f"<SeatView {EXAMPLES / 'views' / 'auction.json'}: the forehand's view before the auction>"
    )


def test_every_result_names_its_cards() -> None:
    """A card is an int in the library and a name wherever a person reads
    it: no result's repr shows a card as a number."""
    played = kosolve.load_deal(EXAMPLES / "played.json")
    judged = kosolve.review(played, samples=2, jobs=1)
    chances = kosolve.odds(kosolve.load_view(EXAMPLES / "views" / "trick4.json"), jobs=1)
    game = Game(deal_as_dealt(random.Random(4)))
    knowledge = game.decision().knowledge
    move = game.choose(0)
    shown = [judged.cards[0], judged.cards[0].moves[0], chances.cards[0], move, knowledge]
    shown += [kosolve.analyse(played).postmortem, kosolve.analyse(played).solution.moves[0]]
    for result in shown:
        assert not re.search(r"\b(card|best|dd_best|take|talon)=\(?\d", repr(result)), repr(result)
    assert f"card={card_name(judged.cards[0].card)!r}" in repr(judged.cards[0])
