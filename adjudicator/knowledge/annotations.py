"""The project's own annotations of the seeds, in `faq/annotations/` (written by hand, reviewed).

- `faq_entries.yaml`: per FAQ entry, a title (en, zh), a short restatement of the lost question,
  topics, linked card ids, tags for themed-deck cards we do not play, editions and scope.
- `rulebook_zh.yaml`: the project's Chinese for the English-only rulebook sections of seed 004.
- `faq_zh.yaml`: the project's Chinese translation of every FAQ entry: the question as far as the
  seed kept it, and the whole answer; `status: project_translation` marks all of it as such.
- `topics.yaml`: English and Chinese labels of the topic and edition ids used above.

Both may be missing or partial: an entry without annotation gets a derived title (see store.py),
a section without a translation keeps its Chinese empty and is marked missing. Malformed items are
skipped with a warning rather than breaking the store build.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import yaml

from ..resources import read_yaml

log = logging.getLogger(__name__)

SCOPES = ("ours", "other_decks", "not_rules")


def _load(path: Path) -> Any:
    if not path.is_file():
        return None
    try:
        return read_yaml(path)
    except yaml.YAMLError as exc:
        log.warning("%s: not valid YAML, ignored (%s)", path, exc)
        return None


def _pair(value: Any) -> dict[str, str | None]:
    """{"en": ..., "zh": ...} from a mapping or a plain English string."""
    if isinstance(value, dict):
        return {"en": _str(value.get("en")), "zh": _str(value.get("zh"))}
    return {"en": _str(value), "zh": None}


def _str(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _strings(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return []
    return [str(v).strip() for v in value if v is not None and str(v).strip()]


def faq_annotations(path: Path) -> dict[str, dict[str, Any]]:
    """Annotations by entry id ("002-07"): title, question, topics, cards, tags, editions, scope."""
    data = _load(path)
    if isinstance(data, dict):  # also accept {"entries": [...]} or {id: {...}}
        data = data.get("entries", [dict(v, id=k) for k, v in data.items() if isinstance(v, dict)])
    out: dict[str, dict[str, Any]] = {}
    for item in data or []:
        if not isinstance(item, dict) or not item.get("id"):
            log.warning("%s: an item without an id was skipped", path)
            continue
        entry_id = str(item["id"]).strip()
        scope = _str(item.get("scope"))
        out[entry_id] = {
            "title": _pair(item.get("title")),
            "question": _pair(item.get("question")),
            "topics": _strings(item.get("topics")),
            "cards": _strings(item.get("cards")),
            "tags": _strings(item.get("tags")),
            "editions": _strings(item.get("editions")),
            "scope": scope if scope in SCOPES else None,
            "question_basis": _str(item.get("question_basis")),
            "answer_summary": _pair(item.get("answer_summary")),
            "scope_note": _pair(item.get("scope_note")),
        }
    return out


TRANSLATION_STATUSES = ("project_translation",)


def faq_translations(path: Path) -> dict[str, dict[str, str | None]]:
    """faq_zh.yaml by entry id: {"question", "answer", "status"} (the Chinese of the seed's
    question fragment, of its answer, and what that Chinese is: the file's `status`)."""
    data = _load(path)
    if not isinstance(data, dict) or not isinstance(data.get("entries"), dict):
        return {}
    status = _str(data.get("status"))
    if status not in TRANSLATION_STATUSES:
        log.warning("%s: status %r is not one of %s; translations ignored",
                    path, status, TRANSLATION_STATUSES)
        return {}
    out: dict[str, dict[str, str | None]] = {}
    for entry_id, item in data["entries"].items():
        if not isinstance(item, dict):
            log.warning("%s: %s is not a mapping, skipped", path, entry_id)
            continue
        out[str(entry_id)] = {"question": _str(item.get("question")),
                              "answer": _str(item.get("answer")), "status": status}
    return out


def vocabularies(path: Path) -> dict[str, dict[str, dict[str, str | None]]]:
    """topics.yaml: {"topics": {id: {en, zh}}, "editions": {id: {en, zh}}} (empty when absent)."""
    data = _load(path)
    out: dict[str, dict[str, dict[str, str | None]]] = {"topics": {}, "editions": {}}
    if not isinstance(data, dict):
        return out
    for group in out:
        items = data.get(group)
        if isinstance(items, dict):
            out[group] = {str(k): _pair(v) for k, v in items.items()}
    return out


def rulebook_translations(path: Path) -> dict[str, dict[str, str | None]]:
    """The project's Chinese by anchor: {"title_zh", "text_zh"}.

    Accepted shapes: a list of items with `anchor` (or `id`), or a mapping anchor -> item; an item
    is a string (the text) or a mapping with `title`/`text` (each a string or {zh: ...}), or with
    `title_zh`/`text_zh`.
    """
    data = _load(path)
    if isinstance(data, dict) and isinstance(data.get("sections"), list | dict):
        data = data["sections"]
    items: list[tuple[str, Any]] = []
    if isinstance(data, dict):
        items = [(str(k), v) for k, v in data.items()]
    elif isinstance(data, list):
        items = [
            (str(i.get("anchor") or i.get("id")), i)
            for i in data
            if isinstance(i, dict) and (i.get("anchor") or i.get("id"))
        ]
    out: dict[str, dict[str, str | None]] = {}
    for anchor, item in items:
        anchor = anchor.removeprefix("rulebook:")
        if isinstance(item, str):
            out[anchor] = {"title_zh": None, "text_zh": _str(item)}
            continue
        if not isinstance(item, dict):
            continue
        title, text = item.get("title_zh", item.get("title")), item.get("text_zh", item.get("text"))
        if not isinstance(text, str | dict) and "zh" in item:
            text = item["zh"]
        out[anchor] = {"title_zh": _zh(title), "text_zh": _zh(text)}
    return out


def rulebook_titles(path: Path) -> dict[str, dict[str, str | None]]:
    """The `titles:` map of rulebook_zh.yaml: anchor -> {"en", "zh", "en_source"}."""
    data = _load(path)
    titles = data.get("titles") if isinstance(data, dict) else None
    if not isinstance(titles, dict):
        return {}
    return {
        str(anchor): {"en": _str(t.get("en")), "zh": _str(t.get("zh")),
                      "en_source": _str(t.get("en_source"))}
        for anchor, t in titles.items()
        if isinstance(t, dict)
    }


def _zh(value: Any) -> str | None:
    if isinstance(value, dict):
        return _str(value.get("zh"))
    return _str(value)
