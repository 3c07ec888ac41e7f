"""Blueprint openapi_api: `GET /api/openapi.json`, the OpenAPI 3.1 description of the JSON API.

The schemas follow docs/FORMATS.md: the table state, the ruling, a play and its outcomes, the
knowledge endpoints, and the one error shape every 4xx answer carries. `spec(routes)` lists only
the operations the running app really serves, so the description never promises a missing
endpoint; the fuzz tests (tests/web/test_fuzz_api.py) check the app against it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from flask import Blueprint, current_app, jsonify

from ... import __version__
from ...referee.moves import MAX_OUTCOME_BYTES
from ...table.schema import SCHEMAS as REQUEST_SCHEMAS
from ...table.schema import ref as _ref

JSON = "application/json"
TEXT = _ref("Text")

# The request bodies' schemas are the validator's own objects (adjudicator/table/schema.py),
# published as they are; the answers' schemas follow.
SCHEMAS: dict[str, Any] = {
    **REQUEST_SCHEMAS,
    "Text": {
        "type": "object", "description": "the same words in English and Chinese",
        "properties": {"en": {"type": ["string", "null"]}, "zh": {"type": ["string", "null"]}},
    },
    "Error": {
        "type": "object",
        "description": "every error answer (docs/FORMATS.md, \"Errors\")",
        "required": ["ok", "errors"],
        "properties": {
            "ok": {"const": False},
            "errors": {"type": "array", "minItems": 1, "items": _ref("ErrorItem")},
        },
    },
    "ErrorItem": {
        "type": "object",
        "required": ["path", "message", "suggestions"],
        "properties": {
            "path": {"type": "string", "description": "JSON pointer to the field at fault"},
            "message": {"type": "object", "required": ["en", "zh"],
                        "properties": {"en": {"type": "string"}, "zh": {"type": "string"}}},
            "suggestions": {"type": "array", "items": {"type": "string"}},
            "related": {"type": "array", "items": {"type": "string"}, "description": (
                "other fields the problem involves, as JSON pointers (the first place of a "
                "card held in more places than its copies)")},
        },
    },
    "Source": {
        "type": "object", "required": ["id", "kind", "url"],
        "properties": {"id": {"type": "string", "examples": ["faq:002-01", "rulebook:limits"]},
                       "kind": {"type": "string"}, "url": {"type": "string"},
                       "scope": {"type": "string", "enum": ["other_deck"],
                                 "description": "present when the passage concerns another deck"
                                                " than the table's edition: cited by analogy"}},
    },
    "Finding": {
        "type": "object", "required": ["about", "text", "sources"],
        "properties": {"about": {"type": "string"}, "key": {"type": "string"}, "text": TEXT,
                       "sources": {"type": "array", "items": _ref("Source")}},
    },
    "Move": {
        "type": "object", "required": ["player", "kind"],
        "properties": {"player": {"type": ["string", "null"], "description": (
                           "who makes the move; null: a newcomer's join, whose "
                           "`play` names no player: the table names who joins")},
                       "kind": {"type": "string"},
                       "card": {"type": "string"}, "name": TEXT,
                       "claim": {"type": "string", "description": (
                           "a discard move that makes a Keep Going claim: the Goal claimed "
                           "(zone keepers, count: the Keepers used, discarded with it)")},
                       "keepers": {"type": "array", "items": {"type": "string"},
                                   "description": (
                           "a Keep Going claim: the Keepers its way of meeting the Goal uses, "
                           "each copy; the move's `play` names them as its `keepers` choice")},
                       "cards": {"type": "integer", "description": (
                           "a join: the cards the player joining gets (drawn from the "
                           "draw pile; in Fluxxnomic made at random)")},
                       "last_phase": {"type": "integer", "description": (
                           "a returning player's join: the last phase they were a player in")},
                       "at_once": {"type": "boolean", "description": (
                           "the rules make this move as soon as it is open (a Keep Going "
                           "claim): a play's outcome that opens it goes on with it")},
                       "play": {"type": "object", "description": (
                           "the exact `play` body POST /api/play takes for this move")},
                       "reason_key": {"type": "string", "description": (
                           "not_yet entries: the reason's message key, the one POST /api/play "
                           "refuses this move with")}},
    },
    "Change": {
        "type": "object", "required": ["event", "text", "sources"],
        "description": "one event of a move (docs/FORMATS.md, \"What a move changed\")",
        "properties": {
            "event": {"enum": ["moved", "drawn", "received", "moved_unseen", "left_unknown",
                               "joined", "turn_ended", "extra_turns", "won"]},
            "card": {"type": "string"}, "player": {"type": "string"},
            "next": {"type": "string"}, "count": {"type": "integer"},
            "cards": {"type": "array", "items": {"type": "string"}},
            "from": {"type": "object"}, "to": {"type": "object"},
            "text": TEXT, "sources": {"type": "array"}},
    },
    "Ruling": {
        "type": "object",
        "description": "a ruling (docs/FORMATS.md, \"Ruling\")",
        "required": ["ok", "winner", "tied", "turn", "limits", "discards", "legal_moves",
                     "findings"],
        "properties": {
            "ok": {"const": True},
            "winner": {"type": ["string", "null"]},
            "tied": {"type": "array", "items": {"type": "string"}},
            "turn": {
                "type": "object", "required": ["player", "draw", "play"],
                "properties": {
                    "player": {"type": "string"},
                    "draw": {"type": "object", "required": ["total", "drawn", "remaining"]},
                    "play": {"type": "object", "required": ["total", "played", "remaining"],
                             "properties": {"total": {"type": ["integer", "string", "null"]}}},
                },
            },
            "limits": {"type": "object", "required": ["hand", "keeper"],
                       "properties": {"hand": {"type": ["integer", "null"]},
                                      "keeper": {"type": ["integer", "null"]}}},
            "discards": {"type": "array", "items": {
                "type": "object", "required": ["player", "zone", "count", "when"],
                "properties": {"zone": {"enum": ["hand", "keepers"]},
                               "when": {"enum": ["now", "end_of_turn"]},
                               "random": {"type": "boolean", "description": (
                                   "Fluxxnomic's Hand limit 5: the cards are chosen at random "
                                   "when the phase ends, from any player's hand over it; no "
                                   "move discards them")}}}},
            "legal_moves": {"type": "array", "items": _ref("Move")},
            "pending": {"type": "object", "required": ["card", "outcome"]},
            "findings": {"type": "array", "items": _ref("Finding")},
        },
    },
    "EngineFailure": {
        "type": "object",
        "description": "the engine found no single ruling for a well-formed table (no answer "
                       "set, or more than one): reported, never a silent pick",
        "required": ["ok", "errors"],
        "properties": {"ok": {"const": False},
                       "errors": {"type": "array", "items": _ref("ErrorItem")},
                       "engine": {"type": "object"}},
    },
    "PlaysAnswer": {
        "type": "object", "required": ["ok", "answers"],
        "description": "POST /api/plays: the answer to each play, in the order asked, each the "
                       "one POST /api/play gives that play alone (its outcomes in an order of "
                       "their own; where it has more outcomes than are listed, the listed ones "
                       "may be others)",
        "properties": {"ok": {"const": True},
                       "answers": {"type": "array", "items": _ref("PlayAnswer")}},
    },
    "PlayAnswer": {
        "type": "object",
        "description": "the outcomes of a play (docs/FORMATS.md, \"Playing a card\")",
        "required": ["ok", "legal"],
        "properties": {
            "ok": {"type": "boolean"},
            "legal": {"type": "boolean"},
            "reasons": {"type": "array"},
            "outcomes": {"type": "array", "items": {
                "type": "object",
                "properties": {"wins": {"type": "string"},
                               "changes": {"type": "array", "items": _ref("Change")},
                               "state": {"type": "object"}, "ruling": {"type": "object"},
                               "choices": {"type": "object"},
                               "probability": {
                                   "type": "string", "pattern": r"^[0-9]+(/[0-9]+)?$",
                                   "description": (
                                       "an outcome that drew something at random: its odds "
                                       "given its decisions, an exact fraction (\"1/3\"); "
                                       "cards drawn from a pile given as a count: over the "
                                       "deck's copies the table does not show (the Creepers a "
                                       "draw into a hand brings included)")}}},
                "description": "one per possible result, at most 24 and at most "
                               "outcomes_size_limit bytes of JSON together (the first always)"},
            "outcomes_truncated": {"type": "boolean",
                                   "description": "more outcomes than are listed: more than "
                                                  "24, or more than the size limit holds"},
            "outcomes_unknown": {
                "type": "array",
                "description": "the random results (and choices) after which what the play "
                               "does is unknown (a card no rule plays, its text missing: "
                               "`reasons` says which), with their probability; no table can be "
                               "given for them, so they are not among `outcomes`",
                "items": {"type": "object", "required": ["choices"],
                          "properties": {"choices": {"type": "object"},
                                         "probability": {
                                             "type": "string",
                                             "pattern": r"^[0-9]+(/[0-9]+)?$"}}}},
            "outcomes_size_limit": {"type": "integer", "maximum": MAX_OUTCOME_BYTES,
                                    "description": "present when the size limit cut the "
                                                   "outcomes: bytes of JSON (a play among "
                                                   "more than 4 of /api/plays: its share of "
                                                   "4 MB)"},
            "open_choices": {"type": "array",
                             "description": (
                                 "what to decide to narrow the outcomes; `drawn` (kind "
                                 "chance, with `count`): the unseen cards a draw from a pile "
                                 "given as a count may take, when more sets than are listed "
                                 "(a draw into a hand: the unseen Creepers and \"?\", a card "
                                 "drawn unseen into the hand); `order` (with `plays_left`, "
                                 "and `unknown`: how many of the sub-hand's cards the table "
                                 "does not show): the cards of a sub-hand still to play")},
            "groups": {"type": "array", "description": (
                "with several outcomes: the outcomes grouped by the decisions that lead to "
                "them (random results aside), each group's `outcomes` their indices"),
                "items": {"type": "object", "required": ["choices", "outcomes"],
                          "properties": {"choices": {"type": "object"},
                                         "outcomes": {"type": "array",
                                                      "items": {"type": "integer"}}}}},
        },
    },
    "Results": {
        "type": "object", "required": ["ok", "count", "shown", "results"],
        "properties": {"ok": {"const": True}, "query": {"type": ["string", "null"]},
                       "count": {"type": "integer", "minimum": 0, "description": (
                           "how many results match in all, however many `limit` returns")},
                       "shown": {"type": "integer", "minimum": 0, "description": (
                           "how many of them `results` holds: at most `limit`")},
                       "corrected": {"type": ["string", "null"], "description": (
                           "the query searched for when words of `q` matched nothing and were "
                           "replaced by the closest words of the index (inflaton -> "
                           "inflation); null when `q` was searched as typed")},
                       "results": {"type": "array", "items": {
                           "type": "object", "required": ["id", "url"],
                           "properties": {"id": {"type": "string"}, "url": {"type": "string"}}}}},
    },
    "FaqEntry": {
        "type": "object", "required": ["id", "cards"],
        "properties": {"id": {"type": "string"}, "question": TEXT,
                       "text": {"type": "string"},
                       "text_zh": {"type": ["string", "null"],
                                   "description": "the whole answer in Chinese"},
                       "text_zh_status": {"enum": ["project_translation", "missing"]},
                       "cards": {"type": "array", "items": {"type": "object"}}},
    },
    "Card": {
        "type": "object", "required": ["id", "type", "name", "text", "sources"],
        "properties": {"id": {"type": "string"}, "type": {"type": "string"}, "name": TEXT,
                       "text": TEXT, "sources": {"type": "array", "items": _ref("Source")}},
    },
    "CardList": {
        "type": "object", "required": ["ok", "edition", "cards"],
        "properties": {"ok": {"const": True}, "edition": {"type": "string"},
                       "count": {"type": "integer"},
                       "cards": {"type": "array", "items": _ref("Card")}},
    },
    "Rulebook": {
        "type": "object", "required": ["sections"],
        "properties": {"sections": {"type": "array", "items": {
            "type": "object", "required": ["anchor", "title", "url"],
            "properties": {"anchor": {"type": "string"}, "title": TEXT,
                           "url": {"type": "string"}}}},
            "glossary": {"type": "array"}},
    },
    "SourceInfo": {
        "type": "object", "required": ["id", "kind", "url"],
        "properties": {"id": {"type": "string"}, "kind": {"type": "string"},
                       "url": {"type": "string"}, "exists": {"type": "boolean"}},
    },
    "Coverage": {
        "type": "object", "required": ["counts", "entries"],
        "properties": {"counts": {"type": "object"},
                       "entries": {"type": "array", "items": {"type": "object"}}},
    },
}


# The contract's own example table: the fuzzer starts from it, so the engine is exercised too.
EXAMPLE_STATE: dict[str, Any] = {
    "edition": "fluxx",
    "players": [{"name": "Ann", "hand": ["Draw 2", "爱"], "keepers": ["Peace"]},
                {"name": "Bo", "hand_size": 3, "keepers": []}],
    "active": "Ann",
    "rules": ["Draw 3", "Inflation"],
    "goals": ["Hippyism"],
    "turn": {"hand_at_start": 2, "drawn": 0, "played": 0},
    "discard_pile": ["Jackpot"],
}


def _body(schema: dict[str, Any], example: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {JSON: {"schema": schema, "example": example}}}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}}


def _errors(*codes: int) -> dict[str, Any]:
    words = {400: "bad input", 404: "no such entry", 413: "the request body is too large",
             405: "method not allowed",
             415: "JSON sent under another content type than application/json",
             503: "the knowledge store is being rebuilt (Retry-After)"}
    return {str(c): _json(_ref("Error"), words[c]) for c in codes}


def _query(name: str, description: str, schema: dict[str, Any] | None = None,
           required: bool = False) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": required, "description": description,
            "schema": schema or {"type": "string"}}


def _path(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": description,
            "schema": {"type": "string", "minLength": 1}}


LIMIT = _query("limit", "how many results (1..100)", {"type": "integer", "minimum": 1,
                                                       "maximum": 100})
EDITION = _query("edition", "an edition id: fluxx, math, fluxxnomic")

# (method, Flask rule) -> operation
OPERATIONS: dict[tuple[str, str], dict[str, Any]] = {
    ("post", "/api/ruling"): {
        "operationId": "ruling", "summary": "The ruling for a table state",
        "requestBody": _body(_ref("TableState"), EXAMPLE_STATE),
        "responses": {"200": _json({"anyOf": [_ref("Ruling"), _ref("EngineFailure")]},
                                   "the ruling"),
                      **_errors(400, 413, 415)},
    },
    ("post", "/api/play"): {
        "operationId": "play", "summary": "The outcomes of playing a card",
        "requestBody": _body(_ref("PlayRequest"),
                             {"state": EXAMPLE_STATE, "play": {"card": "Draw 2"}}),
        "responses": {"200": _json(_ref("PlayAnswer"), "legal or not, and the outcomes"),
                      **_errors(400, 413, 415)},
    },
    ("post", "/api/plays"): {
        "operationId": "plays", "summary": "The outcomes of several plays of one table",
        "description": "Each play answered as POST /api/play answers it, worked out together "
                       "(every card of a hand: \"what would each do?\"); a play refused as "
                       "input refuses the request, its fields under /plays/<index>.",
        "requestBody": _body(_ref("PlaysRequest"),
                             {"state": EXAMPLE_STATE,
                              "plays": [{"card": "Draw 2"}, {"kind": "draw"}]}),
        "responses": {"200": _json(_ref("PlaysAnswer"), "each play's answer, in order"),
                      **_errors(400, 413, 415)},
    },
    ("get", "/api/faq"): {
        "operationId": "faq", "summary": "FAQ entries, best first for a query",
        "parameters": [_query("q", "words in English or Chinese", {"type": "string",
                                                                    "maxLength": 500}),
                       LIMIT, _query("card", "only entries about this card"),
                       _query("topic", "only entries on this topic"), EDITION,
                       _query("scope", "only entries of this scope")],
        "responses": {"200": _json(_ref("Results"), "the matching entries"), **_errors(400, 503)},
    },
    ("get", "/api/faq/coverage"): {
        "operationId": "faqCoverage", "summary": "Which FAQ entries the scenarios adjudicate",
        "responses": {"200": _json(_ref("Coverage"), "every entry and its status"),
                      **_errors(400, 503)},
    },
    ("get", "/api/faq/<entry_id>"): {
        "operationId": "faqEntry", "summary": "One FAQ entry",
        "parameters": [_path("entry_id", "an entry id such as 002-01")],
        "responses": {"200": _json(_ref("FaqEntry"), "the entry"), **_errors(400, 404, 503)},
    },
    ("get", "/api/cards"): {
        "operationId": "cards", "summary": "Every card of an edition",
        "parameters": [EDITION],
        "responses": {"200": _json(_ref("CardList"), "the cards"), **_errors(400, 503)},
    },
    ("get", "/api/cards/suggest"): {
        "operationId": "card_suggestions",
        "summary": "The card a name names, or the cards it may mean",
        "parameters": [_query("q", "a card name as typed", {"type": "string", "maxLength": 500},
                              required=True),
                       EDITION,
                       _query("expansions", "comma-separated expansions of a fluxx game: "
                              "creepers, surprises")],
        "responses": {"200": _json({"type": "object", "properties": {
            "ok": {"const": True}, "query": {"type": "string"}, "edition": {"type": "string"},
            "expansions": {"type": "array", "items": {"type": "string"}},
            "card": {"type": ["string", "null"]},
            "suggestions": {"type": "array", "items": {"type": "string"}}}},
            "the card named, or the names it may mean"), **_errors(400)},
    },
    ("get", "/api/cards/<card_id>"): {
        "operationId": "card", "summary": "One card, with its FAQ entries",
        "parameters": [_path("card_id", "a card id or name"), EDITION],
        "responses": {"200": _json(_ref("Card"), "the card"), **_errors(400, 404, 503)},
    },
    ("get", "/api/rulebook"): {
        "operationId": "rulebook", "summary": "The rulebook sections and the glossary",
        "responses": {"200": _json(_ref("Rulebook"), "the rulebook"), **_errors(400, 503)},
    },
    ("get", "/api/sources/<path:source_id>"): {
        "operationId": "source", "summary": "Is this citable source real, and where it opens",
        "parameters": [_path("source_id", "a source id such as faq:002-01")],
        "responses": {"200": _json(_ref("SourceInfo"), "the source"), **_errors(400, 404, 503)},
    },
    ("get", "/api/search"): {
        "operationId": "search", "summary": "Every kind of source, best first",
        "parameters": [_query("q", "words in English or Chinese", {"type": "string",
                                                                    "maxLength": 500},
                              required=True),
                       _query("kinds", "comma-separated kinds (faq, rulebook, card)"),
                       _query("edition", "a catalog (fluxx, math, fluxxnomic, creepers, "
                              "surprises): only its cards and the FAQ entries of its game "
                              "(an expansion's game is fluxx; entries tied to no edition "
                              "stay); rulebook passages always stay"),
                       LIMIT],
        "responses": {"200": _json(_ref("Results"), "the matches"), **_errors(400, 503)},
    },
    ("get", "/api/openapi.json"): {
        "operationId": "openapi", "summary": "This description",
        "responses": {"200": _json({"type": "object"}, "the OpenAPI document")},
    },
}


def openapi_path(rule: str) -> str:
    """A Flask rule as an OpenAPI path: /api/cards/<card_id> -> /api/cards/{card_id}."""
    return re.sub(r"<(?:[a-z_]+:)?([A-Za-z_]\w*)>", r"{\1}", rule)


def spec(routes: Iterable[tuple[str, str]] | None = None) -> dict[str, Any]:
    """The OpenAPI document; `routes` (method, Flask rule) limits it to what the app serves."""
    served = None if routes is None else {(m.lower(), r) for m, r in routes}
    paths: dict[str, dict[str, Any]] = {}
    for (method, rule), operation in OPERATIONS.items():
        if served is not None and (method, rule) not in served:
            continue
        paths.setdefault(openapi_path(rule), {})[method] = operation
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Fluxx Adjudicator",
            "version": __version__,
            "description": "A rules referee for the card game Fluxx: rulings from a table "
                           "state, every conclusion cited. Every error answer is "
                           "{\"ok\": false, \"errors\": [{path, message {en, zh}, "
                           "suggestions}]}.",
        },
        "paths": paths,
        "components": {"schemas": SCHEMAS},
    }


bp = Blueprint("openapi_api", __name__)


@bp.get("/api/openapi.json")
def openapi_json() -> Any:
    routes = [(method, rule.rule) for rule in current_app.url_map.iter_rules()
              for method in rule.methods or () if method not in ("HEAD", "OPTIONS")]
    return jsonify(spec(routes))
