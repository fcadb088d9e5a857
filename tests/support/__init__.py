"""What the tests share: the project's folders, and (in the modules of this
package) the deal files, endings, seat views and batches they start from.
``tests/conftest.py`` puts the tests folder on the import path, so a test
imports ``support.views`` wherever it sits."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

import pytest

ROOT: Final = Path(__file__).resolve().parent.parent.parent
"""The repository."""
EXAMPLES: Final = ROOT / "examples"
DOCS: Final = ROOT / "docs"


def interruptible() -> None:
    """For ``subprocess.Popen(preexec_fn=...)``: the child takes SIGINT as
    Ctrl-C even when the tests run where it is ignored (a shell's
    background job ignores it, and a child inherits that, so Python would
    not turn it into KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def without_stats(value: Any) -> Any:
    """``value`` with every key named ``stats`` left out, at any depth: what
    stays is the same whatever the threads, the tables and the clock
    (docs/json.md)."""
    if isinstance(value, dict):
        return {key: without_stats(item) for key, item in value.items() if key != "stats"}
    if isinstance(value, list):
        return [without_stats(item) for item in value]
    return value


def example(name: str) -> dict[str, Any]:
    """The JSON object of the example file ``name`` (``views/trick4.json`` too)."""
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    return data


def fast_first(values: Iterable[Any], keep: int = 1) -> list[Any]:
    """Test cases of which the first ``keep`` are in the fast set
    (``python -m pytest``) and the others only in the full one (``-m
    slow``, which CI runs too): every check stays quick to run, none is
    dropped."""
    cases = list(values)
    # A tuple holds a case's values for several names.
    slow = (
        pytest.param(*(value if isinstance(value, tuple) else (value,)), marks=pytest.mark.slow)
        for value in cases[keep:]
    )
    return [*cases[:keep], *slow]
