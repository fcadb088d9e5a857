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
>>> batch = Batch(DealSource(str(folder / "deals.jsonl")), Question("analyse", Options.value_only()),
...               str(folder / "results.jsonl"))
>>> batch.todo, batch.run(local(jobs=1)).failed, Batch(batch.source, batch.question, batch.results).todo
(2, 1, 0)
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass

from kosolve.analysis.pool import WorkerPool
from kosolve.analysis.solving import DEFAULT_BUDGET_MB
from kosolve.batch.results import ResultsWriter, resume
from kosolve.batch.source import DealSource
from kosolve.batch.tasks import Question, Work, answer

Record = dict[str, object]
Answerer = Callable[[Iterable[Work]], Generator[Record, None, None]]
"""Where a batch runs: every deal's record, as each is finished."""


def local(jobs: int | None = None, tt_mb: float = DEFAULT_BUDGET_MB) -> Answerer:
    """The deals answered by ``jobs`` processes of this machine (all its
    cores by default; one runs them in this process), one analyser each."""

    def answers(works: Iterable[Work]) -> Generator[Record, None, None]:
        with WorkerPool(jobs, tt_mb) as pool:
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
    results file ``results``: made, it resumes that file (cutting a torn
    last line) and knows which deals are still to do."""

    def __init__(self, source: DealSource, question: Question, results: str) -> None:
        self.source = source
        self.question = question
        self.results = results
        self.done = resume(results, source.field)
        self.todo = source.count(self.done)

    def works(self) -> Iterator[Work]:
        """The deals not done, read as the work goes."""
        for key, text, problem in self.source.deals(self.done):
            yield Work(self.source.field, key, text, self.question, problem)

    def run(self, answers: Answerer, on_record: Callable[[Record], None] | None = None) -> BatchRun:
        """Answer every deal not done, writing each record as it comes;
        ``on_record`` sees each after it is on the disk."""
        start = time.perf_counter()
        done = failed = 0
        with ResultsWriter(self.results) as writer, contextlib.closing(answers(self.works())) as records:
            for record in records:
                writer.write(record)
                self.done.add(record[self.source.field])  # type: ignore[arg-type]
                done += 1
                failed += "error" in record
                if on_record is not None:
                    on_record(record)
        return BatchRun(done, failed, time.perf_counter() - start)


__all__ = ["Answerer", "Batch", "BatchRun", "Record", "local"]
