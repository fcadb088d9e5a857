"""External bots over a line protocol (docs/protocol.md): ``exec:COMMAND
ARGS`` names a program in any language that kosolve starts once and talks
to through its standard input and output, one JSON object a line.

For every decision of the bot's seat kosolve writes the decision
(:meth:`~kosolve.play.game.Decision.to_json`: ``decision``, ``seat``,
``view``, ``legal``) and reads one line back, ``{"choice": i}``.  Notices
that need no answer carry no ``legal`` key: ``{"notice": "start", "seat":
..., "seed": ..., "rules": ...}`` at each game's start (``rules``, the rule
options in force, when the bot was made with them), ``{"notice": "move", ...}`` for
each decision the other seat takes, as the bot's seat sees it at the table
(:meth:`~kosolve.play.game.Move.seen_by`: of the other's lay-away only its
face-up tarocks), ``{"notice": "end", "totals": ...}`` at its end.

A bot that breaks the protocol forfeits the game
(:class:`~kosolve.play.player.Forfeit`): an answer not JSON or out of
range (the game's check, :meth:`ExecBot.refused` its words), more than one
line to a decision or a line it was not asked for, no answer within the
move time, a line kosolve writes that it does not take in within the move
time, or its exit.  The bot is then stopped, and started again for the
next game.

Every bot runs in a process group of its own, which kosolve kills whole
when it stops the bot (after a forfeit, at the end of a match): what the
bot started goes with it.  A small keeper process (:class:`_Keeper`) kills
the groups still running when the process that started them ends however
it ends, so that no bot outlives kosolve.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
from dataclasses import asdict
from typing import Final, NoReturn

from kosolve.model.game import Rules, Seat, seat_name
from kosolve.play.game import ChoiceError, Decision, Game, Move
from kosolve.play.player import Bot, BotSpecError, Forfeit

EXEC_PREFIX: Final = "exec:"
DEFAULT_MOVE_TIME: Final = 10.0
"""Seconds a decision may take by default (``--move-time``), and a line
kosolve writes may wait for the bot to take it in."""
LINE_LIMIT: Final = 1 << 20
"""The longest answer line read, in bytes."""
SHOWN: Final = 80
"""The bytes of a broken answer a forfeit's reason quotes."""
EXIT_WAIT: Final = 0.5
"""Seconds a bot whose output closed is given to end, for its exit status."""
KEEPER_PROGRAM: Final = """\
import os, signal, sys
groups = set()
for line in sys.stdin:
    group = int(line)
    if group > 0:
        groups.add(group)
    else:
        groups.discard(-group)
for group in groups:
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass
"""
"""The keeper: it reads process groups to guard (``N``) and to let go
(``-N``), one a line, and kills those it still guards when its input ends,
which is when the process that started it ends."""


class _Keeper:
    """The process groups of this process's bots, told to a keeper process
    (:data:`KEEPER_PROGRAM`) that kills those still running once this
    process has ended, a SIGKILL included: the end of its input is the
    one sign of that which needs no code to run here.  The keeper runs
    while there are groups to guard, in a session of its own so that
    Ctrl-C in a terminal or a kill of kosolve's process group leaves it
    to do its work."""

    def __init__(self) -> None:
        self._groups: set[int] = set()
        self._process: subprocess.Popen[bytes] | None = None
        # Bots of one process may start and stop in several threads (a Dask worker's).
        self._lock = threading.Lock()

    def guard(self, group: int) -> None:
        """Have the keeper kill ``group`` if this process ends first."""
        with self._lock:
            self._groups.add(group)
            if not self._told(f"{group}\n"):
                # No keeper yet, or it was killed: a new one, told every group.
                self._end()
                self._process = subprocess.Popen(
                    [sys.executable, "-I", "-S", "-c", KEEPER_PROGRAM],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    bufsize=0,
                    start_new_session=True,
                )
                assert self._process.stdin is not None
                self._process.stdin.write("".join(f"{each}\n" for each in self._groups).encode())

    def release(self, group: int) -> None:
        """``group`` is gone: the keeper lets it go, and ends with the last one."""
        with self._lock:
            self._groups.discard(group)
            # Told even when it is the last: its number may be another
            # group's by the time the keeper ends.  A keeper gone by now is
            # started again with the next bot.
            self._told(f"-{group}\n")
            if not self._groups:
                self._end()

    def _told(self, lines: str) -> bool:
        """Whether the keeper took ``lines`` in (False without a keeper)."""
        if self._process is None or self._process.stdin is None:
            return False
        try:
            self._process.stdin.write(lines.encode())
        except OSError:
            return False
        return True

    def _end(self) -> None:
        """Close the keeper's input and wait for it: with no group to kill, it just ends."""
        if self._process is not None:
            if self._process.stdin is not None:
                with contextlib.suppress(OSError):
                    self._process.stdin.close()
            self._process.wait()
            self._process = None


_KEEPER: Final = _Keeper()
"""This process's keeper of its bots' process groups."""


def _bot_signals() -> None:
    """In the bot's process, before its program runs: Ctrl-C and SIGTERM
    stop it as they stop any program.  A signal ignored stays ignored
    across the program's start, and the workers of ``--jobs`` ignore both
    (:mod:`kosolve.analysis.pool`)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def rules_json(rules: Rules) -> dict[str, object]:
    """The rule options as a start notice tells them (docs/protocol.md): each
    field of :class:`~kosolve.model.game.Rules` by its name, as the web
    API's ``rules`` object names them.

    >>> rules_json(Rules(kontra=True))["kontra"], sorted(rules_json(Rules()))[:2]
    (True, ['defender_announcements', 'discard'])
    """
    return asdict(rules)


class _Gone(Exception):
    """The bot's process ended after its last game's end, noticed only now."""


class ExecBot(Bot):
    """A program that plays through the protocol."""

    def __init__(self, command: str, move_time: float = DEFAULT_MOVE_TIME, rules: Rules | None = None) -> None:
        self.name = f"{EXEC_PREFIX}{command}"
        self.rules = rules
        """The rules of its games, told in each start notice (:func:`rules_json`);
        None: not known, and not told."""
        try:
            self.argv = shlex.split(command)
        except ValueError as error:
            raise BotSpecError(f"{self.name!r}: {str(error).lower()}") from None
        if not self.argv:
            raise BotSpecError("exec: names no command")
        self.move_time = move_time
        self.seat: Seat = 0
        """The seat of the game under way: what its notices show is what this seat sees."""
        self.process: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._answer = b""
        """Its last answer line, which a forfeit for its choice quotes."""
        self._game: list[dict[str, object]] = []
        """What it was told of the game under way, from its start notice."""
        self._between = False
        """Whether its process was told a game's end and has answered
        nothing since: it may end then, and a fresh one takes the game."""

    def _started(self) -> subprocess.Popen[bytes]:
        if self.process is not None and self.process.poll() is not None:
            # Ended: between games a fresh one takes the game (:meth:`_afresh`), within one it forfeits.
            self._exited()
        if self.process is None:
            try:
                process = subprocess.Popen(
                    self.argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    bufsize=0,
                    start_new_session=True,
                    preexec_fn=_bot_signals,
                )
            except OSError as error:
                raise Forfeit(f"cannot start {self.argv[0]!r}: {error.strerror}") from None
            self.process = process
            self._buffer = b""
            assert process.stdin is not None
            # Writes wait at most the move time (:meth:`_send`), not for ever.
            os.set_blocking(process.stdin.fileno(), False)
            _KEEPER.guard(process.pid)
        return self.process

    def _exited(self) -> NoReturn:
        if self._between:
            raise _Gone
        self._forfeit(f"the bot exited{_how_it_ended(self.process)}")

    def _forfeit(self, reason: str) -> NoReturn:
        self._stop()
        raise Forfeit(reason)

    def _unasked(self, process: subprocess.Popen[bytes]) -> None:
        """Forfeit a bot whose output holds anything now, when kosolve is
        about to write: a bot writes one line to a decision, nothing else."""
        assert process.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            if not selector.select(0):
                return
        chunk = os.read(process.stdout.fileno(), SHOWN)
        if not chunk:
            self._exited()
        self._forfeit(f"wrote what it was not asked for: {chunk!r}")

    def _send(self, message: dict[str, object]) -> None:
        """Write ``message`` as one line, within the move time."""
        process = self._started()
        assert process.stdin is not None
        self._unasked(process)
        data = memoryview(json.dumps(message).encode() + b"\n")
        deadline = time.monotonic() + self.move_time
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdin, selectors.EVENT_WRITE)
            while data:
                try:
                    data = data[os.write(process.stdin.fileno(), data) :]
                except BlockingIOError:
                    # The pipe is full: the bot has not read what it was sent.
                    left = deadline - time.monotonic()
                    if left <= 0 or not selector.select(left):
                        self._forfeit(f"did not read its input within {self.move_time:g} s")
                except OSError:
                    self._exited()

    def _line(self, process: subprocess.Popen[bytes]) -> bytes:
        """One line from the bot within the time limit."""
        stdout = process.stdout
        assert stdout is not None
        deadline = time.monotonic() + self.move_time
        with selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    self._forfeit(f"no answer within {self.move_time:g} s")
                chunk = os.read(stdout.fileno(), 65536)
                if not chunk:
                    self._exited()
                self._buffer += chunk
                if len(self._buffer) > LINE_LIMIT:
                    self._forfeit(f"an answer longer than {LINE_LIMIT} bytes")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _tell(self, message: dict[str, object]) -> None:
        """Send a message of the game under way."""
        self._game.append(message)
        try:
            self._send(message)
        except _Gone:
            self._afresh()

    def _afresh(self) -> None:
        """A fresh process for the bot that ended between games, told the
        game under way from its start: however late its end is noticed, the
        game is the same."""
        self._stop()
        for message in self._game:
            self._send(message)

    def start(self, seed: int, seat: Seat = 0) -> None:
        self.seat = seat
        self._game = []
        notice: dict[str, object] = {"notice": "start", "seat": seat_name(seat), "seed": seed}
        if self.rules is not None:
            notice["rules"] = rules_json(self.rules)
        self._tell(notice)

    def decide(self, decision: Decision, game: Game | None = None) -> int:
        self._tell(decision.to_json())
        assert self.process is not None
        try:
            line = self._line(self.process)
        except _Gone:
            self._afresh()
            assert self.process is not None
            line = self._line(self.process)
        self._between = False
        if self._buffer:
            # Never the answer to the next decision: one line a decision.
            self._forfeit(f"more than one line to one decision: {line[:SHOWN]!r} then {self._buffer[:SHOWN]!r}")
        try:
            answer = json.loads(line)
        except ValueError:
            self._forfeit(f"not JSON: {line[:SHOWN]!r}")
        except RecursionError:
            self._forfeit(f"not JSON (nested too deep): {line[:SHOWN]!r}")
        choice = answer.get("choice") if isinstance(answer, dict) else None
        self._answer = line
        if isinstance(choice, bool) or not isinstance(choice, int):
            self._forfeit(self._no_choice(len(decision.options)))
        # Whether it is one of the options is the game's to say (refused).
        return choice

    def _no_choice(self, options: int) -> str:
        return f"no legal choice: {self._answer[:SHOWN]!r} ({options} options)"

    def refused(self, error: ChoiceError) -> Forfeit:
        self._stop()
        return Forfeit(self._no_choice(error.options))

    def observe(self, move: Move) -> None:
        self._tell({"notice": "move", **move.seen_by(self.seat)})

    def end(self, totals: dict[str, int] | None) -> None:
        self._tell({"notice": "end", "totals": totals})
        self._between = True

    def _stop(self) -> None:
        """Kill the bot's process group (the bot and what it started) and let it go."""
        process, self.process = self.process, None
        self._buffer = b""
        self._between = False
        if process is None:
            return
        # Its group is its own (start_new_session): pgid == pid.  Gone already, or
        # the number another user's now: nothing to kill.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()
        _KEEPER.release(process.pid)

    def close(self) -> None:
        self._stop()


def _how_it_ended(process: subprocess.Popen[bytes] | None) -> str:
    """`` with status 2`` or `` on signal 9``: what its ending says of why
    (its stderr is not kept: a bot may write to it without end), waiting a
    moment for a process whose output closed as it ended."""
    if process is None:
        return ""
    try:
        status = process.wait(EXIT_WAIT)
    except subprocess.TimeoutExpired:
        return ""
    return f" with status {status}" if status >= 0 else f" on signal {-status}"


__all__ = ["DEFAULT_MOVE_TIME", "EXEC_PREFIX", "ExecBot", "rules_json"]
