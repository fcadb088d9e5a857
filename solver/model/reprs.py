"""Reprs of value objects that a card player can read: cards by name, hands
as lists of names, every other field as the dataclass would show it.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Shown:
...     card: int
...     hand: int
...     line: tuple[int, ...]
...     def __repr__(self) -> str:
...         return readable_repr(self, cards=("card", "line"), hands=("hand",))
>>> Shown(32, 0b11, (53, 32))
Shown(card='I', hand=['H3', 'H4'], line=('Sk', 'I'))
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import fields
from typing import Any

from kosolve.model.cards import card_name, hand_names


def _shown(value: Any, kind: str) -> Any:
    if value is None:
        return None
    if isinstance(value, tuple):
        return tuple(_shown(item, kind) for item in value)
    return card_name(value) if kind == "card" else hand_names(value)


def readable_repr(obj: Any, *, cards: Collection[str] = (), hands: Collection[str] = ()) -> str:
    """``obj``'s dataclass repr with the fields named in ``cards`` (a card or
    a tuple of cards) shown by card name and those in ``hands`` (a mask or
    a tuple of masks) as lists of names, in the order of the hand diagram."""
    parts = []
    for field in fields(obj):
        if not field.repr:
            continue
        value = getattr(obj, field.name)
        if field.name in cards:
            value = _shown(value, "card")
        elif field.name in hands:
            value = _shown(value, "hand")
        parts.append(f"{field.name}={value!r}")
    return f"{type(obj).__name__}({', '.join(parts)})"


def counted(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, plural unless the count is one: ``noun``
    with an s, or ``many`` for a plural made otherwise.

    >>> counted(1, "card"), counted(7, "card"), counted(0, "announcement")
    ('1 card', '7 cards', '0 announcements')
    >>> counted(3, "match", "matches")
    '3 matches'
    """
    return f"{count} {noun if count == 1 else many or noun + 's'}"
