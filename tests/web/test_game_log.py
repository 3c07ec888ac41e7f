"""Going on from a ruling (web/pages/game.py): every listed move is a button; each outcome of
"What if" says what changed, winners first, with its odds, and "Play this" makes it the table
with the move in a log that travels in the link, with Undo and Redo; after a win nothing more
is offered."""

from __future__ import annotations

import json
import re
import secrets
from html import unescape
from typing import Any
from urllib.parse import parse_qs, urlsplit

from adjudicator.referee.moves import play_response
from adjudicator.table.reader import parse_state
from adjudicator.web.pages.forms import MAX_LINK_STATE, encode_state
from adjudicator.web.pages.game import Game, decode_game, one_table
from tests.web.ui_pages import GAME, csrf_from, html

TABLE = GAME


def page_of(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, html(response)[:500]
    return html(response)


def move_buttons(page: str) -> list[dict[str, Any]]:
    """The `play` object of every move button of the moves list."""
    return [json.loads(unescape(v)) for v in re.findall(r'name="play" value="([^"]*)"', page)]


def what_if(client, page: str, play: dict[str, Any], state: dict[str, Any]) -> str:
    game = re.search(r'name="game" value="([^"]*)"', page)
    token = re.search(r'name="state" value="([^"]*)"', page)
    data = {"csrf_token": csrf_from(page), "play": json.dumps(play),
            "state": unescape(token.group(1)) if token else encode_state(state)}
    if game:
        data["game"] = unescape(game.group(1))
    response = client.post("/ruling/play", data=data, headers={"HX-Request": "true"})
    assert response.status_code == 200, html(response)[:500]
    return html(response)


def apply_links(answer: str) -> list[str]:
    return [unescape(u) for u in re.findall(r'class="button apply-outcome" href="([^"]+)"', answer)]


def shown_state(url: str) -> dict[str, Any]:
    game = parse_qs(urlsplit(url).query)["game"][0]
    return decode_game(game).current


def test_every_listed_move_is_a_button_with_its_play(client):
    page = page_of(client, "/ruling?state=" + encode_state(TABLE))
    ruling = client.get("/ruling?format=json&state=" + encode_state(TABLE)).get_json()
    assert move_buttons(page) == [m["play"] for m in ruling["legal_moves"]]
    assert {"kind": "play", "player": "Ann", "card": "jackpot"} in move_buttons(page)


def test_a_move_button_answers_as_the_api_does(client):
    page = page_of(client, "/ruling?state=" + encode_state(TABLE))
    play = {"kind": "play", "player": "Ann", "card": "jackpot"}
    answer = what_if(client, page, play, TABLE)
    api = play_response(parse_state(TABLE), play)
    # what changed comes first in the outcome, in the API's words
    changes = [c["text"]["en"] for c in api["outcomes"][0]["changes"]]
    text = unescape(re.sub(r"<[^>]+>", "", answer))
    assert all(c in text for c in changes)
    assert text.index(changes[0]) < text.index("The ruling after this move")


def test_chance_outcomes_are_grouped_by_the_choice_with_their_odds(client):
    page = page_of(client, "/ruling?state=" + encode_state(TABLE))
    answer = what_if(client, page, {"kind": "play", "player": "Ann",
                                    "card": "use_what_you_take"}, TABLE)
    groups = [re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", g))).strip()
              for g in re.findall(r'<h3 class="group-title">(.*?)</h3>', answer, re.S)]
    assert sorted(groups) == ["If the choice is opponent = Bo:", "If the choice is opponent = Cy:"]
    odds = re.findall(r'class="badge odds">chance ([0-9/]+)<', answer)
    assert sorted(odds) == ["1", "1/2", "1/4", "1/4"]


def test_a_winning_outcome_comes_first_and_says_so(client):
    table = {**TABLE, "players": [{"name": "Ann", "hand": ["Bread", "Jackpot!"],
                                   "keepers": ["Toaster"]},
                                  {"name": "Bo", "hand": ["Love"], "keepers": []}]}
    page = page_of(client, "/ruling?state=" + encode_state(table))
    answer = what_if(client, page, {"kind": "play", "player": "Ann", "card": "bread"}, table)
    assert 'class="outcome outcome-win"' in answer
    assert "Ann wins" in answer


def test_play_this_goes_on_and_undo_and_redo_walk_the_log(client):
    page = page_of(client, "/ruling?state=" + encode_state(TABLE))
    answer = what_if(client, page, {"kind": "play", "player": "Ann", "card": "jackpot"}, TABLE)
    [link] = apply_links(answer)
    after = page_of(client, link)
    state = shown_state(link)
    assert state["discard_pile"] == ["jackpot"]
    assert sorted(state["players"][0]["hand"]) == ["bread", "moon", "sun", "time",
                                                   "use_what_you_take"]
    log = re.search(r'<section class="game-log".*?</section>', after, re.S).group(0)
    text = unescape(re.sub(r"<[^>]+>", " ", log))
    assert "After move 1 of 1" in text and "Ann" in text and "Jackpot" in text
    assert "Ann drew 3" in text  # the move's changes, read off the two tables
    undo = unescape(re.search(r'class="button secondary undo" href="([^"]+)"', after).group(1))
    before = page_of(client, undo)
    assert shown_state(undo) == parse_state(TABLE).to_json()
    assert "Before the first move" in unescape(before)
    redo = unescape(re.search(r'class="button secondary redo" href="([^"]+)"', before).group(1))
    assert shown_state(redo) == state
    # a second move from the table after the first: the log has both, the link carries them
    second = what_if(client, after, {"kind": "play", "player": "Ann", "card": "bread"}, state)
    [link2] = apply_links(second)
    game = decode_game(parse_qs(urlsplit(link2).query)["game"][0])
    assert game.at == 2 and [m["play"]["card"] for m in game.moves] == ["jackpot", "bread"]
    assert "Ann wins" in page_of(client, link2)


def test_a_move_made_after_undo_drops_the_undone_moves():
    a, b, c, d = ({"n": i} for i in range(4))
    game = one_table(a).then({"kind": "draw"}, {}, b).then({"kind": "end_turn"}, {}, c)
    again = game.go(1).then({"kind": "play", "card": "x"}, {"card": ["x"]}, d)
    assert again.states == [a, b, d] and again.at == 2
    assert [m["play"]["kind"] for m in again.moves] == ["draw", "play"]
    assert again.moves[1]["choices"] == {"card": ["x"]}


def test_a_long_game_keeps_its_latest_tables_within_the_link_bound():
    state = parse_state(TABLE).to_json()
    game = one_table(state)
    for i in range(300):
        game = game.then({"kind": "draw", "player": "Ann"}, {},
                         {**state, "turn": {"drawn": i, "played": 0},
                          "notes": secrets.token_hex(16)})  # what no deflating shortens
    token = game.token()
    assert len(token) <= MAX_LINK_STATE
    kept = decode_game(token)
    assert kept.current == game.current and kept.dropped > 0
    assert kept.dropped + len(kept.moves) == 300


def test_a_damaged_game_link_is_a_clear_error(client):
    response = client.get("/ruling?game=zAAAA&format=json")
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["path"].startswith("/game")
    bad_shape = Game(states=[TABLE], moves=[{"play": {}}]).token()  # a move with no table after
    response = client.get("/ruling?format=json&game=" + bad_shape)
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["path"] == "/game/moves"


def test_after_a_win_nothing_is_owed_or_offered(client):
    won = {"players": [{"name": "Ann", "hand": ["Jackpot!"], "keepers": ["Bread", "Toaster"]},
                       {"name": "Bo", "hand": ["Love"]}],
           "active": "Ann", "goals": ["Toast"], "turn": {"drawn": 1, "played": 1},
           "draw_pile": 10}
    page = page_of(client, "/ruling?state=" + encode_state(won))
    assert "Ann wins the game." in page and "The game is over" in page
    assert "must still draw" not in page and "must still play" not in page
    assert 'class="whatif-form"' not in page


def test_an_inline_ruling_keeps_the_editor_entry_as_that_table(client):
    page = html(client.get("/"))
    form = {"csrf_token": csrf_from(page), "edition": "fluxx", "active": "0",
            "players-0-name": "Ann", "players-0-hand": "Draw 2",
            "players-1-name": "Bo", "players-1-hand_size": "3"}
    response = client.post("/ruling", data=form, headers={"HX-Request": "true"})
    editor = response.headers["X-Editor-Url"]
    assert editor.startswith("/?state=")
    assert "Draw 2" in html(client.get(editor))
