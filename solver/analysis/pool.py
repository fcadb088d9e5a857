"""Work spread over processes, one :class:`Analyser` a worker.

Everything kosolve answers about many positions (the odds from one seat,
a batch of deals) is many independent solves.  A :class:`WorkerPool` runs
a task ``task(analyser, item)`` on each item, in worker processes that each
make one :class:`Analyser` when they start and keep its tables warm for
every item they get.  With one job the items run in this process, with no
process started at all.

Tables never change an answer, so the results do not depend on how many
jobs there are or which worker solved which item; callers that combine
results combine them in item order.

>>> with WorkerPool(jobs=1) as pool:
...     pool.map(_describe, ["a", "b"])
['Analyser for a', 'Analyser for b']

Workers start with the ``spawn`` method: a forked child of a process whose
searches ran on several threads may inherit locks those threads held.
The task must be a module-level function (it is sent to the workers by
name).

The pool's own process is in charge of its workers: they ignore Ctrl-C
and SIGTERM, which reach that process as an exception, and leaving the
pool on an exception kills them at once; they die with that process
however it ends, a SIGKILL included, so that no worker outlives it
holding its output open.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Final, TypeVar

from kosolve.analysis.report import Analyser
from kosolve.analysis.solving import DEFAULT_BUDGET_MB

Item = TypeVar("Item")
Result = TypeVar("Result")
Task = Callable[[Analyser, Item], Result]
"""A unit of work: what to compute for one item with a warm analyser."""

_WORKER: dict[float, Analyser] = {}
"""This process's analyser, by table budget (one entry in practice)."""
PR_SET_PDEATHSIG: Final = 1
"""Linux's prctl option: the signal a process gets when its parent dies."""


class JobsError(ValueError):
    """A number of jobs below 1."""


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def worker_analyser(tt_mb: float = DEFAULT_BUDGET_MB) -> Analyser:
    """This process's one analyser, made on first use and then kept: the
    worker processes of a pool (and of a Dask cluster) solve every item
    with it, so its tables stay warm."""
    analyser = _WORKER.get(tt_mb)
    if analyser is None:
        _WORKER.clear()
        analyser = _WORKER[tt_mb] = Analyser(tt_mb=tt_mb)
    return analyser


def _killed_with_parent() -> bool:
    """Have Linux SIGKILL this process when its parent ends (strictly, the
    parent's thread that started it: a pool lives within one thread's with
    block); whether it could."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None)
    zero = ctypes.c_ulong(0)
    return int(libc.prctl(PR_SET_PDEATHSIG, ctypes.c_ulong(signal.SIGKILL), zero, zero, zero)) == 0


def _exit_when_gone(parent_sentinel: int) -> None:
    """Exit this process as soon as its parent has ended."""
    multiprocessing.connection.wait([parent_sentinel])
    os._exit(1)


def _start_worker() -> None:
    """The initializer of a pool's worker process (see the module's text)."""
    # Ctrl-C in a terminal and a process group's SIGTERM reach the workers
    # too: one stopping on its own would have its pool report a crash, not
    # an interrupt, and print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    assert parent is not None, "a pool's worker has a parent"
    if _killed_with_parent():
        if os.getppid() != parent.pid:
            # The parent ended before prctl: no signal will come.
            os._exit(1)
    else:
        threading.Thread(target=_exit_when_gone, args=(parent.sentinel,), daemon=True).start()


def run_task(task: Task[Item, Result], item: Item, tt_mb: float) -> Result:
    """Run ``task`` on ``item`` with this process's analyser."""
    return task(worker_analyser(tt_mb), item)


class WorkerPool:
    """``jobs`` processes (or this one, for one job), each with one
    analyser of ``tt_mb`` megabytes of tables.  Use it as a context manager:
    leaving it stops the workers, at once when the caller was interrupted.

    ``jobs`` (every core by default) is capped at the cores this process may
    use, and at ``items``, the number of items to come when the caller
    knows it: a process more would only wait, and cost its memory.

    >>> WorkerPool(jobs=4, items=1).jobs
    1
    """

    def __init__(self, jobs: int | None = None, tt_mb: float = DEFAULT_BUDGET_MB, items: int | None = None) -> None:
        cores = default_jobs()
        asked = cores if jobs is None else jobs
        if asked < 1:
            raise JobsError(f"jobs must be at least 1, not {asked}")
        work = asked if items is None else max(1, items)
        self.jobs = min(asked, cores, work)
        self.tt_mb = tt_mb
        self._executor: ProcessPoolExecutor | None = None

    def __enter__(self) -> WorkerPool:
        if self.jobs > 1:
            self._executor = ProcessPoolExecutor(
                self.jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker
            )
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._executor is None:
            return
        if exc_info[0] is not None:
            # The caller reads no more results: its workers stop now, not
            # after their current items, which the shutdown (or, without
            # waiting, the interpreter's exit) would wait for.  The executor
            # has no public way to do it before Python 3.14.
            for process in list(self._executor._processes.values()):
                process.kill()
        self._executor.shutdown(wait=True, cancel_futures=True)
        self._executor = None

    def imap_unordered(self, task: Task[Item, Result], items: Iterable[Item]) -> Iterator[tuple[int, Result]]:
        """``(index, result)`` for every item, as each is finished.  At
        most two items a worker are in flight, so a long or endless
        ``items`` is read as the work goes."""
        if self._executor is None:
            for index, item in enumerate(items):
                yield index, run_task(task, item, self.tt_mb)
            return
        pending: dict[Future[Result], int] = {}
        source = enumerate(items)
        for index, item in source:
            pending[self._executor.submit(run_task, task, item, self.tt_mb)] = index
            if len(pending) >= 2 * self.jobs:
                break
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                index = pending.pop(future)
                yield index, future.result()
                refill = next(source, None)
                if refill is not None:
                    pending[self._executor.submit(run_task, task, refill[1], self.tt_mb)] = refill[0]

    def map(self, task: Task[Item, Result], items: Iterable[Item]) -> list[Result]:
        """The results of every item, in item order."""
        results = dict(self.imap_unordered(task, items))
        return [results[index] for index in range(len(results))]


def _describe(analyser: Analyser, item: str) -> str:
    """A task for the doctest: which kind of worker saw the item."""
    return f"{type(analyser).__name__} for {item}"


__all__ = ["JobsError", "Task", "WorkerPool", "default_jobs", "run_task", "worker_analyser"]
