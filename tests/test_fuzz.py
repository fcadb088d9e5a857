"""A seeded fuzzer over the example deal files: thousands of mutated files
(keys deleted, given twice, swapped and renamed, cards renamed and moved
between hands, wrong types, huge numbers, deep nesting, look-alike letters,
truncated JSON, stray bytes) through the reader in-process, and a few
hundred through the command line.  Each one is either a deal (solved, exit
0) or refused with one line (exit 2); anything else is a bug in kosolve.

``python -m pytest -m slow tests/test_fuzz.py`` runs ten times as many.
"""

from __future__ import annotations

import dataclasses
import io
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final, TypeAlias

import pytest
from click.testing import CliRunner

from kosolve.analysis.report import Options, OptionsError, check
from kosolve.cli.main import cli
from kosolve.model.announcements import ANNOUNCEMENTS, TIMINGS
from kosolve.model.cards import CARD_NAMES, card_name
from kosolve.model.deal import KEYS, Deal, DealError, deal_to_json, parse_deal, read_deal
from kosolve.model.game import CONTRACTS, DISCARD_VARIANTS, SEAT_NAMES, TRICKS_PER_GAME

EXAMPLES: Final = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.json"))
SOURCE: Final = "fuzz.json"


class Obj(list[tuple[str, object]]):
    """A JSON object as its list of members, so that a key can be given twice."""


class Raw(str):
    """JSON text written as it is: numbers Python would not write (1e999,
    NaN, a thousand digits)."""


Tree: TypeAlias = object
Slot: TypeAlias = tuple[list[Any], int]
"""A place a value sits in: a list and an index (in an Obj, of a member)."""


def decode(text: str) -> Tree:
    return json.loads(text, object_pairs_hook=Obj)


def encode(tree: Tree, ascii_only: bool) -> str:
    # Iterative, since a mutation may nest a value thousands deep.
    out: list[str] = []
    stack: list[object] = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, Raw):
            out.append(item)
        elif isinstance(item, Obj):
            parts: list[object] = [Raw("{")]
            for index, (key, value) in enumerate(item):
                parts += [Raw(", " if index else ""), Raw(json.dumps(key, ensure_ascii=ascii_only) + ": "), value]
            stack.extend(reversed([*parts, Raw("}")]))
        elif isinstance(item, list):
            parts = [Raw("[")]
            for index, value in enumerate(item):
                parts += [Raw(", " if index else ""), value]
            stack.extend(reversed([*parts, Raw("]")]))
        else:
            out.append(json.dumps(item, ensure_ascii=ascii_only))
    return "".join(out)


def to_python(tree: Tree) -> object:
    """The tree as parse_deal gets data from Python: dicts (the last of a
    key given twice wins), numbers for the raw tokens."""
    root: list[object] = [None]
    stack: list[tuple[object, list[object] | dict[str, object], int | str]] = [(tree, root, 0)]
    while stack:
        node, container, key = stack.pop()
        value: object
        if isinstance(node, Raw):
            value = json.loads(node, parse_constant=float, parse_int=float)
        elif isinstance(node, Obj):
            members: dict[str, object] = {}
            value = members
            # Reversed onto the stack: the members are then filled in order.
            stack.extend((item, members, name) for name, item in reversed(node))
        elif isinstance(node, list):
            items: list[object] = [None] * len(node)
            value = items
            stack.extend((item, items, index) for index, item in enumerate(node))
        else:
            value = node
        if isinstance(container, dict):
            assert isinstance(key, str)
            container[key] = value
        else:
            assert isinstance(key, int)
            container[key] = value
    return root[0]


LOOK_ALIKES: Final = {
    "S": ["\u017f", "\uff33", "\u0405"],
    "K": ["\u212a", "\u039a", "\uff2b"],
    "I": ["\u0131", "\u2160", "\u0399", "\u04c0"],
    "X": ["\u2169", "\u0425", "\uff38"],
    "H": ["\u041d", "\u0397"],
    "C": ["\u216d", "\u0421"],
    "D": ["\u216e"],
    "e": ["\u0435"],
    "o": ["\u043e", "\u03bf"],
    "a": ["\u0430"],
    "r": ["\u0433"],
    "l": ["\u217c"],
}
WORDS: Final = (*KEYS, *SEAT_NAMES, *CONTRACTS, *ANNOUNCEMENTS, *TIMINGS, "by", "what", "when", "kontra")
STRANGE: Final = ["", " ", "\n", "\x00", "\u200b", "\ud800", "\U0001f0a1", "'", '"', "\\", "\x1b[31m", "\u202e"]


class Mutator:
    """Seeded mutations of a deal file, as its tree and then as text."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def slots(self, tree: Tree) -> list[Slot]:
        """Every place in the tree a value sits in, as (container, index)."""
        found: list[Slot] = []
        stack = [tree]
        while stack:
            node = stack.pop()
            if isinstance(node, list):
                for index, item in enumerate(node):
                    found.append((node, index))
                    stack.append(item[1] if isinstance(node, Obj) else item)
        return found

    @staticmethod
    def get(slot: Slot) -> object:
        container, index = slot
        item = container[index]
        return item[1] if isinstance(container, Obj) and isinstance(item, tuple) else item

    @staticmethod
    def put(slot: Slot, value: object) -> None:
        container, index = slot
        if isinstance(container, Obj):
            container[index] = (container[index][0], value)
        else:
            container[index] = value

    def card(self) -> str:
        rng = self.rng
        name = rng.choice(CARD_NAMES)
        form = rng.randrange(9)
        if form == 0:
            return name.lower() if rng.random() < 0.5 else name.upper()
        if form == 1:
            return name[1:] + name[0]
        if form == 2:
            return self.look_alike(name)
        if form == 3:
            return rng.choice(["skus", "Skis", "PAGAT", "mond", "Sküs", "sk", "♥K", "♠10", "H10", "S1", "T", "XXII"])
        if form == 4:
            return name + rng.choice(STRANGE)
        if form == 5:
            return rng.choice(STRANGE) + name
        return name

    def look_alike(self, text: str) -> str:
        spots = [index for index, char in enumerate(text) if char in LOOK_ALIKES or char.upper() in LOOK_ALIKES]
        if not spots:
            return text + "\u00a0"
        index = self.rng.choice(spots)
        char = text[index]
        replacement = self.rng.choice(LOOK_ALIKES.get(char, LOOK_ALIKES.get(char.upper(), [char])))
        return text[:index] + replacement + text[index + 1 :]

    def word(self) -> str:
        rng = self.rng
        word = rng.choice(WORDS)
        form = rng.randrange(6)
        if form == 0:
            return word.upper()
        if form == 1:
            return self.look_alike(word)
        if form == 2:
            return word + rng.choice(STRANGE)
        if form == 3:
            return word.title()
        return word

    def scalar(self) -> object:
        rng = self.rng
        return rng.choice(
            [
                None,
                True,
                False,
                0,
                -1,
                1,
                2,
                16,
                2**63,
                -(2**64),
                1.5,
                -0.0,
                Raw("1e999"),
                Raw("-1e999"),
                Raw("NaN"),
                Raw("Infinity"),
                Raw("1" + "0" * rng.choice([40, 41, 4300, 5000])),
                Raw("1E400"),
                "x" * rng.choice([41, 1000, 100_000]),
                "".join(rng.choice(STRANGE) for _ in range(5)),
                self.card(),
                self.word(),
                [],
                Obj(),
                [self.card()],
                Obj([(self.word(), self.card())]),
            ]
        )

    def nested(self, value: object) -> object:
        depth = self.rng.choice([2, 10, 100, 999, 1000, 3000])
        for _ in range(depth):
            value = [value] if self.rng.random() < 0.5 else Obj([("k", value)])
        return value

    def tree_mutation(self, tree: Tree) -> None:
        rng = self.rng
        slots = self.slots(tree)
        if not slots:
            return
        slot = rng.choice(slots)
        container, index = slot
        value = self.get(slot)
        kind = rng.randrange(12)
        if kind == 0:
            del container[index]
        elif kind == 1:
            # The same value twice, not a copy: a copy of a deep value would recurse.
            container.insert(index, container[index])
            if isinstance(container, Obj) and rng.random() < 0.5:
                self.put((container, index), self.scalar())
        elif kind == 2:
            other = rng.choice(slots)
            moved = self.get(other)
            self.put(other, value)
            self.put(slot, moved)
        elif kind == 3 and isinstance(container, Obj):
            key = container[index][0]
            new_key = rng.choice([self.word(), key.upper(), self.look_alike(key), key + "\n", "x" * 100_000])
            container[index] = (new_key, value)
        elif kind in (4, 5) and isinstance(value, str):
            self.put(slot, self.card() if rng.random() < 0.6 else self.word())
        elif kind == 6:
            lists = [(node, i) for node, i in slots if isinstance(self.get((node, i)), list)]
            lists = [item for item in lists if not isinstance(self.get(item), Obj)]
            if len(lists) >= 2:
                source, target = rng.sample(lists, 2)
                source_list, target_list = self.get(source), self.get(target)
                assert isinstance(source_list, list) and isinstance(target_list, list)
                if source_list:
                    moved = source_list.pop(rng.randrange(len(source_list)))
                    target_list.insert(rng.randrange(len(target_list) + 1), moved)
        elif kind == 7:
            self.put(slot, self.scalar())
        elif kind == 8:
            self.put(slot, self.nested(value))
        elif kind == 9 and isinstance(value, list) and not isinstance(value, Obj):
            rng.shuffle(value)
            del value[rng.randrange(len(value) + 1) :]
        elif kind == 10 and isinstance(tree, Obj):
            tree.append(
                (
                    rng.choice(["play", "announcements", "leader", "piles"]),
                    rng.choice(
                        [
                            [self.card() for _ in range(rng.randrange(4))],
                            [Obj([("by", self.word()), ("what", self.word()), ("when", self.word())])],
                            [Obj([("by", rng.choice(SEAT_NAMES)), ("what", rng.choice(ANNOUNCEMENTS)),
                                  ("when", rng.choice(TIMINGS)), ("kontra", rng.random() < 0.5)])],
                            self.word(),
                        ]
                    ),
                )
            )  # fmt: skip
        else:
            self.put(slot, self.card())

    def semantic_mutation(self, tree: Tree) -> None:
        """A change that keeps the file well formed, so that many cases are
        deals with a play, announcements and options to solve."""
        rng = self.rng
        if not isinstance(tree, Obj):
            return
        members = {key: index for index, (key, _) in enumerate(tree)}
        if "dealt" in members and rng.random() < 0.5:
            self.dealt_mutation(tree)
            return
        kind = rng.randrange(6)
        if kind == 0:
            holdings = [
                holding
                for key in ("hands", "piles")
                if key in members and isinstance(tree[members[key]][1], Obj)
                for _, holding in tree[members[key]][1]  # type: ignore[attr-defined]
                if isinstance(holding, list) and holding
            ]
            if len(holdings) >= 2:
                first, second = rng.sample(holdings, 2)
                i, j = rng.randrange(len(first)), rng.randrange(len(second))
                first[i], second[j] = second[j], first[i]
        elif kind == 1:
            key, choices = rng.choice([("contract", CONTRACTS), ("declarer", SEAT_NAMES), ("leader", SEAT_NAMES)])
            self.set_member(tree, key, rng.choice(choices))
        elif kind == 2:
            announcements = []
            for _ in range(rng.randrange(1, 4)):
                announcement = Obj([("by", rng.choice(SEAT_NAMES)), ("what", rng.choice(ANNOUNCEMENTS))])
                if rng.random() < 0.7:
                    announcement.append(("when", rng.choice(TIMINGS)))
                if rng.random() < 0.3:
                    announcement.append(("kontra", True))
                announcements.append(announcement)
            self.set_member(tree, "announcements", announcements)
        elif kind in (3, 4):
            self.set_member(tree, "play", self.legal_play(tree))
        else:
            key = rng.choice(["play", "piles", "announcements", "leader"])
            tree[:] = [(name, value) for name, value in tree if name != key]

    def dealt_mutation(self, tree: Obj) -> None:
        """A change to a deal as dealt that keeps it well formed: a card
        swapped or moved between its holdings (talon, hands, personal
        cards, discards, the exchange), a key of the exchange or the deal
        dropped, a contract or declarer changed, or another variant's
        ``picked_up``."""
        rng = self.rng
        holdings = [value for value in self.card_lists(tree) if value]
        kind = rng.randrange(5)
        if kind <= 1 and len(holdings) >= 2:
            first, second = rng.sample(holdings, 2)
            i, j = rng.randrange(len(first)), rng.randrange(len(second))
            if kind == 0:
                first[i], second[j] = second[j], first[i]
            else:
                second.append(first.pop(i))
        elif kind == 2:
            key = rng.choice(["contract", "declarer", "exchange", "play", "announcements"])
            tree[:] = [(name, value) for name, value in tree if name != key]
        elif kind == 3:
            key, choices = rng.choice([("contract", CONTRACTS), ("declarer", SEAT_NAMES)])
            self.set_member(tree, key, rng.choice(choices))
        else:
            seats = [value for _, value in self.dealt_members(tree) if isinstance(value, Obj)]
            if seats:
                chosen = rng.choice(seats)
                personal = [
                    value
                    for key, value in chosen
                    if key == "personal" and isinstance(value, list) and not isinstance(value, Obj)
                ]
                if personal:
                    picked = rng.sample(personal[0], rng.randrange(len(personal[0]) + 1))
                    self.set_member(chosen, "picked_up", picked)

    @staticmethod
    def dealt_members(tree: Obj) -> list[tuple[str, object]]:
        return [member for key, value in tree if key == "dealt" and isinstance(value, Obj) for member in value]

    def card_lists(self, tree: Obj) -> list[list[object]]:
        """The card arrays of a deal as dealt and of its exchange."""
        found: list[list[object]] = []
        parts = [value for key, value in tree if key == "exchange" and isinstance(value, Obj)]
        # An Obj is a list too: test for it first.
        for _, value in self.dealt_members(tree):
            if isinstance(value, Obj):
                parts.append(value)
            elif isinstance(value, list):
                found.append(value)
        for part in parts:
            found += [value for _, value in part if isinstance(value, list) and not isinstance(value, Obj)]
        return found

    @staticmethod
    def set_member(tree: Obj, key: str, value: object) -> None:
        tree[:] = [(name, item) for name, item in tree if name != key] + [(key, value)]

    def legal_play(self, tree: Tree) -> list[object]:
        """The file's play continued by random legal cards, sometimes ending
        in an illegal one."""
        try:
            deal = parse_deal(to_python(tree), SOURCE)
        except DealError:
            return [self.card()]
        position = deal.position()
        play: list[object] = [card_name(card) for card in deal.play]
        for _ in range(self.rng.randrange(1, 2 * TRICKS_PER_GAME + 1)):
            moves = list(position.legal_moves)
            if not moves:
                break
            card = self.rng.choice(moves)
            position.push(card)
            play.append(card_name(card))
        if self.rng.random() < 0.2:
            play.append(self.card())
        return play

    def text_mutation(self, data: bytes) -> bytes:
        rng = self.rng
        kind = rng.randrange(6)
        at = rng.randrange(len(data) + 1)
        if kind == 0:
            return data[:at]
        if kind == 1:
            return data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
        if kind == 2:
            return b"\xef\xbb\xbf" + data
        if kind == 3:
            stray = rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b",", b"}", b"]", b"\\"])
            return data[:at] + stray + data[at:]
        if kind == 4:
            return data + rng.choice([b" {}", b"\n\n", b"x", b"\x00"])
        return data.replace(b": ", b":" + rng.choice([b"", b" ", b"\t", b"\n"]), 1)

    def case(self, base: str) -> tuple[Tree, bytes]:
        """A mutated deal file: its tree and its bytes."""
        tree = decode(base)
        if self.rng.random() < 0.4:
            for _ in range(self.rng.choice([1, 2, 3])):
                self.semantic_mutation(tree)
            if self.rng.random() < 0.3:
                self.tree_mutation(tree)
        else:
            for _ in range(self.rng.choice([1, 1, 2, 3])):
                self.tree_mutation(tree)
        data = encode(tree, ascii_only=self.rng.random() < 0.5).encode("utf-8", "surrogatepass")
        if self.rng.random() < 0.2:
            data = self.text_mutation(data)
        return tree, data


def cases(seed: int, count: int) -> Iterator[tuple[int, Tree, bytes]]:
    mutator = Mutator(seed)
    bases = [path.read_text(encoding="utf-8") for path in EXAMPLES]
    for number in range(count):
        tree, data = mutator.case(mutator.rng.choice(bases))
        yield number, tree, data


def assert_one_line(message: str, source: str = SOURCE) -> None:
    assert message.startswith(f"{source}: "), message[:300]
    assert message.isprintable() and len(message) < 400, message[:300]


def check_deal(deal: Deal) -> None:
    """A deal read is a deal to solve: it builds its position, writes back
    as the same deal, and passes or fails the options' check in one line."""
    deal.position()
    # A play file has no own discards: a deal as dealt writes back as the
    # same position without them.
    assert parse_deal(json.loads(json.dumps(deal_to_json(deal))), "copy") == dataclasses.replace(
        deal, own_discards=None
    )
    try:
        check(deal, Options())
    except OptionsError as error:
        assert "\n" not in str(error)


def read_one(data: bytes) -> None:
    try:
        deal = read_deal(io.BytesIO(data), SOURCE)
    except DealError as error:
        assert_one_line(str(error))
    else:
        check_deal(deal)


def parse_one(tree: Tree) -> None:
    try:
        deal = parse_deal(to_python(tree), SOURCE)
    except DealError as error:
        assert_one_line(str(error))
    else:
        check_deal(deal)


def run_cases(seed: int, count: int, step: Callable[[int, Tree, bytes], None]) -> None:
    for number, tree, data in cases(seed, count):
        try:
            step(number, tree, data)
        except Exception as error:
            raise AssertionError(f"seed {seed}, case {number}: {error!r} on {data[:300]!r}") from error


def in_process(seed: int, count: int) -> None:
    def step(number: int, tree: Tree, data: bytes) -> None:
        read_one(data)
        if number % 4 == 0:
            parse_one(tree)

    run_cases(seed, count, step)


def through_the_cli(seed: int, count: int, folder: Path) -> None:
    runner = CliRunner()
    rng = random.Random(seed)

    def step(number: int, tree: Tree, data: bytes) -> None:
        path = folder / f"fuzz{number}.json"
        path.write_bytes(data)
        args = ["--tt-mb", "4"]
        if rng.random() < 0.9:
            args.append("-q")
        if rng.random() < 0.2:
            args += ["--at", str(rng.randrange(40))]
        if rng.random() < 0.1:
            args += rng.sample(["--kontra", "--defender-announcements", "--win-thirds=106", "--json"], 2)
        if rng.random() < 0.2:
            args.append(f"--discard={rng.choice(DISCARD_VARIANTS)}")
        stdin = rng.random() < 0.1
        name = "<stdin>" if stdin else str(path)
        result = runner.invoke(cli, [*args, "-" if stdin else str(path)], input=data if stdin else None)
        assert result.exit_code in (0, 2), (args, result.exit_code, result.output[-2000:])
        if result.exit_code == 0:
            assert result.stdout and result.stderr == "", (args, result.stderr[:300])
        else:
            assert result.stdout == "", (args, result.stdout[:300])
            assert result.stderr.endswith("\n") and result.stderr.count("\n") == 1, (args, result.stderr[:300])
            assert result.stderr.startswith("Error: "), result.stderr[:300]
            assert_one_line(result.stderr[len("Error: ") : -1], name)

    run_cases(seed, count, step)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mutated_deals_are_read_or_refused_in_one_line(seed: int) -> None:
    in_process(seed, 1500)


def test_mutated_deals_are_solved_or_refused_through_the_cli(tmp_path: Path) -> None:
    through_the_cli(7, 300, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 110))
def test_many_mutated_deals(seed: int) -> None:
    in_process(seed, 3000)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(200, 205))
def test_many_mutated_deals_through_the_cli(seed: int, tmp_path: Path) -> None:
    through_the_cli(seed, 600, tmp_path)


def test_the_mutator_makes_every_kind_of_case() -> None:
    # The fuzzer is only as good as its cases: most are refused for many
    # different reasons, and some are still deals.
    outcomes: dict[str, int] = {}
    for _, _, data in cases(1, 1500):
        try:
            read_deal(io.BytesIO(data), SOURCE)
            kind = "deal"
        except DealError as error:
            kind = str(error).split(": ")[-1].split(" ")[0]
        outcomes[kind] = outcomes.get(kind, 0) + 1
    assert outcomes.get("deal", 0) >= 20
    assert len(outcomes) >= 15, outcomes


def test_the_mutator_makes_deals_as_dealt_of_every_kind() -> None:
    # The dealt example's mutations reach its own checks, and some still
    # give a play position.
    mutator = Mutator(4)
    base = next(path for path in EXAMPLES if path.name == "dealt.json").read_text(encoding="utf-8")
    fields: set[str] = set()
    deals = 0
    for _ in range(600):
        _, data = mutator.case(base)
        try:
            read_deal(io.BytesIO(data), SOURCE)
            deals += 1
        except DealError as error:
            assert_one_line(str(error))
            fields.add(str(error).split(": ")[1].split("[")[0])
    assert deals >= 20
    assert {"dealt.talon", "dealt.forehand.discards", "exchange.take", "exchange.lay_away"} <= fields, fields
