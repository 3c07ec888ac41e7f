"""One error shape for the whole product (docs/FORMATS.md, "Errors").

Every bad input, from the API, the web pages or the command line, becomes an `InputError`
holding one or more `ErrorItem`s. Each names the field as a JSON pointer, explains itself in
English and Chinese, and may suggest what the user meant. `error(path, key, ...)` makes one from
the texts of adjudicator/messages/errors.yaml.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .messages import pair, table_text


@dataclass(frozen=True)
class ErrorItem:
    path: str
    en: str
    zh: str
    suggestions: list[str] = field(default_factory=list)
    # other fields the problem involves (the first place of a card held twice): a page offers
    # to fix the table there too
    related: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "message": {"en": self.en, "zh": self.zh},
            "suggestions": list(self.suggestions),
        }
        if self.related:
            out["related"] = list(self.related)
        return out


def error(path: str, key: str, suggestions: list[str] | None = None, /,
          **fields: Any) -> ErrorItem:
    """The ErrorItem at `path` saying the message `key` of messages/errors.yaml, its
    placeholders filled in from `fields` (messages.pair)."""
    text = pair("errors", key, **fields)
    return ErrorItem(path, text["en"], text["zh"], [] if suggestions is None else suggestions)


def table_item(path: str, key: str, suggestions: list[str] | None = None,
               **params: Any) -> ErrorItem:
    """The contract's error item for `key` (messages/table.yaml) at the JSON pointer `path`."""
    en, zh = table_text(key, **params)
    return ErrorItem(path, en, zh, list(dict.fromkeys(suggestions or [])))


class InputError(Exception):
    """Bad input: HTTP 400 (or `status`), CLI exit code 2. `retry_after`: seconds after which
    the same request may succeed (a 503 while the knowledge store is rebuilt), sent as the
    Retry-After header."""

    def __init__(self, items: list[ErrorItem] | ErrorItem, status: int = 400,
                 retry_after: int | None = None) -> None:
        self.items = [items] if isinstance(items, ErrorItem) else list(items)
        self.status = status
        self.retry_after = retry_after
        super().__init__("; ".join(f"{i.path}: {i.en}" for i in self.items))

    def to_json(self) -> dict[str, Any]:
        return {"ok": False, "errors": [i.to_json() for i in self.items]}


def pointer(*parts: str | int) -> str:
    """A JSON pointer (RFC 6901) from path parts: ("players", 1, "hand") -> /players/1/hand."""
    return "".join("/" + (str(p) if type(p) is int else  # an index needs no escaping
                          str(p).replace("~", "~0").replace("/", "~1")) for p in parts)
