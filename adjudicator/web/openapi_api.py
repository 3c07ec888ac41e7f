"""Blueprint openapi_api: `GET /api/openapi.json`, the OpenAPI 3.1 description of the JSON API.

The document lists only the operations this app serves (adjudicator/openapi.py holds the
schemas), so it stays true while endpoints are added.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify

from ..openapi import spec

bp = Blueprint("openapi_api", __name__)


@bp.get("/api/openapi.json")
def openapi_json() -> Any:
    routes = [(method, rule.rule) for rule in current_app.url_map.iter_rules()
              for method in rule.methods or () if method not in ("HEAD", "OPTIONS")]
    return jsonify(spec(routes))
