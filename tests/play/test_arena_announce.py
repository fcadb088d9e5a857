"""``kosolve arena`` under the whole game (issue 30): the rule switches,
``--defender-announcements`` and ``--kontra`` among them, recorded in the
results file's header and a resume under other switches refused; the
summary's announcements by kind, Kontras and game points by source equal
a count made here, straight from the records, and the sources add up to
each bot's total; ``--summary-only`` prints the summary of a file."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from support.batches import records
from support.cli import run

from kosolve.model.announcements import ANNOUNCEMENTS
from kosolve.model.game import Rules

SWITCHES = ("--defender-announcements", "--kontra")
SIDES = ("a", "b")
SEATS = ("forehand", "dealer")
HELD = ("trull", "four_kings", "four_birds")
# ``random`` announces and says Kontra at random; against ``heuristic``,
# which plays otherwise, the bots' columns differ.  The seeds give settlement
# items of every kind (checked below).
PAIRINGS = {"random-random": ("random", "random", "1"), "random-heuristic": ("random", "heuristic", "4")}


def arena(*args: str) -> dict[str, Any]:
    result = run("arena", "-q", "--json", *args)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.fixture(scope="module")
def matches(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, dict[str, Any]]]:
    """Each pairing's results file and summary: 8 deals, both switches on."""
    folder = tmp_path_factory.mktemp("arena")
    found = {}
    for name, (a, b, seed) in PAIRINGS.items():
        out = folder / f"{name}.jsonl"
        summary = arena(a, b, "--deals", "8", "--seed", seed, "-o", str(out), "--jobs", "1", *SWITCHES)
        found[name] = (out, summary)
    return found


def counted(path: Path) -> dict[str, dict[str, Any]]:
    """Each bot's announcements by kind, Kontras and game points by
    source, counted straight from the records: the first game of a deal has
    A as the forehand, the second B; a settlement item says who got the
    points and (``why``) what for."""
    found: dict[str, dict[str, Any]] = {
        side: {"announcements": Counter(), "kontras": Counter(), "points": Counter(), "total": 0} for side in SIDES
    }
    for record in records(path):
        report = record["report"]
        for side in SIDES:
            found[side]["total"] += report["points"][side]
        for order, game in zip((SIDES, SIDES[::-1]), report["games"], strict=True):
            side_of = dict(zip(SEATS, order, strict=True))
            items = game["settlement"] or []
            if game["forfeit"] is not None:
                items = []
                for seat, points in game["points"].items():
                    found[side_of[seat]]["points"]["forfeit"] += points
            to = {item["name"]: item["to"] for item in items}
            for announcement in game["announcements"]:
                what, by = announcement["what"], announcement["by"]
                mine = found[side_of[by]]["announcements"]
                mine[what, "announced"] += 1
                if what in to:
                    mine[what, "made" if to[what] == by else "failed"] += 1
                if announcement.get("kontra"):
                    other = next(seat for seat in SEATS if seat != by)
                    found[side_of[other]]["kontras"]["said"] += 1
                    found[side_of[other]]["kontras"]["paid_off"] += to.get(what) == other
            for item in items:
                if item["name"] in ("game", "valat"):
                    source = "game"
                elif item["name"] in HELD:
                    source = "held"
                else:
                    source = "announced" if " announced" in item["why"] else "silent"
                for seat in SEATS:
                    found[side_of[seat]]["points"][source] += item["points"] if seat == item["to"] else -item["points"]
    return found


@pytest.mark.parametrize("pairing", list(PAIRINGS))
def test_the_summary_counts_what_the_records_hold(
    matches: dict[str, tuple[Path, dict[str, Any]]], pairing: str
) -> None:
    path, summary = matches[pairing]
    direct = counted(path)
    assert summary["format"] == 1
    for side in SIDES:
        bot, mine = summary[side], direct[side]
        assert list(bot["announcements"]) == list(ANNOUNCEMENTS)
        for kind, counts in bot["announcements"].items():
            assert counts == {key: mine["announcements"][kind, key] for key in ("announced", "made", "failed")}
        assert bot["kontras"] == {"said": mine["kontras"]["said"], "paid_off": mine["kontras"]["paid_off"]}
        sources = ("game", "announced", "silent", "held", "forfeit")
        assert bot["points"] == {"total": mine["total"], **{source: mine["points"][source] for source in sources}}


def test_the_matches_hold_items_of_every_kind(matches: dict[str, tuple[Path, dict[str, Any]]]) -> None:
    """What the counting test stands on: every kind announced, made and
    failed announcements, Kontras that paid off and that did not, the
    defender announcing, and settlement items of every source but the
    forfeits, a Valat among them."""
    announced: Counter[tuple[str, str]] = Counter()
    kontras: Counter[str] = Counter()
    sources: set[str] = set()
    by_defender = 0
    for path, summary in matches.values():
        for side in SIDES:
            for kind, counts in summary[side]["announcements"].items():
                announced.update({(kind, key): value for key, value in counts.items()})
            kontras.update(summary[side]["kontras"])
        for record in records(path):
            for game in record["report"]["games"]:
                by_defender += sum(a["by"] != game["declarer"] for a in game["announcements"])
                for item in game["settlement"] or ():
                    name, why = item["name"], item["why"]
                    sources.add(
                        name if name in ("game", "valat") else "held" if name in HELD else why.split()[1].rstrip(",")
                    )
    assert all(announced[kind, "announced"] for kind in ANNOUNCEMENTS)
    assert announced.total() and sum(announced[kind, "made"] for kind in ANNOUNCEMENTS)
    assert 0 < kontras["paid_off"] < kontras["said"]
    assert by_defender > 0
    assert sources == {"game", "valat", "announced", "silent", "held"}
    # The bots' columns differ where the bots do.
    a, b = (matches["random-heuristic"][1][side] for side in SIDES)
    assert a["announcements"] != b["announcements"] and a["points"] != b["points"]


def test_the_sources_add_up_to_each_bots_total(matches: dict[str, tuple[Path, dict[str, Any]]]) -> None:
    for _, summary in matches.values():
        for side in SIDES:
            points = dict(summary[side]["points"])
            total = points.pop("total")
            assert sum(points.values()) == total == round(summary[side]["mean_points"] * summary["deals"])
        assert summary["a"]["points"]["total"] == -summary["b"]["points"]["total"]


def test_a_forfeit_scores_as_a_forfeit(tmp_path: Path) -> None:
    """A bot that announces at random and forfeits at its first card: its
    announcements are counted, none made or failed, and every game point
    is a forfeit's."""
    script = tmp_path / "bot.py"
    script.write_text(
        "import json, random, sys\n"
        "rng = random.Random(2)\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if 'legal' in message:\n"
        "        if message['decision'] == 'play':\n"
        "            print('I resign', flush=True)\n"
        "        else:\n"
        "            print(json.dumps({'choice': rng.randrange(len(message['legal']))}), flush=True)\n"
    )
    out = tmp_path / "m.jsonl"
    spec = f"exec:{sys.executable} {script}"
    summary = arena(spec, "random", "--deals", "3", "--seed", "1", "-o", str(out), "--jobs", "1", *SWITCHES)
    direct = counted(out)
    forfeits = summary["a"]["forfeits"]
    assert forfeits > 0 and summary["a"]["points"]["forfeit"] == -24 * forfeits
    for side in SIDES:
        points = dict(summary[side]["points"])
        assert points.pop("total") == sum(points.values()) == direct[side]["total"]
        assert points == {source: direct[side]["points"][source] for source in points}


def test_a_forfeit_after_the_last_card_scores_as_a_forfeit(matches: dict[str, tuple[Path, dict[str, Any]]]) -> None:
    """A game forfeited once over (a bot that does not take in the last
    card) keeps its settlement in the record; the forfeit scores instead."""
    path, _ = matches["random-heuristic"]
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    report = lines[1]["report"]
    game = report["games"][0]
    assert game["settlement"]
    game["forfeit"] = {"seat": "dealer", "bot": "heuristic", "reason": "the bot exited"}
    game["points"] = {"forehand": 24, "dealer": -24}
    report["points"] = {
        "a": 24 + report["games"][1]["points"]["dealer"],
        "b": -24 + report["games"][1]["points"]["forehand"],
    }
    path = path.with_name("forfeited.jsonl")
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    summary = run("arena", "--summary-only", "-o", str(path), "--json")
    assert summary.exit_code == 0, summary.output
    direct = counted(path)
    for side in SIDES:
        points = dict(json.loads(summary.stdout)[side]["points"])
        assert points.pop("total") == sum(points.values()) == direct[side]["total"]
        assert points == {source: direct[side]["points"][source] for source in points}
    assert points["forfeit"] == -24


@pytest.mark.parametrize("pairing", list(PAIRINGS))
def test_the_text_summary_has_the_table(matches: dict[str, tuple[Path, dict[str, Any]]], pairing: str) -> None:
    path, summary = matches[pairing]
    result = run("arena", "--summary-only", "-o", str(path))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"{summary['deals']} deals, each played twice with the seats swapped"
    rows = (re.fullmatch(r"\s+(.*?)\s{2,}(\S+)\s+(\S+)", line) for line in lines[4:])
    table = {row[1]: [row[2], row[3]] for row in rows if row}
    bots = (summary["a"], summary["b"])
    assert table["announced/made/failed"] == ["A", "B"]
    shown = [kind for kind in ANNOUNCEMENTS if any(bot["announcements"][kind]["announced"] for bot in bots)]
    assert shown and all(kind.replace("_", " ") in table for kind in shown)
    for kind in shown:
        cells = ["{announced}/{made}/{failed}".format(**bot["announcements"][kind]) for bot in bots]
        assert table[kind.replace("_", " ")] == cells
    assert table["Kontras said/paid off"] == ["{said}/{paid_off}".format(**bot["kontras"]) for bot in bots]
    for source, label in (
        ("game", "game item (contract, Valat)"),
        ("announced", "announced bonuses"),
        ("total", "total"),
    ):
        assert table[label] == [f"{bot['points'][source]:+d}" if bot["points"][source] else "0" for bot in bots]


def test_summary_only_prints_the_matchs_summary(matches: dict[str, tuple[Path, dict[str, Any]]]) -> None:
    path, summary = matches["random-heuristic"]
    before = path.read_bytes()
    assert run("arena", "--summary-only", "-o", str(path), "--json").stdout.strip() == json.dumps(
        {"results": str(path), **{k: v for k, v in summary.items() if k != "results"}}
    )
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["random", "--summary-only", "-o", "m.jsonl"], "give no bots"),
        (["--summary-only", "-o", "missing.jsonl"], "missing.jsonl: no such results file"),
        (["random", "-o", "m.jsonl"], "Missing argument 'B'"),
    ],
)
def test_summary_only_refusals_are_one_line(in_tmp_path: Path, args: list[str], message: str) -> None:
    result = run("arena", "-q", *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_the_header_records_every_rule_option(matches: dict[str, tuple[Path, dict[str, Any]]]) -> None:
    path, _ = matches["random-random"]
    header = json.loads(path.read_text().splitlines()[0])["question"]
    assert header["kind"] == "arena"
    assert set(header["rules"]) == {option.name for option in fields(Rules)}
    assert header["rules"]["defender_announcements"] is True and header["rules"]["kontra"] is True


@pytest.mark.parametrize("dropped", SWITCHES)
def test_a_resume_under_other_switches_is_refused(
    matches: dict[str, tuple[Path, dict[str, Any]]], dropped: str
) -> None:
    path, _ = matches["random-random"]
    before = path.read_bytes()
    others = [switch for switch in SWITCHES if switch != dropped]
    result = run("arena", "-q", "random", "random", "--deals", "9", "-o", str(path), *others)
    assert result.exit_code == 2, result.output
    [line] = result.stderr.strip().splitlines()
    option = dropped.removeprefix("--").replace("-", "_")
    assert f"rules.{option}: true in the file, false now" in line and "another question" in line
    assert path.read_bytes() == before
