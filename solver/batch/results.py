"""The results file of a batch: one JSON object a line (docs/batch.md), in
the order the deals were finished, each flushed to the disk as it is
written, so that an interrupted batch (Ctrl-C, a kill, a crash, a power
cut) loses nothing it finished.

Running the same batch again resumes it: :func:`resume` keeps every
complete line, cuts off a torn last line (one the interruption left
without its newline, or not whole JSON), and tells the batch which deals
are done by the key each record names (``line`` or ``file``), so that
nothing finished is solved again.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "results.jsonl"
>>> with ResultsWriter(str(path)) as results:
...     results.write({"line": 1, "report": {}})
...     results.write({"line": 2, "error": "line 2: bad"})
>>> _ = path.open("ab").write(b'{"line": 3, "for')   # torn by a kill
>>> resume(str(path), "line")
{1, 2}
>>> path.read_bytes()
b'{"line": 1, "report": {}}\\n{"line": 2, "error": "line 2: bad"}\\n'
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import IO, Final

from kosolve.batch.tasks import FIELDS, REPORT, Key
from kosolve.model.quoting import source_name

NEWLINE: Final = b"\n"


class ResultsError(ValueError):
    """A results file that is not one: a line that is no result record,
    records of the other kind of input."""


class WriteError(RuntimeError):
    """A record that could not be written (a full disk): what was written
    before it is kept, and the batch stops."""


def _key(record: object, field: str | None) -> Key | None:
    """The deal key of a record of ``field`` (either, for None), or None
    when it is not a result record."""
    if not isinstance(record, dict) or not ("error" in record or REPORT in record):
        return None
    for name in FIELDS if field is None else (field,):
        key = record.get(name)
        if name == "line" and isinstance(key, int) and not isinstance(key, bool) and key >= 1:
            return key
        if name == "file" and isinstance(key, str):
            return key
    return None


def _records(path: str, field: str | None) -> Iterator[tuple[int, dict[str, object] | None]]:
    """``(end offset, record)`` of each line of the file, read as it goes;
    the record is None for a last line that is torn."""
    shown = source_name(path)
    offset = 0
    with open(path, "rb") as file:
        lines = iter(file)
        line = next(lines, None)
        number = 0
        while line is not None:
            number += 1
            following = next(lines, None)
            offset += len(line)
            record: object = None
            if line.endswith(NEWLINE):
                try:
                    record = json.loads(line)
                except ValueError:
                    record = None
            if record is None and following is None:
                # Torn: the interruption came within the line's one write.
                yield offset, None
                return
            if _key(record, field) is None:
                if field is not None and _key(record, None) is not None:
                    other = "file" if field == "line" else "line"
                    raise ResultsError(f"{shown}: line {number}: a result of a {other}, but these deals are by {field}")
                raise ResultsError(f"{shown}: line {number}: not a result record of kosolve batch")
            assert isinstance(record, dict)
            yield offset, record
            line = following


def read_results(path: str) -> list[dict[str, object]]:
    """Every complete record of the results file at ``path`` (a torn last
    line left out), for the summary; a missing file or one that is not a
    results file raises :class:`ResultsError`."""
    try:
        records = [record for _, record in _records(path, None) if record is not None]
    except OSError as error:
        raise ResultsError(f"{source_name(path)}: cannot read the file: {error.strerror}") from None
    fields = {field for record in records for field in FIELDS if field in record}
    if len(fields) > 1:
        raise ResultsError(f"{source_name(path)}: results of lines and of files mixed")
    return records


def resume(path: str, field: str) -> set[Key]:
    """The keys of the deals the results file at ``path`` has finished,
    after cutting off a torn last line; none when there is no file yet."""
    if not os.path.exists(path):
        return set()
    done: set[Key] = set()
    kept = 0
    try:
        for offset, record in _records(path, field):
            if record is None:
                break
            key = _key(record, field)
            assert key is not None
            done.add(key)
            kept = offset
        if kept != os.path.getsize(path):
            with open(path, "r+b") as file:
                file.truncate(kept)
                os.fsync(file.fileno())
    except OSError as error:
        raise ResultsError(f"{source_name(path)}: cannot resume the file: {error.strerror}") from None
    return done


class ResultsWriter:
    """Appends records to the results file at ``path``, one line each,
    flushed and synced to the disk before :meth:`write` returns.  Use it
    as a context manager."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._file: IO[bytes] | None = None

    def __enter__(self) -> ResultsWriter:
        created = not os.path.exists(self.path)
        try:
            self._file = open(self.path, "ab")
            if created:
                # The new file's name is on the disk too, not only its lines.
                _sync_folder(os.path.dirname(os.path.abspath(self.path)))
        except OSError as error:
            raise ResultsError(f"{source_name(self.path)}: cannot write the file: {error.strerror}") from None
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def write(self, record: dict[str, object]) -> None:
        """Write ``record`` as one line, whole, and sync it."""
        assert self._file is not None, "ResultsWriter used outside its with block"
        try:
            self._file.write(json.dumps(record).encode() + NEWLINE)
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as error:
            raise WriteError(f"{source_name(self.path)}: cannot write the file: {error.strerror}") from None


def _sync_folder(folder: str) -> None:
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - a folder that cannot be opened (not POSIX)
        return
    try:
        os.fsync(handle)
    except OSError:  # pragma: no cover - file systems that cannot sync a folder
        pass
    finally:
        os.close(handle)


__all__ = ["ResultsError", "ResultsWriter", "WriteError", "read_results", "resume"]
