"""``kosolve batch`` on this machine: each result is what ``kosolve --json``
(or ``kosolve exchange --json``) gives for its deal, one job and two agree,
bad deals get error records, and an interrupted batch resumes losing and
repeating nothing."""

from __future__ import annotations

import errno
import json
import os
import signal
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result
from support import EXAMPLES, without_stats
from support.batches import by_key, kill_midway, records, sha256, write_deals

from kosolve.analysis.report import Options
from kosolve.batch.results import ResultsError, ResultsFile, read_results
from kosolve.batch.summary import summarise
from kosolve.batch.tasks import Question
from kosolve.cli.main import cli

DEALS = 10


def batch(*args: str) -> Result:
    return CliRunner().invoke(cli, ["batch", "--tt-mb", "8", *args])


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Deal lines and their results by one job."""
    folder = tmp_path_factory.mktemp("solved")
    deals = folder / "deals.jsonl"
    write_deals(deals, 3, DEALS)
    result = batch(str(deals), "-o", str(folder / "one.jsonl"), "--jobs", "1")
    assert result.exit_code == 0, result.output
    return deals, folder / "one.jsonl"


def test_each_result_is_what_kosolve_json_gives(solved: tuple[Path, Path], tmp_path: Path) -> None:
    deals, results = solved
    found = by_key(results)
    assert sorted(found) == list(range(1, DEALS + 1))
    for number, line in enumerate(deals.read_text().splitlines(), start=1):
        file = tmp_path / f"{number}.json"
        file.write_text(line)
        single = CliRunner().invoke(cli, ["--json", "--no-feasibility", "--no-postmortem", str(file)])
        assert single.exit_code == 0, single.output
        expected = json.loads(single.stdout)
        del expected["file"]
        assert found[number] == {"line": number, "sha256": sha256(line), "report": without_stats(expected)}


def test_two_jobs_give_the_one_job_results(solved: tuple[Path, Path], tmp_path: Path) -> None:
    deals, one = solved
    result = batch(str(deals), "-o", str(tmp_path / "two.jsonl"), "--jobs", "2")
    assert result.exit_code == 0, result.output
    assert by_key(tmp_path / "two.jsonl") == by_key(one)


def test_feasibility_is_asked_for(solved: tuple[Path, Path], tmp_path: Path) -> None:
    deals, _ = solved
    result = batch(str(deals), "-o", str(tmp_path / "f.jsonl"), "--jobs", "1", "--feasibility", "--json")
    assert result.exit_code == 0, result.output
    reports = [record["report"] for record in records(tmp_path / "f.jsonl")]
    assert all("feasible" in report for report in reports)
    summary = json.loads(result.stdout)
    # The declarer's win, counted by hand.
    wins = [report["feasible"][report["declarer"]]["win"] for report in reports]
    assert summary["makeable"]["declarer"]["win"] == pytest.approx(np.mean(wins))


def test_a_torn_last_line_is_dropped_and_nothing_finished_redone(solved: tuple[Path, Path], tmp_path: Path) -> None:
    deals, one = solved
    lines = one.read_bytes().splitlines(keepends=True)
    partial = tmp_path / "partial.jsonl"
    kept = b"".join(lines[:5])  # the header and 4 records
    partial.write_bytes(kept + lines[5][: len(lines[5]) // 2])
    result = batch(str(deals), "-o", str(partial), "--jobs", "1", "--json")
    assert result.exit_code == 0, result.output
    assert partial.read_bytes().startswith(kept)
    assert by_key(partial) == by_key(one)
    assert json.loads(result.stdout)["run"]["deals"] == DEALS - 4
    again = batch(str(deals), "-o", str(partial), "--jobs", "1", "--json")
    assert json.loads(again.stdout)["run"]["deals"] == 0
    assert by_key(partial) == by_key(one)


@pytest.mark.slow
def test_a_killed_batch_resumes_losing_and_repeating_nothing(tmp_path: Path) -> None:
    deals = tmp_path / "deals.jsonl"
    write_deals(deals, 8, 60)
    results = tmp_path / "results.jsonl"
    args = ["batch", str(deals), "-o", str(results), "--jobs", "2", "-q", "--tt-mb", "8"]
    written, _ = kill_midway(args, results, least_lines=5)
    assert 5 <= written < 60, "the batch finished before it was killed"
    before = results.read_bytes()
    result = batch(*args[1:])
    assert result.exit_code == 0, result.output
    assert results.read_bytes().startswith(before[: before.rfind(b"\n") + 1])
    assert sorted(by_key(results)) == list(range(1, 61))


def test_ctrl_c_exits_130_and_the_batch_resumes(tmp_path: Path) -> None:
    deals = tmp_path / "deals.jsonl"
    write_deals(deals, 9, 60)
    results = tmp_path / "results.jsonl"
    args = ["batch", str(deals), "-o", str(results), "--jobs", "2", "-q", "--tt-mb", "8"]
    written, status = kill_midway(args, results, least_lines=3, how=signal.SIGINT)
    assert status == 130
    assert results.read_bytes().endswith(b"\n") and 3 <= written < 60
    assert batch(*args[1:]).exit_code == 0
    assert sorted(by_key(results)) == list(range(1, 61))


def test_bad_deals_get_error_records_and_the_batch_goes_on(tmp_path: Path) -> None:
    deals = tmp_path / "deals.jsonl"
    good = write_deals(deals, 5, 3)
    deals.write_text("\n".join([good[0], "[]", "", '{"version": 1, "contract": "grand"}', good[1], "{"]) + "\n")
    result = batch(str(deals), "-o", str(tmp_path / "r.jsonl"), "--jobs", "1")
    assert result.exit_code == 1
    assert "2 answered, 3 failed" in result.stdout
    assert "3 deals failed" in result.stderr
    found = by_key(tmp_path / "r.jsonl")
    assert sorted(found) == [1, 2, 4, 5, 6]  # the blank line 3 is no deal
    assert found[2] == {
        "line": 2,
        "sha256": sha256("[]"),
        "error": "line 2: expected a JSON object (a deal), got an array",
    }
    assert str(found[4]["error"]).startswith("line 4: ")
    assert "report" in found[1] and "report" in found[5]


def test_a_folder_of_deal_files(solved: tuple[Path, Path], tmp_path: Path) -> None:
    deals, one = solved
    folder = tmp_path / "deals"
    folder.mkdir()
    for number, line in enumerate(deals.read_text().splitlines(), start=1):
        (folder / f"deal{number:02}.json").write_text(line)
    (folder / "notes.txt").write_text("not a deal")
    result = batch(str(folder), "-o", str(tmp_path / "r.jsonl"), "--jobs", "2")
    assert result.exit_code == 0, result.output
    found = by_key(tmp_path / "r.jsonl", "file")
    assert found == {
        f"deal{number:02}.json": {
            "file": f"deal{number:02}.json",
            "sha256": record["sha256"],
            "report": record["report"],
        }
        for number, record in by_key(one).items()
    }


@pytest.mark.slow
def test_deals_as_dealt_play_their_bid_or_give_the_exchange_table(tmp_path: Path) -> None:
    deals = tmp_path / "dealt.jsonl"
    lines = write_deals(deals, 6, 2, "--dealt")
    played = batch(str(deals), "-o", str(tmp_path / "played.jsonl"), "--jobs", "1")
    assert played.exit_code == 0, played.output
    plays = tmp_path / "plays.jsonl"
    write_deals(plays, 6, 2)
    assert [record["report"] for record in by_key(tmp_path / "played.jsonl").values()] == [
        record["report"] for record in by_key(_solved_plain(plays, tmp_path)).values()
    ]
    tables = batch(str(deals), "-o", str(tmp_path / "tables.jsonl"), "--jobs", "2", "--exchange", "--json")
    assert tables.exit_code == 0, tables.output
    found = by_key(tmp_path / "tables.jsonl")
    for number, line in enumerate(lines, start=1):
        file = tmp_path / f"{number}.json"
        file.write_text(line)
        single = CliRunner().invoke(cli, ["exchange", "--json", "-q", str(file)])
        expected = json.loads(single.stdout)
        del expected["file"]
        assert found[number] == {"line": number, "sha256": sha256(line), "report": without_stats(expected)}
    summary = json.loads(tables.stdout)
    assert summary["exchange_tables"] == 2 and summary["results"] == 2


def _solved_plain(deals: Path, folder: Path) -> Path:
    out = folder / "plain.jsonl"
    assert batch(str(deals), "-o", str(out), "--jobs", "1").exit_code == 0
    return out


def test_odds_of_seat_views_are_what_kosolve_odds_json_gives(tmp_path: Path) -> None:
    """Each line a seat view: its record is kosolve odds --json for it, the
    same for one job and two, and a view that is not one an error record."""
    views = sorted((EXAMPLES / "views").glob("*.json"))
    lines = [json.dumps(json.loads(view.read_text())) for view in views] + ['{"version": 1}']
    (tmp_path / "views.jsonl").write_text("\n".join(lines) + "\n")
    for jobs in ("1", "2"):
        result = batch(
            str(tmp_path / "views.jsonl"),
            "-o",
            str(tmp_path / f"{jobs}.jsonl"),
            "--odds",
            "2",
            "--seed",
            "4",
            "--jobs",
            jobs,
        )
        assert result.exit_code == 1, result.output
    found = by_key(tmp_path / "1.jsonl")
    assert by_key(tmp_path / "2.jsonl") == found
    for number, view in enumerate(views, start=1):
        single = CliRunner().invoke(
            cli, ["odds", "--json", "-q", "--no-feasibility", "--samples", "2", "--seed", "4", "--jobs", "1", str(view)]
        )
        assert single.exit_code == 0, single.output
        expected = json.loads(single.stdout)
        del expected["file"]
        assert found[number] == {"line": number, "sha256": sha256(lines[number - 1]), "report": without_stats(expected)}
    assert "view: required key missing" in found[len(views) + 1]["error"]


def test_exchange_of_a_play_file_is_an_error_record(solved: tuple[Path, Path], tmp_path: Path) -> None:
    deals, _ = solved
    result = batch(str(deals), "-o", str(tmp_path / "r.jsonl"), "--jobs", "1", "--exchange")
    assert result.exit_code == 1
    assert all("not a deal as dealt" in str(r["error"]) for r in records(tmp_path / "r.jsonl"))


def test_summary_only_reads_the_results(solved: tuple[Path, Path]) -> None:
    _, one = solved
    result = batch("--summary-only", "-o", str(one), "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    reports = [record["report"] for record in records(one)]
    points = [report["value"]["points"] for report in reports]
    assert summary["deals"] == DEALS and summary["failed"] == 0 and summary["run"] is None
    assert summary["won"] == sum(report["result"] == "won" for report in reports) / DEALS
    assert summary["points"]["mean"] == pytest.approx(sum(points) / DEALS)
    assert summary["points"]["spread"] == pytest.approx(float(np.std(points)))
    assert (summary["points"]["min"], summary["points"]["max"]) == (min(points), max(points))
    assert summary == summarise(read_results(str(one))).to_json()
    text = batch("--summary-only", "-o", str(one))
    assert text.stdout.startswith(f"deals            {DEALS} ({DEALS} answered, 0 failed)\n")


def test_a_file_that_is_not_results_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    question = Question("analyse", Options())
    header = json.dumps({"batch_format": 2, "question": question.to_json()})
    path.write_text(header + '\n{"line": 1, "report": {}}\n{"hello": 1}\n{"line": 3, "report": {}}\n')
    with pytest.raises(ResultsError, match="line 3: not a result record"), ResultsFile(str(path), "line", question):
        pass
    path.write_text(header + '\n{"file": "a.json", "report": {}}\n')
    with (
        pytest.raises(ResultsError, match="a result of a file, but these deals are by line"),
        ResultsFile(str(path), "line", question),
    ):
        pass


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-o", "r.jsonl"], "Missing argument 'DEALS'"),
        (["missing.jsonl", "-o", "r.jsonl"], "missing.jsonl: no such file or folder"),
        (["deals.jsonl", "-o", "deals.jsonl"], "is the deals' own file"),
        (["deals.jsonl", "-o", "r.jsonl", "--jobs", "0"], "--jobs"),
        (["deals.jsonl", "-o", "r.jsonl", "--jobs", "2", "--dask", "tcp://x:8786"], "give one"),
        (["deals.jsonl", "-o", "r.jsonl", "--chunk", "4"], "it needs --dask"),
        (["deals.jsonl", "-o", "bad.jsonl"], "bad.jsonl: line 1: not a result record"),
        (["deals.jsonl", "--summary-only", "-o", "r.jsonl"], "give no DEALS"),
        (["--summary-only", "-o", "none.jsonl"], "none.jsonl: cannot read the file"),
        (["deals.jsonl"], "--output"),
        (["deals.jsonl", "-o", "r.jsonl", "--odds", "5", "--exchange"], "give one"),
        (["deals.jsonl", "-o", "r.jsonl", "--odds", "0"], "--odds"),
    ],
)
def test_bad_command_input_is_one_line_exit_2(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "deals.jsonl").write_text("{}\n")
    (tmp_path / "bad.jsonl").write_text("hello\nworld\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["batch", *args])
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""
    assert not (tmp_path / "r.jsonl").exists()


def test_dask_without_distributed_says_how_to_install_it(
    solved: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deals, _ = solved
    monkeypatch.setitem(sys.modules, "distributed", None)  # an import of it fails
    result = batch(str(deals), "-o", str(tmp_path / "r.jsonl"), "--dask", "tcp://127.0.0.1:8786")
    assert result.exit_code == 1
    assert result.stderr == 'Error: --dask needs the distributed package: pip install "kosolve[dask]"\n'
    assert not (tmp_path / "r.jsonl").exists()


def test_a_full_disk_stops_the_batch_in_one_line(
    solved: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deals, _ = solved

    def full(_: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    result = batch(str(deals), "-o", str(tmp_path / "r.jsonl"), "--jobs", "1", "-q")
    assert result.exit_code == 1
    assert result.stderr.endswith("r.jsonl: cannot write the file: No space left on device\n")
    assert len(result.stderr.strip().splitlines()) == 1
