"""The web face: the application factory, its blueprints and the one error shape.

`create_app` is the Flask application factory (flaskr style): blueprints for the JSON API
(web/api/) and the HTML pages (web/pages/), one error shape, the SQLite knowledge store built on
first start. `register` wires the blueprints into the app and turns every error into the
contract's shape: JSON for `/api/...` (and clients that ask for JSON), an HTML page otherwise.
Nothing reaches the user as a 500 with a traceback.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from ..errors import ErrorItem, InputError, error

BLUEPRINT_MODULES = ("api.knowledge", "pages.knowledge", "api.ruling", "pages.table",
                     "pages.coverage", "api.openapi", "api.play")
# the messages (messages/errors.yaml) of the HTTP errors the app words itself
HTTP_MESSAGES = {404: "http_not_found", 405: "http_method_not_allowed", 413: "http_too_large"}


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    from ..resources import static_dir, templates_dir
    from .json_provider import OrjsonProvider

    app = Flask(
        "adjudicator",  # the package's name: the app's logger is the `adjudicator` logger
        template_folder=str(templates_dir()),
        static_folder=str(static_dir()),
    )
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=256 * 1024,
        STORE_PATH=None,  # None: the default path of adjudicator.knowledge.store
        JSON_AS_ASCII=False,
    )
    app.json = OrjsonProvider(app)  # Flask's JSON, written faster (web/json_provider.py)
    app.json.ensure_ascii = False  # Chinese stays readable in JSON answers
    if test_config:
        app.config.from_mapping(test_config)
    register(app)
    return app


def wants_json() -> bool:
    if request.path.startswith("/api/") or request.args.get("format") == "json":
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def error_response(err: InputError):
    if wants_json():
        return jsonify(err.to_json()), err.status
    try:
        return render_template("error.html", error=err.to_json(), status=err.status), err.status
    except Exception:  # the error page itself must never fail into a 500
        return jsonify(err.to_json()), err.status


def register(app: Flask) -> None:
    from importlib import import_module

    for name in BLUEPRINT_MODULES:
        module = import_module(f"{__name__}.{name}")
        app.register_blueprint(module.bp)

    @app.errorhandler(InputError)
    def _input_error(err: InputError):
        return error_response(err)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        code = exc.code or 500
        if code in HTTP_MESSAGES:
            item = error(request.path, HTTP_MESSAGES[code])
        else:
            item = ErrorItem(request.path, exc.description or exc.name, exc.name)
        return error_response(InputError(item, status=code))

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        app.logger.exception("unexpected error")
        err = InputError(
            error(request.path, "unexpected"),
            status=500,
        )
        return error_response(err)
