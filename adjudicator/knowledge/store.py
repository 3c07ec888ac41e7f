"""The knowledge store: one SQLite file (sqlite-utils) built from seeds, annotations, catalogs.

Tables (see `build`): `sources` (every citable id), `faq`, `rulebook`, `cards`, `glossary`, the
link tables `faq_cards` and `faq_topics`, `lexicon` (Chinese -> English search vocabulary), `docs`
with its full-text index `docs_fts`, `vocabulary` (the index's English words as written, for
spelling correction), and `meta` (what the file was built from).

The default file lives in a per-user cache folder and its name carries a fingerprint of everything
it is built from (seeds, annotations, catalogs, this loader's code), so any change makes a new
file. `ensure` builds into a temporary file and renames it into place, so two processes starting
at once never see a half-built store.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import sqlite3
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlite_utils

from ..errors import InputError, error
from ..resources import faq_dir, read_yaml
from . import annotations as ann
from .faq_seed import FaqEntry, parse_faq_002, parse_faq_004
from .rulebook_seed import (
    ALIGNED_EN,
    EN_ONLY_ANCHORS,
    EXAMPLE_TITLES,
    PROJECT_EN_TITLES,
    ZH_ONLY_EN,
    GlossaryTerm,
    glossary_text,
    parse_fluxxnomic_003,
    parse_glossary,
    parse_rulebook_000,
    parse_rulebook_004,
)
from .text import RULE_WORDS, Segmenter, segmenter

log = logging.getLogger(__name__)

# Bump when the store's layout or the parsing changes in a way the fingerprint cannot see.
LOADER_VERSION = "1"
ENV_VAR = "FLUXX_STORE"
BUILDER_MODULES = ("store", "faq_seed", "rulebook_seed", "annotations", "text")
CATALOG_NAMES = ("fluxx", "creepers", "surprises", "math", "fluxxnomic")  # lookup preference
SEEDS = {"rulebook": "000", "faq": "002", "fluxxnomic": "003", "math": "004"}
RETRY_AFTER_S = 10  # the Retry-After of a 503 while the store is (re)built: a build takes ~4 s

# Chinese titles (the project's translation) of the seed 004 sections, used when
# faq/annotations/rulebook_zh.yaml gives none.
EN_ONLY_TITLES_ZH = {
    "exec-summary": "概要",
    "going-first": "谁先行动",
    "turn-sequence": "回合顺序",
    "limits": "上限",
    "numbers-and-math": "数字与数学",
    "math-rules": "元规则：数学规则",
    "keep-going": "元规则：接着玩",
    "reshuffling": "重新洗牌",
    "cards-in-play": "场上的牌",
    "free-actions": "自由行动",
    "jumping-in": "中途加入",
    "dropping-out": "中途退出",
    **{anchor: titles[1] for anchor, titles in EXAMPLE_TITLES.items()},
}


# --- where the store lives -------------------------------------------------------------------


def _input_files() -> list[Path]:
    """Every file the store is built from, in a stable order."""
    root = faq_dir()
    files: list[Path] = []
    for folder, pattern in (("sources", "*"), ("annotations", "*.yaml"), ("catalogs", "*.json")):
        files.extend(sorted(p for p in (root / folder).glob(pattern) if p.is_file()))
    # the code that decides what goes into the store (not the readers: queries, search)
    code = Path(__file__).resolve().parent
    files.extend(code / f"{name}.py" for name in BUILDER_MODULES)
    files.append(code.parent / "catalog.py")
    return [f for f in files if f.is_file()]


def fingerprint() -> str:
    """A hash of the loader version and every input file (name and bytes)."""
    digest = hashlib.sha256(f"loader {LOADER_VERSION}\n".encode())
    for path in _input_files():
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "fluxx-adjudicator"


def default_path() -> Path:
    """$FLUXX_STORE, or the per-user cache file named after the current fingerprint."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override)
    return cache_dir() / f"store-{fingerprint()[:16]}.db"


def built_from(path: Path) -> str | None:
    """The fingerprint recorded in an existing store, or None if unreadable."""
    try:
        db = sqlite_utils.Database(sqlite3_readonly(path))
        try:
            return recorded_fingerprint(db)
        finally:
            db.close()
    except Exception:  # a missing table or a corrupt file: treat as stale, rebuild
        return None


def recorded_fingerprint(db: sqlite_utils.Database) -> str | None:
    """The fingerprint an open store records (None: none recorded), which what is read once per
    store and kept (search's vocabulary, the cards' names) is kept by."""
    row = db.execute("select value from meta where key = 'fingerprint'").fetchone()
    return row[0] if row else None


def is_sound(path: Path) -> bool:
    """The store at `path` passes SQLite's quick check (about 10 ms) and was built from the
    current sources: a file overwritten or damaged in place fails one or the other."""
    try:
        connection = sqlite3_readonly(path)
        try:
            checked = connection.execute("pragma quick_check").fetchone()
        finally:
            connection.close()
    except sqlite3.Error:
        return False
    return bool(checked) and checked[0] == "ok" and built_from(path) == fingerprint()


def sqlite3_readonly(path: Path) -> sqlite3.Connection:
    """A read-only connection (usable from any thread: the store never changes in place)."""
    return sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True,
                           check_same_thread=False)


class StoreUnavailable(InputError):
    """The store is missing or damaged and cannot be built where it lives (a read-only folder,
    a full disk): the CLI prints the message and exits 2, the web answers 503."""

    def __init__(self, path: Path, reason: BaseException | None = None) -> None:
        if reason is None:  # the path holds something that is not a store: it is kept
            item = error("/store", "store_path_taken", path=str(path))
        else:
            detail = getattr(reason, "strerror", None) or str(reason)
            item = error("/store", "store_unwritable", path=str(path), reason=detail)
        super().__init__(item, status=503, retry_after=RETRY_AFTER_S)
        self.path = path


def ensure(path: str | Path | None = None) -> Path:
    """The store at `path` (default: `default_path()`), built or rebuilt if missing, stale or
    damaged (`is_sound`); StoreUnavailable if it must be built and cannot be."""
    target = Path(path) if path else default_path()
    if target.is_file() and is_sound(target):
        return target
    return build(path)


def open_db(path: str | Path | None = None) -> sqlite_utils.Database:
    """A read-only connection to the (ensured) store.

    Read-only so that a store path that vanished (another checkout cleaned the cache) fails
    loudly instead of silently opening a new, empty database."""
    return sqlite_utils.Database(sqlite3_readonly(ensure(path)))


def build(path: str | Path | None = None) -> Path:
    """Build the store into `path` (default: `default_path()`) atomically; return the path.
    StoreUnavailable when the folder cannot take the file."""
    target = Path(path) if path else default_path()
    if not _may_replace(target):
        raise StoreUnavailable(target)
    stamp = fingerprint()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp",
                                        dir=target.parent)
    except OSError as err:  # a read-only or missing folder: say so, no traceback
        raise StoreUnavailable(target, err) from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        db = sqlite_utils.Database(tmp, recreate=True)
        try:
            _fill(db, stamp)
        finally:
            db.close()
        tmp.chmod(0o644)  # mkstemp makes it private; the store holds nothing secret
        os.replace(tmp, target)  # atomic: readers see the old file or the new one
    except (OSError, sqlite3.OperationalError) as err:  # the disk is full, the file is taken
        raise StoreUnavailable(target, err) from None
    finally:
        tmp.unlink(missing_ok=True)
    if path is None and not os.environ.get(ENV_VAR):
        _remove_stale(target)
    return target


def _may_replace(target: Path) -> bool:
    """Whether build() may put the store in place of what is at `target`: nothing, or a
    regular file that is a database (a store, stale or damaged), empty, or named as one
    (`.db`); never a link, a device, a folder or another kind of file, which a mistyped
    `--path` or FLUXX_STORE would otherwise destroy."""
    if not os.path.lexists(target):
        return True
    if target.is_symlink() or not target.is_file():
        return False
    if target.suffix == ".db" or target.stat().st_size == 0:
        return True
    try:
        with open(target, "rb") as head:
            return head.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _remove_stale(current: Path) -> None:
    """Older default stores in the cache folder (other fingerprints)."""
    for old in current.parent.glob("store-*.db"):
        if old != current:
            try:
                old.unlink()
            except OSError:
                pass  # another process may hold or remove it; harmless


# --- inputs --------------------------------------------------------------------------------


def seed_text(seed: str) -> str:
    """The text of seed `seed` ("000", "002", ...) from faq/sources/."""
    matches = sorted((faq_dir() / "sources").glob(f"{seed}_*.txt"))
    if not matches:
        raise FileNotFoundError(f"seed {seed} not found in {faq_dir() / 'sources'}")
    return matches[0].read_text(encoding="utf-8")


@dataclass
class CardRow:
    """A catalog card as the store keeps it (plain data, no dependency on the catalog's class)."""

    edition: str
    data: dict[str, Any]  # Card.to_json()


def load_cards() -> list[CardRow]:
    """Every card of every catalog file present (a missing file is skipped with a warning)."""
    from ..cards import catalog

    rows: list[CardRow] = []
    for name in CATALOG_NAMES:
        try:
            cards = catalog.edition_cards(name)
        except (FileNotFoundError, ValueError) as exc:
            log.warning("catalog %s not available: %s", name, exc)
            continue
        rows.extend(CardRow(name, card.to_json()) for card in cards)
    return rows


def _catalog_rows(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per catalog file present: id, kind, title {en, zh}, number of cards."""
    from ..cards import catalog

    rows = []
    for name in CATALOG_NAMES:
        count = sum(1 for c in cards if c["edition"] == name)
        if not count:
            continue
        info = catalog.catalog_info(name)
        title = info.get("title") or {}
        rows.append({"id": name, "kind": info.get("kind"), "title_en": title.get("en"),
                     "title_zh": title.get("zh"), "cards": count,
                     "copies": sum(c["copies"] or 0 for c in cards if c["edition"] == name)})
    return rows


def _zh_key(name: str | None) -> str:
    """A Chinese name as a search word: without its punctuation ("住手！" -> "住手")."""
    return "".join(ch for ch in (name or "") if ch.isalnum()).strip()


def build_lexicon(cards: list[CardRow], glossary: list[GlossaryTerm]) -> list[dict[str, str]]:
    """Chinese term -> English term: card names, glossary terms, common rules words."""
    rows: dict[str, dict[str, str]] = {}

    def add(zh: str, en: str, kind: str) -> None:
        zh = zh.strip()
        if zh and en and zh not in rows and any("\u3400" <= ch <= "\u9fff" for ch in zh):
            rows[zh] = {"zh": zh, "en": en, "kind": kind}

    for card in cards:  # catalog order: fluxx first, so its names win
        name = card.data["name"]
        zh = _zh_key(name.get("zh"))
        if len(zh) > 1:  # "一" (Math Fluxx's One) would turn every "一张" into a card name
            add(zh, name.get("en") or "", "card")
        for alias in card.data.get("attrs", {}).get("aliases", []) or []:
            if isinstance(alias, str):
                add(_zh_key(alias), name.get("en") or "", "card")
    for term in glossary:
        add(term.zh_term, term.en, "glossary")
        add(_zh_key(term.zh), term.en, "glossary")
    for zh, en in RULE_WORDS.items():
        add(zh, en, "rule_word")
    return list(rows.values())


# --- the build -----------------------------------------------------------------------------


def _fill(db: sqlite_utils.Database, stamp: str) -> None:
    root = faq_dir() / "annotations"
    faq_notes = ann.faq_annotations(root / "faq_entries.yaml")
    faq_zh = ann.faq_translations(root / "faq_zh.yaml")
    zh_sections = ann.rulebook_translations(root / "rulebook_zh.yaml")
    titles = ann.rulebook_titles(root / "rulebook_zh.yaml")
    vocab = ann.vocabularies(root / "topics.yaml")
    text_000, text_004 = seed_text(SEEDS["rulebook"]), seed_text(SEEDS["math"])
    entries = parse_faq_002(seed_text(SEEDS["faq"])) + parse_faq_004(text_004)
    glossary = parse_glossary(text_000)
    cards = load_cards()
    lexicon = build_lexicon(cards, glossary)
    seg = segmenter(tuple(sorted(r["zh"] for r in lexicon)))

    card_rows = [_card_row(c) for c in cards]
    faq_rows, faq_cards, faq_topics = _faq_rows(entries, faq_notes, card_rows, faq_zh)
    rule_rows = _rulebook_rows(text_000, text_004, glossary, zh_sections, titles)
    rule_rows += _fluxxnomic_rows(seed_text(SEEDS["fluxxnomic"]),
                                  _fluxxnomic_zh(root / "rulebook_zh.yaml"), len(rule_rows))

    db["meta"].insert_all(
        [
            {"key": "fingerprint", "value": stamp},
            {"key": "loader_version", "value": LOADER_VERSION},
            {"key": "built_at", "value": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
            {"key": "annotated_faq", "value": str(sum(r["title_status"] != "derived"
                                                      for r in faq_rows))},
        ],
        pk="key",
    )
    db["cards"].insert_all(card_rows, pk="key")
    db["catalogs"].insert_all(_catalog_rows(card_rows), pk="id")
    db["faq"].insert_all(faq_rows, pk="id")
    # created explicitly: with no annotations yet there may be no topic rows at all
    db["faq_cards"].create({"faq_id": str, "card_id": str, "via": str}, pk=("faq_id", "card_id"))
    db["faq_cards"].insert_all(faq_cards)
    db["faq_topics"].create({"faq_id": str, "topic": str}, pk=("faq_id", "topic"))
    db["faq_topics"].insert_all(faq_topics)
    db["rulebook"].insert_all(rule_rows, pk="anchor")
    for table, labels in (("topics", vocab["topics"]), ("edition_labels", vocab["editions"])):
        db[table].create({"id": str, "en": str, "zh": str}, pk="id")
        db[table].insert_all({"id": k, "en": v["en"], "zh": v["zh"]} for k, v in labels.items())
    db["glossary"].insert_all(
        [{"en": t.en, "zh": t.zh, "zh_term": t.zh_term, "group_zh": t.group} for t in glossary]
    )
    db["lexicon"].insert_all(lexicon, pk="zh")
    db["sources"].insert_all(_source_rows(faq_rows, rule_rows, card_rows), pk="id")
    _index(db, faq_rows, rule_rows, card_rows, seg, vocab["topics"])
    db["faq_cards"].create_index(["card_id"])
    db["cards"].create_index(["id"])
    db.execute("analyze")


def _card_row(card: CardRow) -> dict[str, Any]:
    d = card.data
    source = d["sources"][0]
    return {
        "key": f"{card.edition}/{d['id']}",
        "edition": card.edition,
        "id": d["id"],
        "type": d["type"],
        "name_en": d["name"]["en"],
        "name_zh": d["name"]["zh"],
        "text_en": d["text"]["en"],
        "text_zh": d["text"]["zh"],
        "copies": d.get("copies"),
        "notes": json.dumps(d.get("notes", []), ensure_ascii=False),
        "provenance": json.dumps(d.get("provenance", {}), ensure_ascii=False),
        "attrs": json.dumps(d.get("attrs", {}), ensure_ascii=False),
        "source_id": source["id"],
        "url": source["url"],
    }


def _derived_title(entry: FaqEntry) -> str:
    """A title from the entry's first words (question fragment if any, else the answer)."""
    text = entry.fragments[0] if entry.fragments else entry.answer
    text = text.lstrip("…. ").removeprefix("Secondary Q:").strip()
    words = text.split()
    title = " ".join(words[:10])
    return title + ("…" if len(words) > 10 else "")


# Single-word card names that are also everyday words: not taken as a card mention by the
# detector (which only runs for entries the annotations do not cover yet).
_AMBIGUOUS_NAMES = frozenset(
    "zero one two three four five six seven eight nine ten time love money peace war death sun "
    "moon sleep dreams bread milk brain cookies chocolate television toast rocket toaster taxes "
    "dozen century sequence".split()
)


def _detect_cards(entry: FaqEntry, cards: list[dict[str, Any]]) -> list[str]:
    """Card ids whose English name appears (as printed, word-bounded) in the entry."""
    import re

    text = f"{entry.question_seed or ''}\n{entry.answer}"
    found: list[str] = []
    for card in cards:
        name = card["name_en"]
        if not name or card["id"] in found:
            continue
        core = name.rstrip("!?")
        if " " not in core and core.lower() in _AMBIGUOUS_NAMES:
            continue
        if re.search(rf"(?<![\w’']){re.escape(core)}(?![\w])", text):
            found.append(card["id"])
    return found


def _faq_rows(
    entries: list[FaqEntry],
    notes: dict[str, dict[str, Any]],
    cards: list[dict[str, Any]],
    translations: dict[str, dict[str, str | None]] | None = None,
) -> tuple[list[dict], list[dict], list[dict]]:
    known_ids = {c["id"] for c in cards}
    rows, links, topics = [], [], []
    for order, entry in enumerate(entries, start=1):
        note = notes.get(entry.id)
        if note:
            card_ids = [c for c in note["cards"] if c in known_ids]
            unknown = [c for c in note["cards"] if c not in known_ids]
            if unknown:
                log.warning("faq %s: card ids not in any catalog, kept as tags: %s",
                            entry.id, unknown)
            tags = note["tags"] + unknown
            via = "annotation"
        else:
            card_ids, tags, via = _detect_cards(entry, cards), [], "detected"
        title = (note or {}).get("title") or {"en": None, "zh": None}
        question = (note or {}).get("question") or {"en": None, "zh": None}
        summary = (note or {}).get("answer_summary") or {"en": None, "zh": None}
        scope_note = (note or {}).get("scope_note") or {"en": None, "zh": None}
        derived = not (title["en"] and title["zh"])
        zh = (translations or {}).get(entry.id) or {}
        editions = (note or {}).get("editions") or (["math"] if entry.seed == "004" else [])
        scope = (note or {}).get("scope") or ("ours" if entry.seed == "004" else None)
        rows.append(
            {
                "id": entry.id,
                "order": order,
                "seed": entry.seed,
                "number": entry.number,
                "question_seed": entry.question_seed,
                "fragments": json.dumps(entry.fragments, ensure_ascii=False),
                "answer": entry.answer,
                # the project's Chinese of the seed's question fragment and of the answer
                "question_seed_zh": zh.get("question") if entry.question_seed else None,
                "answer_zh": zh.get("answer"),
                "answer_zh_status": zh.get("status") if zh.get("answer") else "missing",
                "question_en": question["en"],
                "question_zh": question["zh"],
                "question_basis": (note or {}).get("question_basis"),
                "summary_en": summary["en"],
                "summary_zh": summary["zh"],
                "scope_note_en": scope_note["en"],
                "scope_note_zh": scope_note["zh"],
                "title_en": title["en"] or _derived_title(entry),
                "title_zh": title["zh"] or f"常见问题 {entry.id}（英文条目）",
                "title_status": "derived" if derived else "annotation",
                "topics": json.dumps((note or {}).get("topics", []), ensure_ascii=False),
                "cards": json.dumps(card_ids),
                "cards_via": via,
                "tags": json.dumps(tags, ensure_ascii=False),
                "editions": json.dumps(editions),
                "scope": scope,
                "source_id": entry.source_id,
                "url": entry.url,
            }
        )
        links.extend({"faq_id": entry.id, "card_id": c, "via": via}
                     for c in dict.fromkeys(card_ids))
        topics.extend({"faq_id": entry.id, "topic": t}
                      for t in dict.fromkeys((note or {}).get("topics", [])))
    return rows, links, topics


def _rulebook_rows(
    text_000: str,
    text_004: str,
    glossary: list[GlossaryTerm],
    zh_sections: dict[str, dict[str, str | None]],
    titles: dict[str, dict[str, str | None]] | None = None,
) -> list[dict[str, Any]]:
    """Rulebook rows in reading order. `titles` (rulebook_zh.yaml) may rename a seed 000
    section in English (e.g. "Each Turn" rather than seed 004's "Turn Sequence", which is a
    section of its own)."""
    english = parse_rulebook_004(text_004)
    titles = titles or {}
    rows: list[dict[str, Any]] = []

    def add(**row: Any) -> None:
        row["order"] = len(rows) + 1
        row["source_id"] = f"rulebook:{row['anchor']}"
        row["url"] = f"/rulebook#{row['anchor']}"
        row.setdefault("notes", "[]")
        rows.append(row)

    for section in parse_rulebook_000(text_000):
        en = english.get(ALIGNED_EN.get(section.anchor, ""))
        title_en, title_status = (en.title_en, "seed") if en else (
            PROJECT_EN_TITLES[section.anchor], "project_words")
        chosen = titles.get(section.anchor, {})
        if chosen.get("en"):
            title_en = chosen["en"]
            title_status = "seed" if title_en == (en and en.title_en) else "project_words"
        add(
            anchor=section.anchor,
            part="rulebook",
            level=section.level,
            parent=section.parent,
            title_en=title_en,
            title_en_status=title_status,
            title_zh=section.title_zh,
            text_en=en.text_en if en else None,
            text_zh=section.text_zh,
            en_status="seed" if en else "missing",
            zh_status="seed",
            source=f"{SEEDS['rulebook']}+{SEEDS['math']}" if en else SEEDS["rulebook"],
            en_source=f"{SEEDS['math']}: {en.title_en}" if en else None,
            notes=json.dumps(
                [{"zh": n.zh, "en": n.en, "kind": n.kind,
                  "en_status": "project_translation" if n.en else "missing"}
                 for n in section.notes] + _zh_only(section.anchor, section.text_zh),
                ensure_ascii=False,
            ),
        )
    text_en, text_zh = glossary_text(glossary)
    add(anchor="glossary", part="glossary", level=1, parent=None,
        title_en=titles.get("glossary", {}).get("en") or PROJECT_EN_TITLES["glossary"],
        title_en_status="project_words", title_zh="术语",
        text_en=text_en, text_zh=text_zh, en_status="seed", zh_status="seed",
        source=SEEDS["rulebook"], en_source=None)
    for anchor in EN_ONLY_ANCHORS:
        en = english[anchor]
        zh = zh_sections.get(anchor, {})
        add(
            anchor=anchor,
            part="math",
            level=1,
            parent=None,
            title_en=en.title_en,
            title_en_status="seed" if anchor not in EXAMPLE_TITLES else "project_words",
            title_zh=zh.get("title_zh") or EN_ONLY_TITLES_ZH[anchor],
            text_en=en.text_en,
            text_zh=zh.get("text_zh"),
            en_status="seed",
            zh_status="project_translation" if zh.get("text_zh") else "missing",
            source=SEEDS["math"],
            en_source=f"{SEEDS['math']}: {en.title_en}",
        )
    return rows


def _zh_only(anchor: str, text_zh: str) -> list[dict[str, Any]]:
    """The note of what a seed 000 section says beyond its seed 004 English (ZH_ONLY_EN): in
    Chinese, where that part starts; in English, the project's translation of it."""
    if anchor not in ZH_ONLY_EN:
        return []
    start, en = ZH_ONLY_EN[anchor]
    if start not in text_zh:  # the seed changed: the note would no longer say what it translates
        raise ValueError(f"seed {SEEDS['rulebook']}: {anchor!r} lacks {start!r}")
    zh = f"（英文规则书的此节没有自「{start}」起的内容；英文界面中为本项目的译文。）"
    return [{"zh": zh, "en": en, "kind": "zh_only", "en_status": "project_translation"}]


def _fluxxnomic_zh(path: Path) -> dict[str, dict[str, str | None]]:
    """The project's Chinese of the Fluxxnomic sections (rulebook_zh.yaml, `fluxxnomic_sections`):
    anchor -> {"title_zh", "text_zh"}; empty where absent or malformed."""
    import yaml

    try:
        data = read_yaml(path) if path.is_file() else None
    except yaml.YAMLError as exc:
        log.warning("%s: not valid YAML, ignored (%s)", path, exc)
        data = None
    items = data.get("fluxxnomic_sections") if isinstance(data, dict) else None
    out: dict[str, dict[str, str | None]] = {}
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict) or not item.get("anchor"):
            continue
        title = item.get("title") if isinstance(item.get("title"), dict) else {}
        out[str(item["anchor"])] = {"title_zh": (str(title.get("zh") or "").strip() or None),
                                    "text_zh": (str(item.get("zh") or "").strip() or None)}
    return out


def _fluxxnomic_rows(
    text_003: str, zh_sections: dict[str, dict[str, str | None]], after: int
) -> list[dict[str, Any]]:
    """The Fluxxnomic rules sections (seed 003, English; Chinese the project's translation),
    after the `after` rulebook rows, as part "fluxxnomic" of the rulebook."""
    rows: list[dict[str, Any]] = []
    for section in parse_fluxxnomic_003(text_003):
        zh = zh_sections.get(section.anchor, {})
        rows.append({
            "anchor": section.anchor,
            "part": "fluxxnomic",
            "level": section.level,
            "parent": section.parent,
            "title_en": section.title_en,
            "title_en_status": section.title_status,
            "title_zh": zh.get("title_zh") or section.title_en,
            "text_en": section.text_en,
            "text_zh": zh.get("text_zh"),
            "en_status": "seed",
            "zh_status": "project_translation" if zh.get("text_zh") else "missing",
            "source": SEEDS["fluxxnomic"],
            "en_source": f"{SEEDS['fluxxnomic']}: {section.heading}",
            "order": after + len(rows) + 1,
            "source_id": f"rulebook:{section.anchor}",
            "url": f"/rulebook#{section.anchor}",
            "notes": "[]",
        })
    return rows


def _source_rows(faq: list[dict], rules: list[dict], cards: list[dict]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for r in faq:
        out.append({"id": r["source_id"], "kind": "faq", "ref": r["id"], "edition": None,
                    "title_en": r["title_en"], "title_zh": r["title_zh"], "url": r["url"]})
    for r in rules:
        out.append({"id": r["source_id"], "kind": "rulebook", "ref": r["anchor"],
                    "edition": _rule_edition(r),
                    "title_en": r["title_en"], "title_zh": r["title_zh"], "url": r["url"]})
    for r in cards:
        out.append({"id": r["source_id"], "kind": "card", "ref": r["id"], "edition": r["edition"],
                    "title_en": r["name_en"], "title_zh": r["name_zh"], "url": r["url"]})
    return out


def _rule_edition(row: dict[str, Any]) -> str | None:
    """The edition a rulebook section belongs to: "fluxxnomic" for seed 003's, else None."""
    return "fluxxnomic" if row["part"] == "fluxxnomic" else None


# --- the full-text index -------------------------------------------------------------------

# Indexed columns, in the order bm25() weighs them (see search.py).
FTS_COLUMNS = ("f_title", "f_names", "f_en", "f_zh", "f_tags", "f_question")


def _join(parts: Iterable[str | None]) -> str:
    return "\n".join(p for p in parts if p)


_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9'’.!?&/-]*")


def _without_latin(text: str | None) -> str | None:
    """A translated FAQ text without its English words: the names it keeps in English (themed
    decks' cards, in parentheses) are in the entry's English answer already; an English query
    finds the entry there."""
    return _LATIN.sub(" ", text) if text else text


def _index(
    db: sqlite_utils.Database,
    faq: list[dict],
    rules: list[dict],
    cards: list[dict],
    seg: Segmenter,
    topic_labels: dict[str, dict[str, str | None]],
) -> None:
    names = {}
    for c in cards:
        names.setdefault(c["id"], c)
    docs: list[dict[str, Any]] = []
    for r in faq:
        linked = [names[c] for c in json.loads(r["cards"]) if c in names]
        labels = [topic_labels.get(t, {}) for t in json.loads(r["topics"])]
        titled = r["title_status"] != "derived"
        main = {
            "source_id": r["source_id"], "kind": "faq", "ref": r["id"], "edition": None,
            "piece": "entry",
            "title_en": r["title_en"], "title_zh": r["title_zh"], "url": r["url"],
            "raw_en": _join([r["question_seed"], r["answer"]]),
            "raw_zh": _join([r["question_zh"], r["summary_zh"], r["question_seed_zh"],
                             r["answer_zh"]]),
            "f_title": _join([r["title_en"] if titled else None,
                              seg.segment(r["title_zh"]) if titled else None]),
            "f_names": _join([c["name_en"] for c in linked] + [seg.segment(c["name_zh"])
                                                               for c in linked]),
            "f_en": _join([r["answer"], r["summary_en"]]),
            "f_question": _join([r["question_en"], r["question_seed"]]),
            "f_zh": seg.segment(_join([r["question_zh"], r["summary_zh"]])),
            "f_tags": _join(
                [lab.get("en") for lab in labels] + [seg.segment(lab.get("zh")) for lab in labels]
                + [t.replace("_", " ") for t in json.loads(r["tags"])]
            ),
        }
        docs.append(main)
        if r["answer_zh"]:
            # The translated answer is a row of its own, joined to its entry by the search
            # (search._join_parts): bm25 divides by the length of the whole row, so a long
            # Chinese text in the entry's own row would push every FAQ entry down for an English
            # query.
            docs.append({**main, "piece": "answer_zh", "f_title": "", "f_names": "", "f_en": "",
                         "f_question": "", "f_tags": "",
                         "f_zh": seg.segment(_join([_without_latin(r["question_seed_zh"]),
                                                    _without_latin(r["answer_zh"])]))})
    for r in rules:
        notes = json.loads(r["notes"])
        docs.append({
            "source_id": r["source_id"], "kind": "rulebook", "ref": r["anchor"],
            "edition": _rule_edition(r), "piece": "entry",
            "title_en": r["title_en"], "title_zh": r["title_zh"], "url": r["url"],
            "raw_en": r["text_en"], "raw_zh": r["text_zh"],
            "f_title": _join([r["title_en"], seg.segment(r["title_zh"])]),
            "f_names": "",
            "f_en": _join([r["text_en"]] + [n.get("en") for n in notes]),
            "f_zh": seg.segment(_join([r["text_zh"]] + [n["zh"] for n in notes])),
            "f_tags": r["part"],
            "f_question": "",
        })
    for r in cards:
        docs.append({
            "source_id": r["source_id"], "kind": "card", "ref": r["id"], "edition": r["edition"],
            "piece": "entry",
            "title_en": r["name_en"], "title_zh": r["name_zh"], "url": r["url"],
            "raw_en": r["text_en"], "raw_zh": r["text_zh"],
            "f_title": _join([r["name_en"], seg.segment(r["name_zh"])]),
            "f_names": _join([r["name_en"], r["id"].replace("_", " "), seg.segment(r["name_zh"])]),
            "f_en": r["text_en"] or "",
            "f_zh": seg.segment(r["text_zh"]),
            "f_tags": _join([r["type"].replace("_", " "), r["edition"]]),
            "f_question": "",
        })
    db["docs"].insert_all(docs)
    db["docs"].enable_fts(list(FTS_COLUMNS), tokenize="porter")
    db["docs"].populate_fts(list(FTS_COLUMNS))
    _vocabulary(db)


def _vocabulary(db: sqlite_utils.Database) -> None:
    """The table `vocabulary` (term, docs): every English word of the indexed columns as written,
    with the number of documents that hold it.

    The porter index keeps stems ("inflat"), which are no words to suggest to a reader, so the
    words are counted by FTS5 itself (its fts5vocab table) over a scratch unicode61 index of the
    same columns: the same word splitting as the search, without the stemming. Words of letters
    only: numbers, ids and the Chinese words are not spelled wrong in a way a close match fixes.
    """
    columns = " || ' ' || ".join(f"coalesce({c}, '')" for c in FTS_COLUMNS)
    db.execute("create virtual table temp.words using fts5(text, tokenize='unicode61')")
    db.execute(f"insert into temp.words(text) select {columns} from docs")
    db.execute("create virtual table temp.words_vocab using fts5vocab(temp, words, 'row')")
    db["vocabulary"].create({"term": str, "docs": int}, pk="term")
    db.execute("insert into vocabulary(term, docs) select term, doc from temp.words_vocab"
               " where length(term) > 1 and term not glob '*[^a-z]*'")
    db.execute("drop table temp.words_vocab")
    db.execute("drop table temp.words")
    db.conn.commit()
