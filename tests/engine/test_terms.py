"""adjudicator.engine.terms reads clingo's printing of a symbol back into the same tree: every
attribute the renderer uses (type, name, arguments, number, string, negative, text) agrees with
clingo's own symbol, for random terms and for every atom of real rulings."""

from __future__ import annotations

import clingo
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine import solve, terms
from adjudicator.engine.facts import state_facts
from adjudicator.engine.terms import Term, TermSyntaxError, parse, read_atoms, symbol_text
from adjudicator.table.reader import parse_state

names = st.from_regex(r"_*[a-z][A-Za-z0-9_']{0,6}", fullmatch=True)
numbers = st.integers(min_value=-(2**31), max_value=2**31 - 1).map(clingo.Number)
strings = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)),
                  max_size=12).map(clingo.String)
leaves = numbers | strings | names.map(lambda n: clingo.Function(n)) | st.sampled_from(
    [clingo.Infimum, clingo.Supremum])
symbols = st.recursive(
    leaves,
    lambda inner: st.builds(lambda n, a, pos: clingo.Function(n, a, pos), names,
                            st.lists(inner, min_size=1, max_size=4), st.booleans())
    | st.lists(inner, max_size=4).map(clingo.Tuple_),
    max_leaves=12)


def same(term: Term, sym: clingo.Symbol) -> None:
    assert str(term) == str(sym)
    assert term.type == sym.type
    if sym.type == clingo.SymbolType.Number:
        assert term.number == sym.number
    elif sym.type == clingo.SymbolType.String:
        assert term.string == sym.string
    elif sym.type == clingo.SymbolType.Function:
        assert term.name == sym.name
        assert term.negative == sym.negative
        assert len(term.arguments) == len(sym.arguments)
        for t, s in zip(term.arguments, sym.arguments, strict=True):
            same(t, s)


@settings(max_examples=300, deadline=None)
@given(symbols)
@pytest.mark.slow
def test_parse_agrees_with_clingo(sym: clingo.Symbol) -> None:
    same(parse(str(sym)), sym)


CROWDED = {  # strings, tuples, numbers, p(S), card(C) sources: most shapes the rulings show
    "edition": "fluxx", "expansions": ["creepers", "surprises"],
    "players": [
        {"name": 'Ann "the <b>"', "hand": ["veto", "draw_3", "?"], "keepers": ["money", "peace"],
         "creepers": ["taxes", "war"]},
        {"name": "Bo\\", "hand": ["thats_mine", "inflation"], "keepers": ["love", "moon"]},
        {"name": "Cy", "hand_size": 4, "keepers": ["dreams", "sleep", "time"]},
    ],
    "active": 'Ann "the <b>"', "rules": ["draw_2", "play_3", "hand_limit_1", "double_agenda"],
    "goals": ["10_cards_in_hand", "hippyism"],
    "turn": {"hand_at_start": 3, "drawn": 1, "played": 1},
}


def test_every_atom_of_a_ruling_reads_back() -> None:
    symbols = solve.solve(state_facts(parse_state(CROWDED))).symbols
    assert symbols
    for term, sym in zip(read_atoms(symbols), symbols, strict=True):
        same(term, sym)


@settings(max_examples=300, deadline=None)
@given(symbols)
@pytest.mark.slow
def test_a_symbol_text_remembered_by_its_handle_is_its_text(sym: clingo.Symbol) -> None:
    # asked twice (the second time from what was remembered), and for an equal symbol made anew
    assert symbol_text(sym) == symbol_text(sym) == str(sym)
    assert symbol_text(clingo.parse_term(str(sym))) == str(sym)


def test_every_atom_of_two_rulings_reads_back_from_remembered_texts() -> None:
    # the second ruling's atoms are new Symbol objects of new Controls: the handles are the same
    first = solve.solve(state_facts(parse_state(CROWDED))).symbols
    second = solve.solve(state_facts(parse_state(CROWDED))).symbols
    assert terms.INTERNED and all(a._rep == b._rep for a, b in zip(first, second, strict=True))
    assert [symbol_text(s) for s in second] == [str(s) for s in first]


def test_equal_terms_hash_alike() -> None:
    assert parse("f(1,(a,))") == parse("f(1,(a,))")
    assert len({parse("p(0)"), parse("p(0)"), parse("p(1)")}) == 2


@pytest.mark.parametrize("text", ["f(", "f(a))", ")", "f(a) g", ""])
def test_malformed_text_is_refused(text: str) -> None:
    with pytest.raises(TermSyntaxError):
        parse(text)
