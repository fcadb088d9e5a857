"""External bots over a line protocol (docs/protocol.md): ``exec:COMMAND
ARGS`` names a program in any language that kosolve starts once and talks
to through its standard input and output, one JSON object a line.

For every decision of the bot's seat kosolve writes the decision
(:meth:`~kosolve.play.game.Decision.to_json`: ``decision``, ``seat``,
``view``, ``legal``) and reads one line back, ``{"choice": i}``.  Notices
that need no answer carry no ``legal`` key: ``{"notice": "start", "seat":
..., "seed": ...}`` at each game's start, ``{"notice": "move", ...}`` for
each decision the other seat takes, ``{"notice": "end", "totals": ...}``
at its end.  An answer out of range, broken JSON, a bot that exits or
takes longer than the time limit is a :class:`Forfeit` of the game; the
bot is then stopped, and started again for the next game.
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import subprocess
import time
from typing import IO, Final

from kosolve.model.game import Seat, seat_name
from kosolve.play.bots import Bot, BotSpecError
from kosolve.play.game import Decision, Game, Move

EXEC_PREFIX: Final = "exec:"
DEFAULT_MOVE_TIME: Final = 10.0
"""Seconds a decision may take by default (``--move-time``)."""
LINE_LIMIT: Final = 1 << 20
"""The longest answer line read, in bytes."""


class Forfeit(Exception):
    """A bot that lost its game by breaking the protocol: ``reason`` says how."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ExecBot(Bot):
    """A program that plays through the protocol."""

    def __init__(self, command: str, move_time: float = DEFAULT_MOVE_TIME) -> None:
        self.argv = shlex.split(command)
        if not self.argv:
            raise BotSpecError("exec: names no command")
        self.name = f"{EXEC_PREFIX}{command}"
        self.move_time = move_time
        self.process: subprocess.Popen[bytes] | None = None
        self._buffer = b""

    def _started(self) -> subprocess.Popen[bytes]:
        if self.process is None or self.process.poll() is not None:
            try:
                self.process = subprocess.Popen(
                    self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
                )
            except OSError as error:
                raise Forfeit(f"cannot start {self.argv[0]!r}: {error.strerror}") from None
            self._buffer = b""
        return self.process

    def _send(self, message: dict[str, object]) -> None:
        process = self._started()
        stdin = process.stdin
        assert stdin is not None
        try:
            stdin.write(json.dumps(message).encode() + b"\n")
            stdin.flush()
        except (BrokenPipeError, OSError):
            self._stop()
            raise Forfeit("the bot exited") from None

    def _line(self, stdout: IO[bytes]) -> bytes:
        """One line from the bot within the time limit."""
        deadline = time.monotonic() + self.move_time
        with selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise Forfeit(f"no answer within {self.move_time:g} s")
                chunk = os.read(stdout.fileno(), 65536)
                if not chunk:
                    raise Forfeit("the bot exited")
                self._buffer += chunk
                if len(self._buffer) > LINE_LIMIT:
                    raise Forfeit(f"an answer longer than {LINE_LIMIT} bytes")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def start(self, seed: int, seat: Seat = 0) -> None:
        self._send({"notice": "start", "seat": seat_name(seat), "seed": seed})

    def decide(self, decision: Decision, game: Game | None = None) -> int:
        self._send(decision.to_json())
        process = self._started()
        assert process.stdout is not None
        try:
            line = self._line(process.stdout)
        except Forfeit:
            self._stop()
            raise
        try:
            answer = json.loads(line)
        except ValueError:
            self._stop()
            raise Forfeit(f"not JSON: {line[:80]!r}") from None
        choice = answer.get("choice") if isinstance(answer, dict) else None
        if isinstance(choice, bool) or not isinstance(choice, int) or not 0 <= choice < len(decision.options):
            self._stop()
            raise Forfeit(f"no legal choice: {line[:80]!r} ({len(decision.options)} options)")
        return choice

    def observe(self, move: Move) -> None:
        self._send({"notice": "move", **move.to_json()})

    def end(self, totals: dict[str, int] | None) -> None:
        self._send({"notice": "end", "totals": totals})

    def _stop(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
            for stream in (self.process.stdin, self.process.stdout):
                if stream is not None:
                    stream.close()
            self.process = None

    def close(self) -> None:
        self._stop()


__all__ = ["DEFAULT_MOVE_TIME", "EXEC_PREFIX", "ExecBot", "Forfeit"]
