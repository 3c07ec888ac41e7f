"""Limits and hostile input: oversize bodies, oversize tables, the engine's time limit,
script in player names, and the security headers every response carries.
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import clingo
import pytest

from adjudicator.engine import solve
from adjudicator.table.reader import MAX_COUNT, MAX_ITEMS, MAX_PLAYERS
from adjudicator.web.pages.forms import encode_link, encode_state

TABLE: dict[str, Any] = {
    "players": [{"name": "Ann", "hand": ["Draw 2", "Jackpot"], "keepers": ["Peace"]},
                {"name": "Bo", "hand_size": 3}],
    "active": "Ann",
    "rules": ["Draw 3"],
    "goals": ["Hippyism"],
}
HOSTILE = ["<script>alert('x')</script>", "<img src=x onerror=alert(1)>", "\"><b>bold</b>"]
SECURITY = {
    "Content-Security-Policy": "default-src 'self'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def error_paths(response) -> list[str]:
    body = response.get_json()
    assert body["ok"] is False
    for item in body["errors"]:
        assert set(item) >= {"path", "message", "suggestions"}
        assert item["message"]["en"] and item["message"]["zh"]
    return [item["path"] for item in body["errors"]]


def link(state: dict[str, Any]) -> str:
    raw = json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


# --- sizes ---------------------------------------------------------------------------------

def test_a_body_over_the_size_limit_gets_413_in_the_contract_shape(app, client) -> None:
    limit = app.config["MAX_CONTENT_LENGTH"]
    body = json.dumps({**TABLE, "filler": "x" * (limit + 1)})
    response = client.post("/api/ruling", data=body, content_type="application/json")
    assert response.status_code == 413
    assert error_paths(response)
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_a_body_just_under_the_limit_is_read(app, client) -> None:
    limit = app.config["MAX_CONTENT_LENGTH"]
    state = {**TABLE, "note": ""}
    state["note"] = "x" * (limit - len(json.dumps(state)) - 100)
    response = client.post("/api/ruling", json=state)
    assert response.status_code == 200
    assert response.get_json()["ok"] is True


def test_too_many_players_is_a_400_naming_the_field(client) -> None:
    players = [{"name": f"P{i}", "hand_size": 1} for i in range(MAX_PLAYERS + 1)]
    response = client.post("/api/ruling", json={"players": players, "active": "P0"})
    assert response.status_code == 400
    assert "/players" in error_paths(response)


def test_an_overlong_list_is_a_400_naming_the_list(client) -> None:
    state = {"edition": "fluxxnomic", "players": [
        {"name": "Ann", "hand": ["Peace"] * (MAX_ITEMS + 1)}, {"name": "Bo", "hand_size": 1}],
        "active": "Ann"}
    response = client.post("/api/ruling", json=state)
    assert response.status_code == 400
    assert error_paths(response) == ["/players/0/hand"]


def test_a_count_too_large_to_rule_on_is_a_400_naming_the_field(client) -> None:
    # the engine's integers are 32 bits: 2**32 would silently become 0 without this check
    state = {"edition": "fluxxnomic", "players": [{"name": "Ann", "hand_size": 2**32},
                                                 {"name": "Bo", "hand_size": 1}],
             "active": "Ann", "turn": {"drawn": MAX_COUNT + 1}}
    response = client.post("/api/ruling", json=state)
    assert response.status_code == 400
    assert set(error_paths(response)) == {"/players/0/hand_size", "/turn/drawn"}


def test_thousands_of_unknown_long_names_get_suggestions_only_for_the_first(client) -> None:
    # each "did you mean" is a fuzzy match over the catalog: a body full of long unknown names
    # must be answered promptly, not after a minute of CPU
    players = [{"name": f"P{i}", "hand": [f"no such card, number {i} {j}" for j in range(300)]}
               for i in range(MAX_PLAYERS)]
    response = client.post("/api/ruling", json={"players": players, "active": "P0"})
    assert response.status_code == 400
    unknown = [e for e in response.get_json()["errors"] if "/hand/" in e["path"]]
    assert len(unknown) == MAX_PLAYERS * 300  # every unknown name is still reported
    assert any(e["suggestions"] for e in unknown[:20])
    assert all(e["suggestions"] == [] for e in unknown[20:])


@pytest.mark.parametrize("url", ["/api/ruling", "/api/play"])
def test_absurdly_deep_json_is_a_400_not_a_crash(client, url) -> None:
    # deeper than Python's JSON parser can recurse
    body = "[" * 100_000 + "]" * 100_000
    response = client.post(url, data=body, content_type="application/json")
    assert response.status_code == 400
    assert error_paths(response) == [""]


@pytest.mark.parametrize("url", ["/ruling?state=", "/?state=", "/ruling?format=json&state="])
def test_a_permalink_of_absurdly_deep_json_is_a_400_not_a_crash(client, url) -> None:
    token = base64.urlsafe_b64encode(("[" * 2500 + "]" * 2500).encode()).decode().rstrip("=")
    assert client.get(url + token).status_code == 400


def csrf(client) -> str:
    html = client.get("/").get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def test_a_pasted_yaml_alias_bomb_is_refused_at_once(client) -> None:
    # nine levels of nine-fold aliases: a few hundred bytes that expand to 387 million nodes
    levels = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    names = "abcdefghi"
    for prev, name in zip(names, names[1:], strict=False):
        levels.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    text = "\n".join(levels) + "\nplayers: [*i]\n"
    for url in ("/", "/ruling"):  # load into the editor; rule on it
        response = client.post(url, data={"csrf_token": csrf(client), "state_text": text})
        assert response.status_code == 400, url
        assert "YAML" in response.get_data(as_text=True), url


# --- the engine's time limit ---------------------------------------------------------------

def test_hitting_the_time_limit_is_a_clear_error_not_a_hang(client, monkeypatch) -> None:
    monkeypatch.setenv(solve.TIME_LIMIT_ENV, "0.000001")
    response = client.post("/api/ruling", json=TABLE)
    assert response.status_code == 400
    body = response.get_json()
    assert error_paths(response) == [""]
    assert "time limit" in body["errors"][0]["message"]["en"]
    assert "时限" in body["errors"][0]["message"]["zh"]


def test_the_default_time_limit_lets_a_table_be_ruled(client, monkeypatch) -> None:
    monkeypatch.delenv(solve.TIME_LIMIT_ENV, raising=False)
    assert solve.time_limit() == solve.DEFAULT_TIME_LIMIT_S
    monkeypatch.setenv(solve.TIME_LIMIT_ENV, "not a number")
    assert solve.time_limit() == solve.DEFAULT_TIME_LIMIT_S
    response = client.post("/api/ruling", json=TABLE)
    assert response.status_code == 200 and response.get_json()["ok"] is True


def test_a_search_that_runs_past_the_limit_is_cancelled() -> None:
    # pigeonhole: 14 pigeons, 13 holes -- clasp needs far longer than the limit to refute it
    ctl = clingo.Control()
    ctl.add("base", [], """
        pigeon(1..14). hole(1..13).
        1 { in(P,H) : hole(H) } 1 :- pigeon(P).
        :- in(P,H), in(Q,H), P < Q.
    """)
    import time

    started = time.perf_counter()
    ctl.ground([("base", [])])
    with pytest.raises(solve.TimeLimitError) as caught:
        solve.solve_within(ctl, started, lambda model: None, limit_s=0.5)
    assert caught.value.status == 400
    assert caught.value.items[0].path == ""


def test_the_cli_reports_the_time_limit_and_exits_2(tmp_path, monkeypatch, capsys) -> None:
    from adjudicator.cli import main

    monkeypatch.setenv(solve.TIME_LIMIT_ENV, "0.000001")
    table = tmp_path / "table.json"
    table.write_text(json.dumps(TABLE), encoding="utf-8")
    assert main(["rule", str(table)]) == 2
    captured = capsys.readouterr()
    assert "time limit" in captured.out + captured.err


# --- hostile text --------------------------------------------------------------------------

@pytest.mark.parametrize("name", HOSTILE)
def test_script_in_a_player_name_is_shown_as_text_on_every_page(client, name) -> None:
    state = {**TABLE, "players": [{**TABLE["players"][0], "name": name},
                                  TABLE["players"][1]], "active": name}
    token = link(state)
    pages = {
        "ruling": client.get(f"/ruling?state={token}"),
        "editor": client.get(f"/?state={token}"),
        # an error page that repeats the name: the active player is not seated
        "error": client.get(f"/ruling?state={link({**state, 'active': name + '!'})}"),
        # "what if I play this?": the outcomes page names the players too
        "play": client.post("/ruling/play", data={"csrf_token": csrf(client), "state": token,
                                                  "card": "Draw 2", "player": name}),
    }
    for label, response in pages.items():
        html = response.get_data(as_text=True)
        assert response.status_code in (200, 400), label
        assert "text/html" in response.content_type, label
        assert name not in html, f"{label}: the name is in the page unescaped"
        assert "&lt;" in html, f"{label}: the name is not shown escaped"
    # and in JSON it stays the plain text it was
    ruling = client.post("/api/ruling", json=state).get_json()
    assert ruling["turn"]["player"] == name


def test_script_in_a_search_is_shown_as_text(client) -> None:
    for url in ("/faq?q=<script>alert(1)</script>", "/cards/<script>alert(1)</script>"):
        html = client.get(url).get_data(as_text=True)
        assert "<script>alert(1)</script>" not in html


# --- security headers ----------------------------------------------------------------------

@pytest.mark.parametrize("method,url", [
    ("get", "/"), ("get", "/faq"), ("get", "/rulebook"), ("get", "/cards/draw_2"),
    ("get", "/api/cards"), ("get", "/api/faq?q=draw"), ("get", "/api/openapi.json"),
    ("get", "/api/no-such-endpoint"), ("get", "/no-such-page"), ("put", "/api/ruling"),
    ("post", "/api/ruling"), ("get", "/static/css/app.css"), ("get", "/ruling?state=%%%"),
])
def test_every_response_carries_the_security_headers(client, method, url) -> None:
    response = getattr(client, method)(url)
    for header, value in SECURITY.items():
        assert value in response.headers.get(header, ""), (url, header)


def test_the_ruling_answer_carries_the_security_headers(client) -> None:
    response = client.post("/api/ruling", json=TABLE)
    assert response.status_code == 200
    for header, value in SECURITY.items():
        assert value in response.headers.get(header, ""), header


# --- text no UTF-8 can hold, numbers no Python converts ------------------------------------

SURROGATE_TABLE = ('{"players": [{"name": "\\ud800", "hand": ["\\udfff"]}, '
                   '{"name": "Bo", "hand_size": 3}], "active": "Bo"}')


def surrogate_paths(response) -> list[str]:
    assert response.status_code == 400, response.get_data(as_text=True)[:300]
    return error_paths(response)


def test_a_lone_surrogate_in_the_api_is_a_400_at_its_path(client) -> None:
    response = client.post("/api/ruling", data=SURROGATE_TABLE, content_type="application/json")
    assert surrogate_paths(response) == ["/players/0/name", "/players/0/hand/0"]
    play = '{"state": ' + SURROGATE_TABLE + ', "play": {"card": "\\ud800"}}'
    response = client.post("/api/play", data=play, content_type="application/json")
    assert "/state/players/0/name" in surrogate_paths(response)
    play = '{"state": ' + json.dumps(TABLE) + ', "play": {"card": "Jack\\ud800pot"}}'
    response = client.post("/api/play", data=play, content_type="application/json")
    assert surrogate_paths(response) == ["/play/card"]


@pytest.mark.parametrize("url", ["/ruling?state=", "/?state=", "/ruling?format=json&state="])
def test_a_permalink_with_a_lone_surrogate_is_a_400(client, url) -> None:
    token = base64.urlsafe_b64encode(SURROGATE_TABLE.encode()).decode().rstrip("=")
    response = client.get(url + token)
    assert response.status_code == 400
    assert "surrogate" in response.get_data(as_text=True)


@pytest.mark.parametrize("text", [SURROGATE_TABLE,
                                  'players:\n- name: "\\ud800"\n  hand: []\nactive: Bo\n'])
def test_a_pasted_lone_surrogate_is_a_400(client, text) -> None:
    for url in ("/", "/ruling"):  # load into the editor; rule on it
        response = client.post(url, data={"csrf_token": csrf(client), "state_text": text})
        assert response.status_code == 400, url


@pytest.mark.parametrize("field,path", [
    ("players-0-hand_size", "/players/0/hand_size"), ("turn-drawn", "/turn/drawn"),
    ("draw_pile", "/draw_pile")])
def test_an_editor_number_of_thousands_of_digits_is_a_400(client, field, path) -> None:
    form = {"csrf_token": csrf(client), "players-0-name": "Ann", "players-0-hand": "Jackpot",
            "players-1-name": "Bo", "players-1-hand_size": "3", "active": "0",
            field: "9" * 5000}
    if field == "players-0-hand_size":
        form["players-0-hand"] = ""
    response = client.post("/ruling", data=form)
    assert response.status_code == 400
    assert f">{path}</code>" in response.get_data(as_text=True)


def test_a_pasted_yaml_integer_of_thousands_of_digits_is_a_400(client) -> None:
    text = "players:\n- name: Ann\n  hand_size: " + "9" * 5000 + "\n- name: Bo\nactive: Ann\n"
    response = client.post("/ruling", data={"csrf_token": csrf(client), "state_text": text})
    assert response.status_code == 400
    assert "4300" in response.get_data(as_text=True)


def test_the_cli_refuses_a_lone_surrogate_without_a_traceback(tmp_path, capsys) -> None:
    from adjudicator.cli import main

    table = tmp_path / "table.json"
    table.write_text(SURROGATE_TABLE, encoding="utf-8")
    assert main(["rule", str(table)]) == 2
    captured = capsys.readouterr()
    assert "surrogate" in captured.err and "Traceback" not in captured.err
    assert main(["play", str(table.with_name("t2.json")), "x"]) == 2  # a missing file: exit 2
    good = tmp_path / "good.json"
    good.write_text(json.dumps(TABLE), encoding="utf-8")
    assert main(["play", str(good), "Jack\udcffpot"]) == 2  # argv's undecodable bytes
    assert "surrogate" in capsys.readouterr().err


# --- amplification ---------------------------------------------------------------------------

def test_a_large_play_answers_within_the_outcome_budget_and_says_so(client) -> None:
    from adjudicator.referee.moves import MAX_OUTCOME_BYTES

    players = [{"name": f"P{i}", "hand_size": 1} for i in range(MAX_PLAYERS)]
    players[0] = {"name": "P0", "hand": ["Trade Hands"]}
    state = {"players": players, "active": "P0", "notes": ["x" * 250] * 480}  # kept as given
    body = json.dumps({"state": state, "play": {"card": "Trade Hands"}})
    assert len(body) > 100_000
    response = client.post("/api/play", data=body, content_type="application/json")
    assert response.status_code == 200
    answer = response.get_json()
    assert 1 <= len(answer["outcomes"]) < MAX_PLAYERS - 1  # one per opponent, had it fit
    assert answer["outcomes_truncated"] is True
    assert answer["outcomes_size_limit"] == MAX_OUTCOME_BYTES
    outcomes = json.dumps(answer["outcomes"], ensure_ascii=False, separators=(",", ":"))
    assert len(outcomes.encode()) <= MAX_OUTCOME_BYTES
    assert {c["key"] for c in answer["open_choices"]} == {"opponent"}  # what to decide


def test_several_plays_share_one_outcome_budget(client) -> None:
    """16 plays of a large table in one request: their outcomes share MAX_PLAYS_BYTES (a
    sixteenth each), so a request of a few hundred KB is not answered with 16 MB; each play
    cut to its share says so."""
    from adjudicator.referee.together import MAX_PLAYS_BYTES

    players = [{"name": f"P{i}", "hand_size": 1} for i in range(MAX_PLAYERS)]
    players[0] = {"name": "P0", "hand": ["Trade Hands"]}
    state = {"players": players, "active": "P0", "notes": ["x" * 250] * 480}
    response = client.post("/api/plays", json={"state": state,
                                               "plays": [{"card": "Trade Hands"}] * 16})
    assert response.status_code == 200
    answers = response.get_json()["answers"]
    share = MAX_PLAYS_BYTES // 16
    for answer in answers:
        assert answer["outcomes_truncated"] is True and answer["outcomes_size_limit"] == share
        outcomes = json.dumps(answer["outcomes"], ensure_ascii=False, separators=(",", ":"))
        assert len(outcomes.encode()) <= share or len(answer["outcomes"]) == 1
    assert len(response.get_data()) < MAX_PLAYS_BYTES + 16 * 200_000  # (rulings, open choices)


# --- the language switch's redirect: only this site's paths ----------------------------------

@pytest.mark.parametrize("target", ["/%09/evil.com", "/%0a/evil.com", "/%0d/evil.com",
                                    "/%20/evil.com", "//evil.com", "/%5C/evil.com",
                                    "https://evil.com", "/%00/evil.com", "/%7f/evil.com"])
def test_the_language_switch_follows_only_paths_of_this_site(client, target) -> None:
    response = client.get("/lang/en?next=" + target)
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


@pytest.mark.parametrize("target", ["/%0d%0aSet-Cookie:%20a=b", "/faq%0d%0a", "/%0a"])
def test_line_breaks_in_the_language_switch_are_a_safe_redirect(client, target) -> None:
    response = client.get("/lang/zh?next=" + target)
    assert response.status_code == 302 and response.headers["Location"] == "/"
    assert "a=b" not in response.headers.get("Set-Cookie", "")


def test_the_language_switch_keeps_a_path_and_its_query(client) -> None:
    response = client.get("/lang/zh", query_string={"next": "/faq?q=draw&edition=math"})
    assert response.headers["Location"] == "/faq?q=draw&edition=math"


# --- bodies that are not a table: each has its own message -----------------------------------

def test_json_sent_as_another_type_says_so(client) -> None:
    response = client.post("/api/ruling", data=json.dumps(TABLE), content_type="text/plain")
    assert response.status_code == 415
    message = response.get_json()["errors"][0]["message"]
    assert "Content-Type: application/json" in message["en"] and "text/plain" in message["en"]
    assert "not valid JSON" not in message["en"] and message["zh"]


def test_a_null_body_says_it_is_null(client) -> None:
    for path in ("/api/ruling", "/api/play"):
        response = client.post(path, data="null", content_type="application/json")
        assert response.status_code == 400
        message = response.get_json()["errors"][0]["message"]
        assert "null" in message["en"] and "not valid JSON" not in message["en"]


def test_invalid_json_is_still_called_invalid(client) -> None:
    response = client.post("/api/ruling", data="{players", content_type="application/json")
    assert response.status_code == 400
    assert "not valid JSON" in response.get_json()["errors"][0]["message"]["en"]


# --- permalinks: deflated, read back, bounded ------------------------------------------------

def test_a_bad_permalink_has_an_html_error_page(client) -> None:
    from adjudicator.web.pages.forms import encode_state

    state = {**TABLE, "players": [{"name": "Ann", "hand": ["No Such Card"]}, TABLE["players"][1]]}
    response = client.get("/ruling?state=" + encode_state(state), headers={"Accept": "text/html"})
    assert response.status_code == 400
    assert response.content_type.startswith("text/html")
    body = response.get_data(as_text=True)
    assert "No Such Card" in body and "Ann" in body and 'role="alert"' in body


def test_permalinks_are_deflated_and_older_links_still_open(client) -> None:
    from adjudicator.web.pages.forms import MAX_LINK_STATE, decode_state, encode_state

    noted = {**TABLE, "notes": "Ann drew Jackpot, then Bo asked about the rule. " * 95}
    token = encode_state(noted)
    assert len(token) < len(link(noted)) / 4 and len(link(noted)) > 4096
    assert decode_state(token) == noted and decode_state(link(noted)) == noted
    assert client.get("/ruling?format=json&state=" + token).get_json()["ok"] is True
    assert len(link(noted)) < MAX_LINK_STATE  # an older link of this size still opens
    assert client.get("/ruling?format=json&state=" + link(noted)).get_json()["ok"] is True


def test_a_deflated_link_that_inflates_beyond_a_body_is_refused(client) -> None:
    import zlib

    bomb = zlib.compress(b'{"a":"' + b"a" * 2_000_000 + b'"}', 9)[2:-4]
    token = "z" + base64.urlsafe_b64encode(bomb).decode().rstrip("=")
    response = client.get("/ruling?format=json&state=" + token)
    assert response.status_code == 413
    assert error_paths(response) == ["/state"]
    cut = "z" + base64.urlsafe_b64encode(zlib.compress(json.dumps(TABLE).encode())[2:-12]
                                         ).decode().rstrip("=")
    assert client.get("/ruling?format=json&state=" + cut).status_code == 400


@pytest.mark.parametrize("url", ["/api/faq/" + "9" * 4301, "/faq/" + "9" * 4301, "/api/faq/²"])
def test_a_faq_id_of_many_digits_is_not_found(client, url) -> None:
    assert client.get(url).status_code == 404


@pytest.mark.parametrize("play", ["null", "[]", '"x"'])
def test_a_what_if_move_that_is_not_an_object_is_a_400(client, play) -> None:
    """The message of this error quotes a JSON object: its braces are text, not placeholders."""
    token = encode_state(TABLE)
    response = client.post("/ruling/play", data={"csrf_token": csrf(client), "state": token,
                                                  "play": play})
    assert response.status_code == 400
    assert "{&#34;kind&#34;: &#34;draw&#34;}" in response.get_data(as_text=True)


@pytest.mark.parametrize("play", [{"kind": "draw", "player": {"a": 1}},
                                  {"kind": ["draw"]}, {"card": 7}, {"choices": []}])
def test_a_game_link_whose_move_is_of_the_wrong_shape_is_a_400(client, play) -> None:
    after = {**TABLE, "rules": []}
    link = encode_link({"states": [TABLE, after], "moves": [{"play": play}], "at": 1})
    for query in ({"game": link}, {"game": link, "format": "json"}):
        response = client.get("/ruling", query_string=query)
        assert response.status_code == 400, query


def test_an_editor_seat_of_thousands_of_digits_is_no_500(client) -> None:
    form = {"csrf_token": csrf(client), "players-" + "9" * 5000 + "-name": "Ann"}
    assert client.post("/ruling", data=form).status_code == 400



@pytest.mark.parametrize("url", ["/ruling", "/"])
def test_a_form_post_that_asks_for_json_gets_its_error_as_json(client, url) -> None:
    response = client.post(url, data={"csrf_token": csrf(client), "state_text": "players: ["},
                           headers={"Accept": "application/json"})
    assert response.status_code == 400 and response.is_json
    assert error_paths(response) == ["/state_text"]
