"""`fluxx-adjudicator serve --workers 2` as a deployment runs it: gunicorn with the balanced
worker (adjudicator/web/balanced_worker.py). Keep-alive clients that connect at once are shared
evenly between the workers, and every one of them is answered."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator.web.balanced_worker import BalancedWorker, Loads

TABLE = {"players": [{"name": "Ann", "hand": ["Jackpot"]}, {"name": "Bo", "hand_size": 3}],
         "active": "Ann"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(store_path: Path, tmp_path: Path) -> Iterator[tuple[int, int]]:
    """A server of 2 workers on a free port: (port, the master's pid)."""
    port = _free_port()
    log_path = tmp_path / "server.log"
    log = log_path.open("w")
    command = [sys.executable, "-c", "import sys; from adjudicator.cli import main; "
               "sys.exit(main())", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--workers", "2", "--store", str(store_path)]
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len(_workers(proc.pid)) < 2 or not _listening(port):
            assert proc.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        time.sleep(0.5)  # both workers' event loops running
        yield port, proc.pid
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        log.close()


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def _workers(master: int) -> list[int]:
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    except OSError:
        return []
    return [int(pid) for pid in children]


def _connections_by_worker(port: int, workers: list[int]) -> dict[int, int]:
    """Established connections to `port` held by each worker (from /proc: socket inodes)."""
    established = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port and fields[3] == "01":
            established.add(fields[9])
    counts = {}
    for pid in workers:
        inodes = set()
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                link = os.readlink(fd)
            except OSError:
                continue
            if link.startswith("socket:["):
                inodes.add(link[8:-1])
        counts[pid] = len(inodes & established)
    return counts


def _ask(port: int, connection: http.client.HTTPConnection | None = None) -> dict:
    connection = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("POST", "/api/ruling", body=json.dumps(TABLE),
                       headers={"Content-Type": "application/json"})
    return json.loads(connection.getresponse().read())


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads connections from /proc")
@pytest.mark.slow
def test_clients_that_connect_at_once_are_shared_evenly(server) -> None:
    """Three times over (without balancing, a burst of 8 split 4/4 about one time in three)."""
    port, master = server
    for _ in range(3):
        connections = [http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                       for _ in range(8)]
        answers: list[dict] = []
        try:
            threads = [threading.Thread(target=lambda c=c, out=answers: out.append(_ask(port, c)))
                       for c in connections]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=60)
            assert len(answers) == 8 and all(a["ok"] for a in answers)
            time.sleep(0.3)  # the workers' loops note the connections
            counts = _connections_by_worker(port, _workers(master))
            assert sorted(counts.values()) == [4, 4], counts
        finally:
            for connection in connections:
                connection.close()
        time.sleep(0.5)  # the closed connections leave the counts


@pytest.mark.slow
def test_clients_that_come_one_by_one_are_each_taken_at_once(server) -> None:
    """Kept connections opened one after another on a quiet server: whichever worker holds
    fewer takes each, at once (a worker that refused looks again within RECHECK_S instead of
    sleeping up to a second while its sibling refuses too)."""
    port, _ = server
    # each worker's first ruling builds its programs (far longer than a ruling): two connections
    # at once, one on each worker, pay that before the waits are measured
    warm = [http.client.HTTPConnection("127.0.0.1", port, timeout=60) for _ in range(2)]
    threads = [threading.Thread(target=_ask, args=(port, c)) for c in warm]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    for connection in warm:
        connection.close()
    time.sleep(0.5)  # the closed connections leave the counts
    connections: list[http.client.HTTPConnection] = []
    waits = []
    try:
        for _ in range(10):
            connections.append(http.client.HTTPConnection("127.0.0.1", port, timeout=60))
            started = time.monotonic()
            assert _ask(port, connections[-1])["ok"]
            waits.append(time.monotonic() - started)
    finally:
        for connection in connections:
            connection.close()
    assert max(waits) < 0.5, [round(w, 3) for w in waits]


def _worker_view(loads: Loads, slot: int, open_connections: int) -> BalancedWorker:
    worker = BalancedWorker.__new__(BalancedWorker)  # the loop's view, without a server
    worker.worker_connections = 1000
    worker.loads, worker.slot, worker.nr_conns = loads, slot, open_connections
    worker.alive, worker._accepting, worker.sockets = True, False, []
    return worker


def test_a_worker_accepts_only_while_no_sibling_holds_fewer() -> None:
    loads = Loads(4)
    first, second = loads.take(), loads.take()
    assert (first, second) == (0, 1)
    worker = _worker_view(loads, first, 0)
    assert worker.worker_connections == 1000  # 0 <= 0: accepts
    worker.nr_conns = 1
    assert worker.worker_connections == 1  # 1 > 0 (the sibling): 1 < 1 fails, no accept
    loads.set(second, 1)
    assert worker.worker_connections == 1000  # level again: accepts
    loads.set(second, 5)
    worker.nr_conns = 3
    assert worker.worker_connections == 1000  # the least loaded always accepts
    loads.free(second)
    assert loads.counts() == [3] and loads.least() == 3
    assert loads.take() == 1  # a freed slot is taken again, its count from 0
    assert loads.counts() == [3, 0]
    worker.loads = None
    assert worker.worker_connections == 1000  # no shared counts: gunicorn's own limit


def test_a_stopping_worker_leaves_the_comparison() -> None:
    loads = Loads(2)
    mine, other = loads.take(), loads.take()
    stopping = _worker_view(loads, mine, 1)
    loads.set(other, 3)
    assert stopping.worker_connections == 1000  # it holds the fewest: it accepts
    assert loads.least() == 1
    stopping.alive = False
    stopping.set_accept_enabled(False)  # what gthread's run() does once it leaves its loop
    assert loads.least() == 3  # the other worker is the least loaded now: it accepts
    assert loads.take() == -1  # both slots taken: a third worker would accept freely
