"""`fluxx-adjudicator rule FILE|- [--json] [--lang en|zh]`: the ruling for a table state.

The table state is read as JSON or YAML from a file or standard input; bad input prints the
contract's messages and exits 2 (adjudicator.cli does that for every InputError).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..errors import InputError, error
from ..table.schema import MAX_TEXT


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rule", help="the ruling for a table state (JSON or YAML)")
    p.add_argument("file", help="a file holding the table state, or - for standard input")
    p.add_argument("--json", action="store_true", help="print the ruling as JSON (both languages)")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="language of the text view")
    p.set_defaults(func=run_rule)


def read_input(name: str) -> str:
    """The text of FILE, or of standard input for "-": at most one character more than the
    reader takes (MAX_TEXT), so an endless input (/dev/zero, a pipe that never ends) is read
    only that far and refused as too long."""
    if name == "-":
        return sys.stdin.read(MAX_TEXT + 1)
    path = Path(name)
    try:
        with path.open(encoding="utf-8") as handle:
            return handle.read(MAX_TEXT + 1)
    except FileNotFoundError:
        raise InputError(error("/file", "file_missing", name=name)) from None
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(error("/file", "file_unreadable", name=name, error=err)) from None


def run_rule(args: argparse.Namespace) -> int:
    from ..referee.ruling import ruling_for, ruling_text
    from ..table.reader import load_state_text, parse_state

    state = parse_state(load_state_text(read_input(args.file)))
    ruling = ruling_for(state)
    if args.json:
        print(json.dumps(ruling, ensure_ascii=False, indent=2))
    else:
        print(ruling_text(ruling, args.lang, state.edition))
    return 0 if ruling.get("ok") else 1
