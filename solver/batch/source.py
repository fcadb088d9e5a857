"""The deals of a batch: a file of deal lines (JSON Lines, one deal file a
line, numbered from 1; blank lines are skipped but counted), or a folder
of deal files (``*.json``, by name, not its subfolders).

Each deal comes with the SHA-256 of its bytes (a line without its line
end, or a whole file), which its result record keeps, so that resuming
can tell the input a results file was made from.  A deal is never read
whole when it is larger than any deal file may be
(:data:`~kosolve.model.deal.MAX_FILE_BYTES`): its bytes are only hashed,
and its record is an error.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "deals.jsonl").write_bytes(b'{"a": 1}\\r\\n\\n{"b": 2}')
>>> source = DealSource(str(folder / "deals.jsonl"))
>>> source.field, [(entry.key, entry.text) for entry in source.deals(done={1})]
('line', [(3, b'{"b": 2}')])
>>> list(source.index(hashed={1})) == [(1, hashlib.sha256(b'{"a": 1}').hexdigest()), (3, None)]
True
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Collection, Iterator
from typing import IO, Final, NamedTuple

from kosolve.batch.tasks import Key
from kosolve.model.jsonfile import MAX_FILE_BYTES
from kosolve.model.quoting import source_name

DEAL_FILE_SUFFIX: Final = ".json"
PIECE_BYTES: Final = 1 << 20
"""The most of a line read at once: a deal line (a few hundred bytes) is
read whole, a longer one in pieces, so that one too long for a deal is
never held whole."""
LINE_ENDS: Final = b"\r\n"
TOO_LARGE: Final = f"more than {MAX_FILE_BYTES >> 20} MB, too large for a deal"


class SourceError(ValueError):
    """Deals that cannot be read at all: a missing input, an unreadable one."""


class Entry(NamedTuple):
    """One deal of the input as read."""

    key: Key
    """Its line number, or its file's name in the folder."""
    text: bytes
    """Its bytes (a line without its line end); empty when ``problem`` says why."""
    sha256: str | None
    """The SHA-256 of its bytes, hex; None for a file that could not be read."""
    problem: str | None = None
    """Why it cannot be answered at all: a file that cannot be read, a deal too large."""


class DealSource:
    """The deals at ``path``: its lines if it is a file, its deal files if
    it is a folder; ``name`` is what messages call it (the path itself by
    default, ``<stdin>`` for the standard input spooled to ``path``)."""

    def __init__(self, path: str, name: str | None = None) -> None:
        self.path = path
        self.name = source_name(path if name is None else name)
        self.folder = os.path.isdir(path)
        if not self.folder and not os.path.isfile(path):
            raise SourceError(f"{self.name}: no such file or folder")
        self.field = "file" if self.folder else "line"

    def _names(self) -> list[str]:
        try:
            names = os.listdir(self.path)
        except OSError as error:
            raise SourceError(f"{self.name}: cannot read the folder: {error.strerror}") from None
        return sorted(
            name for name in names if name.endswith(DEAL_FILE_SUFFIX) and os.path.isfile(os.path.join(self.path, name))
        )

    def _lines(self, texts: bool) -> Iterator[Entry]:
        """Every line that is not blank, its text only when ``texts`` asks."""
        try:
            with open(self.path, "rb") as file:
                number = 0
                while piece := file.readline(PIECE_BYTES):
                    number += 1
                    if piece.endswith(b"\n") or len(piece) < PIECE_BYTES:
                        text = piece.rstrip(LINE_ENDS)
                        if text.strip():
                            yield Entry(number, text if texts else b"", hashlib.sha256(text).hexdigest())
                    else:
                        entry = _long_line(file, number, piece, texts)
                        if entry is not None:
                            yield entry
        except OSError as error:
            raise SourceError(f"{self.name}: cannot read the file: {error.strerror}") from None

    def _file(self, name: str) -> Entry:
        """The deal file ``name`` of the folder."""
        try:
            with open(os.path.join(self.path, name), "rb") as file:
                text = file.read(MAX_FILE_BYTES + 1)
                digest = hashlib.sha256(text)
                if len(text) <= MAX_FILE_BYTES:
                    return Entry(name, text, digest.hexdigest())
                del text
                while piece := file.read(PIECE_BYTES):
                    digest.update(piece)
                return Entry(name, b"", digest.hexdigest(), f"{source_name(name)}: {TOO_LARGE}")
        except OSError as error:
            return Entry(name, b"", None, f"{source_name(name)}: cannot read the file: {error.strerror}")

    def index(self, hashed: Collection[Key] = ()) -> Iterator[tuple[Key, str | None]]:
        """Every deal's key, in input order, with the SHA-256 of those
        ``hashed`` (None for the others): the deals are read only for it."""
        if self.folder:
            for name in self._names():
                yield name, self._file(name).sha256 if name in hashed else None
        else:
            for entry in self._lines(texts=False):
                yield entry.key, entry.sha256 if entry.key in hashed else None

    def deals(self, done: Collection[Key] = ()) -> Iterator[Entry]:
        """Each deal not ``done``, in input order, read as the work goes."""
        if self.folder:
            yield from (self._file(name) for name in self._names() if name not in done)
        else:
            yield from (entry for entry in self._lines(texts=True) if entry.key not in done)


def _long_line(file: IO[bytes], number: int, piece: bytes, texts: bool) -> Entry | None:
    """The line ``number`` of ``file``, longer than a piece, whose first
    ``piece`` was read: hashed piece by piece, then read again whole only
    when ``texts`` asks and it is not too large for a deal; None when it
    is blank."""
    start = file.tell() - len(piece)
    digest = hashlib.sha256()
    size = 0
    blank = True
    held = b""
    while piece:
        piece = held + piece
        ends = piece.endswith(b"\n")
        # A line end may be split between pieces: a piece's last "\r" waits
        # for the next to tell whether it ends the line.
        body = piece.rstrip(LINE_ENDS if ends else b"\r")
        held = b"" if ends else piece[len(body) :]
        digest.update(body)
        size += len(body)
        blank = blank and not body.strip()
        if ends:
            break
        piece = file.readline(PIECE_BYTES)
    if blank:
        return None
    if size > MAX_FILE_BYTES:
        return Entry(number, b"", digest.hexdigest(), f"line {number}: {TOO_LARGE}")
    if not texts:
        return Entry(number, b"", digest.hexdigest())
    end = file.tell()
    file.seek(start)
    whole = file.read(size)
    file.seek(end)
    return Entry(number, whole, digest.hexdigest())


__all__ = ["DEAL_FILE_SUFFIX", "DealSource", "Entry", "SourceError"]
