"""No table can harm another's ruling: hostile tables in the same batch as innocent ones.

A client's table never reaches the rules program as text (engine/facts.py writes seats, not
names); a batch that fails for whatever reason is ruled again table by table; a table that runs
past the time limit costs its own request alone (batch.SLOT_SHARE, batch.MAX_BATCH_FACTS). Every
innocent answer given beside a hostile table must be the very answer it gets alone.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.cards.catalog import catalog_for
from adjudicator.engine import solve
from adjudicator.engine.facts import catalog_text, table_facts
from adjudicator.engine.speed import batch
from adjudicator.table.reader import parse_state

INNOCENT: list[dict[str, Any]] = [
    {"players": [{"name": "Ann", "hand": ["Draw 2", "Jackpot"], "keepers": ["Peace"]},
                 {"name": "Bo", "hand_size": 3}], "active": "Ann", "rules": ["Draw 3"],
     "goals": ["Hippyism"]},
    {"players": [{"name": "Cy", "hand": ["Taxation"]}, {"name": "Di", "hand_size": 5},
                 {"name": "Ed", "hand_size": 1}], "active": "Di", "rules": ["Play 2"]},
    {"players": [{"name": "Fay", "hand": []}, {"name": "Gus", "hand_size": 2}],
     "active": "Fay", "rules": ["Hand Limit 2", "Inflation"], "turn": {"drawn": 1}},
    {"players": [{"name": "Hal", "hand": ["Trade Hands", "Rotate Hands"]},
                 {"name": "Ivy", "hand_size": 4}], "active": "Hal",
     "rules": ["No-Hand Bonus", "Draw 4"]},
]
# characters Python's str.splitlines() breaks a line at and clingo does not, and other text
# that means something to clingo
SEPARATORS = ["\r", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"]
CLINGO_SYNTAX = ['x).', ":- a.", "#show p/1.", "% c", '"', "\\", 'Bo"). x(', "a :- not a."]


def canonical(body: Any) -> bytes:
    """A ruling's JSON without the engine's statistics (they vary from run to run)."""
    if isinstance(body, dict) and "engine" in body:
        body = {k: v for k, v in body.items() if k != "engine"}
    return orjson.dumps(body, option=orjson.OPT_SORT_KEYS)


def with_name(table: dict[str, Any], name: str) -> dict[str, Any]:
    players = [dict(p) for p in table["players"]]
    players[-1]["name"] = name
    return {**table, "players": players}


@pytest.fixture
def combiner(monkeypatch) -> batch._Combiner:
    """A fresh combiner in place of the process's (`hold` holds it)."""
    fresh = batch._Combiner()
    monkeypatch.setattr(batch, "_COMBINER", fresh)
    monkeypatch.setattr(batch, "LINGER", 0.0)
    batch.tagged_program("fluxx", ())  # built (a server builds it in the background: _ready)
    return fresh


def hold(combiner: batch._Combiner) -> None:
    """As if a grounding were under way: every caller queues until `release_when_queued`."""
    with combiner._cv:
        combiner._running = batch.MAX_RUNNING


def release_when_queued(combiner: batch._Combiner, count: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        with combiner._cv:
            if len(combiner._queue) >= count:
                combiner._running = batch.MAX_RUNNING - 1  # one grounding free: one batch
                combiner._cv.notify_all()
                return
        assert time.monotonic() < deadline, "the callers never queued"
        time.sleep(0.001)


def post_together(client, combiner, bodies: list[str], queued: int) -> list[tuple[int, Any]]:
    """POSTs every body to /api/ruling at once, the ones that read queued into one batch."""
    answers: list[Any] = [None] * len(bodies)
    hold(combiner)

    def post(k: int) -> None:
        response = client.post("/api/ruling", data=bodies[k], content_type="application/json")
        answers[k] = (response.status_code, response.get_json())

    threads = [threading.Thread(target=post, args=(k,)) for k in range(len(bodies))]
    for t in threads:
        t.start()
    release_when_queued(combiner, queued)
    for t in threads:
        t.join(timeout=120)
    assert all(a is not None for a in answers)
    return answers


# --- names never reach the program --------------------------------------------------------------

def test_no_name_is_written_into_the_facts() -> None:
    game = catalog_for("fluxx", ())
    plain = table_facts(parse_state(INNOCENT[0]), game)
    for name in CLINGO_SYNTAX:
        facts = table_facts(parse_state(with_name(INNOCENT[0], name)), game)
        assert facts == plain  # players are seats: a name changes nothing in the program


def test_a_batch_whose_facts_do_not_parse_is_ruled_table_by_table() -> None:
    """One table's text that clingo cannot parse: the batch is ruled again table by table,
    and only that table fails. A line separator inside a fact is no line break: the facts are
    split at "\\n" alone, as clingo and relevance.py read them."""
    game = catalog_for("fluxx", ())
    innocent = [table_facts(parse_state(t), game) for t in INNOCENT]
    common = catalog_text(game)
    spliced = innocent[0] + 'unread_name(1,"Bo\u2028x.").\n'  # what facts.py once wrote
    assert batch.solve_batch([innocent[1], spliced], "fluxx", (), common) is not None
    broken = innocent[0] + 'unread_name(1,"Bo).\n'  # an unclosed string
    assert batch.solve_batch([innocent[1], broken], "fluxx", (), common) is None
    jobs = [batch._Job(f, ("fluxx", ()), common) for f in [*innocent, broken]]
    batch._run(jobs)
    results: list[Any] = []
    for job in jobs:
        try:
            results.append(batch._settle(job))
        except Exception as exc:  # the broken table's own failure
            results.append(exc)
    for facts, got in zip(innocent, results[:-1], strict=True):
        want = solve.solve(facts, extra=[common], edition="fluxx")
        assert {str(s) for s in got.symbols} == {str(s) for s in want.symbols}
    assert isinstance(results[-1], RuntimeError)


def test_hostile_names_beside_innocent_tables_in_one_batch(client, combiner) -> None:
    hostile = [with_name(INNOCENT[k % len(INNOCENT)], f"Bo{sep}x.")
               for k, sep in enumerate(SEPARATORS)]
    allowed = [with_name(INNOCENT[k % len(INNOCENT)], text)
               for k, text in enumerate(CLINGO_SYNTAX[:4])]
    alone = []
    for table in INNOCENT + allowed:
        response = client.post("/api/ruling", json=table)
        assert response.status_code == 200
        alone.append(canonical(response.get_json()))
    bodies = [json.dumps(t) for t in INNOCENT + allowed + hostile]
    answers = post_together(client, combiner, bodies, queued=len(INNOCENT) + len(allowed))
    # every innocent table, and every name in clingo's syntax (a name like any other), gets
    # its answer alone, byte for byte
    for k, want in enumerate(alone):
        status, body = answers[k]
        assert status == 200 and body["ok"] and canonical(body) == want
        assert body["engine"].get("batch") == len(alone)  # they were ruled in one batch
    for table, (status, body) in zip(hostile, answers[len(INNOCENT) + len(allowed):],
                                     strict=True):
        assert status == 400  # a line separator is no part of a name (table/names.py)
        last = len(table["players"]) - 1
        assert [e["path"] for e in body["errors"]] == [f"/players/{last}/name"]


# --- the time limit: a slow table costs its own request alone ------------------------------------

def test_a_table_over_the_time_limit_holds_no_other_request(monkeypatch, combiner) -> None:
    """One table of a batch needs far more than the time limit (a stand-in that sleeps until
    its deadline); the others get their own answers within the slot's share of the limit, the
    slow one its time-limit error, and a caller that comes meanwhile is not held behind it."""
    limit = 2.0
    monkeypatch.setenv(solve.TIME_LIMIT_ENV, str(limit))
    game = catalog_for("fluxx", ())
    common = catalog_text(game)
    innocent = [table_facts(parse_state(t), game) for t in INNOCENT]
    slow = innocent[0] + "hand_at_start(7).\n"  # a table of its own: never met as another
    real_batch, real_solve = batch.solve_batch, solve.solve

    def stand_in(limit_s):
        time.sleep(limit if limit_s is None else limit_s)
        raise solve.TimeLimitError(limit if limit_s is None else limit_s)

    def solve_batch(facts, *args, limit_s=None, **kwargs):
        if slow in facts:
            stand_in(limit_s)
        return real_batch(facts, *args, limit_s=limit_s, **kwargs)

    def lone(facts, *args, limit_s=None, **kwargs):
        if facts == slow:
            stand_in(limit_s)
        return real_solve(facts, *args, limit_s=limit_s, **kwargs)

    monkeypatch.setattr(batch, "solve_batch", solve_batch)
    monkeypatch.setattr(solve, "solve", lone)
    want = [{str(s) for s in real_solve(f, extra=[common], edition="fluxx").symbols}
            for f in innocent]
    done: dict[int, tuple[float, Any]] = {}

    def ask(k: int, facts: str) -> None:
        try:
            got: Any = batch.solve(facts, "fluxx", (), common)
        except solve.TimeLimitError as exc:
            got = exc
        done[k] = (time.monotonic(), got)

    threads = [threading.Thread(target=ask, args=(k, f))
               for k, f in enumerate([*innocent[1:], slow])]
    hold(combiner)
    for t in threads:
        t.start()
    release_when_queued(combiner, len(threads))
    started = time.monotonic()
    late = threading.Thread(target=ask, args=(99, innocent[0]))
    time.sleep(limit * batch.SLOT_SHARE + 0.3)  # the batch has failed; the slow table retries
    late.start()
    for t in [*threads, late]:
        t.join(timeout=30)
    share = limit * batch.SLOT_SHARE
    for k in range(len(innocent) - 1):
        at, got = done[k]
        assert {str(s) for s in got.symbols} == want[k + 1]
        assert at - started < share + 1.0  # not held while the slow table is ruled again
    at, got = done[99]  # a caller that came while the slow table was being ruled again
    assert {str(s) for s in got.symbols} == want[0] and at - started < limit
    at, got = done[len(innocent) - 1]
    assert isinstance(got, solve.TimeLimitError) and got.limit_s == limit
    assert at - started < share + limit + 1.0  # the share, then its own limit: not 1 + 5 x 2 s


def test_a_table_too_large_to_share_is_ruled_alone_at_once(monkeypatch) -> None:
    combined: list[str] = []
    monkeypatch.setattr(batch._COMBINER, "solve", lambda *args: combined.append("combined"))
    # (copies of one card in a sub-hand are one fact: distinct cards make the facts long)
    frames = [{"player": "Ann", "card": "Draw 2 and Use 'Em", "plays_left": 2,
               "cards": ["Jackpot", "Draw 2", "Taxation", "Trade Hands", "Milk", "Moon",
                         "Sun", "Bread", "Toast", "Love", "Peace", "Time"]}
              for _ in range(120)]
    state = parse_state({**INNOCENT[0], "sub_hands": frames})
    game = catalog_for("fluxx", ())
    facts = table_facts(state, game)
    assert facts.count("\n") > batch.MAX_BATCH_FACTS
    solution = batch.solve(facts, "fluxx", (), catalog_text(game))
    assert solution.models == 1 and not combined


# --- fuzz ---------------------------------------------------------------------------------------

HOSTILE_TEXT = st.lists(st.one_of(
    st.sampled_from(SEPARATORS + CLINGO_SYNTAX + ["\ud800", "\udfff", "\u200b", "\ufeff",
                                                  "\x00", "\n", "e\u0301", "\u00e9"]),
    st.text(max_size=4)), min_size=1, max_size=6).map("".join)


@pytest.mark.slow
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(names=st.lists(HOSTILE_TEXT, min_size=1, max_size=3),
       cards=st.lists(HOSTILE_TEXT, min_size=0, max_size=2))
def test_fuzzed_hostile_names_and_cards_change_no_innocent_answer(client, names, cards) -> None:
    alone = _alone_answers(client)
    hostile = [with_name(INNOCENT[k % len(INNOCENT)], name) for k, name in enumerate(names)]
    hostile += [{**INNOCENT[k % len(INNOCENT)], "rules": ["Draw 3", card]}
                for k, card in enumerate(cards)]
    # ensure_ascii: a lone surrogate goes out as its \ud800 escape, as a hostile client sends it
    bodies = [json.dumps(t) for t in INNOCENT] + [json.dumps(t, ensure_ascii=True)
                                                   for t in hostile]
    answers: list[Any] = [None] * len(bodies)

    def post(k: int) -> None:
        response = client.post("/api/ruling", data=bodies[k], content_type="application/json")
        answers[k] = (response.status_code, response.get_json())

    barrier = threading.Barrier(len(bodies))

    def together(k: int) -> None:
        barrier.wait()
        post(k)

    threads = [threading.Thread(target=together, args=(k,)) for k in range(len(bodies))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    for k, (status, body) in enumerate(answers):
        assert status < 500, (bodies[k], body)
        assert body is not None
    for k, want in enumerate(alone):
        assert answers[k][0] == 200 and canonical(answers[k][1]) == want
    for k, table in enumerate(hostile):  # a table that reads gets its own answer alone
        status, body = answers[len(INNOCENT) + k]
        if status == 200:
            assert canonical(body) == canonical(client.post("/api/ruling",
                                                            json=table).get_json())


_ALONE: list[bytes] = []


def _alone_answers(client) -> list[bytes]:
    if not _ALONE:
        for table in INNOCENT:
            response = client.post("/api/ruling", json=table)
            assert response.status_code == 200
            _ALONE.append(canonical(response.get_json()))
    return _ALONE
