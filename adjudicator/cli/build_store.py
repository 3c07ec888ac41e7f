"""`fluxx-adjudicator build-store [--path P]`: (re)build the SQLite knowledge store."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction) -> None:
    b = sub.add_parser("build-store", help="(re)build the SQLite knowledge store")
    b.add_argument("--path", default=None, help="where to write it (default: the cache path)")
    b.set_defaults(func=run_build)


def run_build(args: argparse.Namespace) -> int:
    from ..knowledge import store

    path = store.build(args.path)
    db = store.open_db(path)
    try:
        counts = {t: db[t].count for t in ("faq", "rulebook", "cards", "sources")}
    finally:
        db.close()
    print(f"knowledge store built: {path}")
    print("  " + ", ".join(f"{n} {t}" for t, n in counts.items()))
    return 0
