"""The scoring rules' values (docs/rules.md §6): the scoring table as data
(:class:`ScoringTable`, :data:`DEFAULT_TABLE`) and the game item read from
it (:func:`game_item`).  Settling a played hand by them is
:mod:`kosolve.analysis.scoring`'s.

>>> DEFAULT_TABLE.row("pagat").announced("zweiblatt", "before"), DEFAULT_TABLE.row("panzer").announced("solo", None)
(16, 28)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from kosolve.model.announcements import BIRD_NAMES, DECLARER_ANNOUNCEMENTS
from kosolve.model.cards import BIRD_CARDS, KINGS, TRULL, Hand
from kosolve.model.game import GAME_VALUES

BONUSES: Final = BIRD_NAMES + DECLARER_ANNOUNCEMENTS
"""The rows of the scoring table with a value per contract."""
HELD: Final[dict[str, Hand]] = {"trull": TRULL, "four_kings": KINGS, "four_birds": BIRD_CARDS}
"""The held bonuses and the cards each needs."""


class ScoringError(ValueError):
    """A deal that cannot be settled (not a whole game played out), or a
    scoring table that is not whole."""


@dataclass(frozen=True)
class BonusRow:
    """One row of the scoring table: the silent value (None for "–": the
    bonus scores only when announced) and the announced values per contract,
    ``(after, before)`` for the three talon contracts and one for Solo."""

    name: str
    title: str
    silent: int | None
    dreiblatt: tuple[int, int]
    zweiblatt: tuple[int, int]
    einblatt: tuple[int, int]
    solo: int

    def announced(self, contract: str, when: str | None) -> int:
        """The value of the bonus announced in ``contract`` at ``when``
        (None for a Solo).

        >>> DEFAULT_TABLE.row("uhu").announced("einblatt", "after")
        12
        """
        if contract == "solo":
            return self.solo
        after, before = {"dreiblatt": self.dreiblatt, "zweiblatt": self.zweiblatt, "einblatt": self.einblatt}[contract]
        return before if when == "before" else after


@dataclass(frozen=True)
class ScoringTable:
    """The scoring table of docs/rules.md §6 as data: a :class:`BonusRow` per
    bonus, the held bonuses, and the Valat as multiples of the game value G
    (:data:`kosolve.model.game.GAME_VALUES`)."""

    rows: tuple[BonusRow, ...]
    trull: int = 1
    four_kings: int = 1
    four_birds: int = 3
    valat_silent: int = 4
    """A silent Valat is worth G times this."""
    valat_announced: int = 8
    """An announced Valat is worth G times this, made or failed."""

    def __post_init__(self) -> None:
        names = sorted(row.name for row in self.rows)
        if names != sorted(BONUSES):
            raise ScoringError(f"a scoring table needs one row for each of {', '.join(BONUSES)}")

    def row(self, name: str) -> BonusRow:
        """The row of the bonus ``name`` (one of :data:`BONUSES`)."""
        for row in self.rows:
            if row.name == name:
                return row
        raise KeyError(name)

    def held(self, name: str) -> int:
        """The value of a held bonus: trull, four_kings or four_birds."""
        return {"trull": self.trull, "four_kings": self.four_kings, "four_birds": self.four_birds}[name]


DEFAULT_TABLE: Final = ScoringTable(
    rows=(
        #        name             title            silent Dreiblatt Zweiblatt Einblatt  Solo
        BonusRow("pagat", "Pagat ultimo", 3, (6, 12), (8, 16), (10, 20), 24),
        BonusRow("uhu", "Uhu", 3, (7, 14), (10, 20), (12, 24), 28),
        BonusRow("pelikan", "Pelikan", 3, (8, 16), (12, 24), (14, 28), 32),
        BonusRow("quapil", "Quapil", 3, (9, 18), (14, 28), (16, 32), 36),
        BonusRow("absolut", "Absolut", None, (1, 2), (2, 4), (3, 6), 9),
        BonusRow("panzer", "Panzer", None, (3, 6), (6, 12), (12, 24), 28),
        BonusRow("without_trull", "Without Trull", None, (1, 2), (2, 4), (3, 6), 9),
        BonusRow("without_kings", "Without kings", None, (1, 2), (2, 4), (3, 6), 9),
    )
)
"""The scoring table of docs/rules.md §6, pattern-breaking cells included (Solo
9 for Absolut; Panzer Einblatt 12 / 24)."""


def game_item(contract: str, won: bool, valat: bool, table: ScoringTable = DEFAULT_TABLE) -> int:
    """The game item from the declarer's side: +G won, −G lost, a silent
    Valat's G × ``table.valat_silent`` with a Valat he can force
    (docs/rules.md §6.1).

    >>> game_item("zweiblatt", True, False), game_item("solo", False, False), game_item("dreiblatt", True, True)
    (6, -12, 12)
    """
    game = GAME_VALUES[contract]
    if valat:
        return table.valat_silent * game
    return game if won else -game


__all__ = ["BONUSES", "DEFAULT_TABLE", "HELD", "BonusRow", "ScoringError", "ScoringTable", "game_item"]
