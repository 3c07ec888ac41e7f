"""Blueprint ruling_api: `POST /api/ruling` (docs/FORMATS.md, "Ruling").

The body is a table state as JSON. Bad input is an `InputError` (400, the contract's error
shape); a state the engine cannot rule on (no or several answer sets) is answered with
`ok: false` and the engine's message, never a silent pick.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request

from ..errors import ErrorItem, InputError
from ..reader import parse_state
from ..ruling import ruling_for

bp = Blueprint("ruling_api", __name__)


def json_body() -> Any:
    """The request's JSON body, or an InputError that says what is wrong with it."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # the JSON parser's own limit: absurdly deep nesting, never a table
        raise InputError(ErrorItem("", "The request body is nested too deeply to be a table "
                                       "state.",
                                   "请求内容嵌套层数过多，不可能是桌面状态。")) from None
    if data is None:
        raw = request.get_data(cache=True)
        if not raw.strip():
            raise InputError(ErrorItem("", "The request body is empty: send a table state as JSON.",
                                       "请求内容为空：请以 JSON 发送桌面状态。"))
        raise InputError(ErrorItem("", "The request body is not valid JSON.",
                                   "请求内容不是有效的 JSON。"))
    return data


@bp.post("/api/ruling")
def ruling() -> Any:
    state = parse_state(json_body())
    return jsonify(ruling_for(state))
