"""Blueprint ruling_api: `POST /api/ruling` (docs/FORMATS.md, "Ruling").

The body is a table state as JSON. Bad input is an `InputError` (400, the contract's error
shape); a state the engine cannot rule on (no or several answer sets) is answered with
`ok: false` and the engine's message, never a silent pick.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request

from ...errors import InputError, error
from ...referee.ruling import ruling_for
from ...table.reader import parse_state

bp = Blueprint("ruling_api", __name__)


def json_body() -> Any:
    """The request's JSON body, or an InputError that says what is wrong with it."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # the JSON parser's own limit: absurdly deep nesting, never a table
        raise InputError(error("", "body_too_deep")) from None
    if data is None:
        raw = request.get_data(cache=True)
        if not raw.strip():
            raise InputError(error("", "body_empty"))
        raise InputError(error("", "body_not_json"))
    return data


@bp.post("/api/ruling")
def ruling() -> Any:
    state = parse_state(json_body())
    return jsonify(ruling_for(state))
