"""The one error shape of the web face, as JSON or as an HTML page, and which of the two a
request wants: JSON for `/api/...`, for `?format=json` and for clients that prefer it."""

from __future__ import annotations

from flask import jsonify, render_template, request

from ..errors import InputError


def wants_json() -> bool:
    if request.path.startswith("/api/") or request.args.get("format") == "json":
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def error_response(err: InputError):
    if wants_json():
        return jsonify(err.to_json()), err.status
    try:
        return render_template("error.html", error=err.to_json(), error_state=None,
                               status=err.status), err.status
    except Exception:  # the error page itself must never fail into a 500
        return jsonify(err.to_json()), err.status
