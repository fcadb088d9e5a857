"""One loader for every kind of file kosolve reads, told apart by its keys:

- a **play file** (``hands``, ``piles``, ``play``; :mod:`kosolve.model.deal`),
  read as a :class:`~kosolve.model.deal.Deal`;
- a **deal as dealt** (the key ``dealt``; :mod:`kosolve.model.dealt_file`),
  read as a :class:`~kosolve.model.dealt_file.DealtFile`: with a bid
  (contract, declarer and exchange) it gives a play position too;
- a **seat view** (the key ``view``; :mod:`kosolve.model.view`), read as a
  :class:`~kosolve.model.view.SeatView`.

:func:`load_file` reads whichever a file is; :func:`load_deal`,
:func:`load_dealt_file` and :func:`load_view` read one kind and refuse the
others with a :class:`KindError` that says what the file is.  Every error
is a :class:`~kosolve.model.jsonfile.FileError` naming the file and the
field in one line.

>>> kind_of(load_file("examples/views/trick4.json")), kind_of(load_file("examples/dealt-open.json"))
('view', 'dealt')
>>> load_deal("examples/ending.json").first_trick
13
>>> load_deal("examples/dealt.json").hands == load_dealt_file("examples/dealt.json").play_deal().hands
True
>>> load_deal("examples/views/trick4.json")
Traceback (most recent call last):
...
kosolve.model.files.KindError: examples/views/trick4.json: a seat view, not a deal
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import IO, Final, TypeAlias

from kosolve.model.deal import Deal, DealError, parse_play_file
from kosolve.model.dealt_file import DEALT_KEY, DealtFile, parse_dealt_file
from kosolve.model.game import DEFAULT_RULES, Rules
from kosolve.model.jsonfile import FileError, load_json, read_json
from kosolve.model.quoting import source_name
from kosolve.model.view import SeatView, ViewError, parse_view

InputFile: TypeAlias = Deal | DealtFile | SeatView
"""What a file holds: a play file's deal, a deal as dealt, a seat view."""
KINDS: Final = ("deal", "dealt", "view")
"""The kinds of file, as :func:`kind_of` names them."""
KIND_NAMES: Final = {"deal": "a play file", "dealt": "a deal as dealt", "view": "a seat view"}
VIEW_KEY: Final = "view"
"""The key that makes a file a seat view."""
HANDS_KEY: Final = "hands"
"""The key that makes a file a play file."""


class KindError(FileError):
    """A file of another kind than the one asked for: a seat view given to
    read a deal, say.  ``kind`` is what the file is (:data:`KINDS`), and
    ``wanted`` what was asked for."""

    def __init__(self, message: str, kind: str, wanted: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.wanted = wanted

    def __reduce__(self) -> tuple[type[KindError], tuple[str, str, str]]:
        # Raised in a worker process, it is pickled back with its fields.
        return KindError, (str(self), self.kind, self.wanted)


def kind_in(data: object) -> str | None:
    """The kind of file the parsed JSON ``data`` is, by its keys: ``view``,
    ``dealt`` or ``hands``; None when it has none of them.

    >>> kind_in({"view": "dealer"}), kind_in({"dealt": {}}), kind_in({"hands": {}}), kind_in([])
    ('view', 'dealt', 'deal', None)
    """
    if isinstance(data, Mapping):
        for key, kind in ((VIEW_KEY, "view"), (DEALT_KEY, "dealt"), (HANDS_KEY, "deal")):
            if key in data:
                return kind
    return None


def kind_of(file: InputFile) -> str:
    """The kind of a file read (:data:`KINDS`)."""
    if isinstance(file, SeatView):
        return "view"
    return "dealt" if isinstance(file, DealtFile) else "deal"


def _parse(data: object, source: str, rules: Rules, wanted: str | None) -> InputFile:
    """The file ``data`` read as its kind, or, when its keys do not say, as
    the kind ``wanted`` (a play file when any will do), so that its reader
    says what is missing; a file of another kind than ``wanted`` is a
    :class:`KindError` (a deal as dealt will do for a deal)."""
    kind = kind_in(data) or wanted or "deal"
    if wanted is not None and kind != wanted and (wanted, kind) != ("deal", "dealt"):
        what = {"deal": "a deal", "dealt": "a deal as dealt", "view": "a seat view"}[wanted]
        raise KindError(f"{source_name(source)}: {KIND_NAMES[kind]}, not {what}", kind, wanted)
    if kind == "view":
        return parse_view(data, source)
    if kind == "dealt":
        return parse_dealt_file(data, source, rules=rules)
    return parse_play_file(data, source)


def parse_file(data: object, source: str, *, rules: Rules = DEFAULT_RULES) -> InputFile:
    """The file described by ``data``, whatever its kind; a deal as dealt
    is judged by ``rules`` (its discard variant)."""
    return _parse(data, source, rules, None)


def read_file(file: IO[bytes], source: str, *, rules: Rules = DEFAULT_RULES) -> InputFile:
    """The file in the open binary ``file`` (the standard input, say),
    whatever its kind."""
    return _parse(read_json(file, source), source, rules, None)


def load_file(path: str | os.PathLike[str], *, rules: Rules = DEFAULT_RULES) -> InputFile:
    """The file at ``path``, whatever its kind."""
    return _parse(load_json(path), os.fspath(path), rules, None)


def deal_of(file: Deal | DealtFile) -> Deal:
    """The play position of a file read: a play file's deal, or a deal as
    dealt's after its bid (one without a bid is a
    :class:`~kosolve.model.deal.DealError`)."""
    return file.play_deal() if isinstance(file, DealtFile) else file


def parse_deal(data: object, source: str, *, rules: Rules = DEFAULT_RULES) -> Deal:
    """The play position described by ``data``: a play file, or a deal as
    dealt with its bid; a seat view is a :class:`KindError`.

    >>> data = {"version": 1, "contract": "dreiblatt", "declarer": "dealer",
    ...         "hands": {"forehand": ["HK", "H4"], "dealer": ["HQ", "I"]}, "play": ["HK", "I"]}
    >>> parse_deal(data, "ending.json")
    Traceback (most recent call last):
    ...
    kosolve.model.deal.DealError: ending.json: play[1]: trick 15: I is illegal on HK: the dealer must follow suit
    """
    file = _parse(data, source, rules, "deal")
    assert not isinstance(file, SeatView)
    return deal_of(file)


def read_deal(file: IO[bytes], source: str, *, rules: Rules = DEFAULT_RULES) -> Deal:
    """The play position in the open binary ``file`` (see :func:`parse_deal`)."""
    return parse_deal(read_json(file, source, DealError), source, rules=rules)


def load_deal(path: str | os.PathLike[str], *, rules: Rules = DEFAULT_RULES) -> Deal:
    """The play position in the file at ``path`` (see :func:`parse_deal`).

    >>> load_deal("no/such/deal.json")
    Traceback (most recent call last):
    ...
    kosolve.model.deal.DealError: no/such/deal.json: cannot read the file: No such file or directory
    """
    return parse_deal(load_json(path, DealError), os.fspath(path), rules=rules)


def parse_dealt(data: object, source: str, *, rules: Rules = DEFAULT_RULES) -> DealtFile:
    """The deal as dealt described by ``data``; another kind is a :class:`KindError`."""
    file = _parse(data, source, rules, "dealt")
    assert isinstance(file, DealtFile)
    return file


def read_dealt_file(file: IO[bytes], source: str, *, rules: Rules = DEFAULT_RULES) -> DealtFile:
    """The deal as dealt in the open binary ``file`` (see :func:`parse_dealt`)."""
    return parse_dealt(read_json(file, source, DealError), source, rules=rules)


def load_dealt_file(path: str | os.PathLike[str], *, rules: Rules = DEFAULT_RULES) -> DealtFile:
    """The deal as dealt in the file at ``path`` (see :func:`parse_dealt`)."""
    return parse_dealt(load_json(path, DealError), os.fspath(path), rules=rules)


def read_view(file: IO[bytes], source: str) -> SeatView:
    """The seat view in the open binary ``file``; another kind is a :class:`KindError`."""
    view = _parse(read_json(file, source, ViewError), source, DEFAULT_RULES, "view")
    assert isinstance(view, SeatView)
    return view


def load_view(path: str | os.PathLike[str]) -> SeatView:
    """The seat view in the file at ``path``; another kind is a :class:`KindError`."""
    view = _parse(load_json(path, ViewError), os.fspath(path), DEFAULT_RULES, "view")
    assert isinstance(view, SeatView)
    return view


__all__ = [
    "KINDS",
    "KIND_NAMES",
    "InputFile",
    "KindError",
    "deal_of",
    "kind_in",
    "kind_of",
    "load_deal",
    "load_dealt_file",
    "load_file",
    "load_view",
    "parse_deal",
    "parse_dealt",
    "parse_file",
    "read_deal",
    "read_dealt_file",
    "read_file",
    "read_view",
]
