"""``kosolve arena`` against hostile protocol bots (tests/play/hostile_bot.py):
a bot that does not read its input, chatters, answers twice or with JSON
nested too deep forfeits and the match ends; no notice names a card its
seat could not see; no bot process, nor anything it started, outlives a
forfeit, the match, or kosolve killed; a bot starts with Ctrl-C and
SIGTERM at their defaults; a match over changed deals is not resumed; bad
input is one line, exit status 2."""

from __future__ import annotations

import json
import random
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support import interruptible
from support.batches import records, write_deals
from support.cli import run

from kosolve.dealing import deal_as_dealt
from kosolve.model.cards import CARD_NAMES, Hand, card_name, cards_of, mask_of
from kosolve.model.game import SEATS, Seat, seat_name
from kosolve.model.view import TAROCKS
from kosolve.play.arena import Forfeited, Match, dealer_deal, play_chunk, play_game
from kosolve.play.bots import RandomBot
from kosolve.play.game import Game, Move
from kosolve.play.player import Forfeit
from kosolve.play.protocol import ExecBot

HOSTILE = Path(__file__).with_name("hostile_bot.py")
WAIT = 30.0
"""Seconds a test waits for what should take well under one, on a loaded machine."""


def command(mode: str, path: Path | None = None) -> str:
    """The command line of the hostile bot in ``mode``."""
    words = [sys.executable, str(HOSTILE), mode, *([] if path is None else [str(path)])]
    return shlex.join(words)


def spec(mode: str, path: Path | None = None) -> str:
    return f"exec:{command(mode, path)}"


def eventually(check: Any, what: str, timeout: float = WAIT) -> None:
    """Wait until ``check()`` is true, or fail saying ``what`` did not happen."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def pids(path: Path, least: int) -> list[int]:
    """The process ids the hostile bots wrote to ``path``, once there are ``least``."""
    eventually(lambda: path.exists() and len(path.read_text().split()) >= least, f"{least} processes started")
    return [int(word) for word in path.read_text().split()]


def alive(pid: int) -> bool:
    """Whether ``pid`` is a hostile bot's process still running (a zombie is
    not; a number taken by another program since is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        line = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z" and HOSTILE.name.encode() in line


def all_gone(path: Path) -> None:
    """Wait until no process whose id the hostile bots wrote to ``path`` runs."""
    eventually(lambda: not any(alive(pid) for pid in pids(path, 0)), f"no process left of {pids(path, 0)}")


@pytest.fixture
def arena_process(tmp_path: Path) -> Iterator[list[subprocess.Popen[bytes]]]:
    """Arenas started as programs of their own; any left running is killed."""
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait()


def start_arena(started: list[subprocess.Popen[bytes]], *args: str) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-m", "kosolve.cli", "arena", "-q", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=interruptible,
    )
    started.append(process)
    return process


def games(path: Path) -> list[dict[str, Any]]:
    return [game for record in records(path) for game in record["report"]["games"]]


# 1. Writes are bounded by the move time.


def test_a_bot_that_does_not_read_its_input_forfeits() -> None:
    bot = ExecBot(command("deaf"), move_time=0.3)
    reasons: list[str] = []

    def notify() -> None:
        try:
            for _ in range(1_000_000):
                bot.end(None)
        except Forfeit as forfeit:
            reasons.append(forfeit.reason)

    writer = threading.Thread(target=notify, daemon=True)
    writer.start()
    writer.join(WAIT)
    if writer.is_alive():
        assert bot.process is not None
        bot.process.kill()  # the write never ends: kosolve would hang here
        writer.join(WAIT)
    bot.close()
    assert reasons == ["did not read its input within 0.3 s"]


def test_a_bot_that_chatters_without_reading_forfeits_and_the_match_ends(
    tmp_path: Path, arena_process: list[subprocess.Popen[bytes]]
) -> None:
    out = tmp_path / "m.jsonl"
    arena = start_arena(arena_process, spec("chatter"), "random", "--deals", "2", "-o", str(out), "--jobs", "1")
    try:
        arena.wait(WAIT * 2)
    except subprocess.TimeoutExpired:
        pytest.fail("the arena hangs")
    # A bot just started may have printed one line by its first decision:
    # that is its answer, and what follows it forfeits its next game.
    forfeits = [game["forfeit"] for game in games(out) if game["forfeit"] is not None]
    assert forfeits
    # Status 1 when it forfeited every game, which depends on how fast it chatters.
    assert arena.returncode == (1 if len(forfeits) == len(games(out)) else 0)
    for forfeit in forfeits:
        assert forfeit["bot"] == spec("chatter")
        assert forfeit["reason"].startswith(("wrote what it was not asked for", "more than one line")), forfeit


def test_a_forfeit_is_the_bot_s_that_does_not_take_in_a_notice() -> None:
    class Deaf(RandomBot):
        def observe(self, move: Move) -> None:
            raise Forfeit("did not read its input within 1 s")

    game, forfeit = play_game(dealer_deal(1, 1), (RandomBot(), Deaf()), ("random", "deaf"), 1)
    assert forfeit == Forfeited(1, "deaf", "did not read its input within 1 s")
    assert len(game.moves) == 1


# 2. No notice names a card the seat could not see.


def seen(game: Game, seat: Seat) -> Hand:
    """The cards ``seat`` has seen by now: his own cards and discards, the
    other's tarocks laid away face up, the talon once exposed, the cards
    played, and the tarocks of the other's lay-away (face up)."""
    dealt = game.dealt
    cards = dealt.held(seat) | dealt.laid(seat) | dealt.laid(1 - seat) & TAROCKS
    if game.take is not None or game.phase == "take":
        cards |= mask_of(dealt.talon)
    if game.lay_away is not None:
        cards |= game.lay_away & TAROCKS
    if game.position is not None:
        cards |= mask_of(game.position.move_stack)
    return cards


def named(value: object) -> Iterator[str]:
    """Every card a JSON value names, at any depth (its keys are no cards)."""
    if isinstance(value, str) and value in CARD_NAMES:
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from named(item)
    elif isinstance(value, list):
        for item in value:
            yield from named(item)


def check_line(line: dict[str, Any], game: Game, seat: Seat) -> None:
    unseen = set(named(line)) - {card_name(card) for card in cards_of(seen(game, seat))}
    assert not unseen, f"{seat_name(seat)} is told of {sorted(unseen)}, unseen: {line}"


def check_game(lines: list[dict[str, Any]], played: Game, seat: Seat) -> int:
    """Check every line ``seat`` was told in ``played``, in order; the
    number of the other's lay-aways with cards face down from his hand."""
    replay = Game(played.dealt)
    told = iter(lines)
    assert next(told) == {"notice": "start", "seat": seat_name(seat), "seed": 1}
    hidden = 0
    for move in played.moves:
        if move.seat == seat:
            line = next(told)
            assert line["decision"] == move.kind and "legal" in line
            check_line(line, replay, seat)
            replay.choose(move.choice)
            continue
        before = seen(replay, seat)
        replay.choose(move.choice)
        line = next(told)
        assert line["notice"] == "move" and line["decision"] == move.kind and line["seat"] == seat_name(1 - seat)
        check_line(line, replay, seat)
        if move.kind == "lay_away":
            assert isinstance(move.option, int)
            assert "choice" not in line  # the index would tell the lay-away
            hidden += bool(move.option & ~TAROCKS & ~before)
    assert next(told) == {"notice": "end", "totals": played.totals_json()}
    assert next(told, None) is None
    return hidden


def test_no_notice_names_a_card_its_seat_could_not_see(tmp_path: Path) -> None:
    log = tmp_path / "lines.jsonl"
    recorder = ExecBot(command("record", log))
    hidden = 0
    try:
        for number in range(1, 7):
            dealt = dealer_deal(5, number)
            for seat in SEATS:
                log.write_text("")
                bots = (recorder, RandomBot()) if seat == 0 else (RandomBot(), recorder)
                game, forfeit = play_game(dealt, bots, ("recorder", "random"), 1)
                assert forfeit is None
                eventually(lambda: '"notice": "end"' in log.read_text(), "the end notice logged")
                lines = [json.loads(line) for line in log.read_text().splitlines()]
                hidden += check_game(lines, game, seat)
    finally:
        recorder.close()
    # The other laid away cards of his hand face down, and the seat was not told them.
    assert hidden >= 2


def test_the_seed_a_bot_is_given_does_not_deal_the_deal(in_tmp_path: Path) -> None:
    log = in_tmp_path / "lines.jsonl"
    assert (
        run("arena", spec("record", log), "random", "--deals", "3", "--seed", "4", "-o", "m.jsonl", "-q").exit_code == 0
    )
    seeds = {json.loads(line)["seed"] for line in log.read_text().splitlines() if '"notice": "start"' in line}
    assert len(seeds) == 3
    deals = {dealer_deal(4, number) for number in range(1, 4)}
    assert not deals & {deal_as_dealt(random.Random(seed)) for seed in seeds}


def test_a_match_without_a_seed_draws_one_nobody_knows_and_keeps_it(in_tmp_path: Path) -> None:
    args = ["arena", "-q", "random", "random", "--deals", "2", "--jobs", "1"]
    assert run(*args, "-o", "a.jsonl").exit_code == 0
    assert run(*args, "-o", "b.jsonl").exit_code == 0
    seeds = [
        json.loads((in_tmp_path / name).read_text().splitlines()[0])["question"]["seed"]
        for name in ("a.jsonl", "b.jsonl")
    ]
    # Not the default a bot could guess, and another for another match.
    assert 0 not in seeds and seeds[0] != seeds[1]
    # The same command again resumes the match with its own seed.
    more = run(*args[:-4], "--deals", "3", "--jobs", "1", "-o", "a.jsonl")
    assert more.exit_code == 0, more.output
    assert len(records(in_tmp_path / "a.jsonl")) == 3


def test_a_bot_that_exits_after_each_game_forfeits_none_however_late_its_exit_is_seen(tmp_path: Path) -> None:
    # Its end, noticed at the next game's start, its first answer or not at
    # all, must not decide the match: a fresh one takes each game.
    matches = []
    for run_number in range(3):
        out = str(tmp_path / f"m{run_number}.jsonl")
        result = run("arena", "-q", spec("one-game"), "random", "--deals", "4", "--seed", "2", "-o", out, "--jobs", "1")
        assert result.exit_code == 0, result.output
        assert not [game["forfeit"] for game in games(Path(out)) if game["forfeit"]]
        matches.append([record["report"] for record in records(Path(out))])
    assert matches[0] == matches[1] == matches[2]


# 4. No bot process outlives its forfeit, the match, or kosolve.


def test_a_forfeit_stops_what_the_bot_started(tmp_path: Path) -> None:
    started = tmp_path / "pids"
    bot = ExecBot(command("garbage", started))
    try:
        bot.start(1, 0)
        pids(started, 2)
        with pytest.raises(Forfeit, match="not JSON"):
            bot.decide(Game(dealer_deal(1, 1)).decision())
        all_gone(started)
    finally:
        bot.close()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_no_bot_outlives_the_match(tmp_path: Path, jobs: str) -> None:
    started = tmp_path / "pids"
    out = str(tmp_path / "m.jsonl")
    result = run("arena", "-q", spec("lingering", started), "random", "--deals", "2", "-o", out, "--jobs", jobs)
    assert result.exit_code == 0, result.output
    # The bot's child may have been stopped before it wrote its id.
    pids(started, 1)
    all_gone(started)


@pytest.mark.parametrize(("jobs", "how"), [("1", signal.SIGTERM), ("1", signal.SIGKILL), ("2", signal.SIGKILL)])
def test_no_bot_outlives_kosolve_killed(
    tmp_path: Path, arena_process: list[subprocess.Popen[bytes]], jobs: str, how: signal.Signals
) -> None:
    started, out = tmp_path / "pids", tmp_path / "m.jsonl"
    bot = spec("lingering", started)
    arena = start_arena(arena_process, bot, "random", "--deals", "500", "-o", str(out), "--jobs", jobs)
    eventually(lambda: out.exists() and out.read_bytes().count(b"\n") >= 2, "a deal played")
    pids(started, 2 * int(jobs))
    arena.send_signal(how)
    arena.wait(WAIT)
    assert arena.returncode == (-signal.SIGKILL if how == signal.SIGKILL else 130)
    all_gone(started)


def test_a_bot_starts_with_ctrl_c_and_sigterm_at_their_defaults(tmp_path: Path) -> None:
    told = tmp_path / "signals"
    bot = ExecBot(command("signals", told))
    # As in a worker of --jobs, which ignores both.
    saved = {signum: signal.signal(signum, signal.SIG_IGN) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        bot.start(1, 0)
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)
    try:
        eventually(lambda: told.exists() and told.read_text().endswith("\n"), "the bot started")
        assert json.loads(told.read_text()) == {"SIGINT": False, "SIGTERM": False}
    finally:
        bot.close()


# 10. Answers that are more, or deeper, than one line of JSON.


def test_a_bot_that_answers_twice_forfeits(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    result = run("arena", "-q", spec("twice"), "random", "--deals", "2", "-o", str(out), "--jobs", "1")
    # Every game forfeited: an error, exit status 1, after the summary.
    assert result.exit_code == 1 and "forfeited all 4 games it played" in result.stderr, result.output
    for game in games(out):
        assert game["forfeit"]["bot"] == spec("twice")
        assert game["forfeit"]["reason"].startswith("more than one line to one decision"), game["forfeit"]


def test_an_answer_nested_too_deep_forfeits_and_stops_the_bot() -> None:
    bot = ExecBot(command("nested"))
    try:
        bot.start(1, 0)
        with pytest.raises(Forfeit, match=r"not JSON \(nested too deep\): b'\[\[\["):
            bot.decide(Game(dealer_deal(1, 1)).decision())
        assert bot.process is None
    finally:
        bot.close()


# 5. A match over changed deals is not resumed.


def test_a_match_over_changed_deals_is_not_resumed(in_tmp_path: Path) -> None:
    lines = write_deals(in_tmp_path / "more.jsonl", 1, 5, "--dealt")
    (in_tmp_path / "deals.jsonl").write_text("".join(f"{line}\n" for line in lines[:3]))
    args = ["arena", "-q", "random", "random", "--deals", "deals.jsonl", "-o", "m.jsonl", "--jobs", "1"]
    assert run(*args).exit_code == 0
    # More deals after the same ones: resumed.
    (in_tmp_path / "deals.jsonl").write_text("".join(f"{line}\n" for line in lines[:4]))
    assert run(*args).exit_code == 0 and len(records(in_tmp_path / "m.jsonl")) == 4
    # Deal 2 another: refused, the file as it was.
    before = (in_tmp_path / "m.jsonl").read_bytes()
    changed = [lines[0], lines[4], *lines[2:4]]
    (in_tmp_path / "deals.jsonl").write_text("".join(f"{line}\n" for line in changed))
    refused = run(*args)
    assert refused.exit_code == 2 and refused.stdout == ""
    assert refused.stderr.strip().splitlines() == [
        "Error: m.jsonl: the results of other deals (deal 2 of deals.jsonl is not the deal played there):"
        " give another -o"
    ]
    assert (in_tmp_path / "m.jsonl").read_bytes() == before
    # Fewer deals than it finished: refused too, or its summary would count them.
    (in_tmp_path / "deals.jsonl").write_text("".join(f"{line}\n" for line in lines[:2]))
    refused = run(*args)
    assert refused.exit_code == 2 and refused.stdout == ""
    assert refused.stderr.strip().splitlines() == [
        "Error: m.jsonl: the results of deal 4, but deals.jsonl gives 2: give at least as many deals, or another -o"
    ]
    assert (in_tmp_path / "m.jsonl").read_bytes() == before


# 10. Bad input is one line, exit status 2.


def test_a_deals_file_without_line_breaks_is_refused_not_held(
    in_tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A line as long as a deal file may be, made small: /dev/zero is one such line.
    monkeypatch.setattr("kosolve.cli.arena.MAX_FILE_BYTES", 1000)
    (in_tmp_path / "endless.jsonl").write_bytes(b" " * 5000)
    result = run("arena", "-q", "random", "random", "--deals", "endless.jsonl", "-o", "m.jsonl")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "Error: --deals: endless.jsonl: line 1: more than 0 MB, too large for a deal"
    ]


@pytest.mark.parametrize(
    ("args", "content", "message"),
    [
        (["--deals", "²"], None, "--deals: ²: No such file or directory"),
        (["--deals", "deep.jsonl"], b"[" * 100_000, "--deals: deep.jsonl: line 1: broken JSON: nested too deep"),
        (["--deals", "deep.jsonl"], b"\xff\n", "--deals: deep.jsonl: not UTF-8 text"),
        (["exec:'unbalanced"], None, '"exec:\'unbalanced": no closing quotation'),
    ],
    ids=["non-ASCII digit", "nested too deep", "not UTF-8", "unbalanced quote"],
)
def test_bad_input_is_one_line_exit_2(in_tmp_path: Path, args: list[str], content: bytes | None, message: str) -> None:
    if content is not None:
        (in_tmp_path / "deep.jsonl").write_bytes(content)
    bots = args[:1] if args[0].startswith("exec:") else ["random"]
    options = args[1:] if args[0].startswith("exec:") else args
    result = run("arena", "-q", *bots, "random", *options, "-o", "m.jsonl")
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1
    assert message in result.stderr, result.stderr
    assert not (in_tmp_path / "m.jsonl").exists()


def test_no_bot_outlives_its_chunk_on_a_cluster(tmp_path: Path) -> None:
    started = tmp_path / "pids"
    match = Match(spec("lingering", started), "random")
    lines = play_chunk([(match, dealer_deal(0, number), number) for number in (1, 2)], 8)
    assert [line["line"] for line in lines] == [1, 2]
    pids(started, 1)
    all_gone(started)
