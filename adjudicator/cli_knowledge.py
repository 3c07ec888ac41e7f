"""CLI subcommands: cli_knowledge (filled in by its issue)."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction) -> None:
    return None
