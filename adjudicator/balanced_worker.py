"""A gunicorn worker that takes a new connection only while no sibling holds fewer.

Why: a keep-alive client stays with the worker that accepted its connection, and gunicorn's
workers race to accept, so 8 clients could land 8/0 or 7/1 on 2 workers. A worker's Python runs
on one core at a time (the GIL), so an uneven split leaves a core idle while the busier
worker's clients wait, and the throughput of a run depends on how its connections landed
(bench/HISTORY.md). Balancing by open connections also keeps the batches of each
worker (adjudicator/batch.py) alike in size.

How: the master keeps a shared array of slots, one per worker (`Loads`, set on
`BalancedWorker.loads` by cli_serve.py). It gives each worker its slot before forking it
(`pre_fork`) and frees it when it reaps it (`child_exit`, called for every worker that exits,
killed ones included), so only the master changes which slots are taken and no lock is shared
with the workers. Each worker writes its count of open connections into its slot at every turn
of its event loop, and accepts only while that count is no more than the least of all taken
slots: the least loaded worker always accepts, so a connection always has a taker. A worker
that refuses looks again every `RECHECK_S` (its event loop would otherwise sleep up to a second
while its siblings, grown past it, refuse too), and a worker that is stopping takes itself out
of the comparison (`STOPPING`).

gunicorn's gthread worker (version 27) asks `worker_connections` at every turn of its loop to
decide whether to listen, and nowhere else; `wait_for_and_dispatch_events` and
`set_accept_enabled` are the other two points this class builds on (tests/test_serve.py runs
it under gunicorn).
"""

from __future__ import annotations

import multiprocessing
from typing import Any

from gunicorn.workers.gthread import ThreadWorker

RECHECK_S = 0.01  # how often a worker that refuses connections looks at its siblings again
FREE, TAKEN = 0, 1
STOPPING = 2 ** 62  # the count of a worker that stops: never the least


class Loads:
    """Open connections per worker, shared between the master and its workers. The master
    takes and frees slots (single-threaded: no lock); a worker writes only its own count."""

    def __init__(self, slots: int) -> None:
        # state, count, state, count, ... (state: FREE or TAKEN)
        self._array = multiprocessing.RawArray("q", 2 * slots)
        self.slots = slots

    def take(self) -> int:
        """A free slot, now taken with a count of 0 (its index), or -1 when all are taken."""
        for index in range(self.slots):
            if self._array[2 * index] == FREE:
                self._array[2 * index + 1] = 0
                self._array[2 * index] = TAKEN
                return index
        return -1

    def free(self, index: int) -> None:
        if 0 <= index < self.slots:
            self._array[2 * index] = FREE

    def set(self, index: int, count: int) -> None:
        self._array[2 * index + 1] = count  # one aligned word: no lock needed

    def least(self) -> int | None:
        """The fewest open connections of any taken slot (None: no slot is taken)."""
        return min(self.counts(), default=None)

    def counts(self) -> list[int]:
        """The counts of the taken slots, by slot."""
        raw = self._array[:]
        return [raw[2 * i + 1] for i in range(self.slots) if raw[2 * i] == TAKEN]


class BalancedWorker(ThreadWorker):
    """gunicorn's gthread worker, accepting only while it is among the least loaded."""

    loads: Loads | None = None  # set in the master before the workers are forked

    slot = -1  # given by the master in pre_fork

    @property  # type: ignore[override]
    def worker_connections(self) -> int:
        limit = self._connections_limit
        loads = self.loads
        if loads is None or self.slot < 0:
            return limit
        count = self.nr_conns
        loads.set(self.slot, count)
        least = loads.least()
        # at or below the least loaded: accept (up to gunicorn's own limit); above: not now
        return limit if least is None or count <= least else count

    @worker_connections.setter
    def worker_connections(self, value: int) -> None:
        self._connections_limit = value

    def wait_for_and_dispatch_events(self, timeout: float) -> None:
        if not self._accepting and self.slot >= 0 and self.alive:
            timeout = min(timeout, RECHECK_S)  # siblings change: look again soon
        super().wait_for_and_dispatch_events(timeout)

    def set_accept_enabled(self, enabled: bool) -> None:
        if not enabled and not self.alive and self.loads is not None and self.slot >= 0:
            self.loads.set(self.slot, STOPPING)  # stopping: leave the comparison to the others
        super().set_accept_enabled(enabled)


def pre_fork(server: Any, worker: Any) -> None:
    """gunicorn's master hook: the worker about to be forked gets a slot."""
    loads = BalancedWorker.loads
    if loads is not None and isinstance(worker, BalancedWorker):
        worker.slot = loads.take()
        if worker.slot < 0:
            server.log.warning("No free slot to balance connections: this worker accepts "
                               "whenever it can.")


def child_exit(server: Any, worker: Any) -> None:
    """gunicorn's master hook: a worker that exited gives up its slot."""
    if BalancedWorker.loads is not None:
        BalancedWorker.loads.free(getattr(worker, "slot", -1))
