"""The knowledge store for the running Flask app.

`get_db()` gives the request its own connection (sqlite connections are per thread) to the store
at `app.config["STORE_PATH"]` (tests set a temporary path) or at the default path. The store is
ensured (built if missing, stale or damaged) once per app and path, not on every request. The
connection is closed when the request ends (`close_db`, registered by the knowledge_api
blueprint).

A store damaged while the service runs (the file overwritten in place) shows itself as an
SQLite error in some request: `store_failed` then checks the file (`store.is_sound`) and, if it
is damaged, rebuilds it from the shipped sources in a thread of its own, while every request
that needs the store is answered 503 with Retry-After (`store_rebuilding`, the contract's
shape). The rebuilt file replaces the damaged one atomically; the requests after it read it.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import sqlite_utils
from flask import current_app, g

from ..errors import InputError, error
from . import store

_lock = threading.Lock()
_EXT = "fluxx_knowledge_store"
# per store file: the thread rebuilding it, or the StoreUnavailable that ended the last attempt
# and when (tried again after RETRY_FAILED_S)
_rebuilds: dict[Path, threading.Thread] = {}
_failures: dict[Path, tuple[float, store.StoreUnavailable]] = {}
RETRY_FAILED_S = 30.0


def store_path() -> Path:
    """The ensured store file of the current app."""
    configured = current_app.config.get("STORE_PATH")
    cached = current_app.extensions.get(_EXT)
    if cached and cached[0] == configured and cached[1].is_file():
        return cached[1]
    with _lock:
        path = store.ensure(configured)
        current_app.extensions[_EXT] = (configured, path)
    return path


def get_db() -> sqlite_utils.Database:
    """This request's connection to the knowledge store (503 while the store is rebuilt)."""
    db = g.get("knowledge_db")
    if db is None:
        cached = current_app.extensions.get(_EXT)
        if cached:
            _refuse_while_rebuilding(cached[1])
        db = g.knowledge_db = sqlite_utils.Database(store.sqlite3_readonly(store_path()))
    return db


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("knowledge_db", None)
    if db is not None:
        db.close()


def store_failed(exc: sqlite3.Error) -> InputError | None:
    """What to answer for an SQLite error met in a request: a 503 if the store is damaged (its
    rebuild started, or running), None if the store is sound (the error is a bug: a 500)."""
    cached = current_app.extensions.get(_EXT)
    if not cached:
        return None
    path = cached[1]
    _refuse_while_rebuilding(path)
    if store.is_sound(path):
        return None
    current_app.logger.error("the knowledge store %s is damaged (%s): rebuilding it", path, exc)
    with _lock:
        if path not in _rebuilds:
            _failures.pop(path, None)
            thread = threading.Thread(target=_rebuild, args=(path,), daemon=True,
                                      name="fluxx-store-rebuild")
            _rebuilds[path] = thread
            thread.start()
    return _rebuilding(path)


def _refuse_while_rebuilding(path: Path) -> None:
    with _lock:
        if path in _rebuilds:
            raise _rebuilding(path)
        failed = _failures.get(path)
        if failed and time.monotonic() - failed[0] < RETRY_FAILED_S:
            raise failed[1]


def _rebuilding(path: Path) -> InputError:
    return InputError(error("/store", "store_rebuilding", path=str(path)), status=503,
                      retry_after=store.RETRY_AFTER_S)


def _rebuild(path: Path) -> None:
    try:
        store.build(path)
    except store.StoreUnavailable as err:
        with _lock:
            _failures[path] = (time.monotonic(), err)
    finally:
        with _lock:
            _rebuilds.pop(path, None)
