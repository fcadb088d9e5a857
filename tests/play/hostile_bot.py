"""Protocol bots that break the rules or test kosolve's hold on them, for
tests/play/test_arena_hardening.py: ``python hostile_bot.py MODE [FILE]``.

- ``record FILE``: plays as examples/bots/random_bot.py does and appends
  every line it receives to FILE.
- ``lingering FILE``: plays as the random bot, but ignores SIGINT, SIGTERM
  and SIGHUP, starts a child that does too, and outlives its input; FILE
  gets both process ids, a line each.
- ``garbage FILE``: the same, but answers every decision with garbage.
- ``signals FILE``: appends to FILE whether it started with SIGINT and
  SIGTERM ignored, then plays as the random bot.
- ``deaf``: never reads its input, never answers.
- ``chatter``: never reads its input and prints ``{"choice": 0}`` for ever.
- ``twice``: answers every decision with two lines at once.
- ``nested``: answers every decision with 100,000 nested lists.
- ``one-game``: plays as the random bot, and exits at once at each game's end.
- ``child FILE``: the child of ``lingering`` and ``garbage``.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

LINGER = 120.0
"""Seconds a process that outlives kosolve stays: longer than any test
waits, short enough that a failed test leaves nothing for long."""


def _note(path: str, text: str) -> None:
    with open(path, "a", encoding="utf-8") as file:
        file.write(text + "\n")


def _stubborn(path: str) -> None:
    """Ignore the signals that stop a polite program, and write this process's id."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    _note(path, str(os.getpid()))


def _play(answer: str | None = None, record: str | None = None, one_game: bool = False) -> None:
    """Answer every decision, at random from the game's seed (or with
    ``answer``); with ``one_game``, exit at the first game's end."""
    rng = random.Random(0)
    for line in sys.stdin:
        if record is not None:
            _note(record, line.rstrip("\n"))
        message = json.loads(line)
        if message.get("notice") == "start":
            rng = random.Random(message["seed"])
        elif "legal" in message:
            shown = json.dumps({"choice": rng.randrange(len(message["legal"]))}) if answer is None else answer
            print(shown, flush=True)
        elif one_game and message.get("notice") == "end":
            return


def main(mode: str, path: str = "") -> None:
    if mode == "record":
        _play(record=path)
    elif mode in ("lingering", "garbage"):
        _stubborn(path)
        subprocess.Popen([sys.executable, __file__, "child", path], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        _play("sure, the king" if mode == "garbage" else None)
        time.sleep(LINGER)
    elif mode == "child":
        _stubborn(path)
        time.sleep(LINGER)
    elif mode == "signals":
        ignored = {name: signal.getsignal(getattr(signal, name)) == signal.SIG_IGN for name in ("SIGINT", "SIGTERM")}
        _note(path, json.dumps(ignored))
        _play()
    elif mode == "deaf":
        time.sleep(LINGER)
    elif mode == "chatter":
        while True:
            print('{"choice": 0}', flush=True)
    elif mode == "twice":
        _play('{"choice": 0}\n{"choice": 0}')
    elif mode == "nested":
        _play("[" * 100_000)
    elif mode == "one-game":
        _play(one_game=True)
    else:
        raise SystemExit(f"no mode {mode!r}")


if __name__ == "__main__":
    main(*sys.argv[1:])
