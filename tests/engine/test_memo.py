"""The bounded memo behind the engine's per-process caches (adjudicator/memo.py) and clingo's
symbol handles (terms.handle)."""

from __future__ import annotations

import clingo

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
