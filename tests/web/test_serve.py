"""`fluxx-adjudicator serve` as a deployment runs it: the README's first command runs gunicorn with
a worker per core, with jemalloc as the allocator where the machine has it; a worker that hangs
holds no one else up; with `--front nginx`, hundreds of clients that trickle their headers hold
no thread, and everyone else is answered; request lines up to gunicorn's largest limit and
chunked bodies over the size limit are answered by the app, in the contract's shape."""

from __future__ import annotations

import base64
import ctypes.util
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator.cli.serve import cores
from adjudicator.web.front import find_nginx

TABLE = {"players": [{"name": "Ann", "hand": ["Jackpot"]}, {"name": "Bo", "hand_size": 3}],
         "active": "Ann"}
needs_nginx = pytest.mark.skipif(find_nginx() is None, reason="needs nginx (.ci/run installs it)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(store_path: Path, log_path: Path, *extra: str) -> tuple[subprocess.Popen, int]:
    """`fluxx-adjudicator serve --port P` (the README's command) and `extra`, once it answers."""
    port = _free_port()
    log = log_path.open("w")
    command = [sys.executable, "-c", "import sys; from adjudicator.cli import main; "
               "sys.exit(main())", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--store", str(store_path), *extra]
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    log.close()
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, log_path.read_text()
        assert time.monotonic() < deadline, "the server did not start: " + log_path.read_text()
        try:
            if _get(port, "/api/openapi.json", timeout=2)[0] == 200:
                return proc, port
        except OSError:
            time.sleep(0.1)


def _stop(proc: subprocess.Popen) -> None:
    for pid in _descendants(proc.pid):
        try:
            os.kill(pid, signal.SIGCONT)  # a worker a test stopped
        except ProcessLookupError:
            pass
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=40)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


@pytest.fixture
def server(store_path: Path, tmp_path: Path) -> Iterator[tuple[int, int]]:
    """The README's first command on a free port: (port, the master's pid)."""
    proc, port = _start(store_path, tmp_path / "server.log")
    try:
        yield port, proc.pid
    finally:
        _stop(proc)


@pytest.fixture
def fronted(store_path: Path, tmp_path: Path) -> Iterator[tuple[int, int]]:
    """The same behind nginx (`--front nginx`): (port, the master's pid)."""
    proc, port = _start(store_path, tmp_path / "server.log", "--front", "nginx")
    try:
        yield port, proc.pid
    finally:
        _stop(proc)


def _children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _descendants(pid: int) -> list[int]:
    found = []
    for child in _children(pid):
        found += [child, *_descendants(child)]
    return found


def _gunicorn_workers(master: int) -> list[int]:
    return [pid for pid in _children(master)
            if b"nginx" not in Path(f"/proc/{pid}/cmdline").read_bytes()]


def _ask(port: int, connection: http.client.HTTPConnection | None = None,
         timeout: float = 60) -> dict:
    connection = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.request("POST", "/api/ruling", body=json.dumps(TABLE),
                       headers={"Content-Type": "application/json"})
    return json.loads(connection.getresponse().read())


def _get(port: int, target: str, timeout: float = 60) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", target)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def _warm(port: int, workers: int) -> None:
    """One ruling at once per worker: each builds its programs before anything is timed."""
    threads = [threading.Thread(target=_ask, args=(port,)) for _ in range(2 * workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)


@pytest.mark.slow
def test_the_readme_command_runs_gunicorn_with_a_worker_per_core(server) -> None:
    port, master = server
    deadline = time.monotonic() + 30
    while len(_gunicorn_workers(master)) < cores() and time.monotonic() < deadline:
        time.sleep(0.1)  # the first worker may answer before the others are forked
    assert len(_gunicorn_workers(master)) == cores()
    assert _ask(port)["ok"]


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux" or ctypes.util.find_library("jemalloc") is None
                    or bool(os.environ.get("LD_PRELOAD") or os.environ.get("FLUXX_MALLOC")),
                    reason="needs jemalloc (.ci/run installs Debian's libjemalloc2) and an "
                           "environment that leaves the choice to the server")
def test_the_readme_command_serves_with_jemalloc(server) -> None:
    port, master = server
    assert _ask(port)["ok"]
    for pid in [master, *_gunicorn_workers(master)]:
        assert b"libjemalloc" in Path(f"/proc/{pid}/maps").read_bytes()


@pytest.mark.slow
@pytest.mark.skipif(cores() < 2, reason="needs two workers")
def test_a_worker_that_hangs_holds_no_new_client_up(server) -> None:
    """One worker stopped dead while idle (SIGSTOP): while a client keeps the other busy on a
    kept connection, new clients are answered at once, not when gunicorn kills the hung worker
    (30 s)."""
    port, master = server
    _warm(port, cores())
    hung = _gunicorn_workers(master)[0]
    os.kill(hung, signal.SIGSTOP)
    done = threading.Event()

    def keep_busy() -> None:  # a client of the healthy worker, asking again and again
        kept = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while not done.is_set():
            _ask(port, kept)
            time.sleep(0.1)
        kept.close()

    busy = threading.Thread(target=keep_busy)
    try:
        busy.start()
        time.sleep(0.5)
        for _ in range(3):
            started = time.monotonic()
            assert _ask(port, timeout=10)["ok"]
            assert time.monotonic() - started < 2
    finally:
        done.set()
        busy.join(timeout=30)
        os.kill(hung, signal.SIGCONT)


class _Slow:
    """Connections that send the start of a request, then a byte of a header now and then."""

    def __init__(self, port: int, count: int) -> None:
        self.sockets = []
        for _ in range(count):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"POST /api/ruling HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            self.sockets.append(s)

    def trickle(self) -> None:
        for s in self.sockets:
            s.sendall(b"a")

    def close(self) -> None:
        for s in self.sockets:
            s.close()


@pytest.mark.slow
@needs_nginx
def test_behind_nginx_500_slow_clients_lock_no_one_out(fronted) -> None:
    port, _ = fronted
    _warm(port, cores())
    slow = _Slow(port, 500)
    try:
        time.sleep(0.5)
        waits = []
        for _ in range(8):
            slow.trickle()
            started = time.monotonic()
            assert _ask(port, timeout=5)["ok"]  # a locked-out server times out here
            waits.append(time.monotonic() - started)
        slow.trickle()  # every slow connection is still held open
    finally:
        slow.close()
    # the median: a shared machine may slow one ruling down on its own
    assert sorted(waits)[len(waits) // 2] < 1.0, [round(w, 3) for w in waits]


def _legacy_link(state: dict) -> str:
    """A permalink in the older, undeflated form (base64url of the JSON)."""
    raw = json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


@pytest.mark.slow
def test_long_request_lines_are_answered_by_the_app(server) -> None:
    port, _ = server
    query = urllib.parse.quote("无手牌奖励" * 100)  # 500 characters, 4.5 KB escaped
    status, headers, body = _get(port, "/api/search?q=" + query)
    assert status == 200 and json.loads(body)["ok"] is True
    status, headers, body = _get(port, "/faq?q=" + query)
    assert status in (200, 400) and "Content-Security-Policy" in headers
    noted = {**TABLE, "notes": "Ann drew Jackpot, then Bo asked about the rule. " * 95}
    token = _legacy_link(noted)
    assert 5000 < len(token) < 7000
    status, headers, body = _get(port, "/ruling?format=json&state=" + token)
    assert status == 200 and json.loads(body)["ok"] is True


@pytest.mark.slow
def test_a_chunked_body_over_the_limit_is_413(server) -> None:
    port, _ = server
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    filler = json.dumps({**TABLE, "filler": "x" * (300 * 1024)}).encode()
    chunks = (filler[i:i + 16384] for i in range(0, len(filler), 16384))
    connection.request("POST", "/api/ruling", body=chunks, encode_chunked=True,
                       headers={"Content-Type": "application/json",
                                "Transfer-Encoding": "chunked"})
    response = connection.getresponse()
    body = json.loads(response.read())
    assert response.status == 413
    assert body["ok"] is False and "too large" in body["errors"][0]["message"]["en"]


@pytest.mark.slow
@pytest.mark.parametrize("target", ["/api/ruling", "/api/play", "/ruling"])
@pytest.mark.parametrize("chunk", [b"zz\r\nabc\r\n0\r\n\r\n",  # no size
                                   b"3\r\nabcXX0\r\n\r\n",  # no terminator
                                   b"-3\r\nabc\r\n0\r\n\r\n"])
def test_a_malformed_chunked_body_is_400(server, target: str, chunk: bytes) -> None:
    """A body whose chunked encoding gunicorn cannot read is the client's error: 400 in the
    contract's shape, not the 500 of an unexpected error."""
    port, _ = server
    kind = b"application/x-www-form-urlencoded" if target == "/ruling" else b"application/json"
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"POST " + target.encode() + b" HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: " + kind + b"\r\nAccept: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunk)
        answer = b""
        while part := sock.recv(65536):
            answer += part
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.split()[1] == b"400", head
    assert json.loads(body)["errors"][0]["message"]["zh"]


@pytest.mark.slow
@needs_nginx
def test_what_nginx_refuses_itself_is_in_the_contract_shape(fronted) -> None:
    port, _ = fronted
    assert _ask(port)["ok"]
    status, headers, body = _get(port, "/faq?q=" + "a" * 9000)
    assert status == 414
    assert json.loads(body)["errors"][0]["message"]["zh"]


def test_the_workers_are_forked_with_the_serving_collector_thresholds(monkeypatch) -> None:
    # gunicorn's workers keep what the master set before forking them: a young collection every
    # 700 allocations brought on a full one, a pause of every thread, about once a second
    import gc

    from gunicorn.app.base import BaseApplication

    from adjudicator.web import server

    seen: list[tuple[int, int, int]] = []
    monkeypatch.setattr(BaseApplication, "run", lambda self: seen.append(gc.get_threshold()))
    before = gc.get_threshold()
    try:
        server.run_gunicorn(object(), "127.0.0.1:0", 1, 1)
    finally:
        gc.set_threshold(*before)
    assert seen == [server.GC_THRESHOLDS] and server.GC_THRESHOLDS[0] > before[0]
