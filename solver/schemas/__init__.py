"""JSON Schemas (draft 2020-12) of every file kosolve reads and every JSON
it writes, shipped with the package as ``kosolve/schemas/NAME.schema.json``
(docs/json.md, "Schemas"): ``deal`` (play files and deals as dealt),
``view``, ``report`` (``kosolve --json``), ``exchange``, ``odds``,
``review``, ``batch`` (a results line), ``arena`` (an arena's results
line) and ``ladder`` (``kosolve ladder --json``).  Each ``$id`` is ``urn:kosolve:schema:NAME:VERSION``; a change that
breaks a reader gets a new version.  Validating needs the ``jsonschema``
package (in the test extra); reading the schemas does not.

>>> schema("deal")["$id"]
'urn:kosolve:schema:deal:1'
>>> kind_of_output({"format": 1, "by": "thirds", "cards": []})
'review'
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Final

NAMES: Final = ("deal", "view", "report", "exchange", "odds", "review", "batch", "arena", "ladder", "stats")
"""The schemas, by name."""


@cache
def schema(name: str) -> dict[str, Any]:
    """The schema ``name`` (one of :data:`NAMES`) as a JSON object."""
    if name not in NAMES:
        raise ValueError(f"no schema {name!r} (one of {', '.join(NAMES)})")
    text = resources.files(__name__).joinpath(f"{name}.schema.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def kind_of_output(data: dict[str, Any]) -> str | None:
    """Which schema a JSON object kosolve printed follows, by its keys;
    None for one no schema covers (a summary, a benchmark)."""
    if "exchange_table" in data:
        return "exchange"
    if "by" in data and "cards" in data:
        return "review"
    if "worlds" in data and "view" in data:
        return "odds"
    if "value" in data and "moves" in data:
        return "report"
    if "ratings" in data and "matches" in data:
        return "ladder"
    if "stats_format" in data:
        return "stats"
    return None


__all__ = ["NAMES", "kind_of_output", "schema"]
