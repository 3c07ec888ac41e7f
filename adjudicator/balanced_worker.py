"""A gunicorn worker that takes a new connection only while no sibling holds fewer.

Why: a keep-alive client stays with the worker that accepted its connection, and gunicorn's
workers race to accept, so 8 clients could land 8/0 or 7/1 on 2 workers. A worker's Python runs
on one core at a time (the GIL), so an uneven split left a core idle: at 8 clients on 2 cores,
runs with such a split gave 174-225 rulings per second against 375-430 with an even one
(bench/README.md, eighth session). Balancing by open connections also keeps the batches of each
worker (adjudicator/batch.py) alike in size.

How: the master makes a shared array of (pid, open connections) slots before it forks
(`Loads`, set on `BalancedWorker.loads` by cli_serve.py); each worker claims a slot, writes its
count of open connections at every turn of its event loop, and accepts only while that count is
no more than the least of all claimed slots. The least loaded worker always accepts, so a
connection always has a taker; a worker that exits is struck off by the master (`child_exit`).
gunicorn's gthread worker (version 27) asks `worker_connections` at every turn of its loop to
decide whether to listen, and only stops listening when it may not accept; that is the one
point this class changes.
"""

from __future__ import annotations

import multiprocessing
import os
from typing import Any

from gunicorn.workers.gthread import ThreadWorker


class Loads:
    """Open connections per worker, shared between the master and its workers."""

    def __init__(self, slots: int) -> None:
        # pid, count, pid, count, ... (0 pid: a free slot)
        self._array = multiprocessing.Array("q", 2 * slots)
        self.slots = slots

    def claim(self, pid: int) -> int:
        """A free slot for the worker `pid` (its index), or -1 when all are taken."""
        with self._array.get_lock():
            raw = self._array.get_obj()
            for index in range(self.slots):
                if raw[2 * index] == 0:
                    raw[2 * index], raw[2 * index + 1] = pid, 0
                    return index
        return -1

    def release(self, pid: int) -> None:
        with self._array.get_lock():
            raw = self._array.get_obj()
            for index in range(self.slots):
                if raw[2 * index] == pid:
                    raw[2 * index], raw[2 * index + 1] = 0, 0

    def set(self, index: int, count: int) -> None:
        self._array.get_obj()[2 * index + 1] = count  # one aligned word: no lock needed

    def least(self) -> int | None:
        """The fewest open connections of any worker with a slot (None: no worker has one)."""
        raw = self._array.get_obj()[:]
        counts = [raw[2 * i + 1] for i in range(self.slots) if raw[2 * i] != 0]
        return min(counts) if counts else None

    def counts(self) -> dict[int, int]:
        """Open connections by worker pid."""
        raw = self._array.get_obj()[:]
        return {raw[2 * i]: raw[2 * i + 1] for i in range(self.slots) if raw[2 * i] != 0}


class BalancedWorker(ThreadWorker):
    """gunicorn's gthread worker, accepting only while it is among the least loaded."""

    loads: Loads | None = None  # set in the master before the workers are forked

    _slot = -1

    def init_process(self) -> None:
        if self.loads is not None:
            self._slot = self.loads.claim(os.getpid())
        super().init_process()

    @property  # type: ignore[override]
    def worker_connections(self) -> int:
        limit = self._connections_limit
        loads = self.loads
        if loads is None or self._slot < 0:
            return limit
        count = self.nr_conns
        loads.set(self._slot, count)
        least = loads.least()
        # at or below the least loaded: accept (up to gunicorn's own limit); above: not now
        return limit if least is None or count <= least else count

    @worker_connections.setter
    def worker_connections(self, value: int) -> None:
        self._connections_limit = value


def child_exit(server: Any, worker: Any) -> None:
    """gunicorn's master hook: a worker that exited gives up its slot."""
    if BalancedWorker.loads is not None:
        BalancedWorker.loads.release(worker.pid)
