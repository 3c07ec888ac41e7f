"""Blueprint play_api: `POST /api/play` (docs/FORMATS.md, "Playing a card").

Request `{"state": {...}, "play": {"card": ..., "player": ..., "choices": {...}, "seed": 7}}`;
the answer is `adjudicator.play.play_response`. Errors in the state are reported under /state.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from ..errors import ErrorItem, InputError
from ..play import play_response
from ..reader import parse_state
from .ruling_api import json_body

bp = Blueprint("play_api", __name__)


@bp.post("/api/play")
def play() -> Any:
    body = json_body()
    if not isinstance(body, dict) or "state" not in body:
        raise InputError(ErrorItem("/state", "Send {\"state\": {...}, \"play\": {\"card\": ...}}.",
                                   "请发送 {\"state\": {...}, \"play\": {\"card\": ...}}。"))
    try:
        state = parse_state(body["state"])
    except InputError as err:
        raise InputError([ErrorItem("/state" + i.path, i.en, i.zh, i.suggestions)
                          for i in err.items], status=err.status) from None
    request_play = body.get("play")
    if not isinstance(request_play, dict):
        raise InputError(ErrorItem("/play", "Missing: the play, {\"card\": ...}.",
                                   "缺少出牌内容 {\"card\": ...}。"))
    return jsonify(play_response(state, request_play))
