"""`fluxx-adjudicator serve`: the web UI and the JSON API.

By default the app runs under gunicorn, a pre-forking WSGI server: one worker process per core
(a ruling is CPU-bound and one process's Python runs on one core at a time), each with
`--threads` threads, gunicorn's stock gthread worker. `--front nginx` puts Debian's nginx in
front (adjudicator/web/front.py): nginx holds the clients' connections and reads each request
whole before gunicorn, behind it on a private socket, sees it, so slow clients cost no thread.
The server runs with jemalloc as its memory allocator where the machine has it
(adjudicator/allocator.py, chosen by cli/__init__.py: a ruling costs less CPU under it). `--dev`
runs Flask's own development server instead (one process, reloads nothing: for trying the code,
never for a deployment). The service is stateless (the table state travels in each
request or link), so workers share nothing but the read-only store, which is built once before
they start.
"""

from __future__ import annotations

import argparse
import os

# Threads per gunicorn worker. Rulings that arrive together are grounded together
# (engine/speed/batch.py), and clingo releases the GIL while it grounds, so a worker that takes
# many requests at once grounds larger batches: on 2 cores, 2 workers of 32 threads gave the
# most rulings per second (bench/HISTORY.md).
THREADS_PER_WORKER = 32


def cores() -> int:
    """The cores this process may run on (its CPU affinity, else the machine's count)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _port(value: str) -> int:
    """A TCP port number (argparse's type: a wrong one is a usage error, exit 2)."""
    try:
        port = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {value!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {port}")
    return port


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="run the web UI and the JSON API (gunicorn)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=_port, default=5000, help="0 to 65535 (default 5000)")
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="gunicorn worker processes (default: the machine's cores)",
    )
    p.add_argument(
        "--threads",
        type=int,
        default=THREADS_PER_WORKER,
        help="threads per gunicorn worker (default: %(default)s): rulings that arrive together "
             "are grounded together, so more threads mean larger batches under load",
    )
    p.add_argument("--store", default=None, help="path of the SQLite knowledge store")
    p.add_argument(
        "--front",
        choices=("none", "nginx"),
        default="none",
        help="nginx: Debian's nginx takes the connections on --host/--port and hands gunicorn "
             "only whole requests, so slow clients hold no worker thread (default: none)",
    )
    p.add_argument(
        "--dev",
        action="store_true",
        help="Flask's development server instead of gunicorn (one process; not for a deployment)",
    )
    p.set_defaults(func=run)


def _build_store(path: str | None) -> str | None:
    from ..knowledge.store import ensure

    return str(ensure(path))


def run(args: argparse.Namespace) -> int:
    from .. import allocator
    from ..web import create_app

    store = _build_store(args.store)
    app = create_app({"STORE_PATH": store})
    if args.dev:
        print(f"Fluxx Adjudicator on http://{args.host}:{args.port}/ (Flask's development "
              f"server; store: {store})", flush=True)
        app.run(host=args.host, port=args.port, threaded=True)
        return 0
    workers = max(1, args.workers if args.workers is not None else cores())
    threads = max(1, args.threads)
    if args.front == "nginx":
        from ..web.front import serve_behind_nginx

        return serve_behind_nginx(app, args.host, args.port, workers, threads)
    print(f"Fluxx Adjudicator on http://{args.host}:{args.port}/ with {workers} gunicorn workers "
          f"of {threads} threads (store: {store}; malloc: {allocator.in_use()})", flush=True)
    from ..web.server import run_gunicorn

    run_gunicorn(app, f"{args.host}:{args.port}", workers, threads)
    return 0
