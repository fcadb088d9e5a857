"""The small deal file the deal-file tests start from, and how they read
the one-line error a bad one gives."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Final

import pytest

from kosolve.model.deal import DealError
from kosolve.model.files import parse_deal
from support import EXAMPLES

OPEN_EXAMPLES: Final = ("dealt-open.json",)
"""Examples that are deals as dealt without a contract or exchange: no play
position, so load_deal refuses them (they are for kosolve exchange)."""


def play_examples() -> list[Path]:
    """The examples that load_deal reads: every one but the open deals as dealt."""
    return [path for path in sorted(EXAMPLES.glob("*.json")) if path.name not in OPEN_EXAMPLES]


ENDING: Final[dict[str, Any]] = {
    "version": 1,
    "contract": "dreiblatt",
    "declarer": "forehand",
    "hands": {"forehand": ["XX", "HK", "H4"], "dealer": ["I", "HQ", "S7"]},
}


def ending(**changes: Any) -> dict[str, Any]:
    """A copy of :data:`ENDING` with some keys changed."""
    data = copy.deepcopy(ENDING)
    data.update(changes)
    return data


def one_line(error: Exception) -> str:
    """The message of ``error``, checked to be one short printable line."""
    message = str(error)
    assert "\n" not in message and "\r" not in message
    # Never the whole message in an assertion: it may hold 50 MB.
    assert message.isascii() or "Sküs" in message, message[:300]
    assert len(message) < 300, message[:300]
    return message


def error_of(data: object) -> str:
    """The one line that parsing ``data`` as ``deal.json`` is refused with."""
    with pytest.raises(DealError) as caught:
        parse_deal(data, "deal.json")
    return one_line(caught.value)
