"""The seeded fuzzer of :mod:`kosolve.tools.fuzz` over every kind of input:
deal files, deals as dealt and seat views, from the examples and from the
realistic dealer, mutated as trees and as bytes.  Thousands go through the
readers in-process and a few hundred through the command line (``kosolve``,
``kosolve exchange``, ``kosolve odds``, ``kosolve batch``): each is read
and answered (exit 0) or refused with one line (exit 2); anything else is
a bug in kosolve.

``python -m pytest -m slow tests/test_fuzz.py`` runs ten times as many,
``python benchmarks/fuzz.py -n 1000000`` a million.
"""

from __future__ import annotations

import collections
import io
import json
import random
from pathlib import Path
from typing import Final

import pytest
from click.testing import CliRunner, Result
from support import EXAMPLES, fast_first

from kosolve.cli.main import cli
from kosolve.model.files import read_deal
from kosolve.model.game import DISCARD_VARIANTS
from kosolve.model.jsonfile import FileError
from kosolve.tools.fuzz import KINDS, SOURCE, Base, Mutator, bases, cases, fuzz

BASES: Final = bases(seed=1, generated=10, folder=EXAMPLES)


def of_kind(kind: str) -> list[Base]:
    return [base for base in BASES if base.kind == kind]


def assert_refused_in_one_line(result: Result, name: str) -> None:
    assert result.stdout == "", result.stdout[:300]
    assert result.stderr.endswith("\n") and result.stderr.count("\n") == 1, result.stderr[:300]
    assert result.stderr.startswith(f"Error: {name}: "), result.stderr[:300]
    assert result.stderr[:-1].isprintable() and len(result.stderr) < 420, result.stderr[:300]


def through_the_cli(kind: str, seed: int, count: int, folder: Path) -> collections.Counter[int]:
    """``count`` cases of ``kind`` through the command that reads them: each
    answered with output on stdout alone, or refused in one line."""
    runner = CliRunner()
    rng = random.Random(seed)
    exits: collections.Counter[int] = collections.Counter()
    for number, (base, _, data) in enumerate(cases(of_kind(kind), seed, count)):
        path = folder / f"fuzz{number}.json"
        path.write_bytes(data)
        args = ["--tt-mb", "4", "-q"]
        if kind == "deal":
            if rng.random() < 0.2:
                args += ["--at", str(rng.randrange(40))]
            if rng.random() < 0.1:
                args += rng.sample(["--kontra", "--defender-announcements", "--win-thirds=106", "--json"], 2)
        elif kind == "dealt":
            args = ["exchange", *args]
        else:
            args = ["odds", *args, "--samples", "2", "--jobs", "1", "--no-feasibility"]
        args.append(f"--discard={base.discard if rng.random() < 0.8 else rng.choice(DISCARD_VARIANTS)}")
        stdin = rng.random() < 0.1
        name = "<stdin>" if stdin else str(path)
        result = runner.invoke(cli, [*args, "-" if stdin else str(path)], input=data if stdin else None)
        assert result.exit_code in (0, 2), (kind, number, args, result.exit_code, result.output[-2000:])
        if result.exit_code == 0:
            assert result.stdout and result.stderr == "", (kind, number, args, result.stderr[:300])
        else:
            assert_refused_in_one_line(result, name)
        exits[result.exit_code] += 1
    return exits


@pytest.mark.parametrize("seed", fast_first([1, 2, 3]))
def test_mutated_inputs_are_read_or_refused_in_one_line(seed: int) -> None:
    counts = fuzz(BASES, seed, 2000)
    for kind in KINDS:
        assert counts[kind, "read"] > 0, counts
    assert counts["view", "play"] > 0, counts


def test_mutated_deals_are_solved_or_refused_through_the_cli(tmp_path: Path) -> None:
    exits = through_the_cli("deal", 7, 250, tmp_path)
    assert exits[0] > 0 and exits[2] > 0


def test_mutated_views_are_answered_or_refused_through_the_cli(tmp_path: Path) -> None:
    exits = through_the_cli("view", 8, 120, tmp_path)
    assert exits[0] > 0 and exits[2] > 0


def test_mutated_deals_as_dealt_are_tabled_or_refused_through_the_cli(tmp_path: Path) -> None:
    # An exchange table takes half a second: few cases, most of them refused.
    exits = through_the_cli("dealt", 9, 25, tmp_path)
    assert exits[0] > 0 and exits[2] > 0


def test_a_batch_of_mutated_lines_gives_every_line_one_record(tmp_path: Path) -> None:
    lines = [data for _, _, data in cases(of_kind("deal"), 10, 80)]
    # A line break inside a case would make two lines of it: a line is one case.
    lines = [data.replace(b"\n", b" ").replace(b"\r", b" ") for data in lines]
    deals = tmp_path / "deals.jsonl"
    deals.write_bytes(b"\n".join(lines) + b"\n")
    results = tmp_path / "results.jsonl"
    result = CliRunner().invoke(cli, ["batch", str(deals), "-o", str(results), "--jobs", "1", "-q", "--tt-mb", "4"])
    assert result.exit_code in (0, 1), result.output[-2000:]
    records = [json.loads(line) for line in results.read_text().splitlines()]
    by_line = collections.Counter(record["line"] for record in records if "line" in record)
    numbered = [number for number, line in enumerate(lines, start=1) if line.strip()]
    assert sorted(by_line) == numbered and set(by_line.values()) == {1}
    for record in records:
        if "error" in record:
            assert record["error"].startswith(f"line {record['line']}: ") and record["error"].isprintable()


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 110))
def test_many_mutated_inputs(seed: int) -> None:
    fuzz(BASES, seed, 6000)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_many_mutated_inputs_through_the_cli(kind: str, tmp_path: Path) -> None:
    through_the_cli(kind, 200, {"deal": 1200, "view": 400, "dealt": 100}[kind], tmp_path)


def test_the_mutator_makes_every_kind_of_case() -> None:
    # The fuzzer is only as good as its cases: most are refused for many
    # different reasons, and some are still inputs to answer.
    counts = fuzz(BASES, 1, 1500)
    for kind in KINDS:
        outcomes = {outcome for case_kind, outcome in counts if case_kind == kind}
        assert "read" in outcomes and len(outcomes) >= 10, (kind, outcomes)


def test_the_mutator_makes_deals_as_dealt_of_every_kind() -> None:
    # The dealt example's mutations reach its own checks, and some still
    # give a play position.
    mutator = Mutator(4)
    base = Base("deal", (EXAMPLES / "dealt.json").read_text(encoding="utf-8"))
    fields: set[str] = set()
    deals = 0
    for _ in range(600):
        _, data = mutator.case(base)
        try:
            read_deal(io.BytesIO(data), SOURCE)
            deals += 1
        except FileError as error:
            fields.add(str(error).split(": ")[1].split("[")[0])
    assert deals >= 20
    assert {"dealt.talon", "dealt.forehand.discards", "exchange.take", "exchange.lay_away"} <= fields, fields
