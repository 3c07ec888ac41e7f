"""Read functions over the knowledge store, for the JSON API, the HTML pages and the CLI.

Every function takes an optional `db` (a sqlite_utils.Database; default: the ensured default
store) and returns plain JSON-ready dicts. Unknown ids raise `InputError` with status 404, bad
parameters `InputError` with status 400, in the contract's error shape.
"""

from __future__ import annotations

import difflib
import json
import sqlite3
from typing import Any

import sqlite_utils

from ..cards.catalog import is_chinese
from ..errors import InputError, error
from ..messages import by_lang
from .search import Found, faq_edition_clause, find
from .store import CATALOG_NAMES, open_db, recorded_fingerprint
from .text import has_cjk, normalize

SCOPES = ("ours", "other_decks", "not_rules")


def _db(db: sqlite_utils.Database | None) -> sqlite_utils.Database:
    return db if db is not None else open_db()


def _rows(db: sqlite_utils.Database, sql: str, params: Any = ()) -> list[dict[str, Any]]:
    cursor = db.execute(sql, params)
    columns = [c[0] for c in cursor.description]
    return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]


def _not_found(path: str, key: str, value: str,
               suggestions: list[str] | None = None) -> InputError:
    """`key`: no_card, no_faq_entry or no_source (messages/errors.yaml)."""
    return InputError(error(path, key, suggestions or [], value=value), status=404)


def _bad_param(name: str, value: str, allowed: list[str] | tuple[str, ...]) -> InputError:
    return InputError(error(f"/{name}", "unknown_value",
                            difflib.get_close_matches(value, list(allowed), n=3, cutoff=0.3),
                            name=name, value=value,
                            allowed=by_lang(", ".join(allowed), "、".join(allowed))))


# --- cards ---------------------------------------------------------------------------------


def editions(db: sqlite_utils.Database | None = None) -> list[str]:
    """The catalogs present in the store, in lookup order (fluxx first)."""
    present = {r["edition"] for r in _rows(_db(db), "select distinct edition from cards")}
    return [e for e in CATALOG_NAMES if e in present]


def catalogs(db: sqlite_utils.Database | None = None) -> list[dict[str, Any]]:
    """The catalogs in the store: id, kind (edition|expansion), title {en, zh}, counts."""
    return [{"id": r["id"], "kind": r["kind"], "title": {"en": r["title_en"], "zh": r["title_zh"]},
             "cards": r["cards"], "copies": r["copies"]}
            for r in _rows(_db(db), "select * from catalogs order by rowid")]


def _check_edition(edition: str | None, db: sqlite_utils.Database) -> None:
    if edition is not None and edition not in editions(db):
        raise _bad_param("edition", edition, editions(db))


def card_json(row: dict[str, Any]) -> dict[str, Any]:
    """A card in the contract's shape (id, type, name, text, sources) plus its details."""
    return {
        "id": row["id"],
        "type": row["type"],
        "name": {"en": row["name_en"], "zh": row["name_zh"]},
        "text": {"en": row["text_en"], "zh": row["text_zh"]},
        "sources": [{"id": row["source_id"], "kind": "card", "url": row["url"]}],
        "edition": row["edition"],
        "copies": row["copies"],
        "notes": json.loads(row["notes"] or "[]"),
        "provenance": json.loads(row["provenance"] or "{}"),
        "attrs": json.loads(row["attrs"] or "{}"),
        "url": row["url"],
    }


def card_ref(row: dict[str, Any]) -> dict[str, Any]:
    """A short card reference: id, both names, edition, url."""
    return {
        "id": row["id"],
        "name": {"en": row["name_en"], "zh": row["name_zh"]},
        "type": row["type"],
        "edition": row["edition"],
        "url": row["url"],
        "source_id": row["source_id"],
    }


def list_cards(edition: str = "fluxx", db: sqlite_utils.Database | None = None) -> list[dict]:
    """Every card of one catalog (fluxx, math, fluxxnomic, creepers, surprises), in its order."""
    db = _db(db)
    _check_edition(edition, db)
    rows = _rows(db, "select * from cards where edition = ? order by rowid", [edition])
    counts = _faq_counts(db)
    out = []
    for row in rows:
        card = card_json(row)
        card["faq_count"] = counts.get(row["id"], 0)
        out.append(card)
    return out


def _faq_counts(db: sqlite_utils.Database) -> dict[str, int]:
    return {r["card_id"]: r["n"] for r in _rows(
        db, "select card_id, count(*) as n from faq_cards group by card_id")}


def find_card(name: str, edition: str | None = None,
              db: sqlite_utils.Database | None = None) -> dict[str, Any] | None:
    """The store row of the card named by id, English or Chinese name (any case/punctuation).

    Without an edition, the rulebook deck wins, then the expansions, then the other editions.
    """
    db = _db(db)
    key = normalize(name)
    if not key:
        return None
    named = _card_names(db).get(key, ())
    for ed in [edition] if edition else CATALOG_NAMES:
        for row in named:
            if row["edition"] == ed:
                return dict(row)
    return None


# The cards' rows by each name they answer to (id, names, aliases, normalized), of the store
# by the fingerprint it records, as search.py keeps its vocabulary: a card's page read and
# normalized every card's names anew, twice, about 3 ms of its 4 (bench/HISTORY.md).
_CARD_NAMES: dict[str, dict[str, list[dict[str, Any]]]] = {}


def _card_names(db: sqlite_utils.Database) -> dict[str, list[dict[str, Any]]]:
    """Every card row of the store by each of its normalized names, in rowid order."""
    try:
        stamp = recorded_fingerprint(db)
    except sqlite3.OperationalError:  # a store without its meta table: read afresh
        stamp = None
    names = _CARD_NAMES.get(stamp) if stamp else None
    if names is not None:
        return names
    names = {}
    for row in _rows(db, "select * from cards order by rowid"):
        aliases = json.loads(row["attrs"] or "{}").get("aliases", [])
        keys = {normalize(v) for v in (row["id"], row["name_en"] or "", row["name_zh"] or "",
                                        *(a for a in aliases if isinstance(a, str)))}
        for key in keys - {""}:
            names.setdefault(key, []).append(row)
    if stamp:
        _CARD_NAMES.clear()  # one store at a time: a rebuilt store replaces the old names
        _CARD_NAMES[stamp] = names
    return names


def suggest_cards(name: str, edition: str | None = None,
                  db: sqlite_utils.Database | None = None, n: int = 3) -> list[str]:
    db = _db(db)
    sql, params = "select id, name_en, name_zh from cards", []
    if edition:
        sql, params = sql + " where edition = ?", [edition]
    # answered in the language of `name`: a name typed in Chinese gets Chinese names
    shown = "name_zh" if is_chinese(name) else "name_en"
    keys: dict[str, str] = {}
    for row in _rows(db, sql, params):
        for value in (row["id"], row["name_en"], row["name_zh"]):
            if value:
                keys.setdefault(normalize(value), row[shown] or row["name_en"])
    close = difflib.get_close_matches(normalize(name), list(keys), n=n * 3, cutoff=0.5)
    return list(dict.fromkeys(keys[k] for k in close))[:n]


def get_card(card_id: str, edition: str | None = None,
             db: sqlite_utils.Database | None = None) -> dict[str, Any]:
    """One card (by id or name) with the FAQ entries linked to it and its other editions."""
    db = _db(db)
    _check_edition(edition, db)
    row = find_card(card_id, edition, db)
    if row is None:
        raise _not_found("/id", "no_card", card_id, suggest_cards(card_id, edition, db))
    card = card_json(row)
    card["faq"] = list_faq(card=row["id"], db=db)
    card["other_editions"] = [
        r["edition"] for r in _rows(db, "select edition from cards where id = ? and edition != ?",
                                    [row["id"], row["edition"]])
    ]
    return card


# --- FAQ -----------------------------------------------------------------------------------


def _cards_by_id(db: sqlite_utils.Database) -> dict[str, dict[str, Any]]:
    """Each card id once, the preferred edition's row (fluxx, expansions, then the others)."""
    rank = {e: i for i, e in enumerate(CATALOG_NAMES)}
    best: dict[str, dict[str, Any]] = {}
    for row in _rows(db, "select * from cards order by rowid"):
        held = best.get(row["id"])
        if held is None or rank.get(row["edition"], 99) < rank.get(held["edition"], 99):
            best[row["id"]] = row
    return best


def faq_cards(db: sqlite_utils.Database | None = None) -> list[dict[str, Any]]:
    """Every card the FAQ entries are linked to, each once, with its `faq_count`: the choices
    of the FAQ's card filter.

    The links name a card by its id alone, and one id can be printed in several catalogs (War
    and Death are Keepers of the rulebook deck and Creepers of the Creeper Pack), so a card is
    listed once, as its preferred printing (`_cards_by_id`), in catalog order."""
    db = _db(db)
    counts = _faq_counts(db)
    rank = {e: i for i, e in enumerate(CATALOG_NAMES)}
    chosen = [row for card_id, row in _cards_by_id(db).items() if card_id in counts]
    # stable: within a catalog, the rows keep the catalog's own order (_cards_by_id's)
    chosen.sort(key=lambda row: rank.get(row["edition"], len(rank)))
    return [{**card_ref(row), "faq_count": counts[row["id"]]} for row in chosen]


def _labels(db: sqlite_utils.Database, table: str) -> dict[str, dict[str, str | None]]:
    return {r["id"]: {"en": r["en"], "zh": r["zh"]} for r in _rows(db, f"select * from {table}")}


def faq_json(row: dict[str, Any], cards: dict[str, dict[str, Any]],
             labels: tuple[dict, dict] = ({}, {})) -> dict[str, Any]:
    """A FAQ entry: the contract's fields (id, title, text, url, cards) and the rest.

    `topics` and `editions` are ids; `topic_names` / `edition_names` give their labels.
    """
    card_ids = json.loads(row["cards"] or "[]")
    topic_ids, edition_ids = json.loads(row["topics"] or "[]"), json.loads(row["editions"] or "[]")
    return {
        "id": row["id"],
        "source_id": row["source_id"],
        "title": {"en": row["title_en"], "zh": row["title_zh"]},
        "title_status": row["title_status"],
        "question": {"seed": row["question_seed"], "en": row["question_en"],
                     "zh": row["question_zh"], "seed_zh": row["question_seed_zh"]},
        "text": row["answer"],
        # the whole answer in Chinese: the project's translation (`text_zh_status`)
        "text_zh": row["answer_zh"],
        "text_zh_status": row["answer_zh_status"],
        "url": row["url"],
        "cards": [card_ref(cards[c]) for c in card_ids if c in cards],
        "cards_via": row["cards_via"],
        "summary": {"en": row["summary_en"], "zh": row["summary_zh"]},
        "question_basis": row["question_basis"],
        "tags": json.loads(row["tags"] or "[]"),
        "topics": topic_ids,
        "topic_names": {t: labels[0].get(t, {"en": t, "zh": t}) for t in topic_ids},
        "editions": edition_ids,
        "edition_names": {e: labels[1].get(e, {"en": e, "zh": e}) for e in edition_ids},
        "scope": row["scope"],
        "scope_note": {"en": row["scope_note_en"], "zh": row["scope_note_zh"]},
        "seed": row["seed"],
        "sources": [{"id": row["source_id"], "kind": "faq", "url": row["url"]}],
    }


def list_faq(card: str | None = None, topic: str | None = None, edition: str | None = None,
             scope: str | None = None, db: sqlite_utils.Database | None = None) -> list[dict]:
    """FAQ entries in seed order, filtered by linked card (id or name), topic, edition, scope.

    `edition` keeps the entries the annotations place in that game, as `/api/search` does
    (`search.faq_edition_clause`: an expansion's game is the rulebook deck's)."""
    db = _db(db)
    where: list[str] = []
    params: dict[str, str] = {}
    if card:
        found = find_card(card, db=db)
        if found is None:
            raise InputError(error("/card", "no_card", suggest_cards(card, db=db), value=card))
        where.append("id in (select faq_id from faq_cards where card_id = :card)")
        params["card"] = found["id"]
    if topic:
        where.append("id in (select faq_id from faq_topics where topic = :topic)")
        params["topic"] = topic
    if edition:
        known = set(editions(db)) | {r["value"] for r in _rows(
            db, "select distinct value from faq, json_each(faq.editions)")}
        if edition not in known:
            raise _bad_param("edition", edition, sorted(known))
        clause, extra = faq_edition_clause(edition)
        where.append(clause)
        params.update(extra)
    if scope:
        if scope not in SCOPES:
            raise _bad_param("scope", scope, SCOPES)
        where.append("scope = :scope")
        params["scope"] = scope
    sql = "select * from faq" + (" where " + " and ".join(where) if where else "")
    cards, labels = _cards_by_id(db), _all_labels(db)
    return [faq_json(r, cards, labels) for r in _rows(db, sql + ' order by "order"', params)]


def _all_labels(db: sqlite_utils.Database) -> tuple[dict, dict]:
    return _labels(db, "topics"), _labels(db, "edition_labels")


def get_faq(entry_id: str, db: sqlite_utils.Database | None = None) -> dict[str, Any]:
    """One FAQ entry (id "002-07", "faq:002-07" or "7"), its cards resolved and linked."""
    db = _db(db)
    key = entry_id.strip().removeprefix("faq:")
    if key.isascii() and key.isdigit() and len(key) <= 4:  # ("²" is a digit int() refuses)
        key = f"002-{int(key):02d}"
    rows = _rows(db, "select * from faq where id = ?", [key])
    if not rows:
        ids = [r["id"] for r in _rows(db, 'select id from faq order by "order"')]
        raise _not_found("/id", "no_faq_entry", entry_id,
                         difflib.get_close_matches(key, ids, n=3, cutoff=0.6))
    entry = faq_json(rows[0], _cards_by_id(db), _all_labels(db))
    entry["fragments"] = json.loads(rows[0]["fragments"] or "[]")
    neighbours = _rows(db, 'select id, "order" from faq where "order" in (?, ?) order by "order"',
                       [rows[0]["order"] - 1, rows[0]["order"] + 1])
    entry["previous"] = next((r["id"] for r in neighbours if r["order"] < rows[0]["order"]), None)
    entry["next"] = next((r["id"] for r in neighbours if r["order"] > rows[0]["order"]), None)
    return entry


def topics(db: sqlite_utils.Database | None = None) -> list[dict[str, Any]]:
    """Every topic in use: id (also as `topic`), name {en, zh}, count; most used first."""
    db = _db(db)
    names = _labels(db, "topics")
    rows = _rows(db, "select topic, count(*) as count from faq_topics group by topic "
                     "order by count desc, topic")
    return [{"id": r["topic"], "topic": r["topic"],
             "name": names.get(r["topic"], {"en": r["topic"], "zh": r["topic"]}),
             "count": r["count"]} for r in rows]


def faq_search(query: str, limit: int = 10, db: sqlite_utils.Database | None = None,
               **filters: str | None) -> Found:
    """FAQ entries best first for an English or Chinese query (contract: /api/faq?q=), with
    the number of entries that match in all and the query as respelled (`search.Found`).

    `filters` (card, topic, edition, scope) narrow the matches as in `list_faq`, before they
    are counted."""
    db = _db(db)
    wanted = {k: v for k, v in filters.items() if v}
    within = [e["id"] for e in list_faq(db=db, **wanted)] if wanted else None
    found = find(query, limit=limit, kinds=["faq"], db=db, within=within)
    hits = found.results
    if not hits:
        return found
    cards, labels = _cards_by_id(db), _all_labels(db)
    by_id = {r["id"]: r for r in _rows(
        db, f"select * from faq where id in ({', '.join('?' * len(hits))})",
        [h["ref"] for h in hits])}
    out = []
    for hit in hits:
        entry = faq_json(by_id[hit["ref"]], cards, labels)
        entry["snippet"] = hit["snippet"]
        # a Chinese query's snippet is cut from the Chinese texts (the translated answer)
        entry["snippet_lang"] = "zh-Hans" if has_cjk(hit["snippet"]) else "en"
        entry["score"] = hit["score"]
        out.append(entry)
    return Found(out, found.total, found.corrected)


# --- rulebook and sources ------------------------------------------------------------------


def rulebook(db: sqlite_utils.Database | None = None) -> list[dict[str, Any]]:
    """Every rulebook section in reading order (part: rulebook, glossary, math)."""
    out = []
    for row in _rows(_db(db), 'select * from rulebook order by "order"'):
        out.append({
            "anchor": row["anchor"],
            "source_id": row["source_id"],
            "url": row["url"],
            "part": row["part"],
            "level": row["level"],
            "parent": row["parent"],
            "title": {"en": row["title_en"], "zh": row["title_zh"]},
            "text": {"en": row["text_en"], "zh": row["text_zh"]},
            "status": {"en": row["en_status"], "zh": row["zh_status"],
                       "title_en": row["title_en_status"]},
            "source": row["source"],
            "en_source": row["en_source"],
            "notes": json.loads(row["notes"] or "[]"),
        })
    return out


def glossary(db: sqlite_utils.Database | None = None) -> list[dict[str, Any]]:
    """The seed's glossary terms: en, zh (as printed), zh_term, group_zh."""
    return _rows(_db(db), "select en, zh, zh_term, group_zh from glossary order by rowid")


def source(source_id: str, db: sqlite_utils.Database | None = None) -> dict[str, Any]:
    """A citable source: id, kind, title {en, zh}, url. Unknown ids raise a 404 InputError."""
    db = _db(db)
    rows = _rows(db, "select * from sources where id = ?", [source_id])
    if not rows:
        ids = [r["id"] for r in _rows(db, "select id from sources")]
        raise _not_found("/id", "no_source", source_id,
                         difflib.get_close_matches(source_id, ids, n=3, cutoff=0.6))
    row = rows[0]
    return {"id": row["id"], "kind": row["kind"], "ref": row["ref"], "edition": row["edition"],
            "title": {"en": row["title_en"], "zh": row["title_zh"]}, "url": row["url"],
            "exists": True}


def source_ids(db: sqlite_utils.Database | None = None) -> set[str]:
    """Every citable source id (for checks that every citation exists)."""
    return {r["id"] for r in _rows(_db(db), "select id from sources")}
