"""The ``>>>`` examples in the library's docstrings are tests too."""

import doctest
import importlib
from pathlib import Path

import pytest

MODULES = [
    "kosolve.cards",
    "kosolve.game",
    "kosolve.deal",
    "kosolve.analysis",
    "kosolve.dealing",
    "kosolve.reference",
    "kosolve.feasibility",
    "kosolve.scoring",
    "kosolve.postmortem",
    "kosolve.netscore",
    "kosolve.bench",
    "kosolve._search",
    "kosolve.cli.main",
    "kosolve.cli.options",
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
