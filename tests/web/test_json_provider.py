"""The JSON answers are written by orjson (adjudicator/web/json_provider.py) and are the very bytes
Flask's own provider writes; whatever orjson would write otherwise goes to Flask's provider."""

from __future__ import annotations

import dataclasses
import datetime
import json
import uuid
from typing import Any

import pytest
from flask.json.provider import DefaultJSONProvider

from adjudicator.web.json_provider import OrjsonProvider
from tests.rules.test_scenarios import CASES


def flask_bytes(app: Any, obj: Any) -> bytes:
    """What Flask's own provider answers for `obj`, with the app's settings."""
    own = DefaultJSONProvider(app)
    own.ensure_ascii = app.json.ensure_ascii
    with app.app_context():
        return own.response(obj).get_data()


def test_the_app_answers_through_orjson(app) -> None:
    assert isinstance(app.json, OrjsonProvider) and app.json.ensure_ascii is False


@pytest.mark.parametrize("index", range(0, len(CASES), max(1, len(CASES) // 12)))
def test_rulings_are_the_bytes_flask_writes(client, app, index: int) -> None:
    response = client.post("/api/ruling", json=CASES[index][1]["state"])
    assert response.mimetype == "application/json"
    assert response.get_data() == flask_bytes(app, response.get_json())


@pytest.mark.parametrize("path", ["/api/openapi.json", "/api/faq?q=Surprise", "/api/cards",
                                  "/api/faq?q=%E6%84%8F%E5%A4%96"])
def test_other_answers_are_the_bytes_flask_writes(client, app, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.get_data() == flask_bytes(app, response.get_json())


@dataclasses.dataclass
class _Point:
    x: int
    when: datetime.date


@pytest.mark.parametrize("obj", [
    {"date": datetime.datetime(2026, 11, 30, 9, 0, tzinfo=datetime.UTC)},
    {"uuid": uuid.UUID(int=7)}, [_Point(1, datetime.date(2026, 1, 2))],
    {"big": 2 ** 70, "small": -(2 ** 63) - 1}, {"zh": "意外卡", "ctl": "\x1f\u2028", "f": 3.452},
    {"b": 1, "a": {"d": [1, 2], "c": None}}, "text", 12, None])
def test_what_orjson_would_write_otherwise_is_written_as_flask_does(app, obj: Any) -> None:
    with app.app_context():
        assert app.json.response(obj).get_data() == flask_bytes(app, obj)
        assert app.json.dumps(obj) == json.dumps(obj, default=app.json.default,
                                                 ensure_ascii=False, sort_keys=True)


def test_keys_that_are_not_strings_fail_alike(app) -> None:
    # orjson refuses them (no OPT_NON_STR_KEYS): Flask's provider is asked, and fails as before
    for provider in (app.json, DefaultJSONProvider(app)):
        provider.ensure_ascii = False
        with app.app_context(), pytest.raises(TypeError):
            provider.response({1: "a", "b": 2})


def test_debug_answers_are_indented_as_flask_does(app) -> None:
    app.debug = True
    try:
        with app.app_context():
            assert app.json.response({"b": [1], "a": "意"}).get_data() == \
                flask_bytes(app, {"b": [1], "a": "意"})
            assert b"\n  " in app.json.response({"a": 1}).get_data()
    finally:
        app.debug = False
