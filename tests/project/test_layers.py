"""The package's layers import only downward: model, schemas ← dealing, engine ← analysis ←
sampling ← review ← render, tools, batch ← play ← env, web, stats ← cli.  Read from the source (Python
imports and Cython cimports), so that a wrong import fails here before it
tangles the code."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Final

import pytest
from support import ROOT

LAYERS: Final = {
    "model": 0,
    "schemas": 0,
    "dealing": 1,
    "engine": 1,
    "analysis": 2,
    "sampling": 3,
    "review": 4,
    "render": 5,
    "tools": 5,
    "batch": 5,
    "play": 6,
    "env": 7,
    "web": 7,
    "stats": 7,
    "cli": 8,
}
"""Each subpackage's height; a module may import its own layer and lower ones."""
BASE: Final = ("kosolve", "kosolve._version")
"""The package root, which every layer may import (the version)."""
CIMPORT: Final = re.compile(r"^\s*(?:from\s+(kosolve[\w.]*)\s+cimport|cimport\s+(kosolve[\w.]*))", re.MULTILINE)


def _sources() -> list[tuple[str, Path]]:
    """Every source file with the layer it belongs to."""
    found = [("cli", path) for path in sorted((ROOT / "cli").glob("*.py"))]
    for layer in LAYERS:
        if layer != "cli":
            found += [(layer, path) for path in sorted((ROOT / "solver" / layer).glob("*.p*"))]
    return found


def _imports(path: Path) -> list[str]:
    """The kosolve modules a source file imports or cimports."""
    text = path.read_text(encoding="utf-8")
    if path.suffix in (".pyx", ".pxd"):
        return [match.group(1) or match.group(2) for match in CIMPORT.finditer(text)]
    names = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
    return [name for name in names if name == "kosolve" or name.startswith("kosolve.")]


def _layer_of(module: str) -> str | None:
    """The layer of an imported module; None for the package root."""
    if module in BASE:
        return None
    return module.split(".")[1]


SOURCES: Final = _sources()


def test_every_layer_has_sources() -> None:
    assert {layer for layer, _ in SOURCES} == set(LAYERS)


@pytest.mark.parametrize(("layer", "path"), SOURCES, ids=[str(path.relative_to(ROOT)) for _, path in SOURCES])
def test_imports_go_only_downward(layer: str, path: Path) -> None:
    for module in _imports(path):
        target = _layer_of(module)
        assert target is None or target in LAYERS, f"{module} is in no layer"
        if target is not None:
            assert LAYERS[target] < LAYERS[layer] or target == layer, f"{path.name} ({layer}) imports {module}"


def test_the_reference_shares_no_code_with_what_it_checks() -> None:
    assert _imports(ROOT / "solver" / "tools" / "reference.py") == []


def test_the_check_finds_an_upward_import(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.py"
    wrong.write_text("from kosolve.analysis.report import analyse\nimport kosolve.cli.main\n")
    assert [_layer_of(module) for module in _imports(wrong)] == ["analysis", "cli"]
    pyx = tmp_path / "wrong.pyx"
    pyx.write_text("from kosolve.engine._bits cimport Hand\n")
    assert _imports(pyx) == ["kosolve.engine._bits"]
