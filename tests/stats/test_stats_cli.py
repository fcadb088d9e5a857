"""``kosolve stats`` on the command line: the text, the JSON (checked
against its schema), the CSV, the pictures (SVG and PNG), Parquet, and
bad input, each one line and exit status 2 with nothing else printed.
The command is invoked straight, through click's CliRunner."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from kosolve.cli.stats import stats_command

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def stats(*args: str | Path) -> Result:
    return CliRunner().invoke(stats_command, [str(arg) for arg in args])


def png_size(path: Path) -> tuple[int, int]:
    """The width and height a PNG's header chunk (IHDR) gives."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_text_table_groups_by_a_seat_s_cards(solved_batch: tuple[Path, Path]) -> None:
    results, deals = solved_batch
    result = stats(results, "--deals", deals, "--by", "declarer.tarocks", "--what", "points", "--what", "won")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].endswith("8 deals (analyse, cards from " + str(deals) + "), by declarer.tarocks")
    assert lines[1].split()[:3] == ["declarer.tarocks", "deals", "points"]
    assert lines[-2].split()[:2] == ["all", "8"]
    assert sum(int(line.split()[1]) for line in lines[2:-2]) == 8
    assert result.stderr == ""


def test_the_json_follows_its_schema(solved_batch: tuple[Path, Path]) -> None:
    results, deals = solved_batch
    result = stats(results, "--deals", deals, "--by", "contract", "--by", "declarer.points:5", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    jsonschema = pytest.importorskip("jsonschema")
    # Read from the package: kosolve.schemas.NAMES does not list it yet.
    text = resources.files("kosolve.schemas").joinpath("stats.schema.json").read_text(encoding="utf-8")
    errors = list(jsonschema.Draft202012Validator(json.loads(text)).iter_errors(data))
    assert not errors, errors[0].message
    assert data["stats_format"] == 1 and data["deals"] == 8
    assert [key["column"] for key in data["by"]] == ["contract", "declarer.points"] and data["by"][1]["width"] == 5
    assert sum(group["count"] for group in data["groups"]) == 8
    assert [what["column"] for what in data["what"]] == ["points", "won"]


def test_the_csv_is_a_line_a_group(solved_batch: tuple[Path, Path]) -> None:
    results, _ = solved_batch
    result = stats(results, "--by", "contract", "--what", "makeable.declarer.pagat", "--csv")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    figures = [f"makeable.declarer.pagat.{field}" for field in ("n", "mean", "low", "high")]
    assert lines[0] == ",".join(["contract", "deals", *figures])
    assert lines[-1].startswith("all,8,8,")


def test_the_svg_is_xml_with_each_group_labelled(solved_batch: tuple[Path, Path], tmp_path: Path) -> None:
    results, _ = solved_batch
    picture = tmp_path / "points.svg"
    result = stats(results, "--by", "contract", "--what", "points", "--what", "won", "--plot", picture, "--json")
    assert result.exit_code == 0, result.output
    root = ElementTree.parse(picture).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    labels = {group["label"][0] for group in json.loads(result.stdout)["groups"]}
    shown = [g.get("data-label") or "" for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "group"]
    assert sorted(shown) == sorted([*labels, *labels])  # a panel for points, one for won
    text = picture.read_text(encoding="utf-8")
    assert "points: the mean by contract, with its 95% interval" in text
    assert "won: the share of yes by contract, with its 95% interval" in text


def test_an_arena_file_draws_its_running_mean(played_match: Path, tmp_path: Path) -> None:
    picture = tmp_path / "running.svg"
    result = stats(played_match, "--plot", picture)
    assert result.exit_code == 0, result.output
    root = ElementTree.parse(picture).getroot()
    mean = next(e for e in root.iter("{http://www.w3.org/2000/svg}polyline") if e.get("class") == "mean")
    assert len((mean.get("points") or "").split()) == 6  # a point a deal
    band = next(e for e in root.iter("{http://www.w3.org/2000/svg}polygon") if e.get("class") == "band")
    assert len((band.get("points") or "").split()) == 2 * 5  # from the second deal on, both edges
    assert "A random - B heuristic" in picture.read_text(encoding="utf-8")


def test_the_png_has_the_signature_and_its_size(
    solved_batch: tuple[Path, Path], played_match: Path, tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    results, _ = solved_batch
    picture = tmp_path / "points.png"
    result = stats(results, "--by", "contract", "--what", "points", "--what", "won", "--plot", picture, "--json")
    assert result.exit_code == 0, result.output
    groups = len(json.loads(result.stdout)["groups"])
    # 800 pixels wide; a panel a column, each 70 pixels and 28 a group.
    assert png_size(picture) == (800, 2 * (70 + 28 * groups))
    running = tmp_path / "running.png"
    assert stats(played_match, "--plot", running).exit_code == 0
    assert png_size(running) == (800, 400)


def test_parquet_holds_the_rows(solved_batch: tuple[Path, Path], tmp_path: Path) -> None:
    pandas = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    results, deals = solved_batch
    path = tmp_path / "rows.parquet"
    assert stats(results, "--deals", deals, "--parquet", path).exit_code == 0
    table = pandas.read_parquet(path)
    assert len(table) == 8 and {"line", "points", "won", "declarer.tarocks"} <= set(table.columns)
    assert table["line"].tolist() == list(range(1, 9))


def test_a_missing_extra_is_one_line(
    solved_batch: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results, _ = solved_batch
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow fails
    result = stats(results, "--parquet", tmp_path / "rows.parquet")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "Error: --parquet needs pyarrow: pip install 'kosolve[stats]'\n"
    assert not (tmp_path / "rows.parquet").exists()
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = stats(results, "--plot", tmp_path / "points.png")
    assert result.stderr == "Error: a PNG picture needs matplotlib: pip install 'kosolve[stats]'\n"
    assert list(tmp_path.iterdir()) == []


def test_columns_lists_each_column_with_its_type(solved_batch: tuple[Path, Path]) -> None:
    results, deals = solved_batch
    lines = stats(results, "--deals", deals, "--columns").stdout.splitlines()
    assert lines[:3] == ["line  number", "contract  word", "declarer  word"]
    assert "won  yes/no" in lines and "declarer.tarocks  number" in lines


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--by", "nosuch"], "--by nosuch: no such column in these analyse results (kosolve stats --columns lists"),
        (["--what", "nosuch"], "--what nosuch: no such column in these analyse results"),
        (["--what", "contract"], "--what contract: a word, neither a number nor yes/no: count it with --by contract"),
        (["--by", "points:-1"], "--by points:-1: the width of a bin must be a number above 0, not '-1'"),
        (["--by", "declarer.tarocks"], "--by declarer.tarocks: each seat's cards need the deals file the batch read"),
        (["--json", "--csv"], "--json and --csv are two forms of the same table: give one"),
        (["--plot", "x.pdf"], "--plot x.pdf: a picture is FILE.svg or FILE.png"),
        (["--where", "declarer.tarocks > 9"], "--where reads each seat's cards: give the deals file the batch read"),
        (["--deals", "DEALS", "--where", "declarer.tarots > 9"], "--where: at character 10: a seat has no 'tarots'"),
        (["--deals", "NOSUCH"], "--deals: NOSUCH: No such file or directory"),
        (["--deals", "DEALS", "--where", "false"], "--where false: no deal of "),
        (["--parquet", "."], "--parquet .: is a folder: name a file to write"),
    ],
)
def test_bad_input_is_one_line(
    solved_batch: tuple[Path, Path], in_tmp_path: Path, args: list[str], message: str
) -> None:
    """In a folder of its own: a picture a broken check let through lands there."""
    results, deals = solved_batch
    given = [str(deals) if arg == "DEALS" else arg for arg in args]
    result = stats(results, *given)
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    assert result.stderr.startswith(f"Error: {message}") and result.stderr.count("\n") == 1, result.stderr


def test_a_file_that_is_not_results_is_one_line(
    solved_batch: tuple[Path, Path], played_match: Path, tmp_path: Path
) -> None:
    results, deals = solved_batch
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    header_only = tmp_path / "header.jsonl"
    header_only.write_text(results.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    cases: list[tuple[list[str | Path], str]] = [
        ([deals], f"{deals}: line 1: not a result record of kosolve batch"),
        ([tmp_path / "nosuch.jsonl"], f"{tmp_path / 'nosuch.jsonl'}: cannot read the file: No such file or directory"),
        ([empty], f"{empty}: no deal answered in it: nothing to count"),
        ([header_only], f"{header_only}: no deal answered in it: nothing to count"),
        ([results, "--deals", played_match], f"{results}: line 1 of {played_match} is not the deal answered there"),
        ([played_match, "--deals", deals], f"--deals: {played_match} is an arena's: its records hold their deals"),
        ([results, "--parquet", results], f"--parquet {results} would replace the file it reads"),
    ]
    for args, message in cases:
        result = stats(*args)
        assert (result.exit_code, result.stdout) == (2, ""), result.output
        assert result.stderr.startswith(f"Error: {message}") and result.stderr.count("\n") == 1, result.stderr


def test_one_deal_is_one_deal_and_a_closed_pipe_ends_quietly(solved_batch: tuple[Path, Path], tmp_path: Path) -> None:
    results, _ = solved_batch
    one = tmp_path / "one.jsonl"
    one.write_text("".join(results.read_text(encoding="utf-8").splitlines(keepends=True)[:2]), encoding="utf-8")
    assert stats(one).stdout.startswith(f"{one}: 1 deal (analyse)")
    head = subprocess.run(
        f"{sys.executable} -m kosolve.cli stats {results} --columns | head -1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert head.stdout == "line  number\n" and head.stderr == ""
