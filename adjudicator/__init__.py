"""Fluxx Adjudicator: a rules referee for Fluxx.

`create_app` is the Flask application factory (flaskr style): blueprints for the JSON API
and the HTML pages, one error shape, the SQLite knowledge store built on first start.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

__version__ = "0.1.0"


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    from .resources import static_dir, templates_dir
    from .web import register
    from .web.json_provider import OrjsonProvider

    app = Flask(
        __name__,
        template_folder=str(templates_dir()),
        static_folder=str(static_dir()),
    )
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=256 * 1024,
        STORE_PATH=None,  # None: the default path of adjudicator.store
        JSON_AS_ASCII=False,
    )
    app.json = OrjsonProvider(app)  # Flask's JSON, written faster (web/json_provider.py)
    app.json.ensure_ascii = False  # Chinese stays readable in JSON answers
    if test_config:
        app.config.from_mapping(test_config)
    register(app)
    return app
