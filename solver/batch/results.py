"""The results file of a batch (docs/batch.md): a header line that says
what made it, then one JSON object a deal, in the order the deals were
finished, each flushed to the disk as it is written, so that an
interrupted batch (Ctrl-C, a kill, a crash, a power cut) loses nothing it
finished.

The header holds the batch format and the question; each record, its
deal's key (``line`` or ``file``) and the SHA-256 of the deal's bytes.
Running the same batch again resumes the file: :class:`ResultsFile` keeps
every complete line, cuts off a torn last line (one the interruption left
without its newline, or not whole JSON), refuses a file that answers
another question (or one of an older kosolve, which did not record it),
and tells the batch which deals are done, with their digests, which the
batch checks against its input (:class:`~kosolve.batch.runner.Batch`).
While it is open, the file is locked: a second batch cannot write it too.

>>> import tempfile, pathlib
>>> from kosolve.analysis.report import Options
>>> from kosolve.batch.tasks import Question
>>> path = str(pathlib.Path(tempfile.mkdtemp()) / "results.jsonl")
>>> question = Question("analyse", Options.value_only())
>>> with ResultsFile(path, "line", question) as results:
...     results.write({"line": 1, "sha256": "5e1f", "report": {}})
...     results.write({"line": 2, "sha256": "77ab", "error": "line 2: bad"})
>>> _ = open(path, "ab").write(b'{"line": 3, "sha')   # torn by a kill
>>> with ResultsFile(path, "line", question) as results:
...     results.done
{1: '5e1f', 2: '77ab'}
>>> open(path, "rb").read().endswith(b'"error": "line 2: bad"}\\n')
True
>>> [record["line"] for record in read_results(path)]
[1, 2]
>>> with ResultsFile(path, "line", Question("exchange", Options.value_only())):
...     pass
Traceback (most recent call last):
...
kosolve.batch.results.ResultsError: ...: the answers to another question (kind: "analyse" in the file, \
"exchange" now): resume with the same options, or give another -o
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from typing import IO, Final, Protocol

from kosolve.batch.tasks import FIELDS, REPORT, Key
from kosolve.model.jsonfile import MAX_FILE_BYTES
from kosolve.model.quoting import source_name

if sys.platform != "win32":
    import fcntl

BATCH_FORMAT: Final = 2
"""The version of the results file's lines (docs/batch.md)."""
HEADER: Final = "batch_format"
"""The key that makes a line the header."""
SHA256: Final = "sha256"
"""The key of a record that holds the SHA-256 of its deal's bytes."""
NEWLINE: Final = b"\n"
DIFFERENCES_SHOWN: Final = 3
"""The differences of two questions a message names, at most."""


class Asked(Protocol):
    """What a results file answers: a batch's :class:`~kosolve.batch.tasks.Question`,
    or another kind of run with records by line (an arena's match)."""

    def to_json(self) -> dict[str, object]: ...


class ResultsError(ValueError):
    """A results file that is not one, or not one this batch may resume: a
    line that is no result record, records of the other kind of input,
    another question, another input, a file that another batch is writing."""


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


def _lines(file: IO[bytes]) -> Iterator[tuple[int, int, object]]:
    """``(number, end offset, JSON value)`` of each line of ``file`` (the
    value None for a line that is not JSON), read as it goes, but for a
    torn last line."""
    offset = 0
    lines = iter(file)
    line = next(lines, None)
    number = 0
    while line is not None:
        number += 1
        following = next(lines, None)
        offset += len(line)
        value: object = None
        if line.endswith(NEWLINE):
            try:
                value = json.loads(line)
            except ValueError:
                value = None
        # Torn: the interruption came within the line's one write.  A first
        # line is torn only if it starts as every line of a results file
        # does: a file that is not one is refused, not cut.
        if value is None and following is None and (number > 1 or line.startswith(b'{"')):
            return
        yield number, offset, value
        line = following


def _read(file: IO[bytes], shown: str, field: str | None) -> Iterator[tuple[int, dict[str, object]]]:
    """``(end offset, record)`` of each complete line of the results file
    open as ``file``, its header first where it has one (a file of batch
    format 1 has none); a line that is neither raises :class:`ResultsError`."""
    for number, offset, value in _lines(file):
        if number == 1 and isinstance(value, dict) and HEADER in value:
            if value[HEADER] != BATCH_FORMAT:
                raise ResultsError(
                    f"{shown}: batch format {json.dumps(value[HEADER])}, which this kosolve"
                    f" (batch format {BATCH_FORMAT}) cannot read: give another -o"
                )
            yield offset, value
            continue
        if _key(value, field) is None:
            if field is not None and _key(value, None) is not None:
                other = "file" if field == "line" else "line"
                raise ResultsError(f"{shown}: line {number}: a result of a {other}, but these deals are by {field}")
            raise ResultsError(f"{shown}: line {number}: not a result record of kosolve batch")
        assert isinstance(value, dict)
        yield offset, value


def iter_results(path: str) -> Iterator[dict[str, object]]:
    """The lines of the results file at ``path`` as they are read, none
    kept: its header first where it has one (a file of batch format 1, an
    older kosolve's, has none), then each complete record, a torn last
    line left out; for a reader of files too large to hold
    (``kosolve stats``).  A missing file or one that is not a results file
    raises :class:`ResultsError`."""
    shown = source_name(path)
    try:
        with open(path, "rb") as file:
            for _, record in _read(file, shown, None):
                yield record
    except OSError as error:
        raise ResultsError(f"{shown}: cannot read the file: {error.strerror}") from None


def read_results(path: str) -> list[dict[str, object]]:
    """Every complete record of the results file at ``path`` (its header
    and a torn last line left out), for the summary; a missing file or one
    that is not a results file raises :class:`ResultsError`.  A file of an
    older kosolve (batch format 1, without a header) is read too."""
    shown = source_name(path)
    records = [record for record in iter_results(path) if HEADER not in record]
    fields = {field for record in records for field in FIELDS if field in record}
    if len(fields) > 1:
        raise ResultsError(f"{shown}: results of lines and of files mixed")
    return records


def read_question(path: str) -> dict[str, object] | None:
    """The question the header of the results file at ``path`` records;
    None where there is no such file or header (a file that is not a
    results file is refused when it is opened as one)."""
    try:
        with open(path, "rb") as file:
            first = file.readline(MAX_FILE_BYTES)
    except OSError:
        return None
    try:
        value = json.loads(first)
    except ValueError:
        return None
    question = value.get("question") if isinstance(value, dict) and HEADER in value else None
    return question if isinstance(question, dict) else None


class ResultsFile:
    """The results file at ``path`` of a batch that asks ``question`` of
    deals named by ``field`` (``line`` or ``file``).  Use it as a context
    manager: entered, it opens the file, locked until it is left, and
    resumes it (creating it with its header if there is none), and
    :attr:`done` holds the key of each deal it has finished, with the
    SHA-256 of that deal's bytes (None where the deal could not be read);
    :meth:`write` appends a record."""

    def __init__(self, path: str, field: str, question: Asked) -> None:
        self.path = path
        self.field = field
        self.question = question
        self.done: dict[Key, str | None] = {}
        self._shown = source_name(path)
        self._file: IO[bytes] | None = None

    def __enter__(self) -> ResultsFile:
        created = not os.path.exists(self.path)
        try:
            self._file = open(self.path, "a+b")
        except OSError as error:
            raise ResultsError(f"{self._shown}: cannot write the file: {error.strerror}") from None
        try:
            if not _lock(self._file):
                raise ResultsError(
                    f"{self._shown}: another kosolve batch is writing it: wait for it to end, or give another -o"
                )
            if created:
                # The new file's name is on the disk too, not only its lines.
                _sync_folder(os.path.dirname(os.path.abspath(self.path)))
            self.done = self._resume(self._file)
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the file, which releases its lock."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def _resume(self, file: IO[bytes]) -> dict[Key, str | None]:
        """The deals the open ``file`` has finished, after cutting a torn
        last line and refusing a file of another question; the header
        written into a file without lines."""
        asked = self.question.to_json()
        done: dict[Key, str | None] = {}
        kept = 0
        try:
            file.seek(0)
            for offset, record in _read(file, self._shown, self.field):
                if kept == 0:
                    self._check(record, asked)
                else:
                    key = _key(record, self.field)
                    assert key is not None
                    sha256 = record.get(SHA256)
                    done[key] = sha256 if isinstance(sha256, str) else None
                kept = offset
            if kept != os.fstat(file.fileno()).st_size:
                file.truncate(kept)
                os.fsync(file.fileno())
        except OSError as error:
            raise ResultsError(f"{self._shown}: cannot resume the file: {error.strerror}") from None
        if kept == 0:
            self.write({HEADER: BATCH_FORMAT, "question": asked})
        return done

    def _check(self, header: dict[str, object], asked: dict[str, object]) -> None:
        """Refuse a first line that is not the header of ``asked``."""
        if HEADER not in header:
            raise ResultsError(
                f"{self._shown}: made by an older kosolve, which did not record the question and the deals it"
                " answers, so it cannot be resumed safely: give another -o"
            )
        differences = _differences(header.get("question"), asked)
        if differences:
            raise ResultsError(
                f"{self._shown}: the answers to another question ({'; '.join(differences[:DIFFERENCES_SHOWN])}):"
                " resume with the same options, or give another -o"
            )

    def write(self, record: dict[str, object]) -> None:
        """Write ``record`` as one line, whole, and sync it."""
        assert self._file is not None, "ResultsFile used outside its with block"
        try:
            self._file.write(json.dumps(record).encode() + NEWLINE)
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as error:
            raise WriteError(f"{self._shown}: cannot write the file: {error.strerror}") from None


def _differences(there: object, here: object, name: str = "") -> list[str]:
    """What differs between a question as a file recorded it and as asked
    now, a value a line, named by its path of keys (``options.feasibility``)."""
    if isinstance(there, dict) and isinstance(here, dict):
        return [
            difference
            for key in sorted(there.keys() | here.keys())
            for difference in _differences(there.get(key), here.get(key), f"{name}.{key}" if name else str(key))
        ]
    if there == here:
        return []
    return [f"{name or 'question'}: {json.dumps(there)} in the file, {json.dumps(here)} now"]


def _lock(file: IO[bytes]) -> bool:
    """Lock ``file`` for this process until it is closed; False when
    another process holds it."""
    if sys.platform == "win32":  # pragma: no cover - no flock: the file is not locked there
        return True
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:  # pragma: no cover - a file system without locks (some network ones)
        # Better a batch unlocked than none at all.
        return True
    return True


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


__all__ = [
    "BATCH_FORMAT",
    "ResultsError",
    "ResultsFile",
    "WriteError",
    "iter_results",
    "read_question",
    "read_results",
]
