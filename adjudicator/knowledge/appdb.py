"""The knowledge store for the running Flask app.

`get_db()` gives the request its own connection (sqlite connections are per thread) to the store
at `app.config["STORE_PATH"]` (tests set a temporary path) or at the default path. The store is
ensured (built if missing or stale) once per app and path, not on every request. The connection
is closed when the request ends (`close_db`, registered by the knowledge_api blueprint).
"""

from __future__ import annotations

import threading
from pathlib import Path

import sqlite_utils
from flask import current_app, g

from . import store

_lock = threading.Lock()
_EXT = "fluxx_knowledge_store"


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
    """This request's connection to the knowledge store."""
    db = g.get("knowledge_db")
    if db is None:
        db = g.knowledge_db = sqlite_utils.Database(store.sqlite3_readonly(store_path()))
    return db


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("knowledge_db", None)
    if db is not None:
        db.close()
