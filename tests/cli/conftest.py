"""What the command tests share: a terminal for stderr, where a progress
bar is drawn (CliRunner's stderr is not one)."""

from __future__ import annotations

import pytest

import kosolve.cli.running


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stderr counts as a terminal, so the commands draw their progress
    bars; click itself still sees CliRunner's stream, and writes a bar's
    label there once."""
    monkeypatch.setattr(kosolve.cli.running, "on_terminal", lambda: True)
