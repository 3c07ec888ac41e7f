"""Answer-set atoms as plain Python objects, read from their text.

clingo's Python API answers every property of a symbol (type, name, arguments, number) with a
call through cffi that costs one to two microseconds; rendering a ruling reads a few hundred
atoms several times over, so those calls made reading the atoms take longer than solving
them. One `str()` per atom (a single call) and this parser give the same
tree as plain objects with the same attribute names (`type`, `name`, `arguments`, `number`,
`string`), so the renderer reads them as it would read clingo symbols.

The grammar is clingo's output syntax for terms: numbers, "strings" with backslash escapes,
constants and functions `f(t1,...,tn)`, tuples `(t1,...,tn)` (a 1-tuple prints as `(t,)`),
and `#inf` / `#sup`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from clingo import Symbol, SymbolType
from clingo import __version__ as clingo_version

from ..memo import Memo

# one token: a string, a number, a name (possibly classically negated, or #inf/#sup), punctuation
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|-?\d+|#inf|#sup|-?[_\']*[a-z][A-Za-z0-9_\']*|[(),]')
_UNESCAPE = {"n": "\n", '"': '"', "\\": "\\", "t": "\t"}


class Term:
    """One term of an answer set: the attributes of clingo.Symbol, as plain Python values."""

    __slots__ = ("type", "name", "arguments", "negative", "number", "string", "_text")

    def __init__(self, type_: SymbolType, text: str | None, name: str = "",
                 arguments: tuple[Term, ...] = (), negative: bool = False, number: int = 0,
                 string: str = "") -> None:
        self.type = type_
        self.name = name
        self.arguments = arguments
        self.negative = negative  # classical negation: -f(a) has name "f"
        self.number = number
        self.string = string
        self._text = text  # None until asked for (most inner terms are never printed)

    def __str__(self) -> str:
        if self._text is None:
            inner = ",".join(str(a) for a in self.arguments)
            if not self.name:  # a tuple; a 1-tuple keeps its comma
                self._text = f"({inner},)" if len(self.arguments) == 1 else f"({inner})"
            else:
                sign = "-" if self.negative else ""
                self._text = f"{sign}{self.name}({inner})" if self.arguments else sign + self.name
        return self._text

    def __repr__(self) -> str:
        return f"Term({self})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Term) and str(other) == str(self)

    def __hash__(self) -> int:
        return hash(str(self))


class TermSyntaxError(ValueError):
    """The text is not a term in clingo's output syntax (a bug in the caller, never user input)."""


def _unescape(body: str) -> str:
    return re.sub(r"\\(.)", lambda m: _UNESCAPE.get(m.group(1), m.group(1)), body)


_FUNCTION = SymbolType.Function
_SPECIAL = {"#inf": SymbolType.Infimum, "#sup": SymbolType.Supremum}


@lru_cache(maxsize=1 << 16)
def parse(text: str) -> Term:
    """The term that `text` (clingo's printing of a symbol) denotes.

    One pass over the tokens with a stack of open functions and tuples (this runs for every
    shown atom of every ruling, so it avoids a call per token). Terms are never changed after
    parsing, so equal texts share one Term: many atoms (sources, rules in force) recur from one
    ruling to the next."""
    tokens = _TOKEN.findall(text)
    if "".join(tokens) != text:
        raise TermSyntaxError(f"not a term: {text!r}")
    stack: list[tuple[str, list[Term]]] = [("", [])]
    i, n = 0, len(tokens)
    while i < n:
        token = tokens[i]
        i += 1
        first = token[0]
        if first == ",":
            continue
        if first == "(":  # a tuple
            stack.append(("", []))
            continue
        if first == ")":
            if len(stack) < 2:
                raise TermSyntaxError(f"unbalanced ')' in {text!r}")
            name, args = stack.pop()
            negative = name.startswith("-")
            term = Term(_FUNCTION, None, name.lstrip("-"), tuple(args), negative)
        elif first == '"':
            term = Term(SymbolType.String, token, string=_unescape(token[1:-1]))
        elif first.isdigit() or (first == "-" and token[1:2].isdigit()):
            term = Term(SymbolType.Number, token, number=int(token))
        elif first == "#":
            term = Term(_SPECIAL[token], token)
        elif i < n and tokens[i] == "(":  # a function with arguments
            i += 1
            stack.append((token, []))
            continue
        else:
            term = Term(_FUNCTION, token, token.lstrip("-"), (), first == "-")
        stack[-1][1].append(term)
    if len(stack) != 1 or len(stack[0][1]) != 1:
        raise TermSyntaxError(f"not one term: {text!r}")
    top = stack[0][1][0]
    top._text = text
    return top


# The text of each symbol met so far, by clingo's handle of it. clingo 5 interns every symbol in
# a global table and never frees one (a known clingo limitation: a symbol, once made, stays in
# that table until the process ends), so a handle stands for one symbol for the life of the
# process. Asking clingo for a symbol's text is two calls that each release the GIL: under load,
# with other threads running Python, each waits to take it back (bench/grounding_floor.py, part
# 4); most atoms recur from one ruling to the next, and a handle looked up here costs no call at
# all. Any other clingo (or a symbol without the handle) is asked every time.
_TEXTS: Memo[int, str] = Memo(1 << 16)
INTERNED = clingo_version.startswith("5.")


def handle(symbol: Any) -> int | None:
    """clingo's handle of `symbol` (a plain int is taken for one), or None where there is none
    to go by: another clingo than 5 (symbols not interned), a Term."""
    if not INTERNED:
        return None
    rep = symbol if type(symbol) is int else getattr(symbol, "_rep", None)
    return rep if isinstance(rep, int) else None


def handles(sequence: Sequence[Any]) -> list[Any]:
    """The atoms of a model's `symbols()` as clingo's handles (plain ints: no Symbol object made
    per atom), or as the symbols where the handles are not to be had (see symbol_text)."""
    raw = getattr(sequence, "_p_symbols", None) if INTERNED else None
    return list(raw) if raw is not None else list(sequence)


def symbol_text(symbol: Symbol | int) -> str:
    """`str(symbol)`, remembered by the symbol's handle (see _TEXTS); a plain int is taken
    for a handle (`handles`)."""
    rep = handle(symbol)
    text = _TEXTS.get(rep) if rep is not None else None
    if text is None:  # a Symbol object made only for an atom not met before
        text = str(Symbol(symbol) if type(symbol) is int else symbol)
        if rep is not None:
            _TEXTS.keep(rep, text)
    return text


def read_atoms(symbols: Iterable[Symbol | Term | int]) -> list[Term]:
    """An answer set's atoms as Terms (at most one call into clingo per atom never met before:
    symbol_text; Terms pass as they are; a plain int is taken for a handle)."""
    return [s if isinstance(s, Term) else parse(symbol_text(s)) for s in symbols]
