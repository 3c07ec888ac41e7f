"""Where the project's data folders live.

`rules_asp/`, `faq/` and `templates/` sit at the top of the repository. An installed wheel
carries them inside the package as `adjudicator/_data/<name>` (see pyproject.toml); a checkout
or an editable install finds them beside the package. Everything that reads those folders
asks this module, so both ways of installing work.

`read_yaml` reads the project's own YAML files (scenarios, messages, annotations) with libyaml's
C parser when PyYAML was built with it: the pure-Python parser takes about 15 s for the
scenario files alone. Tables pasted by users go through table/reader.py, which bounds them.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """The folder `name` (rules_asp, faq, templates), installed or in a checkout."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"data folder {name!r} not found beside {_PACKAGE}")


def rules_dir() -> Path:
    return data_dir("rules_asp")


def faq_dir() -> Path:
    return data_dir("faq")


def templates_dir() -> Path:
    return data_dir("templates")


def static_dir() -> Path:
    """The web UI's own files (CSS, JS, icons): inside the package, installed or not."""
    return _PACKAGE / "web" / "static"


def read_yaml(path: Path) -> Any:
    """The data of one of the project's YAML files (safe loading: plain data only)."""
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)  # noqa: S506 (a safe loader)
