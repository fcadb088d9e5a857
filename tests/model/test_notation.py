"""The one-line notation: every deal file round-trips (the examples, deals
and deals as dealt of every discard variant, announcements with timing
and Kontra); a line gives the deal file's JSON object and is read under
the rules given; a bad line is one message naming the part; the command
line prints it and solves it as it solves the file."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from support import EXAMPLES, without_stats
from support.cli import run

from kosolve.dealing import deal_bid, deal_game
from kosolve.model.announcements import Announcement
from kosolve.model.deal import Deal, deal_to_json
from kosolve.model.dealt_file import DealtFile, dealt_to_json
from kosolve.model.files import load_file
from kosolve.model.game import Rules
from kosolve.model.jsonfile import FileError
from kosolve.model.notation import DEALT_TAG, NotationError, notation_json, parse_notation, to_notation

FILES = sorted(EXAMPLES.glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_example_round_trips(path: object) -> None:
    read = load_file(path)  # type: ignore[arg-type]
    text = to_notation(read)  # type: ignore[arg-type]
    assert "\n" not in text and " " not in text
    assert parse_notation(text) == read


@pytest.mark.parametrize("discard", ["classic", "medium", "easy", "tactical"])
def test_dealt_deals_round_trip(discard: str) -> None:
    rules = Rules(discard=discard)
    rng = random.Random(discard)
    for _ in range(25):
        file = deal_bid(rng, discard=discard)
        assert parse_notation(to_notation(file), rules) == file
        deal = file.play_deal()
        assert parse_notation(to_notation(deal), rules) == deal


def test_announcements_and_play_round_trip() -> None:
    deal = deal_game(random.Random(4))
    position = deal.position()
    for _ in range(7):
        position.push(sorted(position.legal_moves)[0])
    announced = (
        Announcement(deal.declarer, "pagat", "before", kontra=True),
        Announcement(deal.declarer, "valat", "after"),
    )
    changed = replace(deal, announcements=announced, play=tuple(position.move_stack))
    text = to_notation(changed)
    assert "+pagat+before+k" in text
    assert parse_notation(text) == changed


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("fen:abc", "expected a line starting kd1: or kt1:"),
        ("kd1:dreiblatt", "9 parts"),
        ("kd1:dreiblatt:forehand:forehand:HK:-:-::", "hands: expected two seats"),
        ("kd1:dreiblatt:forehand:forehand:HK/HQ:-:-:forehand+pagat:", r"expected BY\+WHAT\+WHEN"),
        ("kd1:quadriblatt:forehand:forehand:HK/HQ:-:-::", "contract"),
        ("kd1:dreiblatt:forehand:forehand:HK/Joker:-:-::", "Joker"),
    ],
)
def test_a_bad_line_is_one_message(text: str, message: str) -> None:
    with pytest.raises(FileError, match=message) as raised:
        parse_notation(text)
    assert "\n" not in str(raised.value) and str(raised.value).startswith("notation")
    assert issubclass(NotationError, FileError)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_a_line_gives_the_files_json(path: Path) -> None:
    """What a page loads from a line is the deal file's JSON object, as
    the file's own writer writes it."""
    read = load_file(path)
    assert isinstance(read, Deal | DealtFile)
    expected = deal_to_json(read) if isinstance(read, Deal) else dealt_to_json(read)
    assert notation_json(to_notation(read)) == expected
    assert json.loads(json.dumps(expected)) == expected


def test_a_line_is_read_under_the_rules_given() -> None:
    """A deal as dealt under the easy discard is a line like any other, and
    read under the classic rules it is refused, naming the line."""
    file = deal_bid(random.Random(3), discard="easy")
    text = to_notation(file)
    assert text.startswith(DEALT_TAG + ":")
    assert parse_notation(text, Rules(discard="easy")) == file
    assert to_notation(parse_notation(text, Rules(discard="easy"))) == text
    with pytest.raises(FileError, match=r"^notation"):
        parse_notation(text)


def test_the_command_line_prints_and_reads_it() -> None:
    """The command line's one check of ``--notation`` and ``--position``
    (tests/cli has none): the line printed, and solved as the file."""
    path = str(EXAMPLES / "played.json")
    text = run(path, "--notation").stdout.strip()
    assert text == to_notation(load_file(path))  # type: ignore[arg-type]
    from_file = without_stats(json.loads(run(path, "--json", "-q").stdout))
    from_line = without_stats(json.loads(run("--position", text, "--json", "-q").stdout))
    assert from_line == {**from_file, "file": "position"}
