"""The deals of a batch: a file of deal lines (JSON Lines, one deal file a
line, numbered from 1; blank lines are skipped but counted), or a folder
of deal files (``*.json``, by name, not its subfolders).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "deals.jsonl").write_bytes(b'{"a": 1}\\n\\n{"b": 2}\\n')
>>> source = DealSource(str(folder / "deals.jsonl"))
>>> source.field, [(key, text) for key, text, _ in source.deals()]
('line', [(1, b'{"a": 1}'), (3, b'{"b": 2}')])
>>> source.count(done={1})
1
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator
from typing import Final

from kosolve.batch.tasks import Key
from kosolve.model.deal import MAX_FILE_BYTES
from kosolve.model.quoting import source_name

DEAL_FILE_SUFFIX: Final = ".json"


class SourceError(ValueError):
    """Deals that cannot be read at all: a missing input, an unreadable one."""


class DealSource:
    """The deals at ``path``: its lines if it is a file, its deal files if
    it is a folder."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.folder = os.path.isdir(path)
        if not self.folder and not os.path.isfile(path):
            raise SourceError(f"{source_name(path)}: no such file or folder")
        self.field = "file" if self.folder else "line"

    def _names(self) -> list[str]:
        try:
            names = os.listdir(self.path)
        except OSError as error:
            raise SourceError(f"{source_name(self.path)}: cannot read the folder: {error.strerror}") from None
        return sorted(
            name for name in names if name.endswith(DEAL_FILE_SUFFIX) and os.path.isfile(os.path.join(self.path, name))
        )

    def _lines(self) -> Iterator[tuple[int, bytes]]:
        try:
            with open(self.path, "rb") as file:
                for number, line in enumerate(file, start=1):
                    if line.strip():
                        yield number, line.rstrip(b"\r\n")
        except OSError as error:
            raise SourceError(f"{source_name(self.path)}: cannot read the file: {error.strerror}") from None

    def keys(self) -> Iterator[Key]:
        """Every deal's key, in input order, without reading the deals."""
        if self.folder:
            yield from self._names()
        else:
            yield from (number for number, _ in self._lines())

    def count(self, done: Collection[Key] = ()) -> int:
        """How many deals there are, leaving out those ``done``."""
        return sum(1 for key in self.keys() if key not in done)

    def deals(self, done: Collection[Key] = ()) -> Iterator[tuple[Key, bytes, str | None]]:
        """``(key, text, problem)`` for each deal not ``done``, in input
        order, read as the work goes: ``problem`` says why a folder's file
        could not be read (its text is then empty)."""
        if not self.folder:
            yield from ((number, line, None) for number, line in self._lines() if number not in done)
            return
        for name in self._names():
            if name in done:
                continue
            try:
                with open(os.path.join(self.path, name), "rb") as file:
                    # One byte more than a deal file may have, for read_json to refuse.
                    yield name, file.read(MAX_FILE_BYTES + 1), None
            except OSError as error:
                yield name, b"", f"{source_name(name)}: cannot read the file: {error.strerror}"


__all__ = ["DEAL_FILE_SUFFIX", "DealSource", "SourceError"]
