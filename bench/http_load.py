"""Rulings per second over HTTP, on a real WSGI server (gunicorn), loopback only.

Run by hand (figures are printed, never asserted):

    python bench/http_load.py                      # 2 workers, 8 and 32 clients, 10 s each
    python bench/http_load.py --workers 4 --seconds 20 --clients 8 32 64

The script starts `fluxx-adjudicator serve --workers N` on 127.0.0.1 on a free port, waits until
it answers, then for each client count runs that many concurrent clients (threads, each with
its own keep-alive connection) posting tables to POST /api/ruling for a bounded time and count.
The tables rotate through 2 to 10 players and a crowded table, so no answer is a repeat of the
previous one. It prints rulings per second, latency percentiles and the errors (any answer other
than 200 with "ok": true, and any failed connection), then stops the server it started.
Target (bench/README.md): 300 rulings per second on 2 cores, zero errors. The clients share
the machine with the server: on a small machine they take some of its CPU. `--client wrk` drives
the load with wrk (Debian package `wrk`, written in C) instead of Python threads, so the load
generator takes far less of the server's CPU; its Lua script rotates the same tables and counts
every answer that is not 200 with "ok": true as an error.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from rulings import crowded_table, machine, seated_table  # noqa: E402


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_command(port: int, workers: int, threads: int | None = None,
                  front: str = "none") -> list[str]:
    exe = shutil.which("fluxx-adjudicator")
    base = [exe] if exe else [sys.executable, "-c",
                              "import sys; from adjudicator.cli import main; sys.exit(main())"]
    return base + ["serve", "--host", "127.0.0.1", "--port", str(port),
                   "--workers", str(workers)] + (["--threads", str(threads)] if threads else []) \
        + (["--front", front] if front != "none" else [])


def start_server(port: int, workers: int, log: Path, threads: int | None = None,
                 front: str = "none") -> subprocess.Popen:
    out = log.open("w", encoding="utf-8")
    proc = subprocess.Popen(serve_command(port, workers, threads, front), stdout=out,
                            stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 120  # the first start may build the knowledge store
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}; see {log}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/openapi.json")
            if conn.getresponse().status == 200:
                conn.close()
                return proc
        except OSError:
            time.sleep(0.2)
    stop_server(proc)
    raise SystemExit(f"the server did not answer within 120 s; see {log}")


def stop_server(proc: subprocess.Popen) -> None:
    """Stops the server this script started (its own process group: gunicorn and workers)."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def server_cpu_by_process(pid: int) -> dict[int, float]:
    """CPU time (user + system) used so far by each process of the server: the master and all
    its descendants (the workers, and nginx with its worker under --front nginx)."""
    ticks = os.sysconf("SC_CLK_TCK")
    used: dict[int, float] = {}
    pids = [pid]
    while pids:
        p = pids.pop()
        if p in used:
            continue
        try:
            with open(f"/proc/{p}/task/{p}/children", encoding="ascii") as f:
                pids += [int(c) for c in f.read().split()]
            with open(f"/proc/{p}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            used[p] = (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
        except (OSError, IndexError, ValueError):
            continue
    return used


def cores_by_process(before: dict[int, float], after: dict[int, float], seconds: float) -> str:
    """The cores each server process kept busy between two readings, busiest first ("0.97
    0.04 0.01": one worker took nearly all the work, the other core idled)."""
    busy = sorted(((after[p] - before.get(p, 0.0)) / seconds for p in after), reverse=True)
    return " ".join(f"{b:.2f}" for b in busy if b >= 0.005) or "0"


def bodies() -> list[bytes]:
    tables = [seated_table(n, seed) for n in (2, 4, 6, 10) for seed in (1, 2, 3)]
    tables.append(crowded_table())
    return [json.dumps(t, ensure_ascii=False).encode("utf-8") for t in tables]


class Load:
    """One run: `clients` threads posting until `seconds` pass or `max_requests` are sent."""

    def __init__(self, port: int, clients: int, seconds: float, max_requests: int) -> None:
        self.port, self.clients = port, clients
        self.seconds, self.max_requests = seconds, max_requests
        self.latencies: list[float] = []
        self.errors: dict[str, int] = {}
        self.lock = threading.Lock()
        self.sent = 0
        self.bodies = bodies()
        self.timeout: float = 60

    def _next(self) -> int | None:
        with self.lock:
            if self.sent >= self.max_requests:
                return None
            self.sent += 1
            return self.sent

    def _error(self, kind: str) -> None:
        with self.lock:
            self.errors[kind] = self.errors.get(kind, 0) + 1

    def _client(self, stop_at: float) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        headers = {"Content-Type": "application/json", "Connection": "keep-alive"}
        while time.perf_counter() < stop_at:
            n = self._next()
            if n is None:
                break
            body = self.bodies[n % len(self.bodies)]
            started = time.perf_counter()
            try:
                conn.request("POST", "/api/ruling", body=body, headers=headers)
                response = conn.getresponse()
                data = response.read()
            except (OSError, http.client.HTTPException) as exc:
                self._error(type(exc).__name__)
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
                continue
            elapsed = (time.perf_counter() - started) * 1000
            if response.status != 200 or b'"ok":true' not in data.replace(b" ", b""):
                self._error(f"HTTP {response.status}")
            else:
                with self.lock:
                    self.latencies.append(elapsed)
        conn.close()

    def run(self) -> dict[str, Any]:
        started = time.perf_counter()
        stop_at = started + self.seconds
        threads = [threading.Thread(target=self._client, args=(stop_at,))
                   for _ in range(self.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - started
        lat = sorted(self.latencies)

        def pct(p: float) -> float:
            return lat[min(len(lat) - 1, int(p / 100 * len(lat)))] if lat else float("nan")

        return {"clients": self.clients, "ok": len(lat), "errors": sum(self.errors.values()),
                "error_kinds": dict(self.errors), "seconds": wall,
                "per_second": len(lat) / wall if wall else 0.0,
                "p50": pct(50), "p90": pct(90), "p99": pct(99),
                "max": lat[-1] if lat else float("nan"),
                "mean": statistics.fmean(lat) if lat else float("nan")}


# wrk's Lua side: rotate the request bodies (one file each), check every answer, sum per thread.
WRK_SCRIPT = """
local bodies, n = {}, 0
bad = 0  -- a global: done() reads it from every thread with thread:get
local dir = "%s"
for i = 1, %d do
  local f = assert(io.open(dir .. "/body" .. i .. ".json", "rb"))
  bodies[i] = f:read("*a")
  f:close()
end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  n = n + 1
  return wrk.format(nil, "/api/ruling", nil, bodies[(n %% #bodies) + 1])
end
response = function(status, headers, body)
  if status ~= 200 or not string.find(body, '"ok":%%s*true') then bad = bad + 1 end
end
local threads = {}
function setup(thread) table.insert(threads, thread) end
done = function(summary, latency, requests)
  local total = 0
  for _, t in ipairs(threads) do total = total + t:get("bad") end
  for _, p in ipairs({50, 90, 99}) do
    io.write(string.format("FLUXX p%%d %%.3f\\n", p, latency:percentile(p) / 1000))
  end
  io.write(string.format("FLUXX max %%.3f\\n", latency.max / 1000))
  io.write(string.format("FLUXX mean %%.3f\\n", latency.mean / 1000))
  io.write(string.format("FLUXX requests %%d\\n", summary.requests))
  io.write(string.format("FLUXX bad %%d\\n", total))
  local e = summary.errors
  io.write(string.format("FLUXX socket %%d\\n", e.connect + e.read + e.write + e.timeout))
end
"""


def run_wrk(port: int, clients: int, seconds: float, timeout: str = "60s") -> dict[str, Any]:
    """One run of wrk with `clients` connections for `seconds`; the same fields as Load.run."""
    with tempfile.TemporaryDirectory(prefix="fluxx-wrk-") as tmp:
        tables = bodies()
        for i, body in enumerate(tables, start=1):
            Path(tmp, f"body{i}.json").write_bytes(body)
        script = Path(tmp, "load.lua")
        script.write_text(WRK_SCRIPT % (tmp, len(tables)), encoding="utf-8")
        threads = max(1, min(2, clients))
        out = subprocess.run(
            ["wrk", "-t", str(threads), "-c", str(clients), "-d", f"{seconds:g}s",
             "--timeout", timeout, "-s", str(script), f"http://127.0.0.1:{port}"],
            capture_output=True, text=True, check=True).stdout
    values = {k: float(v) for k, v in re.findall(r"^FLUXX (\w+) ([\d.]+)$", out, re.M)}
    wall = float(re.search(r"requests in ([\d.]+)(m?s)", out).group(1))
    if re.search(r"requests in [\d.]+ms", out):
        wall /= 1000
    errors = int(values["bad"] + values["socket"])
    ok = int(values["requests"]) - int(values["bad"])
    return {"clients": clients, "ok": ok, "errors": errors,
            "error_kinds": {"bad answer": int(values["bad"]), "socket": int(values["socket"])},
            "seconds": wall, "per_second": ok / wall if wall else 0.0,
            "p50": values["p50"], "p90": values["p90"], "p99": values["p99"],
            "max": values["max"], "mean": values["mean"]}


class SlowClients:
    """`count` connections that each send the start of a request and then one byte of a header
    every `interval` seconds, never finishing it (a "slowloris"): held open until `close`."""

    HEAD = b"POST /api/ruling HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"

    def __init__(self, port: int, count: int, interval: float = 1.0) -> None:
        self.port, self.count, self.interval = port, count, interval
        self.sockets: list[socket.socket] = []
        self.refused = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._trickle, daemon=True)

    def open(self) -> None:
        for _ in range(self.count):
            try:
                s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
                s.sendall(self.HEAD + b"X-Slow: ")
                self.sockets.append(s)
            except OSError:
                self.refused += 1
        self._thread.start()

    def _trickle(self) -> None:
        while not self._stop.wait(self.interval):
            for s in list(self.sockets):
                try:
                    s.sendall(b"a")
                except OSError:
                    self.sockets.remove(s)

    def held(self) -> int:
        """The connections the server still holds open."""
        return len(self.sockets)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        for s in self.sockets:
            s.close()


def run_slow(port: int, slow: int, clients: int, seconds: float, client: str) -> dict[str, Any]:
    """`slow` slow connections held while `clients` ordinary clients post tables for `seconds`:
    the same fields as Load.run, plus the slow connections held at the end. The ordinary clients
    time out after 5 s (Python) or 10 s (wrk): a server locked out shows as errors."""
    holders = SlowClients(port, slow)
    holders.open()
    time.sleep(1.0)  # every slow connection is in (and, on a threaded server, holds a thread)
    try:
        if client == "wrk":
            r = run_wrk(port, clients, seconds, timeout="10s")
        else:
            load = Load(port, clients, seconds, 10**9)
            load.timeout = 5
            r = load.run()
        r["held"] = holders.held()
        r["refused"] = holders.refused
    finally:
        holders.close()
    return r


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--clients", type=int, nargs="+", default=[8, 32])
    ap.add_argument("--seconds", type=float, default=10.0, help="per client count")
    ap.add_argument("--max-requests", type=int, default=20_000, help="per client count")
    ap.add_argument("--warmup", type=float, default=10.0, help="seconds of load before timing")
    ap.add_argument("--log", type=Path,
                    default=Path(tempfile.gettempdir()) / "fluxx-http-load-server.log")
    ap.add_argument("--threads", type=int, default=None,
                    help="threads per gunicorn worker (default: the server's own default)")
    ap.add_argument("--client", choices=("python", "wrk"), default="python",
                    help="load generator: Python threads (default) or wrk (apt install wrk)")
    ap.add_argument("--front", choices=("none", "nginx"), default="none",
                    help="serve --front: nginx in front of gunicorn (apt install nginx)")
    ap.add_argument("--slow", type=int, default=500,
                    help="slow connections held during the last run, served to --slow-clients "
                         "ordinary clients (default 500; 0: no such run)")
    ap.add_argument("--slow-clients", type=int, default=8)
    args = ap.parse_args(argv)
    if args.client == "wrk" and not shutil.which("wrk"):
        raise SystemExit("--client wrk needs wrk on the PATH (Debian: apt-get install wrk)")

    port = free_port()
    print(machine())
    threads = f" --threads {args.threads}" if args.threads else ""
    front = f" --front {args.front}" if args.front != "none" else ""
    print(f"server: fluxx-adjudicator serve --workers {args.workers}{threads}{front} on "
          f"127.0.0.1:{port} (gunicorn; log {args.log}); load from {args.client}")
    proc = start_server(port, args.workers, args.log, args.threads, args.front)
    malloc = re.search(r"malloc: (\w+)", args.log.read_text(encoding="utf-8", errors="replace"))
    print(f"server's memory allocator: {malloc.group(1) if malloc else 'unknown'} "
          f"(FLUXX_MALLOC=system: the C library's; adjudicator/allocator.py)")
    try:
        Load(port, max(args.clients), args.warmup, 10**9).run()  # warm every worker up
        print(f"{'clients':>8}{'rulings':>9}{'errors':>8}{'per s':>9}"
              f"{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}{'max ms':>9}{'cpu ms':>8}{'cap/s':>7}"
              f"  cores by process")
        for clients in args.clients:
            cpu_before = server_cpu_by_process(proc.pid)
            if args.client == "wrk":
                r = run_wrk(port, clients, args.seconds)
            else:
                r = Load(port, clients, args.seconds, args.max_requests).run()
            cpu_after = server_cpu_by_process(proc.pid)
            cpu_ms = ((sum(cpu_after.values()) - sum(cpu_before.values())) * 1000
                      / max(1, r["ok"]))
            busy = cores_by_process(cpu_before, cpu_after, r["seconds"])
            capacity = (os.cpu_count() or 1) * 1000 / cpu_ms if cpu_ms else float("nan")
            print(f"{r['clients']:>8}{r['ok']:>9}{r['errors']:>8}{r['per_second']:>9.1f}"
                  f"{r['p50']:>9.1f}{r['p90']:>9.1f}{r['p99']:>9.1f}{r['max']:>9.1f}"
                  f"{cpu_ms:>8.1f}{capacity:>7.0f}  {busy}"
                  + (f"  {r['error_kinds']}" if r["errors"] else ""))
        print("cpu ms: the server's CPU time per ruling (master and workers); cap/s: the rulings "
              "per second\nthat CPU time allows on this machine's cores if nothing else ran; "
              "cores by process: the cores\neach server process kept busy, busiest first (the "
              "workers share the clients' connections as\nthey happen to accept them: one may "
              "hold them all while the other idles)")
        if args.slow:
            r = run_slow(port, args.slow, args.slow_clients, args.seconds, args.client)
            print(f"with {args.slow} slow connections held ({r['held']} still open at the end, "
                  f"{r['refused']} refused): {r['clients']} clients, {r['ok']} rulings, "
                  f"{r['errors']} errors, {r['per_second']:.1f} per s, p50 {r['p50']:.1f} ms, "
                  f"p99 {r['p99']:.1f} ms, max {r['max']:.1f} ms"
                  + (f"  {r['error_kinds']}" if r["errors"] else ""))
    finally:
        stop_server(proc)
    print("target: 300 rulings per second with zero errors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
