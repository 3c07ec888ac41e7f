"""Blueprint play_api: `POST /api/play` (docs/FORMATS.md, "Playing a card").

Request `{"state": {...}, "play": {"card": ..., "player": ..., "choices": {...}, "seed": 7}}`;
the answer is `adjudicator.referee.moves.play_response`. The body is checked as a whole against
the one schema (adjudicator/table/schema.py) before anything else: every error is under /state or
/play.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from ...referee.moves import play_response
from ...table.reader import read_play_request
from .ruling import json_body

bp = Blueprint("play_api", __name__)


@bp.post("/api/play")
def play() -> Any:
    state, request_play = read_play_request(json_body())
    return jsonify(play_response(state, request_play))
