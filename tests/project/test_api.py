"""The Python API a program starts from: the names at the top of the
package, each from its layer and imported only when used; seats by name
wherever a seat is taken; a deal as dealt read from a file analysed as it
is; reprs a person can read."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys

import pytest
from support import EXAMPLES, ROOT, without_stats

import kosolve
from kosolve.analysis.goals import solve_goal
from kosolve.analysis.report import Analyser
from kosolve.model.game import DEALER, FOREHAND, SeatError, as_seat


def type_checking_imports() -> dict[str, str]:
    """Each name the package's ``if TYPE_CHECKING:`` block imports, and its module."""
    tree = ast.parse((ROOT / "solver" / "__init__.py").read_text())
    block = next(node for node in tree.body if isinstance(node, ast.If))
    return {alias.name: node.module for node in block.body if isinstance(node, ast.ImportFrom) for alias in node.names}  # type: ignore[misc]


def test_every_name_at_the_top_is_its_layers_own() -> None:
    homes = type_checking_imports()
    assert set(homes) | {"__version__", "to_text"} == set(kosolve.__all__)
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
    assert "45 worlds fit the view" in kosolve.to_text(kosolve.odds(view, jobs=1), "trick4.json")


def test_reprs_summarise() -> None:
    deal = kosolve.load_deal(EXAMPLES / "played.json")
    assert repr(deal) == (
        f"<Deal {EXAMPLES / 'played.json'}: zweiblatt by the forehand, 16 cards each at trick 1, piles, 7 cards played>"
    )
    assert repr(kosolve.analyse(deal).solution).startswith("<Solution: 111 thirds (37 points), won; ")
    assert repr(Analyser(tt_mb=8, threads=2)) == "Analyser(tt_mb=8, threads=2)"
