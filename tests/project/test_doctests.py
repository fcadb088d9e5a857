"""The ``>>>`` examples in the library's docstrings are tests too."""

import doctest
import importlib
import pkgutil

import pytest
from support import ROOT


def modules() -> list[str]:
    """Every module of kosolve, the command line's included: found, not
    listed, so that a new module's examples are run without anyone
    remembering to add it."""
    import kosolve.cli

    found = pkgutil.walk_packages(kosolve.__path__, "kosolve.")
    found_cli = pkgutil.walk_packages(kosolve.cli.__path__, "kosolve.cli.")
    return sorted(["kosolve", *(info.name for info in (*found, *found_cli))])


@pytest.mark.parametrize("name", modules())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_modules_are_found() -> None:
    found = modules()
    assert {"kosolve.model.deal", "kosolve.engine._search", "kosolve.cli.main", "kosolve.engine.memory"} <= set(found)


@pytest.mark.parametrize("page", ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))])
def test_the_examples_of_the_readme_and_the_docs(monkeypatch: pytest.MonkeyPatch, page: str) -> None:
    root = ROOT
    monkeypatch.chdir(root)
    result = doctest.testfile(str(root / page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if page == "README.md":
        assert result.attempted > 0
