"""Fuzzing the JSON API from its own OpenAPI description (schemathesis, through the WSGI app).

Every operation of GET /api/openapi.json gets a bounded, derandomized set of generated requests
(valid and invalid by the schema). Whatever is sent: never a server error (5xx), every answer
conforms to the declared status codes, content types and schemas, and every error answer is the
contract's shape {"ok": false, "errors": [{path, message {en, zh}, suggestions}]}.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from adjudicator.web.api.openapi import OPERATIONS, openapi_path


@pytest.fixture
def api_schema(app):
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app)


schema = schemathesis.pytest.from_fixture("api_schema")


def contract_error_problems(body: Any) -> list[str]:
    """What is wrong with an error answer's shape (empty: it is the contract's shape)."""
    if not isinstance(body, dict):
        return [f"the body is not an object: {body!r:.200}"]
    problems = []
    if body.get("ok") is not False:
        problems.append("ok is not false")
    errors = body.get("errors")
    if not isinstance(errors, list) or not errors:
        return problems + ["errors is not a non-empty list"]
    for i, item in enumerate(errors):
        if not isinstance(item, dict):
            problems.append(f"errors[{i}] is not an object")
            continue
        if not isinstance(item.get("path"), str):
            problems.append(f"errors[{i}].path is not text")
        message = item.get("message")
        if not (isinstance(message, dict) and isinstance(message.get("en"), str)
                and isinstance(message.get("zh"), str) and message["en"] and message["zh"]):
            problems.append(f"errors[{i}].message lacks en and zh text")
        suggestions = item.get("suggestions")
        if not (isinstance(suggestions, list) and all(isinstance(s, str) for s in suggestions)):
            problems.append(f"errors[{i}].suggestions is not a list of text")
    return problems


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=30, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_api_never_fails_and_errors_keep_the_contract_shape(case) -> None:
    response = case.call_and_validate(checks=[
        not_a_server_error, status_code_conformance, content_type_conformance,
        response_schema_conformance,
    ])
    assert response.status_code < 500
    if response.status_code >= 400:
        content_type = response.headers.get("content-type", [""])[0]  # lowercase keys, lists
        assert content_type.startswith("application/json")
        assert contract_error_problems(response.json()) == []


def test_the_description_lists_every_json_endpoint(client) -> None:
    """Every /api/ route the app serves is described, and nothing it does not serve is."""
    doc = client.get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.1")
    served = {(method.lower(), openapi_path(rule.rule))
              for rule in client.application.url_map.iter_rules()
              if rule.rule.startswith("/api/")
              for method in rule.methods or () if method not in ("HEAD", "OPTIONS")}
    described = {(method, path) for path, item in doc["paths"].items() for method in item}
    assert served == described
    assert ("post", "/api/ruling") in described
    # every operation the module knows is one the app serves once its blueprint lands
    assert described <= {(m, openapi_path(r)) for m, r in OPERATIONS}


def test_the_error_shape_check_catches_a_wrong_shape() -> None:
    good = {"ok": False, "errors": [{"path": "/players", "message": {"en": "x", "zh": "甲"},
                                     "suggestions": []}]}
    assert contract_error_problems(good) == []
    assert contract_error_problems({"ok": False, "errors": []})
    assert contract_error_problems({"error": "boom"})
    assert contract_error_problems({"ok": False, "errors": [{"path": "", "message": "x",
                                                             "suggestions": []}]})
