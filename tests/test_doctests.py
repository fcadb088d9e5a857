"""The ``>>>`` examples in the library's docstrings are tests too."""

import doctest
import importlib
from pathlib import Path

import pytest

MODULES = [
    "kosolve.model.cards",
    "kosolve.model.game",
    "kosolve.model.announcements",
    "kosolve.model.deal",
    "kosolve.model.dealt",
    "kosolve.model.dealt_file",
    "kosolve.model.view",
    "kosolve.engine._search",
    "kosolve.analysis.solving",
    "kosolve.analysis.goals",
    "kosolve.analysis.scoring",
    "kosolve.analysis.postmortem",
    "kosolve.analysis.netscore",
    "kosolve.analysis.par",
    "kosolve.analysis.report",
    "kosolve.analysis.pool",
    "kosolve.analysis.exchange",
    "kosolve.sampling.worlds",
    "kosolve.sampling.odds",
    "kosolve.render.text",
    "kosolve.render.odds",
    "kosolve.tools.dealing",
    "kosolve.tools.reference",
    "kosolve.tools.bench",
    "kosolve.web.api",
    "kosolve.web.report",
    "kosolve.batch.tasks",
    "kosolve.batch.source",
    "kosolve.batch.results",
    "kosolve.batch.runner",
    "kosolve.batch.summary",
    "kosolve.tools.bench_odds",
    "kosolve.cli.main",
    "kosolve.cli.options",
    "kosolve.cli.view",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no examples"


def test_readme_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    root = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(root)
    result = doctest.testfile(str(root / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
