"""The bench signature: the nodes of a fixed set of questions of every kind
the engine answers.  Node counts are deterministic, so the signature tells
whether a change altered the search or only its speed."""

from __future__ import annotations

import json

from click.testing import CliRunner

from kosolve.cli.main import cli
from kosolve.tools.bench import SIGNATURE_KINDS, signature, signature_breakdown

SIGNATURE = 2_280_703
"""The signature of this code: dominated cards dropped below the root (in
the score search too, where its scores never fall as the thirds grow), a
root card bounded by the card that dominates it, and bounds from
look-alike positions (Speed III; 5,289,489 before); the last two tricks
played out instead of searched, the score search framed by the point
search, and its keys by ranks alone where no threshold can matter, and late in the hand its
entries by the thirds so far that pass a test, whose line tests at the
levels the bisection tested; the goal searches on a 2 MB table
(6,540,921 before issue 9; docs/benchmarks-history.md, "The bench
signature, change by change").  A commit that changes it must say in its
message why the search changed, and record the new figure in
docs/benchmarks.md and a row in docs/benchmarks-history.md."""


def test_the_signature_is_pinned() -> None:
    assert signature() == SIGNATURE


def test_every_kind_of_question_counts() -> None:
    kinds = signature_breakdown()
    assert tuple(kinds) == SIGNATURE_KINDS
    assert all(nodes > 0 for nodes in kinds.values())


def test_bench_signature_on_the_command_line() -> None:
    runner = CliRunner()
    assert runner.invoke(cli, ["bench", "--signature"]).output == f"{SIGNATURE}\n"
    data = json.loads(runner.invoke(cli, ["bench", "--signature", "--json"]).output)
    assert data["signature"] == SIGNATURE and sum(data["nodes"].values()) == SIGNATURE
