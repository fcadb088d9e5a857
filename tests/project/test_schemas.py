"""The JSON Schemas: each is a valid draft 2020-12 schema with a versioned
``$id``, they name the cards as the model does, every bundled example
follows its schema, and so does every JSON output of each command (the
tests' own runs are checked too: tests/support/schemas.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from support import DOCS, EXAMPLES, ROOT
from support.cli import run
from support.schemas import check

from kosolve.model.cards import CARD_NAMES
from kosolve.schemas import NAMES, schema

jsonschema = pytest.importorskip("jsonschema")

DEALS = sorted(EXAMPLES.glob("*.json"))
VIEWS = sorted((EXAMPLES / "views").glob("*.json"))


@pytest.mark.parametrize("name", NAMES)
def test_each_schema_is_valid_with_a_versioned_id(name: str) -> None:
    data = schema(name)
    jsonschema.Draft202012Validator.check_schema(data)
    assert data["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert re.fullmatch(rf"urn:kosolve:schema:{name}:\d+", data["$id"])
    assert data["$defs"]["card"]["enum"] == list(CARD_NAMES)
    assert f"{name}.schema.json" in (DOCS / "json.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", DEALS, ids=[p.name for p in DEALS])
def test_every_example_deal_follows_the_deal_schema(path: Path) -> None:
    check("deal", json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("path", VIEWS, ids=[p.name for p in VIEWS])
def test_every_example_view_follows_the_view_schema(path: Path) -> None:
    check("view", json.loads(path.read_text(encoding="utf-8")))


def test_a_deal_breaking_the_format_breaks_the_schema() -> None:
    data = json.loads((EXAMPLES / "played.json").read_text(encoding="utf-8"))
    with pytest.raises(AssertionError, match="deal schema"):
        check("deal", {**data, "contract": "quadriblatt"})
    with pytest.raises(AssertionError, match="deal schema"):
        check("deal", {**data, "play": ["HK", "Joker"]})


def test_the_written_files_follow_their_schemas() -> None:
    """What kosolve deal and kosolve view write."""
    for args in (["deal", "--seed", "1", "-n", "3"], ["deal", "--seed", "1", "-n", "3", "--dealt"]):
        result = run(*args)
        for line in result.stdout.splitlines():
            check("deal", json.loads(line))
    view = run("view", str(EXAMPLES / "played.json"), "--seat", "dealer", "--at", "3")
    check("view", json.loads(view.stdout))


def test_a_solo_view_with_its_talon_unseen_follows_the_view_schema(tmp_path: Path) -> None:
    solo = tmp_path / "solo.json"
    solo.write_text(run("deal", "--seed", "5", "-n", "1", "--contract", "solo", "--declarer", "forehand").stdout)
    for seat in ("forehand", "dealer"):
        data = json.loads(run("view", str(solo), "--seat", seat, "--at", "0").stdout)
        assert data["talon_unseen"] == 6
        check("view", data)


def test_every_command_prints_json_that_follows_its_schema() -> None:
    """run() checks --json output against its schema: every kind once here."""
    outputs = [
        run("--json", "-q", *map(str, DEALS)),
        run("exchange", "--json", "-q", str(EXAMPLES / "dealt.json")),
        run("odds", "--json", "-q", "--jobs", "1", str(VIEWS[-1])),
        run("review", "--json", "-q", "--jobs", "1", "--from", "24", str(EXAMPLES / "played-out.json")),
    ]
    for result in outputs:
        assert result.exit_code == 0, result.output


def test_every_subpackage_is_installed() -> None:
    """setup.py names every subpackage of solver/, or a wheel would leave it out."""
    text = (ROOT / "setup.py").read_text(encoding="utf-8")
    found_tuple = re.search(r"SUBPACKAGES = \(([^)]*)\)", text)
    assert found_tuple is not None
    named = set(re.findall(r'"(\w+)"', found_tuple.group(1)))
    found = {path.parent.name for path in (ROOT / "solver").glob("*/__init__.py")}
    assert found <= named
