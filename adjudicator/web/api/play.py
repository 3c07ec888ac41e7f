"""Blueprint play_api: `POST /api/play` (docs/FORMATS.md, "Playing a card") and
`POST /api/plays` (docs/FORMATS.md, "Several plays of one table").

Request `{"state": {...}, "play": {"card": ..., "player": ..., "choices": {...}, "seed": 7}}`;
the answer is `adjudicator.referee.moves.play_response`. `{"state": {...}, "plays": [...]}` is
answered with `{"ok": true, "answers": [...]}`, each answer the one `POST /api/play` gives that
play (`adjudicator.referee.together.play_responses`). The body is checked as a whole against the
one schema (adjudicator/table/schema.py) before anything else: every error is under /state,
/play or /plays/<i>.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from ...referee.moves import play_response
from ...referee.together import play_responses
from ...table.reader import read_play_request, read_plays_request
from .ruling import json_body

bp = Blueprint("play_api", __name__)


@bp.post("/api/play")
def play() -> Any:
    state, request_play = read_play_request(json_body())
    return jsonify(play_response(state, request_play))


@bp.post("/api/plays")
def plays() -> Any:
    state, requests = read_plays_request(json_body())
    return jsonify({"ok": True, "answers": play_responses(state, requests)})
