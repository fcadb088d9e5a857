"""A results file as rows: the columns of a real batch and of an arena
match, each seat's cards joined from the deals file (the same values the
condition language reads), a deals file of other deals refused, and the
DataFrame of the rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import DOCS
from support.cli import run

from kosolve.dealing.where import ATTRIBUTES, Facts, where
from kosolve.model.files import load_deal, load_dealt_file
from kosolve.stats import frame, read_rows
from kosolve.stats.rows import FACT_SEATS, FACTS, StatsError, fact_columns, odds_row, review_row

ANALYSE: tuple[str, ...] = ("line", "contract", "declarer", "to_move", "thirds", "points", "won")
"""The columns of every analyse batch's rows, in order (docs/statistics.md)."""
ARENA: tuple[str, ...] = (
    "line",
    "a.points",
    "b.points",
    "difference",
    "a.won",
    "drawn",
    *(f"game{n}.{name}" for n in (1, 2) for name in ("contract", "declarer", "forfeit")),
)
EXCHANGE: tuple[str, ...] = (
    "line",
    "contract",
    "declarer",
    "thirds",
    "points",
    "won",
    "valat",
    "game_points",
    "exchange_cost",
    "bid_cost",
)
GOALS = ("pagat", "uhu", "pelikan", "quapil", "valat")


def test_a_batch_with_feasibility_has_each_goal_by_role(solved_batch: tuple[Path, Path]) -> None:
    results, _ = solved_batch
    rows = read_rows(str(results))
    assert rows.kind == "analyse" and len(rows.rows) == 8
    assert rows.columns[: len(ANALYSE)] == ANALYSE
    for role in ("declarer", "defender"):
        assert {f"makeable.{role}.{goal}" for goal in GOALS} <= set(rows.columns)
    records = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()[1:]]
    for record in records:
        row = rows.rows[record["line"] - 1]
        report = record["report"]
        assert (row["points"], row["won"]) == (report["value"]["points"], report["result"] == "won")
        for seat, goals in report["feasible"].items():
            role = "declarer" if seat == report["declarer"] else "defender"
            assert {goal: row[f"makeable.{role}.{goal}"] for goal in goals} == goals


def test_the_deals_facts_are_those_the_condition_language_reads(solved_batch: tuple[Path, Path]) -> None:
    results, deals = solved_batch
    rows = read_rows(str(results), str(deals))
    assert set(FACTS) == set(ATTRIBUTES) - {"hand"}
    assert {f"{seat}.{name}" for seat in FACT_SEATS for name in FACTS} <= set(rows.columns)
    for number, line in enumerate(deals.read_text(encoding="utf-8").splitlines(), start=1):
        path = deals.parent / f"deal{number}.json"
        path.write_text(line, encoding="utf-8")
        facts = Facts.of_deal(load_deal(path))
        row = rows.rows[number - 1]
        assert fact_columns(facts).items() <= row.items()
        for seat in FACT_SEATS:
            for name in FACTS:
                assert where(f"{seat}.{name} == {row[f'{seat}.{name}']!r}").holds(facts)


def test_where_keeps_the_deals_that_meet_it(solved_batch: tuple[Path, Path]) -> None:
    results, deals = solved_batch
    every = read_rows(str(results), str(deals))
    kept = read_rows(str(results), str(deals), "declarer.tarocks >= 11")
    assert [row["line"] for row in kept.rows] == [
        row["line"] for row in every.rows if isinstance(t := row["declarer.tarocks"], int) and t >= 11
    ]
    assert 0 < len(kept.rows) < len(every.rows)


def test_deals_of_another_file_are_refused_naming_both(solved_batch: tuple[Path, Path], tmp_path: Path) -> None:
    results, deals = solved_batch
    lines = deals.read_text(encoding="utf-8").splitlines()
    other = tmp_path / "other.jsonl"
    other.write_text("\n".join([lines[0], lines[2], *lines[2:]]) + "\n", encoding="utf-8")
    with pytest.raises(StatsError, match=r"results.jsonl: line 2 of .*other.jsonl is not the deal answered there"):
        read_rows(str(results), str(other))
    short = tmp_path / "short.jsonl"
    short.write_text("\n".join(lines[:5]) + "\n", encoding="utf-8")
    with pytest.raises(StatsError, match=r"results.jsonl: answers deal 6, which .*short.jsonl does not have"):
        read_rows(str(results), str(short))


def test_a_deals_file_read_with_crlf_line_ends_still_joins(solved_batch: tuple[Path, Path], tmp_path: Path) -> None:
    results, deals = solved_batch
    crlf = tmp_path / "crlf.jsonl"
    crlf.write_bytes(deals.read_bytes().replace(b"\n", b"\r\n"))
    assert len(read_rows(str(results), str(crlf)).rows) == 8


def test_an_arena_match_is_a_row_a_deal(played_match: Path) -> None:
    rows = read_rows(str(played_match))
    assert rows.kind == "arena" and rows.columns == ARENA
    records = [json.loads(line) for line in played_match.read_text(encoding="utf-8").splitlines()[1:]]
    assert [row["line"] for row in rows.rows] == sorted(record["line"] for record in records)
    for record in records:
        row = rows.rows[record["line"] - 1]
        points = record["report"]["points"]
        assert (row["a.points"], row["b.points"]) == (points["a"], points["b"])
        assert row["difference"] == points["a"] - points["b"]
        first, second = record["report"]["games"]
        # Game 1 has A as the forehand, game 2 B.
        assert row["game1.declarer"] == {"forehand": "a", "dealer": "b", None: None}[first["declarer"]]
        assert row["game2.declarer"] == {"forehand": "b", "dealer": "a", None: None}[second["declarer"]]
        assert row["game1.contract"] == first["contract"]


def test_the_frame_has_the_documented_columns_and_a_row_a_deal(solved_batch: tuple[Path, Path]) -> None:
    pytest.importorskip("pandas")
    results, deals = solved_batch
    table = frame(results, deals)  # paths as Path objects too
    rows = read_rows(str(results), str(deals))
    assert list(table.columns) == list(rows.columns) and len(table) == 8
    assert tuple(table.columns[: len(ANALYSE)]) == ANALYSE
    assert str(table["won"].dtype) == "boolean" and str(table["points"].dtype) == "Int64"
    assert str(table["declarer.points"].dtype) == "float64" and str(table["contract"].dtype) == "string"
    assert table["line"].tolist() == list(range(1, 9))
    documented = (DOCS / "statistics.md").read_text(encoding="utf-8")
    for column in (*ANALYSE, *ARENA, *EXCHANGE):
        assert f"`{column}`" in documented, column


def test_deals_as_dealt_join_an_exchange_batch(tmp_path: Path) -> None:
    """A deal as dealt with its bid: its hands at trick 1, through the model's reader."""
    deals, results = tmp_path / "dealt.jsonl", tmp_path / "tables.jsonl"
    deals.write_text(run("deal", "--seed", "3", "-n", "3", "--dealt").stdout, encoding="utf-8")
    assert run("batch", str(deals), "-o", str(results), "--exchange", "--jobs", "1", "-q").exit_code == 0
    rows = read_rows(str(results), str(deals))
    assert rows.kind == "exchange"
    assert rows.columns[:10] == EXCHANGE
    for number, line in enumerate(deals.read_text(encoding="utf-8").splitlines(), start=1):
        path = tmp_path / f"deal{number}.json"
        path.write_text(line, encoding="utf-8")
        assert fact_columns(Facts.of(load_dealt_file(path))).items() <= rows.rows[number - 1].items()


def test_only_the_facts_asked_for_are_read(solved_batch: tuple[Path, Path]) -> None:
    results, deals = solved_batch
    rows = read_rows(str(results), str(deals), facts=["declarer.tarocks", "points"])
    assert [column for column in rows.columns if "." in column and column.split(".")[0] in FACT_SEATS] == [
        "declarer.tarocks"
    ]
    every = read_rows(str(results), str(deals))
    assert [row["declarer.tarocks"] for row in rows.rows] == [row["declarer.tarocks"] for row in every.rows]


def test_odds_and_reviews_have_their_figures() -> None:
    odds = {"view": "dealer", "to_move": "dealer", "worlds": 120, "samples": 100, "exact": False,
            "mean_thirds": 110.5, "mean_points": 36.8, "p_win": 0.55,
            "feasible": {"forehand": {"pagat": 0.25}, "dealer": {"valat": 0.0}}}  # fmt: skip
    row = odds_row(odds)
    assert (row["p_win"], row["makeable.forehand.pagat"], row["makeable.dealer.valat"]) == (0.55, 0.25, 0.0)
    player = {
        "judged": 10,
        "mistake": 2,
        "knew_accuracy": 0.8,
        "dd_accuracy": 0.7,
        "knew_loss_net": 3,
        "dd_loss_net": 5,
    }
    row = review_row({"by": "net", "players": {"forehand": player, "dealer": {**player, "mistake": 0}}})
    assert (row["forehand.mistake"], row["dealer.mistake"], row["forehand.knew_loss"], row["dealer.dd_loss"]) == (
        2,
        0,
        3,
        5,
    )
