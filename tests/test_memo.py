"""The bounded memo behind the engine's per-process caches (adjudicator/memo.py) and clingo's
symbol handles (terms.handle)."""

from __future__ import annotations

import clingo

from adjudicator import terms
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
