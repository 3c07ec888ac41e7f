"""The bounded memo behind the engine's per-process caches (adjudicator/memo.py) and clingo's
symbol handles (terms.handle)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import clingo
import pytest

from adjudicator.engine import terms
from adjudicator.memo import Memo


def test_a_full_memo_starts_afresh() -> None:
    memo: Memo[str, int] = Memo(3)
    assert [memo.keep(k, v) for k, v in (("a", 1), ("b", 2), ("c", 3))] == [1, 2, 3]
    assert dict(memo) == {"a": 1, "b": 2, "c": 3}
    memo.keep("d", 4)  # a fourth would pass the limit: the three go first
    assert dict(memo) == {"d": 4}
    memo.keep("d", 5)
    assert memo["d"] == 5 and len(memo) == 1


def test_handles_of_symbols_ints_and_terms() -> None:
    symbol = clingo.Function("p", [clingo.Number(1)])
    if terms.INTERNED:
        assert terms.handle(symbol) == symbol._rep == terms.handle(clingo.parse_term("p(1)"))
        assert terms.handle(7) == 7
    else:
        assert terms.handle(symbol) is None and terms.handle(7) is None
    assert terms.handle(terms.parse("p(1)")) is None  # a Term has no handle
    assert terms.symbol_text(symbol) == "p(1)" == terms.symbol_text(symbol)


def _discarding_table(names: tuple[str, str]) -> dict:
    # Hand Limit 0 with cards in the second player's hand: a finding that names that player
    return {"players": [{"name": names[0], "hand_size": 2},
                        {"name": names[1], "hand": ["Jackpot", "Draw 2"]}],
            "active": names[0], "rules": ["Hand Limit 0"]}


def test_finding_texts_are_kept_per_game_and_players(monkeypatch) -> None:
    """The renderer (referee/render.py) keeps the finding texts it rendered (by game, players'
    names, key and arguments): a ruling with other names renders them anew, and a ruling's texts
    are its own to change."""
    from adjudicator.referee import render
    from adjudicator.referee.ruling import ruling_for
    from adjudicator.table.reader import parse_state

    monkeypatch.setattr(render, "_FINDING_TEXTS", Memo(1 << 10))
    first = ruling_for(parse_state(_discarding_table(("Ann", "Bo"))))
    texts = [f["text"]["en"] for f in first["findings"]]
    assert any("Bo" in t for t in texts)
    assert len(render._FINDING_TEXTS) > 0
    other = ruling_for(parse_state(_discarding_table(("Cy", "Di"))))
    other_texts = [f["text"]["en"] for f in other["findings"]]
    assert any("Di" in t for t in other_texts) and not any("Bo" in t for t in other_texts)
    for finding in first["findings"]:
        finding["text"]["en"] = "changed by the caller"
    again = ruling_for(parse_state(_discarding_table(("Ann", "Bo"))))
    assert [f["text"]["en"] for f in again["findings"]] == texts
    monkeypatch.setattr(render, "_FINDING_TEXTS", Memo(1 << 10))  # rendered afresh: alike
    fresh = ruling_for(parse_state(_discarding_table(("Ann", "Bo"))))
    assert fresh["findings"] == again["findings"] and fresh["not_yet"] == again["not_yet"]


def test_memos_off_store_nothing(monkeypatch) -> None:
    monkeypatch.setenv("FLUXX_MEMO", "0")
    off: Memo[str, int] = Memo(3)
    assert off.keep("a", 1) == 1 and dict(off) == {}
    kept: Memo[str, int] = Memo(3, switchable=False)  # relevance's answers: FLUXX_PRUNE's
    assert kept.keep("a", 1) == 1 and dict(kept) == {"a": 1}


@pytest.mark.slow
def test_a_ruling_with_memos_off_is_the_same_ruling() -> None:
    """FLUXX_MEMO=0 changes nothing but the time: the same table ruled in a process without
    memos, twice (the second time where a memo would have been used), gives this process's
    ruling."""
    from adjudicator.referee.ruling import ruling_for
    from adjudicator.table.reader import parse_state

    table = _discarding_table(("Ann", "Bo"))
    code = ("import json, sys\nfrom adjudicator.referee.ruling import ruling_for\n"
            "from adjudicator.table.reader import parse_state\n"
            "from adjudicator.referee import render\n"
            "t = json.loads(sys.argv[1])\nruling_for(parse_state(t))\n"
            "r = ruling_for(parse_state(t))\nassert not render._FINDING_TEXTS\n"
            "r.pop('engine', None)\nprint(json.dumps(r, sort_keys=True))\n")
    done = subprocess.run([sys.executable, "-c", code, json.dumps(table)], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "FLUXX_MEMO": "0"},
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    here = ruling_for(parse_state(table))
    here.pop("engine", None)
    assert json.loads(done.stdout) == json.loads(json.dumps(here, sort_keys=True))
