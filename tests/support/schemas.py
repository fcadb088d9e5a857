"""Every JSON the tests see kosolve print, checked against its schema
(docs/json.md, "Schemas"): the command line's ``--json`` output through
:func:`support.cli.run`, and every line of the results files the batch
and arena tests read (:func:`support.batches.records`).  Without the
``jsonschema`` package (it comes with the test extra) nothing is checked."""

from __future__ import annotations

import json
from typing import Any

from kosolve.schemas import kind_of_output, schema

try:
    from jsonschema import Draft202012Validator
except ImportError:  # pragma: no cover - the test extra brings it
    Draft202012Validator = None


def check(name: str, data: object) -> None:
    """Fail when ``data`` breaks schema ``name``."""
    if Draft202012Validator is None:
        return
    errors = sorted(Draft202012Validator(schema(name)).iter_errors(data), key=lambda e: list(e.path))
    assert not errors, f"{name} schema: {errors[0].message} at {list(errors[0].path)}"


def check_output(text: str) -> None:
    """Check each JSON line of a command's output whose kind a schema covers."""
    for line in text.splitlines():
        try:
            data: Any = json.loads(line)
        except ValueError:
            continue
        if isinstance(data, dict):
            kind = kind_of_output(data)
            if kind is not None:
                check(kind, data)


def check_results(lines: list[dict[str, Any]]) -> None:
    """Check a results file's lines: a batch's, or an arena's by its header."""
    if not lines:
        return
    question = lines[0].get("question", {})
    name = "arena" if isinstance(question, dict) and question.get("kind") == "arena" else "batch"
    for line in lines:
        check(name, line)
