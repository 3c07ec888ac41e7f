"""`fluxx-adjudicator serve`: the web UI and JSON API."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="run the web UI and the JSON API")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5000)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from . import create_app

    app = create_app()
    app.run(host=args.host, port=args.port)
    return 0
