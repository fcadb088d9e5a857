"""The figures of ``kosolve stats`` against a table computed by hand on a
small results file written here: counts, means with Student's t
intervals, shares with Wilson's intervals, bins, the order of groups."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from kosolve.stats.figures import Key, mean_interval, share_interval, t975, tabulate
from kosolve.stats.output import to_csv, to_text
from kosolve.stats.rows import StatsError, read_rows

HEADER = {"batch_format": 2, "question": {"kind": "analyse", "options": {}, "samples": 0, "seed": 0}}
DEALS = [
    # contract, declarer, points, result, whether the declarer can force the Valat
    ("dreiblatt", "forehand", 30, "lost", False),
    ("dreiblatt", "dealer", 40, "won", False),
    ("dreiblatt", "forehand", 50, "won", True),
    ("solo", "dealer", 20, "lost", False),
    ("solo", "forehand", 60, "won", True),
]


def small_file(folder: Path) -> Path:
    """Five answered deals and one error record, written in the finishing order 5, 1, ..."""
    lines = [HEADER]
    for number, (contract, declarer, points, result, valat) in enumerate(DEALS, start=1):
        report = {
            "contract": contract,
            "declarer": declarer,
            "to_move": "forehand",
            "value": {"thirds": 3 * points, "points": points},
            "result": result,
            "feasible": {
                declarer: {"valat": valat, "pagat": False},
                "dealer" if declarer == "forehand" else "forehand": {"valat": False},
            },
            "stats": {"ms": 1.0},
        }
        lines.append({"line": number, "sha256": "00", "report": report})
    lines.insert(1, lines.pop())
    lines.append({"line": 6, "sha256": "00", "error": "line 6: hands: unequal hands"})
    path = folder / "results.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


# Worked by hand: dreiblatt's points 30, 40, 50 have the mean 40 and the
# standard deviation 10; with t(2) = 4.302652729749 the half-width is
# 4.302652729749 * 10 / sqrt(3) = 24.8413771175.  Solo's 20 and 60: mean
# 40, sd 20 * sqrt(2), half 12.706204736174 * 20 = 254.1240947235.  All
# five: mean 40, sd sqrt(250), half 2.776445105198 * sqrt(50) = 19.6324316148.
# Wilson (z = 1.959963984540054): 2 of 3 is 0.2076596008 to 0.9385080553,
# 1 of 3 0.0614919447 to 0.7923403992, 1 of 2 0.0945312057 to 0.9054687943,
# 3 of 5 0.2307242813 to 0.8823792258, 2 of 5 0.1176207742 to 0.7692757187.
EXPECTED: dict[tuple[object, ...], tuple[int, tuple[float, ...], tuple[float, ...]]] = {
    ("dreiblatt",): (3, (40.0, 40 - 24.8413771175, 40 + 24.8413771175), (2 / 3, 0.2076596008, 0.9385080553)),
    ("solo",): (2, (40.0, 40 - 254.1240947235, 40 + 254.1240947235), (1 / 2, 0.0945312057, 0.9054687943)),
}
VALAT: dict[tuple[object, ...], tuple[float, ...]] = {
    ("dreiblatt",): (1 / 3, 0.0614919447, 0.7923403992),
    ("solo",): (1 / 2, 0.0945312057, 0.9054687943),
}


def test_the_table_is_the_one_computed_by_hand(tmp_path: Path) -> None:
    table = tabulate(read_rows(str(small_file(tmp_path))), ["contract"], ["points", "won", "makeable.declarer.valat"])
    assert (table.kind, table.deals, table.failed) == ("analyse", 5, 1)
    assert [group.key for group in table.groups] == list(EXPECTED)
    for group in table.groups:
        count, points, won = EXPECTED[group.key]
        assert group.count == count
        figures = {figure.column: figure for figure in group.figures}
        assert figures["points"].ci95 is not None and figures["won"].ci95 is not None
        assert (figures["points"].mean, *figures["points"].ci95) == pytest.approx(points, abs=1e-8)
        assert (figures["won"].mean, *figures["won"].ci95) == pytest.approx(won, abs=1e-8)
        valat = figures["makeable.declarer.valat"]
        assert valat.ci95 is not None and (valat.mean, *valat.ci95) == pytest.approx(VALAT[group.key], abs=1e-8)
    total = {figure.column: figure for figure in table.total.figures}
    assert table.total.count == 5
    assert total["points"].ci95 == pytest.approx((40 - 19.6324316148, 40 + 19.6324316148), abs=1e-8)
    assert total["points"].spread == pytest.approx(math.sqrt(250))
    assert total["won"].ci95 == pytest.approx((0.2307242813, 0.8823792258), abs=1e-8)
    assert total["makeable.declarer.valat"].ci95 == pytest.approx((0.1176207742, 0.7692757187), abs=1e-8)


def test_the_text_and_the_csv_show_the_same_figures(tmp_path: Path) -> None:
    table = tabulate(read_rows(str(small_file(tmp_path))), ["contract"], ["points", "won"])
    text = to_text(table).splitlines()
    assert text[0].endswith("5 deals (analyse, 1 failed and left out), by contract")
    assert text[1].split() == ["contract", "deals", "points", "95%", "interval", "won", "%", "95%", "interval"]
    assert text[2].split() == ["dreiblatt", "3", "40.00", "15.16", "to", "64.84", "66.7", "20.8", "to", "93.9"]
    assert text[3].split() == ["solo", "2", "40.00", "-214.12", "to", "294.12", "50.0", "9.5", "to", "90.5"]
    assert text[4].split() == ["all", "5", "40.00", "20.37", "to", "59.63", "60.0", "23.1", "to", "88.2"]
    rows = [line.split(",") for line in to_csv(table).splitlines()]
    figures = [f"{column}.{field}" for column in ("points", "won") for field in ("n", "mean", "low", "high")]
    assert rows[0] == ["contract", "deals", *figures]
    assert [row[0] for row in rows[1:]] == ["dreiblatt", "solo", "all"]
    assert float(rows[1][4]) == pytest.approx(15.1586228825) and float(rows[3][7]) == pytest.approx(0.6)


def test_rows_are_in_the_order_of_the_deals_whatever_the_order_they_finished_in(tmp_path: Path) -> None:
    rows = read_rows(str(small_file(tmp_path)))
    assert [row["line"] for row in rows.rows] == [1, 2, 3, 4, 5]
    assert rows.columns[:7] == ("line", "contract", "declarer", "to_move", "thirds", "points", "won")
    # A column is there when some record has it: the defender's Pagat is in none.
    assert rows.rows[0]["makeable.declarer.pagat"] is False and "makeable.defender.pagat" not in rows.columns
    assert rows.rows[0]["makeable.defender.valat"] is False


def test_bins_group_numbers_by_their_width(tmp_path: Path) -> None:
    table = tabulate(read_rows(str(small_file(tmp_path))), ["points:25"], ["won"])
    assert [(group.key, group.label, group.count) for group in table.groups] == [
        ((0,), ("0 to under 25",), 1),
        ((25,), ("25 to under 50",), 2),
        ((50,), ("50 to under 75",), 2),
    ]
    assert Key.parse("declarer.points:2.5") == Key("declarer.points", 2.5)


def test_a_group_of_one_has_no_interval_for_its_mean() -> None:
    assert mean_interval([7.0]) == (7.0, None)
    assert share_interval(0, 4)[1][0] == 0.0 and share_interval(4, 4)[1][1] == 1.0


def test_student_t_is_the_exact_quantile() -> None:
    stats = pytest.importorskip("scipy.stats")
    for freedom in (1, 2, 5, 29, 30, 31, 40, 100, 1000):
        assert t975(freedom) == pytest.approx(float(stats.t.ppf(0.975, freedom)), abs=1e-5)


@pytest.mark.parametrize(
    ("by", "what", "message"),
    [
        (["nosuch"], [], "--by nosuch: no such column"),
        ([], ["nosuch"], "--what nosuch: no such column"),
        ([], ["contract"], "--what contract: a word, neither a number nor yes/no"),
        (["contract:5"], [], "--by contract:5: contract is not a number"),
        (["points:0"], [], "--by points:0: the width of a bin must be a number above 0"),
        (["points:x"], [], "--by points:x: the width of a bin must be a number above 0"),
    ],
)
def test_a_column_that_cannot_be_counted_is_refused(
    tmp_path: Path, by: list[str], what: list[str], message: str
) -> None:
    rows = read_rows(str(small_file(tmp_path)))
    with pytest.raises(StatsError, match=message):
        tabulate(rows, by, what)
