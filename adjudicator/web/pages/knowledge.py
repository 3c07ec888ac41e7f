"""Blueprint `knowledge_pages`: the HTML pages of the knowledge store.

`/faq` (browse by card, topic, edition, scope; search in English or Chinese), `/faq/<id>`,
`/rulebook` (Chinese and English side by side, one anchor per section), `/cards` and
`/cards/<id>` (`?edition=`). Each page has a JSON twin under /api/...: the page links it, and a
client that asks for JSON (`Accept: application/json` or `?format=json`) gets the twin's answer
from the API's own view, so the two cannot drift apart.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, current_app, render_template, request, url_for
from werkzeug.routing import BuildError

from ...errors import InputError, error
from ...knowledge import queries
from ..responses import wants_json
from .referee import store

bp = Blueprint("knowledge_pages", __name__)

FAQ_FILTERS = ("card", "topic", "edition", "scope")
MAX_QUERY = 200
FAQ_SHOWN = 30  # matches listed for a search; the page says how many there are in all


def json_twin(api_path: str):
    """The answer of the JSON endpoint at `api_path`, for this same request (query kept)."""
    adapter = current_app.url_map.bind("localhost")
    endpoint, args = adapter.match(api_path, method="GET")
    return current_app.view_functions[endpoint](**args)


def _twin_url(api_path: str, params: dict[str, Any] | None = None) -> str:
    kept = {k: v for k, v in (params or {}).items() if v}
    return api_path + ("?" + urlencode(kept) if kept else "")


def _coverage_url() -> str | None:
    """The FAQ coverage page (blueprint `coverage`), when the app has it."""
    try:
        return url_for("coverage.coverage_page")
    except BuildError:
        return None


def _coverage(entry_id: str) -> dict[str, Any] | None:
    """An FAQ entry's coverage status (adjudicated by a scenario, or why not), when known."""
    try:
        from ...knowledge import coverage
    except ImportError:
        return None
    try:
        report = coverage.current()
    except (OSError, ValueError):
        return None
    for entry in report.entries:
        if entry.id == entry_id:
            return {"status": entry.status, "label": coverage.STATUS_LABELS.get(entry.status),
                    "scenarios": [s.to_json() for s in entry.scenarios]}
    return None


@bp.get("/faq")
def faq_list():
    query = (request.args.get("q") or "").strip()
    filters = {k: (request.args.get(k) or "").strip() or None for k in FAQ_FILTERS}
    params = {"q": query, **filters}
    if wants_json():
        return json_twin("/api/faq")
    if len(query) > MAX_QUERY:
        raise InputError(error("/q", "search_too_long", max=MAX_QUERY))
    db = store()
    everything = queries.list_faq(db=db)
    corrected = None
    if query:
        # the filters the form sends with the words narrow the matches, as /api/faq does
        found = queries.faq_search(query, limit=FAQ_SHOWN, db=db, **filters)
        entries, total, corrected = found.results, found.total, found.corrected
    elif any(filters.values()):
        entries = queries.list_faq(**filters, db=db)
        total = len(entries)
    else:
        entries, total = everything, len(everything)
    # the editions the FAQ speaks of (themed decks included), most mentioned first
    mentioned: dict[str, dict[str, Any]] = {}
    for entry in everything:
        for edition, name in entry.get("edition_names", {}).items():
            mentioned.setdefault(edition, {"id": edition, "name": name, "count": 0})["count"] += 1
    faq_editions = sorted(mentioned.values(), key=lambda e: (-e["count"], e["id"]))
    return render_template(
        "faq_list.html", entries=entries, total=total, corrected=corrected, query=query,
        filters=filters,
        topics=queries.topics(db), editions=faq_editions, scopes=queries.SCOPES,
        cards=queries.faq_cards(db), json_url=_twin_url("/api/faq", params),
        coverage_url=_coverage_url(),
    )


@bp.get("/faq/<entry_id>")
def faq_entry(entry_id: str):
    if wants_json():
        return json_twin(f"/api/faq/{entry_id}")
    entry = queries.get_faq(entry_id, db=store())
    return render_template("faq_entry.html", entry=entry, coverage=_coverage(entry["id"]),
                           coverage_url=_coverage_url(), json_url=f"/api/faq/{entry['id']}")


@bp.get("/rulebook")
def rulebook_page():
    if wants_json():
        return json_twin("/api/rulebook")
    sections = queries.rulebook(db=store())
    return render_template("rulebook.html", sections=sections, json_url="/api/rulebook")


@bp.get("/cards")
def card_list():
    edition = request.args.get("edition") or "fluxx"
    if wants_json():
        return json_twin("/api/cards")
    db = store()
    cards = queries.list_cards(edition, db=db)
    groups: dict[str, list[dict[str, Any]]] = {}
    for card in cards:
        groups.setdefault(card["type"], []).append(card)
    # the sources name some decks' cards in English only: the grid says whose Chinese it shows
    translated = sum(c["provenance"].get("name_zh") == "project_translation" for c in cards)
    return render_template("cards.html", groups=groups, edition=edition,
                           editions=queries.editions(db), count=len(cards),
                           translated_names=translated,
                           json_url=_twin_url("/api/cards", {"edition": edition}))


@bp.get("/cards/<card_id>")
def card_page(card_id: str):
    edition = request.args.get("edition") or None
    if wants_json():
        return json_twin(f"/api/cards/{card_id}")
    card = queries.get_card(card_id, edition, db=store())
    return render_template("card.html", card=card,
                           json_url=_twin_url(f"/api/cards/{card['id']}",
                                              {"edition": card["edition"]}))
