"""Blueprint: the JSON knowledge endpoints (docs/FORMATS.md, "Endpoints").

GET /api/faq?q=&limit=          FAQ entries best first (no q: all); card/topic/edition/scope
                                filter either way; `count` every match, `shown` those returned
GET /api/faq/<id>               one FAQ entry, its cards resolved
GET /api/cards?edition=fluxx    every card of a catalog
GET /api/cards/<id>?edition=    one card (id or name), with its FAQ entries
GET /api/rulebook               the rulebook sections in order, and the glossary
GET /api/sources/<id>           is this citable source real, and where does it open
GET /api/search?q=&kinds=&limit=&edition=  every kind of source, best first; edition keeps
                                that catalog's cards and its game's FAQ entries (rulebook stays)
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from ...errors import InputError, error
from ...knowledge import queries
from ...knowledge.appdb import close_db, get_db
from ...knowledge.search import KINDS, Found, check_query_length, find
from ...messages import by_lang

bp = Blueprint("knowledge_api", __name__)
bp.teardown_app_request(close_db)

MAX_LIMIT = 100  # the query's length limit is search.MAX_QUERY, shared with the CLI


def _query(required: bool) -> str | None:
    q = request.args.get("q")
    if q is None or not q.strip():
        if required:
            raise InputError(error("/q", "query_missing"))
        return None
    check_query_length(q)
    return q.strip()


def _limit(default: int) -> int:
    raw = request.args.get("limit")
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_LIMIT:
        raise InputError(error("/limit", "limit_range", max=MAX_LIMIT, raw=raw))
    return value


def _arg(name: str) -> str | None:
    value = request.args.get(name)
    return value.strip() if value and value.strip() else None


@bp.get("/api/faq")
def faq_index():
    db = get_db()
    q = _query(required=False)
    filters = {name: _arg(name) for name in ("card", "topic", "edition", "scope")}
    if q is not None:
        return _results(q, queries.faq_search(q, limit=_limit(10), db=db, **filters))
    results = queries.list_faq(**filters, db=db)
    # (the list is whole unless a limit is given; a limit given is checked as with `q`)
    shown = results if request.args.get("limit") is None else results[:_limit(10)]
    return _results(None, Found(shown, len(results)))


@bp.get("/api/faq/<entry_id>")
def faq_entry(entry_id: str):
    return jsonify(queries.get_faq(entry_id, db=get_db()))


@bp.get("/api/cards")
def cards_index():
    edition = _arg("edition") or "fluxx"
    cards = queries.list_cards(edition, db=get_db())
    return jsonify({"ok": True, "edition": edition, "count": len(cards), "cards": cards})


@bp.get("/api/cards/suggest")
def card_suggestions():
    """The cards a name may mean: the card it names exactly (`card`, else null) and the
    catalog's own "did you mean" (`suggestions`, the names a refused card's error offers), so
    the editor's picker offers what the referee would suggest for it."""
    from ...cards.catalog import catalog_for

    query = _query(required=True) or ""
    edition = _arg("edition") or "fluxx"
    expansions = tuple(x.strip() for x in (_arg("expansions") or "").split(",") if x.strip())
    try:
        catalog = catalog_for(edition, expansions)
    except ValueError:
        raise InputError(error("/edition", "unknown_edition",
                               edition="+".join((edition, *expansions)))) from None
    card = catalog.resolve(query)
    return jsonify({"ok": True, "query": query, "edition": edition, "expansions": list(expansions),
                    "card": card.id if card else None,
                    "suggestions": [] if card else catalog.suggest(query)})


@bp.get("/api/cards/<card_id>")
def card_entry(card_id: str):
    return jsonify(queries.get_card(card_id, edition=_arg("edition"), db=get_db()))


@bp.get("/api/rulebook")
def rulebook():
    db = get_db()
    return jsonify({"ok": True, "sections": queries.rulebook(db), "glossary": queries.glossary(db)})


@bp.get("/api/sources/<path:source_id>")
def source(source_id: str):
    return jsonify(queries.source(source_id, db=get_db()))


@bp.get("/api/search")
def search_all():
    q = _query(required=True)
    kinds: list[str] | None = None
    raw = _arg("kinds") or _arg("kind")
    if raw:
        kinds = [k.strip() for k in raw.split(",") if k.strip()]
        unknown = [k for k in kinds if k not in KINDS]
        if unknown:
            raise InputError(error("/kinds", "unknown_kind", list(KINDS), kind=unknown[0],
                                   kinds=by_lang(", ".join(KINDS), "、".join(KINDS))))
    edition = _arg("edition")
    if edition and edition not in queries.editions(get_db()):
        raise InputError(error("/edition", "unknown_edition", queries.editions(get_db()),
                               edition=edition))
    return _results(q, find(q or "", limit=_limit(10), kinds=kinds, db=get_db(),
                            edition=edition))


def _results(query: str | None, found: Found) -> Response:
    """The answer of /api/faq and /api/search: `count` is every match, `shown` how many of
    them `results` holds (at most `limit`), `corrected` the query searched when words of it
    were respelled (else null)."""
    return jsonify({"ok": True, "query": query, "count": found.total,
                    "shown": len(found.results), "corrected": found.corrected,
                    "results": found.results})
