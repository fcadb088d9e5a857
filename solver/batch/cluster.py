"""A batch on a Dask distributed cluster (the optional extra
``pip install "kosolve[dask]"``; docs/batch.md says how to start one).

The deals go to the workers in chunks, a few chunks a worker thread in
flight so that none waits, and each chunk's records come back as it is
finished.  A worker process solves every chunk it gets with one analyser,
made on its first chunk and kept warm
(:func:`~kosolve.analysis.pool.worker_analyser` through
:func:`~kosolve.batch.tasks.answer_chunk`, which the workers import from
their own kosolve by name).
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, Final, TypeVar

from kosolve.analysis.solving import DEFAULT_BUDGET_MB
from kosolve.batch.runner import Answerer, Record
from kosolve.batch.tasks import answer_chunk

DEFAULT_CHUNK: Final = 8
"""Deals a task by default: enough that the scheduler's few milliseconds
a task are small against the solves, few enough that every worker gets
work and an interrupted chunk costs little."""
IN_FLIGHT_PER_THREAD: Final = 2
"""Chunks a worker thread has queued at a time: the next is there when it
finishes one, and the deals are read from the input as the work goes."""
CONNECT_SECONDS: Final = 10
Item = TypeVar("Item")
ChunkTask = Callable[[list[Item], float], list[Record]]
"""What a worker runs on a chunk of items, with its tables' budget: a
batch's deals (:func:`~kosolve.batch.tasks.answer_chunk`) or an arena's."""


class ClusterError(RuntimeError):
    """No cluster to run on: distributed not installed, the scheduler not reached."""


def _distributed() -> Any:
    """The distributed package, typed as Any: an optional extra, whose
    types vary from version to version."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise ClusterError('--dask needs the distributed package: pip install "kosolve[dask]"') from None


@contextlib.contextmanager
def cluster(
    address: str,
    tt_mb: float = DEFAULT_BUDGET_MB,
    chunk: int = DEFAULT_CHUNK,
    task: ChunkTask[Any] = answer_chunk,
) -> Iterator[Answerer]:
    """The deals answered by the Dask cluster whose scheduler is at
    ``address`` (``tcp://HOST:8786``), ``chunk`` deals a task, each chunk
    by ``task`` (a module-level function, which the workers import by
    name): connected on entering, so that an unreachable scheduler is told
    before anything starts, and disconnected on leaving."""
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, not {chunk}")
    distributed = _distributed()
    try:
        client = distributed.Client(address, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {error}") from None

    def answers(works: Iterable[Any], count: int) -> Generator[Record, None, None]:
        # The count sizes a pool that is started for the batch; a cluster is there already.
        threads = max(1, sum(client.nthreads().values()))
        source = iter(works)
        chunks = iter(lambda: list(itertools.islice(source, chunk)), [])
        # Its own loop, not the default client's: another client made in
        # the same process would otherwise collect the futures, slowly.
        pending = distributed.as_completed(loop=client.loop)
        for part in itertools.islice(chunks, IN_FLIGHT_PER_THREAD * threads):
            pending.add(client.submit(task, part, tt_mb, pure=False))
        for future in pending:
            records: list[Record] = future.result()
            future.release()
            following = next(chunks, None)
            if following is not None:
                pending.add(client.submit(task, following, tt_mb, pure=False))
            yield from records

    with client:
        yield answers


__all__ = ["DEFAULT_CHUNK", "ChunkTask", "ClusterError", "cluster"]
