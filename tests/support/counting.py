"""Counting a game's decisions: the environments build one decision a
step, and their tests count the calls of :meth:`Game.decision`."""

from __future__ import annotations

import pytest

from kosolve.play.game import Decision, Game


class DecisionCount:
    """Counts every call of :meth:`Game.decision` from its making on;
    ``asked`` is the count, which a test sets back to 0 at each step."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.asked = 0
        decision = Game.decision

        def counted(game: Game) -> Decision:
            self.asked += 1
            return decision(game)

        monkeypatch.setattr(Game, "decision", counted)
