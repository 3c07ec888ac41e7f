"""`fluxx-adjudicator serve --workers 2` as a deployment runs it: gunicorn with the balanced
worker (adjudicator/balanced_worker.py). Keep-alive clients that connect at once are shared
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

from adjudicator.balanced_worker import BalancedWorker, Loads

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
    log = (tmp_path / "server.log").open("w")
    command = [sys.executable, "-c", "import sys; from adjudicator.cli import main; "
               "sys.exit(main())", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--workers", "2", "--store", str(store_path)]
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len(_workers(proc.pid)) < 2 or not _listening(port):
            assert proc.poll() is None, (tmp_path / "server.log").read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield port, proc.pid
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
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


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads connections from /proc")
def test_clients_that_connect_at_once_are_shared_evenly(server) -> None:
    port, master = server
    body = json.dumps(TABLE)
    connections = [http.client.HTTPConnection("127.0.0.1", port, timeout=60) for _ in range(8)]
    answers: list[dict] = []

    def ask(connection: http.client.HTTPConnection) -> None:
        connection.request("POST", "/api/ruling", body=body,
                           headers={"Content-Type": "application/json"})
        answers.append(json.loads(connection.getresponse().read()))

    threads = [threading.Thread(target=ask, args=(c,)) for c in connections]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(answers) == 8 and all(a["ok"] for a in answers)
    time.sleep(0.3)  # the workers' loops note the connections
    counts = _connections_by_worker(port, _workers(master))
    assert sorted(counts.values()) == [4, 4], counts
    for connection in connections:
        connection.close()


def test_a_worker_accepts_only_while_no_sibling_holds_fewer() -> None:
    loads = Loads(4)
    first, second = loads.claim(101), loads.claim(102)
    assert (first, second) == (0, 1)
    worker = BalancedWorker.__new__(BalancedWorker)  # the loop's view, without a server
    worker.worker_connections = 1000
    worker.loads, worker._slot = loads, first
    worker.nr_conns = 0
    assert worker.worker_connections == 1000  # 0 <= 0: accepts
    worker.nr_conns = 1
    assert worker.worker_connections == 1  # 1 > 0 (the sibling): 1 < 1 fails, no accept
    loads.set(second, 1)
    assert worker.worker_connections == 1000  # level again: accepts
    loads.set(second, 5)
    worker.nr_conns = 3
    assert worker.worker_connections == 1000  # the least loaded always accepts
    loads.release(102)
    assert loads.counts() == {101: 3} and loads.least() == 3
    assert loads.claim(103) == 1  # a freed slot is taken again
    worker.loads = None
    assert worker.worker_connections == 1000  # no shared counts: gunicorn's own limit
