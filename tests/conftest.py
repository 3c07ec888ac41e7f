"""Shared fixtures.

- `store_path`: a knowledge store built once per test session into a temporary folder. The
  session also points $FLUXX_STORE at it, so code that opens the default store (the engine, the
  CLI) uses this one and never writes to the user's cache.
- `knowledge_db`: a sqlite_utils connection to that store.
- `app`: `create_app({"TESTING": True, "STORE_PATH": <the session store>})`; `client`: its test
  client.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlite_utils


@pytest.fixture(scope="session")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    from adjudicator.knowledge import store

    path = store.build(tmp_path_factory.mktemp("knowledge") / "store.db")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(store.ENV_VAR, str(path))
        yield path


@pytest.fixture(scope="session", autouse=True)
def _session_store_env(store_path: Path) -> None:
    """Every test sees $FLUXX_STORE set to the session store (see store_path)."""


@pytest.fixture(scope="session")
def knowledge_db(store_path: Path) -> Iterator[sqlite_utils.Database]:
    db = sqlite_utils.Database(store_path)
    yield db
    db.close()


@pytest.fixture
def app(store_path: Path):
    from adjudicator.web import create_app

    return create_app({"TESTING": True, "STORE_PATH": str(store_path)})


@pytest.fixture
def client(app):
    return app.test_client()
