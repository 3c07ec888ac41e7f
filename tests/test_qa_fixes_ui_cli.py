"""QA's four reproduced bugs in the pages, the search and the CLI, each pinned by its outcome.

1. `/ruling` without a state: the redirect to the editor keeps `?lang=`; its JSON twin answers
   the contract's error shape (400, naming `/state`) instead of an HTML redirect.
2. The CLI, its output piped into a reader that is already gone: no traceback, a quiet exit.
3. `/api/search?edition=` (and `/faq`'s search form): no card or FAQ entry of another edition.
4. The CLI `faq` refuses a query longer than the API's limit, with exit 2, in both languages.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from adjudicator.cli import EXIT_BROKEN_PIPE, main
from adjudicator.knowledge.search import MAX_QUERY

ROOT = Path(__file__).resolve().parents[1]


# --- 1. /ruling without a state ------------------------------------------------------------------

def test_ruling_without_a_state_keeps_the_language_on_its_way_to_the_editor(app, client):
    response = client.get("/ruling?lang=zh")
    assert response.status_code == 302
    location = urlsplit(response.headers["Location"])
    assert location.path == "/" and parse_qs(location.query) == {"lang": ["zh"]}
    # the link alone makes the editor Chinese: a fresh client carries no language cookie
    page = app.test_client().get(response.headers["Location"]).get_data(as_text=True)
    assert '<html lang="zh-Hans">' in page


def test_ruling_without_a_state_drops_an_unknown_language(client):
    response = client.get("/ruling?lang=xx")
    assert response.status_code == 302 and urlsplit(response.headers["Location"]).query == ""


@pytest.mark.parametrize("how", [{"query_string": {"format": "json", "lang": "zh"}},
                                 {"headers": {"Accept": "application/json"}},
                                 {"query_string": {"format": "json", "state": ""}}])
def test_ruling_json_twin_without_a_state_is_a_400_naming_the_state(client, how):
    response = client.get("/ruling", **how)
    assert response.status_code == 400 and response.is_json
    body = response.get_json()
    assert body["ok"] is False
    (item,) = body["errors"]
    assert item["path"] == "/state"
    assert "state" in item["message"]["en"] and "牌局" in item["message"]["zh"]


# --- 2. a pipe closed early ----------------------------------------------------------------------

STATE_YAML = """\
players:
  - {name: Ann, hand: [Draw 2, Jackpot!]}
  - {name: Bo, hand_size: 3, keepers: [Love]}
active: Ann
rules: [Draw 3]
"""


def _run_into_closed_pipe(args: list[str], stdin: str = "") -> subprocess.CompletedProcess:
    """The CLI with its stdout a pipe whose reader has already gone (`| head` that is done)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [sys.executable, "-m", "adjudicator.cli", *args], stdout=write_end,
            stderr=subprocess.PIPE, input=stdin.encode(), cwd=ROOT, timeout=120,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
    finally:
        os.close(write_end)


@pytest.mark.parametrize("args, stdin", [(["faq", "draw"], ""),
                                         (["faq", "draw", "--json"], ""),
                                         (["rule", "-"], STATE_YAML),
                                         (["rule", "-", "--json"], STATE_YAML)])
def test_the_cli_ends_quietly_when_its_reader_is_gone(store_path, args, stdin):
    done = _run_into_closed_pipe(args, stdin)
    assert done.stderr.decode() == ""  # no traceback, no "Exception ignored" either
    assert done.returncode == EXIT_BROKEN_PIPE


def test_the_cli_output_is_whole_when_read(store_path):
    """The guard changes nothing for a reader that stays."""
    done = subprocess.run([sys.executable, "-m", "adjudicator.cli", "rule", "-", "--json"],
                          input=STATE_YAML.encode(), capture_output=True, cwd=ROOT, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(done.stdout)["turn"]["player"] == "Ann"


# --- 3. the edition filter of the search ---------------------------------------------------------

def _search(client, **params) -> list[dict]:
    response = client.get("/api/search", query_string={"limit": 100, **params})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()["results"]


def _faq_editions(knowledge_db) -> dict[str, list[str]]:
    return {row["id"]: json.loads(row["editions"] or "[]")
            for row in knowledge_db.query("select id, editions from faq")}


def test_a_card_named_in_another_edition_stays_out(client):
    # "love" is a card id of the rulebook deck: it used to come back first in Math Fluxx
    results = _search(client, q="love", edition="math")
    assert [r["id"] for r in results if r["kind"] == "card"] == []
    assert "card:love" in [r["id"] for r in _search(client, q="love", edition="fluxx")]


@pytest.mark.parametrize("q", ["Two", "draw 2", "love", "抓2张牌", "Combine Digits", "004-q5",
                               "keeper limit"])
@pytest.mark.parametrize("edition", ["fluxx", "math", "creepers"])
def test_search_by_edition_keeps_only_that_editions_cards_and_faq(client, knowledge_db, q,
                                                                  edition):
    game = {"creepers": "fluxx"}.get(edition, edition)  # an expansion's game is the base deck
    placed = _faq_editions(knowledge_db)
    for hit in _search(client, q=q, edition=edition):
        if hit["kind"] == "card":
            assert hit["edition"] == edition, hit
            assert hit["other_editions"] == [], hit  # a group never mixes in other printings
        elif hit["kind"] == "faq":
            editions = placed[hit["ref"]]
            assert not editions or edition in editions or game in editions, hit


def test_edition_keeps_the_math_faq_out_of_the_rulebook_deck_and_in_math(client):
    fluxx = [r["id"] for r in _search(client, q="Two", edition="fluxx")]
    assert not [i for i in fluxx if i.startswith("faq:004-")]
    assert any(i.startswith("rulebook:") for i in fluxx)  # the rulebook is every edition's
    math = [r["id"] for r in _search(client, q="Two", edition="math")]
    assert {"card:math/two", "faq:004-q5", "faq:004-q4"} <= set(math)
    assert not [r for r in _search(client, q="004-q5", edition="fluxx") if r["kind"] == "faq"]


def test_search_and_faq_endpoints_agree_on_an_edition(client):
    for edition in ("fluxx", "math", "creepers"):
        searched = {r["ref"] for r in _search(client, q="draw", kinds="faq", edition=edition)}
        listed = client.get("/api/faq", query_string={"q": "draw", "edition": edition,
                                                      "limit": 100}).get_json()["results"]
        assert searched and searched == {e["id"] for e in listed}, edition


def test_the_faq_page_search_honours_its_filters(client):
    fluxx = client.get("/faq", query_string={"q": "Two", "edition": "fluxx"}).get_data(
        as_text=True)
    assert "/faq/004-q5" not in fluxx and "/faq/002-73" in fluxx
    math = client.get("/faq", query_string={"q": "Two", "edition": "math"}).get_data(as_text=True)
    assert "/faq/004-q5" in math and "/faq/002-73" not in math
    card = client.get("/faq", query_string={"q": "Two", "card": "double_agenda"}).get_data(
        as_text=True)
    assert "/faq/002-34" in card and "/faq/004-q5" not in card


def test_the_openapi_description_says_what_the_search_edition_keeps(client):
    spec = client.get("/api/openapi.json").get_json()
    (param,) = [p for p in spec["paths"]["/api/search"]["get"]["parameters"]
                if p["name"] == "edition"]
    assert "FAQ" in param["description"] and "rulebook" in param["description"]


# --- 4. the CLI's query limit --------------------------------------------------------------------

def test_the_cli_refuses_an_overlong_query_like_the_api(client, capsys):
    long = "draw " * 200  # 1000 characters
    assert client.get("/api/search", query_string={"q": long}).status_code == 400
    assert main(["faq", long]) == 2
    captured = capsys.readouterr()
    assert "No matches" not in captured.out
    assert f"longer than {MAX_QUERY} characters" in captured.err and "/query" in captured.err
    assert main(["faq", long, "--lang", "zh"]) == 2
    assert f"查询超过 {MAX_QUERY} 个字符" in capsys.readouterr().err
    assert main(["faq", long, "--json"]) == 2
    body = json.loads(capsys.readouterr().out)
    assert body["ok"] is False and body["errors"][0]["path"] == "/query"
    assert set(body["errors"][0]["message"]) == {"en", "zh"}


def test_the_cli_accepts_a_query_at_the_limit(capsys):
    at_limit = ("draw " * MAX_QUERY)[:MAX_QUERY]
    assert main(["faq", at_limit, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
