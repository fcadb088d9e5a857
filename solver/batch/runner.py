"""Running a batch: the deals not yet in the results file, answered by some
pool of workers, each record written (and synced) as it comes back.

Where the work runs is an :data:`Answerer`: a function from the deals to
their records, yielded as each is finished, in any order.
:func:`local` runs them on this machine's cores
(:class:`~kosolve.analysis.pool.WorkerPool`), :func:`kosolve.batch.cluster.cluster`
on a Dask cluster; the rest of the batch is the same for both.

>>> import tempfile, pathlib
>>> from kosolve.analysis.report import Options
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> ending = open("examples/ending.json", "rb").read().replace(b"\\n", b"")
>>> _ = (folder / "deals.jsonl").write_bytes(ending + b"\\n[]\\n")
>>> question = Question("analyse", Options.value_only())
>>> with Batch(DealSource(str(folder / "deals.jsonl")), question, str(folder / "results.jsonl")) as batch:
...     batch.todo, batch.run(local(jobs=1)).failed
(2, 1)
>>> with Batch(batch.source, question, batch.results) as again:
...     again.todo
0
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from kosolve.analysis.pool import WorkerPool
from kosolve.analysis.solving import DEFAULT_BUDGET_MB
from kosolve.batch.results import SHA256, ResultsError, ResultsFile
from kosolve.batch.source import DealSource
from kosolve.batch.tasks import Key, Question, Work, answer
from kosolve.model.quoting import source_name

Record = dict[str, object]
Answerer = Callable[[Iterable[Any], int], Generator[Record, None, None]]
"""Where a batch runs: from the deals (a batch's :class:`~kosolve.batch.tasks.Work`,
an arena's deals) and how many they are, every deal's record, as each is
finished."""


def local(jobs: int | None = None, tt_mb: float = DEFAULT_BUDGET_MB) -> Answerer:
    """The deals answered by ``jobs`` processes of this machine (all its
    cores by default, never more than there are deals; one runs them in
    this process), one analyser each."""

    def answers(works: Iterable[Work], count: int) -> Generator[Record, None, None]:
        with WorkerPool(jobs, tt_mb, items=count) as pool:
            for _, record in pool.imap_unordered(answer, works):
                yield record

    return answers


@dataclass(frozen=True)
class BatchRun:
    """What one run of a batch did."""

    done: int
    """Records written."""
    failed: int
    """Of them, error records."""
    seconds: float
    """Its wall time."""

    @property
    def rate(self) -> float:
        """Deals a second."""
        return self.done / self.seconds if self.seconds > 0 else 0.0


class Batch:
    """The deals of ``source`` with ``question`` asked of each, into the
    results file ``results``.  Use it as a context manager: entered, it
    opens that file, locked until it is left, and resumes it
    (:class:`~kosolve.batch.results.ResultsFile`), checks that the deals
    it finished are those of ``source``, and knows which are still to do."""

    def __init__(self, source: DealSource, question: Question, results: str) -> None:
        self.source = source
        self.question = question
        self.results = results
        self.done: dict[Key, str | None] = {}
        """The deals finished, with the SHA-256 of each one's bytes."""
        self.todo = 0
        """How many deals are still to do."""
        self._file = ResultsFile(results, source.field, question)
        self._sha256: dict[Key, str | None] = {}
        """The SHA-256 of each deal in the workers, for its record."""

    def __enter__(self) -> Batch:
        self._file.__enter__()
        try:
            self.done = self._file.done
            self.todo = self._check()
        except BaseException:
            self._file.close()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._file.close()

    def _check(self) -> int:
        """How many deals are still to do, after checking that each deal
        finished has the bytes it was solved from."""
        field, deals = self.source.field, self.source.name
        todo = 0
        found: set[Key] = set()
        for key, sha256 in self.source.index(self.done):
            if key not in self.done:
                todo += 1
                continue
            found.add(key)
            solved = self.done[key]
            if solved is not None and sha256 is not None and solved != sha256:
                raise self._other_deals(f"{field} {key} of {deals} is not the deal solved there")
        for key in self.done:
            if key not in found:
                raise self._other_deals(f"no {field} {key} in {deals}")
        return todo

    def _other_deals(self, why: str) -> ResultsError:
        return ResultsError(f"{source_name(self.results)}: the results of other deals ({why}): give another -o")

    def works(self) -> Iterator[Work]:
        """The deals not done, read as the work goes."""
        for entry in self.source.deals(self.done):
            self._sha256[entry.key] = entry.sha256
            yield Work(self.source.field, entry.key, entry.text, self.question, entry.problem)

    def run(self, answers: Answerer, on_record: Callable[[Record], None] | None = None) -> BatchRun:
        """Answer every deal not done, writing each record, its deal's
        SHA-256 added, as it comes; ``on_record`` sees each after it is on
        the disk."""
        start = time.perf_counter()
        done = failed = 0
        field = self.source.field
        with contextlib.closing(answers(self.works(), self.todo)) as records:
            for answered in records:
                key = answered[field]
                assert isinstance(key, int | str)
                sha256 = self._sha256.pop(key)
                record = {field: key, SHA256: sha256, **answered}
                self._file.write(record)
                self.done[key] = sha256
                done += 1
                failed += "error" in record
                if on_record is not None:
                    on_record(record)
        return BatchRun(done, failed, time.perf_counter() - start)


__all__ = ["Answerer", "Batch", "BatchRun", "Record", "local"]
