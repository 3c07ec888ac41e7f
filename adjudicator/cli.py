"""The `fluxx-adjudicator` command line.

Subcommands are registered by the modules that own them (`add_parser(subparsers)` functions),
so each concern keeps its own CLI code. Bad input prints the contract's messages and exits 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .errors import InputError

SUBCOMMAND_MODULES = ("cli_serve", "cli_knowledge", "cli_rulings", "cli_play")


def build_parser() -> argparse.ArgumentParser:
    from importlib import import_module

    parser = argparse.ArgumentParser(
        prog="fluxx-adjudicator", description="A rules referee for the card game Fluxx."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name in SUBCOMMAND_MODULES:
        import_module(f"{__package__}.{name}").add_parser(sub)
    return parser


def print_input_error(err: InputError, as_json: bool = False, lang: str = "en") -> None:
    if as_json:
        print(json.dumps(err.to_json(), ensure_ascii=False, indent=2))
        return
    for item in err.items:
        hint = f" (did you mean: {', '.join(item.suggestions)})" if item.suggestions else ""
        text = item.zh if lang == "zh" else item.en
        print(f"error at {item.path or '/'}: {text}{hint}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except InputError as err:
        print_input_error(err, getattr(args, "json", False), getattr(args, "lang", "en"))
        return 2


if __name__ == "__main__":
    sys.exit(main())
