"""The tests, a folder a layer of kosolve (docs/architecture.md): model,
engine, analysis, sampling, tools, batch, web and cli, and project for what
holds across them (the layering itself, the docstring examples).  What
they share is the package ``support``, importable from every folder since
this file's folder is on the import path (pytest puts it there)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def in_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test runs in a folder of its own: files it writes by a plain name
    land there."""
    monkeypatch.chdir(tmp_path)
    return tmp_path
