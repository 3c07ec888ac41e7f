"""Blueprint ruling_api: `POST /api/ruling` (docs/FORMATS.md, "Ruling").

The body is a table state as JSON. Bad input is an `InputError` (400, the contract's error
shape); a state the engine cannot rule on (no or several answer sets) is answered with
`ok: false` and the engine's message, never a silent pick.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, request
from werkzeug.exceptions import RequestEntityTooLarge

from ...errors import InputError, error
from ...referee.ruling import ruling_for
from ...table.reader import parse_state

bp = Blueprint("ruling_api", __name__)


def json_body() -> Any:
    """The request's JSON body, or an InputError that says what is wrong with it: too large
    (413, also for a chunked body, whose size is known only once read), empty, not JSON, JSON
    sent under another content type (415), or JSON `null` (no table)."""
    raw = request.get_data(cache=True)  # beyond MAX_CONTENT_LENGTH: RequestEntityTooLarge, 413
    limit = request.max_content_length
    if limit is not None and request.content_length is None and len(raw) >= limit:
        # a body of no announced length (chunked) is cut at the limit by the stream that reads
        # it, silently: one byte more from the server's own stream tells one at the limit from
        # one beyond it
        if request.environ["wsgi.input"].read(1):
            raise RequestEntityTooLarge()
    if not raw.strip():
        raise InputError(error("", "body_empty"))
    try:
        data = current_app.json.loads(raw)
    except RecursionError:  # the JSON parser's own limit: absurdly deep nesting, never a table
        raise InputError(error("", "body_too_deep")) from None
    except ValueError:
        raise InputError(error("", "body_not_json")) from None
    if not request.is_json:
        raise InputError(error("", "body_wrong_type", type=request.mimetype or "none"),
                         status=415)
    if data is None:
        raise InputError(error("", "body_null"))
    return data


@bp.post("/api/ruling")
def ruling() -> Any:
    state = parse_state(json_body())
    return jsonify(ruling_for(state))
