"""A seeded fuzzer for everything kosolve reads: deal files (play files and
deals as dealt), deals as dealt for the exchange table, and seat views.

Each case starts from a real input (an example file, or one the realistic
dealer makes) and is mutated as a JSON tree (keys deleted, given twice,
swapped and renamed, cards renamed and moved between holdings, the play
altered or continued, wrong types, huge numbers, deep nesting, look-alike
letters) and then as bytes (truncated, stray bytes, a byte order mark).
:func:`judge` reads it with the reader of its kind, and every case must
end in one of two ways: read, and then usable (its position replays, it
writes back as itself, a view's worlds replay or it says no world fits),
or refused with one printable line naming the file.  Anything else, an
exception of another kind or a message that breaks the line, is a bug,
and :func:`judge` lets it through.

``python benchmarks/fuzz.py -n 1000000`` runs a million cases; the tests
run a few thousand, and pass the cases through the command line too.

>>> counts = fuzz(bases(seed=1, generated=3), seed=2, count=60)
>>> sum(counts.values()), sorted({kind for kind, _ in counts})
(60, ['deal', 'dealt', 'view'])
"""

from __future__ import annotations

import collections
import dataclasses
import io
import json
import random
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final, TypeAlias

from kosolve.analysis.report import Options, OptionsError, check
from kosolve.dealing import deal_bid
from kosolve.model.announcements import ANNOUNCEMENTS, TIMINGS
from kosolve.model.cards import CARD_NAMES, card_name, mask_of
from kosolve.model.deal import KEYS, Deal, deal_to_json
from kosolve.model.dealt_file import dealt_to_json, parse_dealt_file
from kosolve.model.files import parse_deal, read_deal, read_view
from kosolve.model.game import CONTRACTS, DISCARD_VARIANTS, SEAT_NAMES, TRICKS_PER_GAME, Rules
from kosolve.model.jsonfile import FileError, read_json
from kosolve.model.view import KEYS as VIEW_KEYS
from kosolve.model.view import SeatView, parse_view, view_of, view_to_json
from kosolve.sampling.worlds import NoWorldError, random_worlds, world_space

SOURCE: Final = "fuzz.json"
"""The name every case is read under: each message must start with it."""
KINDS: Final = ("deal", "dealt", "view")
"""What an input is read as: a deal file (``kosolve``), a deal as dealt
for its exchange table (``kosolve exchange``), a seat view (``kosolve odds``)."""
MESSAGE_LIMIT: Final = 400
"""The longest refusal a reader may give: one line a person reads."""


@dataclasses.dataclass(frozen=True)
class Base:
    """A real input the cases start from: what it is read as, its text,
    and the discard variant a deal as dealt in it was dealt by."""

    kind: str
    text: str
    discard: str = "classic"


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
    """The tree as JSON text; iterative, since a mutation may nest a value
    thousands deep."""
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
    """The tree as a parser gets data from Python: dicts (the last of a key
    given twice wins), numbers for the raw tokens."""
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
WORDS: Final = (
    *KEYS,
    *VIEW_KEYS,
    *SEAT_NAMES,
    *CONTRACTS,
    *ANNOUNCEMENTS,
    *TIMINGS,
    "by",
    "what",
    "when",
    "kontra",
    "holds",
    "dealt",
    "talon",
    "hand",
    "personal",
    "discards",
    "picked_up",
    "exchange",
    "take",
    "lay_away",
)
STRANGE: Final = ["", " ", "\n", "\x00", "\u200b", "\ud800", "\U0001f0a1", "'", '"', "\\", "\x1b[31m", "\u202e"]
CARD_ARRAYS: Final = ("hand", "pile", "holds", "play", "talon", "personal", "discards", "picked_up", "take", "lay_away")
"""Keys whose value is an array of card names, at any depth, in any kind."""


def _within(tree: Tree, node: object) -> bool:
    """Whether ``node`` is ``tree`` or lies anywhere inside it."""
    stack = [tree]
    while stack:
        item = stack.pop()
        if item is node:
            return True
        if isinstance(item, list):
            stack.extend(member[1] if isinstance(item, Obj) else member for member in item)
    return False


class Mutator:
    """Seeded mutations of an input file, as its tree and then as text."""

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
        """A change that may break the format anywhere."""
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
            # Not a value with one inside the other: that would make a cycle.
            if not _within(value, other[0]) and not _within(moved, container):
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
                    at = rng.randrange(len(source_list))
                    if not _within(source_list[at], target_list):
                        moved = source_list.pop(at)
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
                    rng.choice(["play", "announcements", "leader", "piles", "other", "view"]),
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

    def semantic_mutation(self, kind: str, tree: Tree) -> None:
        """A change that keeps the file well formed, so that many cases are
        still inputs to answer, or refused by the rules rather than the format."""
        if not isinstance(tree, Obj):
            return
        if kind == "view":
            self.view_mutation(tree)
            return
        members = {key: index for index, (key, _) in enumerate(tree)}
        if "dealt" in members and self.rng.random() < 0.5:
            self.dealt_mutation(tree)
            return
        self.deal_mutation(tree, members)

    def deal_mutation(self, tree: Obj, members: dict[str, int]) -> None:
        rng = self.rng
        choice = rng.randrange(6)
        if choice == 0:
            holdings = [
                holding
                for key in ("hands", "piles")
                if key in members and isinstance(tree[members[key]][1], Obj)
                for _, holding in tree[members[key]][1]  # type: ignore[attr-defined]
                if isinstance(holding, list) and holding
            ]
            self.swap_cards(holdings)
        elif choice == 1:
            key, choices = rng.choice([("contract", CONTRACTS), ("declarer", SEAT_NAMES), ("leader", SEAT_NAMES)])
            self.set_member(tree, key, rng.choice(choices))
        elif choice == 2:
            self.set_member(tree, "announcements", self.announcements())
        elif choice in (3, 4):
            self.set_member(tree, "play", self.legal_play(tree))
        else:
            key = rng.choice(["play", "piles", "announcements", "leader"])
            tree[:] = [(name, value) for name, value in tree if name != key]

    def announcements(self) -> list[object]:
        rng = self.rng
        announcements: list[object] = []
        for _ in range(rng.randrange(1, 4)):
            announcement = Obj([("by", rng.choice(SEAT_NAMES)), ("what", rng.choice(ANNOUNCEMENTS))])
            if rng.random() < 0.7:
                announcement.append(("when", rng.choice(TIMINGS)))
            if rng.random() < 0.3:
                announcement.append(("kontra", True))
            announcements.append(announcement)
        return announcements

    def swap_cards(self, holdings: list[list[object]], move: bool = False) -> None:
        """A card of one holding swapped with one of another (or moved there)."""
        if len(holdings) < 2:
            return
        first, second = self.rng.sample(holdings, 2)
        if not first or (not second and not move):
            return
        i = self.rng.randrange(len(first))
        if move:
            second.append(first.pop(i))
            return
        j = self.rng.randrange(len(second))
        first[i], second[j] = second[j], first[i]

    def view_mutation(self, tree: Obj) -> None:
        """A change to a seat view that keeps it well formed: a card swapped
        or moved between the viewer's hand and pile, what he saw of the
        other's and the play; the play altered, cut or continued with
        random cards (which may show a void and then break it); a seat or
        the contract changed; a key dropped; announcements."""
        rng = self.rng
        choice = rng.randrange(7)
        if choice <= 1:
            self.swap_cards([value for value in self.card_lists(tree) if isinstance(value, list)], move=choice == 1)
        elif choice == 2:
            play = next((value for key, value in tree if key == "play" and isinstance(value, list)), None)
            if play:
                play[rng.randrange(len(play))] = rng.choice(CARD_NAMES)
        elif choice == 3:
            self.set_member(tree, "play", self.view_play(tree))
        elif choice == 4:
            key, choices = rng.choice(
                [("view", SEAT_NAMES), ("declarer", SEAT_NAMES), ("leader", SEAT_NAMES), ("contract", CONTRACTS)]
            )
            self.set_member(tree, key, rng.choice(choices))
        elif choice == 5:
            self.set_member(tree, "announcements", self.announcements())
        else:
            key = rng.choice(["play", "other", "announcements", "leader", "declarer", "contract"])
            tree[:] = [(name, value) for name, value in tree if name != key]

    def view_play(self, tree: Obj) -> list[object]:
        """The view's play continued: the viewer's own cards legal from his
        hand, the other's random cards he might hold, and sometimes any card."""
        try:
            view = parse_view(to_python(tree), SOURCE)
        except FileError:
            return [self.card()]
        play = list(view.play)
        unseen = [card for card in range(len(CARD_NAMES)) if not (view.hand | view.pile) >> card & 1]
        for _ in range(self.rng.randrange(1, 8)):
            current = dataclasses.replace(view, play=tuple(play))
            mover = current.to_move
            if mover is None:
                break
            if mover == view.view:
                mine = view.hand & ~current.played_by(view.view)
                options = [card for card in range(len(CARD_NAMES)) if mine >> card & 1]
            else:
                options = [card for card in unseen if card not in play]
            if not options:
                break
            play.append(self.rng.choice(options))
        names: list[object] = [card_name(card) for card in play]
        if self.rng.random() < 0.1:
            names.append(self.card())
        return names

    def dealt_mutation(self, tree: Obj) -> None:
        """A change to a deal as dealt that keeps it well formed: a card
        swapped or moved between its holdings (talon, hands, personal
        cards, discards, the exchange), a key of the exchange or the deal
        dropped, a contract or declarer changed, or another variant's
        ``picked_up``."""
        rng = self.rng
        holdings = [value for value in self.card_lists(tree) if value]
        choice = rng.randrange(5)
        if choice <= 1:
            self.swap_cards(holdings, move=choice == 1)
        elif choice == 2:
            key = rng.choice(["contract", "declarer", "exchange", "play", "announcements"])
            tree[:] = [(name, value) for name, value in tree if name != key]
        elif choice == 3:
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

    def card_lists(self, tree: Tree) -> list[list[object]]:
        """Every array of card names in the tree, at any depth."""
        found: list[list[object]] = []
        stack = [tree]
        while stack:
            node = stack.pop()
            if not isinstance(node, Obj):
                continue
            for key, value in node:
                if key in CARD_ARRAYS and isinstance(value, list) and not isinstance(value, Obj):
                    found.append(value)
                elif isinstance(value, Obj):
                    stack.append(value)
        return found

    @staticmethod
    def set_member(tree: Obj, key: str, value: object) -> None:
        tree[:] = [(name, item) for name, item in tree if name != key] + [(key, value)]

    def legal_play(self, tree: Tree) -> list[object]:
        """The file's play continued by random legal cards, sometimes ending
        in an illegal one."""
        try:
            deal = parse_deal(to_python(tree), SOURCE)
        except FileError:
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
        choice = rng.randrange(6)
        at = rng.randrange(len(data) + 1)
        if choice == 0:
            return data[:at]
        if choice == 1:
            return data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
        if choice == 2:
            return b"\xef\xbb\xbf" + data
        if choice == 3:
            stray = rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b",", b"}", b"]", b"\\"])
            return data[:at] + stray + data[at:]
        if choice == 4:
            return data + rng.choice([b" {}", b"\n\n", b"x", b"\x00"])
        return data.replace(b": ", b":" + rng.choice([b"", b" ", b"\t", b"\n"]), 1)

    def case(self, base: Base) -> tuple[Tree, bytes]:
        """A mutated input: its tree and its bytes."""
        tree = decode(base.text)
        if self.rng.random() < 0.4:
            for _ in range(self.rng.choice([1, 2, 3])):
                self.semantic_mutation(base.kind, tree)
            if self.rng.random() < 0.3:
                self.tree_mutation(tree)
        else:
            for _ in range(self.rng.choice([1, 1, 2, 3])):
                self.tree_mutation(tree)
        data = encode(tree, ascii_only=self.rng.random() < 0.5).encode("utf-8", "surrogatepass")
        if self.rng.random() < 0.2:
            data = self.text_mutation(data)
        return tree, data


def example_bases(folder: str | Path) -> list[Base]:
    """The example files under ``folder``: deal files (an open deal as
    dealt, one without a bid, read as a deal as dealt) and, in
    ``views/``, seat views."""
    found: list[Base] = []
    for path in sorted(Path(folder).glob("*.json")):
        text = path.read_text(encoding="utf-8")
        data = json.loads(text)
        kind = "dealt" if "dealt" in data and "exchange" not in data else "deal"
        found.append(Base(kind, text))
    found += [Base("view", path.read_text(encoding="utf-8")) for path in sorted(Path(folder).glob("views/*.json"))]
    return found


def bases(seed: int, generated: int, folder: str | Path | None = None) -> list[Base]:
    """The inputs cases start from: ``generated`` of each kind from the
    realistic dealer (a deal as dealt, its play file after a random number
    of random legal cards, a view of it from either seat), and the example
    files under ``folder`` when given."""
    rng = random.Random(seed)
    found = example_bases(folder) if folder is not None else []
    for _ in range(generated):
        discard = rng.choice(DISCARD_VARIANTS)
        file = deal_bid(rng, discard=discard)
        found.append(Base("dealt", json.dumps(dealt_to_json(file)), discard))
        deal = file.play_deal()
        position = deal.position()
        for _ in range(rng.randrange(2 * TRICKS_PER_GAME + 1)):
            card = rng.choice(list(position.legal_moves))
            position.push(card)
            deal = dataclasses.replace(deal, play=(*deal.play, card))
        found.append(Base("deal", json.dumps(deal_to_json(deal)), discard))
        taken = mask_of(file.exchange.take) if file.exchange is not None else 0
        view = view_of(deal, rng.randrange(2), taken=taken)
        found.append(Base("view", json.dumps(view_to_json(view))))
    return found


class Bug(AssertionError):
    """A case the reader neither read nor refused in one line."""


def _refused(message: str) -> str:
    """The field a refusal names (``JSON`` for text that is none), once it
    is one printable line naming the file; else :class:`Bug`."""
    if not message.startswith(f"{SOURCE}: ") or not message.isprintable() or len(message) > MESSAGE_LIMIT:
        raise Bug(f"not one line naming the file: {message[:MESSAGE_LIMIT]!r}")
    field = message.split(": ")[1]
    if field.startswith(("line ", "broken JSON", "not UTF-8", "more than")):
        return "JSON"
    return re.sub(r"\[[^]]*\]", "[]", field)


def _check_deal(deal: Deal) -> None:
    """A deal read is a deal to solve: it builds its position, writes back
    as the same deal (a play file has no own discards: a deal as dealt
    writes back as its position without them), and passes or fails the
    options' check in one line."""
    deal.position()
    if parse_deal(json.loads(json.dumps(deal_to_json(deal))), "copy") != deal:
        raise Bug("the deal does not write back as itself")
    try:
        check(deal, Options())
    except OptionsError as error:
        if "\n" in str(error):
            raise Bug(f"the options' refusal breaks the line: {error}") from None


def _check_view(view: SeatView, rng: random.Random) -> str:
    """A view read writes back as itself, and either some worlds fit it,
    each replaying its play, or it says in one line that none does."""
    if parse_view(json.loads(json.dumps(view_to_json(view))), "copy") != view:
        raise Bug("the view does not write back as itself")
    try:
        world_space(view)
    except NoWorldError as error:
        if not str(error).isprintable():
            raise Bug(f"no world, said on more than one line: {error}") from None
        return "no world"
    for world in random_worlds(view, 2, seed=rng.randrange(1 << 30)):
        if isinstance(world, Deal):
            world.position()
    return "read"


def judge(kind: str, data: bytes, rules: Rules, rng: random.Random) -> str:
    """Read ``data`` as ``kind`` under ``rules``: ``"read"`` (and usable:
    see the module text), ``"no world"`` for a view that none fits, or the
    field a one-line refusal names.  Raises :class:`Bug`, or lets through
    what the reader raised, for anything else."""
    try:
        if kind == "deal":
            _check_deal(read_deal(io.BytesIO(data), SOURCE, rules=rules))
            return "read"
        if kind == "dealt":
            file = parse_dealt_file(read_json(io.BytesIO(data), SOURCE), SOURCE, rules=rules)
            again = parse_dealt_file(json.loads(json.dumps(dealt_to_json(file))), "copy", rules=rules)
            if again != file:
                raise Bug("the deal as dealt does not write back as itself")
            if file.contract is not None and file.declarer is not None and file.exchange is not None:
                _check_deal(file.play_deal())
            return "read"
        return _check_view(read_view(io.BytesIO(data), SOURCE), rng)
    except FileError as error:
        return _refused(str(error))


def cases(base_list: Sequence[Base], seed: int, count: int) -> Iterator[tuple[Base, Tree, bytes]]:
    """``count`` mutated inputs from the seed alone, each from a base
    chosen at random."""
    mutator = Mutator(seed)
    for _ in range(count):
        base = mutator.rng.choice(base_list)
        tree, data = mutator.case(base)
        yield base, tree, data


def fuzz(
    base_list: Sequence[Base],
    seed: int,
    count: int,
    progress: Callable[[int], None] | None = None,
) -> collections.Counter[tuple[str, str]]:
    """``count`` cases judged in turn, each under random rule options (the
    discard variant mostly its base's); how many ended how, by kind.  The first bug raises :class:`Bug`
    with the case's seed, number and bytes, so that it can be run again."""
    rng = random.Random(seed)
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    for number, (base, _, data) in enumerate(cases(base_list, seed, count)):
        discard = base.discard if rng.random() < 0.8 else rng.choice(DISCARD_VARIANTS)
        rules = Rules(discard=discard, kontra=rng.random() < 0.2)
        try:
            outcome = judge(base.kind, data, rules, rng)
        except Exception as error:
            raise Bug(f"seed {seed}, case {number} ({base.kind}): {error!r} on {data[:300]!r}") from error
        counts[base.kind, outcome] += 1
        if progress is not None:
            progress(number + 1)
    return counts


__all__ = [
    "KINDS",
    "SOURCE",
    "Base",
    "Bug",
    "Mutator",
    "Obj",
    "Raw",
    "bases",
    "cases",
    "decode",
    "encode",
    "example_bases",
    "fuzz",
    "judge",
    "to_python",
]
