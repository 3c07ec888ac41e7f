"""The web face: the application factory, its blueprints and the one error shape.

`create_app` is the Flask application factory (flaskr style): blueprints for the JSON API
(web/api/) and the HTML pages (web/pages/), one error shape, the SQLite knowledge store built on
first start. `register` wires the blueprints into the app and turns every error into the
contract's shape: JSON for `/api/...` (and clients that ask for JSON), an HTML page otherwise.
Nothing reaches the user as a 500 with a traceback.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import Flask, request
from gunicorn.http.errors import NoMoreData, ParseException
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from ..errors import ErrorItem, InputError, error
from ..knowledge import appdb
from .responses import error_response

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


def register(app: Flask) -> None:
    from .api import knowledge as knowledge_api
    from .api import openapi, play, ruling
    from .pages import coverage, table
    from .pages import knowledge as knowledge_pages

    # in this order: a page's route and an API route never overlap, but the order is kept stable
    for module in (knowledge_api, knowledge_pages, ruling, table, coverage, openapi, play):
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
        response = error_response(InputError(item, status=code))
        if isinstance(exc, MethodNotAllowed) and exc.valid_methods:  # (RFC 9110: say which)
            response.headers["Allow"] = ", ".join(exc.valid_methods)
        return response

    # a body gunicorn could not read (a bad chunk size, a body cut short): the client's fault
    @app.errorhandler(ParseException)
    @app.errorhandler(NoMoreData)
    def _bad_body(exc: Exception):
        return error_response(InputError(error(request.path, "http_bad_body")))

    @app.errorhandler(sqlite3.Error)
    def _store_error(exc: sqlite3.Error):
        # the knowledge store damaged in place: 503 while it is rebuilt (knowledge/appdb.py)
        answer = appdb.store_failed(exc)
        return error_response(answer) if answer is not None else _unexpected(exc)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        app.logger.exception("unexpected error")
        err = InputError(
            error(request.path, "unexpected"),
            status=500,
        )
        return error_response(err)
