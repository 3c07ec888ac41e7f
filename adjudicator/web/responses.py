"""The one error shape of the web face, as JSON or as an HTML page, and which of the two a
request wants: JSON for `/api/...`, for `?format=json` and for clients that prefer it."""

from __future__ import annotations

from typing import Any

from flask import current_app, jsonify, make_response, render_template, request

from ..errors import InputError


def wants_json() -> bool:
    if request.path.startswith("/api/") or request.args.get("format") == "json":
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def error_response(err: InputError, state: dict[str, Any] | None = None):
    """`err` in the contract's shape, as JSON or as the error page; `state` (the table as sent,
    when there is one) lets the page name a player rather than number it."""
    if wants_json():
        response = jsonify(err.to_json())
    else:
        try:
            response = make_response(render_template("error.html", error=err.to_json(),
                                                     error_state=state, status=err.status))
        except Exception:  # the error page itself must never fail into a 500
            current_app.logger.exception("the error page failed")
            response = jsonify(err.to_json())
    response.status_code = err.status
    if err.retry_after is not None:
        response.headers["Retry-After"] = str(err.retry_after)
    return response
