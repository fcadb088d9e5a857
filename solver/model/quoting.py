"""Echoing input in error messages: whatever a deal file holds, what a
message repeats of it is short, printable ASCII, and the message one line.

A value from the input is quoted like Python's :func:`ascii` (control
characters and everything outside printable ASCII escaped, so a look-alike
such as the Kelvin sign shows as ``\\u212a``, not as a ``K``) and cut
after :data:`QUOTE_LIMIT` characters, so that a key with a newline cannot
break the line and a 50 MB string is not copied into the message.

>>> quote("HK")
"'HK'"
>>> quote("fore\\nhand")
"'fore\\\\nhand'"
>>> quote("H\\u212a")
"'H\\\\u212a'"
>>> quote("x" * 1000) == "'" + "x" * QUOTE_LIMIT + "'..."
True
>>> describe(["HK"]), describe(3), describe(None), describe("solo")
('an array', 'the number 3', 'null', "the string 'solo'")
>>> member("hands", "north"), member("hands", "no rth"), member("", "colour")
('hands.north', "hands['no rth']", 'colour')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

QUOTE_LIMIT: Final = 40
"""The most characters of a value's escaped text that a message shows."""

_NUMBER_BITS: Final = 133
"""Integers up to this many bits (40 decimal digits) are shown whole; a
longer one is described, since writing it out is slow (and past 4300
digits refused by Python)."""

_PLAIN_KEY: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _escape(char: str) -> str:
    if char in "'\\":
        return "\\" + char
    if " " <= char <= "~":
        return char
    return ascii(char)[1:-1]


def quote(text: str, limit: int | None = QUOTE_LIMIT) -> str:
    """``text`` in single quotes, escaped to printable ASCII and shortened
    to ``limit`` characters (None: not shortened) with ``...`` after the
    quote.

    >>> quote("it's"), quote("Sküs"), quote("abcdef", limit=3)
    ("'it\\\\'s'", "'Sk\\\\xfcs'", "'abc'...")
    """
    body = ""
    for char in text if limit is None else text[:limit]:
        piece = _escape(char)
        if limit is not None and len(body) + len(piece) > limit:
            return f"'{body}'..."
        body += piece
    return f"'{body}'" + ("..." if limit is not None and len(text) > limit else "")


def _number(value: int | float) -> str:
    if isinstance(value, int) and value.bit_length() > _NUMBER_BITS:
        return "a number too long to show"
    return f"the number {value!r}"


def describe(value: object) -> str:
    """What a JSON value is, for "expected ..., got ..." messages: its
    kind, and the value itself when it is a short scalar.  Never recurses
    into arrays and objects, so any nesting and any size is safe.

    >>> describe(True), describe(10**100), describe({"a": 1}), describe(("HK",))
    ('true', 'a number too long to show', 'an object', 'tuple')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _number(value)
    if isinstance(value, str):
        return f"the string {quote(value)}"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def member(parent: str, key: str) -> str:
    """The field name of ``parent``'s member ``key``: dotted when the key is
    a plain name, else the quoted key in brackets.

    >>> member("announcements[0]", "at"), member("", "a\\tb")
    ('announcements[0].at', "['a\\\\tb']")
    """
    if len(key) <= QUOTE_LIMIT and _PLAIN_KEY.fullmatch(key):
        return f"{parent}.{key}" if parent else key
    return f"{parent}[{quote(key)}]"


def source_name(name: str) -> str:
    """A file name as messages show it: as given, unless it would break the
    line; it is not shortened, being the user's own.

    >>> source_name("deals/my deal.json"), source_name("a\\nb.json")
    ('deals/my deal.json', "'a\\\\nb.json'")
    """
    return name if name.isprintable() else quote(name, limit=None)


__all__ = ["QUOTE_LIMIT", "describe", "member", "quote", "source_name"]
