"""`fluxx-adjudicator serve`: the web UI and the JSON API.

With `--workers 1` (the default) Flask's own threaded server runs; with more workers the same
app runs under gunicorn, a real pre-forking WSGI server. The service is stateless (the table
state travels in each request or link), so workers share nothing but the read-only store,
which is built once before they start.
"""

from __future__ import annotations

import argparse
from typing import Any

# Threads per gunicorn worker. Rulings that arrive together are grounded together
# (adjudicator/batch.py), and clingo releases the GIL while it grounds, so a worker that takes
# many requests at once grounds larger batches: on 2 cores, 2 workers of 32 threads gave the
# most rulings per second (bench/HISTORY.md).
THREADS_PER_WORKER = 32


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="run the web UI and the JSON API")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5000)
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes; more than 1 runs under gunicorn (default: 1, Flask's server)",
    )
    p.add_argument(
        "--threads",
        type=int,
        default=THREADS_PER_WORKER,
        help="threads per gunicorn worker (default: %(default)s): rulings that arrive together "
             "are grounded together, so more threads mean larger batches under load",
    )
    p.add_argument("--store", default=None, help="path of the SQLite knowledge store")
    p.set_defaults(func=run)


def _build_store(path: str | None) -> str | None:
    from .knowledge.store import ensure

    return str(ensure(path))


def run(args: argparse.Namespace) -> int:
    from . import create_app

    store = _build_store(args.store)
    app = create_app({"STORE_PATH": store})
    if args.workers <= 1:
        print(f"Fluxx Adjudicator on http://{args.host}:{args.port}/ (store: {store})", flush=True)
        app.run(host=args.host, port=args.port, threaded=True)
        return 0
    _run_gunicorn(app, args.host, args.port, args.workers, max(1, args.threads))
    return 0


def _run_gunicorn(app: Any, host: str, port: int, workers: int, threads: int) -> None:
    from gunicorn.app.base import BaseApplication

    from .balanced_worker import BalancedWorker, Loads, child_exit, pre_fork

    # the workers share their counts of open connections: each takes new ones only while no
    # sibling holds fewer (balanced_worker.py); room for workers added (SIGTTIN) or replacing
    # others during a reload
    BalancedWorker.loads = Loads(2 * workers + 8)

    class _Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"{host}:{port}")
            self.cfg.set("workers", workers)
            self.cfg.set("threads", threads)
            self.cfg.set("timeout", 30)
            self.cfg.set("accesslog", None)
            # no shared control socket under ~/.gunicorn: two servers on one machine must not
            # share it, and nothing here uses it
            self.cfg.set("control_socket_disable", True)
            self.cfg.set("worker_class", "adjudicator.balanced_worker.BalancedWorker")
            self.cfg.set("pre_fork", pre_fork)
            self.cfg.set("child_exit", child_exit)

        def load(self) -> Any:
            return app

    print(f"Fluxx Adjudicator on http://{host}:{port}/ with {workers} gunicorn workers of "
          f"{threads} threads", flush=True)
    _Server().run()
