"""The app under gunicorn, as `fluxx-adjudicator serve` runs it (cli/serve.py; behind nginx:
web/front.py): gunicorn's stock gthread worker, configured by its documented settings only."""

from __future__ import annotations

import gc
from typing import Any

# gunicorn's largest request line (bytes; 4094 by default): a search of 500 Chinese characters
# (4.5 KB escaped) or a permalink of MAX_LINK_STATE characters must reach the app, which answers
# in the contract's shape; a longer line is refused by gunicorn itself (414)
REQUEST_LINE_LIMIT = 8190
WORKER_TIMEOUT_S = 30  # a worker silent this long is killed and replaced (FLUXX_SOLVE_TIMEOUT < it)
# Python's cyclic garbage collector in a serving process: a young collection every 50,000
# allocations of container objects instead of every 700, the middle generation every 20 young
# ones instead of 10, the full collections as Python has them. With 32 requests in flight, a
# young collection every 700 allocations kept the objects of every request in flight, which then
# died in the oldest generation and brought on full collections: 8-11 a worker in a 10-second run
# at 32 clients, 40-68 ms each, each a pause of all the worker's threads. With these, one a worker
# (at start-up), and the collector's time a worker 0.22-0.27 s a run instead of 0.51-0.77, 3-5%
# of its CPU (bench/HISTORY.md).
GC_THRESHOLDS = (50_000, 20, 10)


def tune_collector() -> None:
    """Sets the garbage collector's thresholds for serving (GC_THRESHOLDS); the workers that
    gunicorn forks keep them."""
    gc.set_threshold(*GC_THRESHOLDS)


def run_gunicorn(app: Any, bind: str, workers: int, threads: int,
                 hooks: dict[str, Any] | None = None) -> None:
    """The app under gunicorn's gthread worker on `bind` (host:port or unix:PATH), until the
    master is stopped; `hooks`: gunicorn server hooks (on_exit, ...)."""
    from gunicorn.app.base import BaseApplication

    class _Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", bind)
            self.cfg.set("workers", workers)
            self.cfg.set("threads", threads)
            self.cfg.set("worker_class", "gthread")
            self.cfg.set("timeout", WORKER_TIMEOUT_S)
            self.cfg.set("limit_request_line", REQUEST_LINE_LIMIT)
            self.cfg.set("accesslog", None)
            # no shared control socket under ~/.gunicorn: two servers on one machine must not
            # share it, and nothing here uses it
            self.cfg.set("control_socket_disable", True)
            for name, hook in (hooks or {}).items():
                self.cfg.set(name, hook)

        def load(self) -> Any:
            return app

    tune_collector()
    _Server().run()
