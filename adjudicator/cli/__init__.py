"""The `fluxx-adjudicator` command line.

Each subcommand is one module of this package with an `add_parser(subparsers)` function (serve,
faq, build_store, rule, play, simulate); this module only dispatches. The long-running commands
(`serve` but for `--dev`, `simulate`), run from the process's own command line, take jemalloc as
their memory allocator first (adjudicator/allocator.py: the process is executed again with it
preloaded). Bad input prints the contract's messages and exits 2. Output cut short by its reader
(`fluxx-adjudicator faq draw | head -1`) ends the command quietly.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from .. import allocator
from ..cards.catalog import any_card
from ..errors import InputError
from ..messages import text

# The exit status of a command whose reader went away: what a shell reports for a process
# ended by SIGPIPE (128 + 13), as `cat` or `yes` piped into `head` end.
EXIT_BROKEN_PIPE = 128 + 13
# The commands that run long enough to gain from jemalloc (allocator.py)
LONG_RUNNING = ("serve", "simulate")


def build_parser() -> argparse.ArgumentParser:
    from . import build_store, faq, play, rule, serve, simulate

    parser = argparse.ArgumentParser(
        prog="fluxx-adjudicator", description="A rules referee for the card game Fluxx."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for module in (serve, faq, build_store, rule, play, simulate):
        module.add_parser(sub)
    return parser


def print_input_error(err: InputError, as_json: bool = False, lang: str = "en") -> None:
    if as_json:
        print(json.dumps(err.to_json(), ensure_ascii=False, indent=2))
        return
    for item in err.items:
        names = [_suggestion(s, lang) for s in item.suggestions]
        sep = "、" if lang == "zh" else ", "
        hint = text("text_view", "did_you_mean", lang, names=sep.join(names)) if names else ""
        message = item.zh if lang == "zh" else item.en
        print(text("text_view", "error_at", lang, path=item.path or "/", text=message,
                   hint=hint), file=sys.stderr)


def _suggestion(value: str, lang: str) -> str:
    """A suggested card by both its names in Chinese, 「中彩」（Jackpot）; in English as it is."""
    card = any_card(value) if lang == "zh" and isinstance(value, str) else None
    if card is None:
        return str(value)
    return card.ref("zh") + (f"（{card.name_en}）" if card.name_en != card.name_zh else "")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if argv is None and args.command in LONG_RUNNING and not getattr(args, "dev", False):
        # only the process's own command line: a call with arguments (a test, an embedding)
        # must never have its process executed again
        allocator.use_jemalloc()
    try:
        try:
            status = int(args.func(args) or 0)
        except InputError as err:
            print_input_error(err, getattr(args, "json", False), getattr(args, "lang", "en"))
            status = 2
        # flushed here, inside the guard: a pipe closed early otherwise fails at the exit's
        # own flush, out of reach of any handler
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE


def _silence_stdout() -> None:
    """Point stdout at devnull (the Python docs' recipe for SIGPIPE): the reader is gone, and
    the interpreter's final flush of what is still buffered must not raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real file descriptor (an embedding, a test's capture)
        pass

