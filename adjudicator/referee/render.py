"""The shared renderer of an answer set's findings and citations: the ruling (referee/ruling.py)
and the outcomes of a move (referee/moves.py) lay out their atoms with it.

`Atoms` groups the shown atoms of one answer set; `Context` turns their terms into the contract's
values (players' names, card ids, display text in English and Chinese) and their sources into
{id, kind, url}; `findings_of` and `cites_of` read the finding/3 and cites/3 atoms.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

import clingo

from ..cards.catalog import Catalog
from ..engine.terms import Term
from ..memo import Memo
from ..messages import LANGS, finding_text, terms
from ..table.state import TableState
from .source_scope import scope_of

# A term of a shown atom: a Term (rulings read their atoms with terms.read_atoms: one call into
# clingo per atom) or clingo's own Symbol (plays.py): both have the same attributes.
Atom = Term | clingo.Symbol
_TERM_TYPES = (Term, clingo.Symbol)

# Findings are listed by concern in this order; unknown concerns follow, alphabetically.
ABOUT_ORDER = ("input", "winner", "goals", "pending", "surprises", "creepers", "rules", "draw",
               "play", "limits", "discards", "turn_order", "legal_moves")
@dataclass
class Atoms:
    """The shown atoms of one answer set, grouped by predicate name and arity, in a stable order
    (the order of their text)."""

    by_sig: dict[tuple[str, int], list[list[Atom]]] = field(default_factory=dict)

    @classmethod
    def of(cls, symbols: Iterable[Atom]) -> Atoms:
        grouped: dict[tuple[str, int], list[tuple[str, list[Atom]]]] = defaultdict(list)
        for s in symbols:
            arguments = s.arguments
            grouped[(s.name, len(arguments))].append((str(s), arguments))
        for items in grouped.values():
            items.sort(key=itemgetter(0))
        return cls({sig: [a for _, a in items] for sig, items in grouped.items()})

    def args(self, name: str, arity: int) -> list[list[Atom]]:
        return self.by_sig.get((name, arity), [])

    def one(self, name: str) -> Atom | None:
        found = self.args(name, 1)
        return found[0][0] if found else None


# Finding texts rendered so far, by game, players' names, message key and arguments' text
_FINDING_TEXTS: Memo[tuple[Any, ...], dict[str, str]] = Memo(1 << 14)


class Context:
    """What rendering needs: the players, the catalog, and the two languages."""

    def __init__(self, state: TableState, catalog: Catalog, newcomer: str | None = None) -> None:
        self.state, self.catalog = state, catalog
        # the name a join move seats (the rules call them `newcomer` before they have a seat)
        self.newcomer = newcomer
        self.names = [p.name for p in state.players]
        # every name a finding may render: the seats, the newcomer, the former players
        former = (state.extra.get("phase") or {}).get("former_players") or []
        self.names_key = (tuple(self.names), newcomer, tuple(f["player"] for f in former))
        self.terms = terms()
        self._sources: dict[str, dict[str, str] | None] = {}

    # -- values -----------------------------------------------------------------------------
    def player(self, sym: Atom) -> str | None:
        if sym.type == clingo.SymbolType.Function and sym.name == "p" and len(sym.arguments) == 1:
            sym = sym.arguments[0]
        if sym.type == clingo.SymbolType.Number and 0 <= sym.number < len(self.names):
            return self.names[sym.number]
        if (sym.type == clingo.SymbolType.Number and sym.number == len(self.names)
                and self.newcomer is not None):
            return self.newcomer  # the seat a join gives, after the last (joining.lp)
        if sym.type == clingo.SymbolType.Function and sym.name == "newcomer" and not sym.arguments:
            return self.newcomer
        if (sym.type == clingo.SymbolType.Function and sym.name == "former"
                and len(sym.arguments) == 1):
            # a former player of a Fluxxnomic table (phase.former_players, by place)
            former = (self.state.extra.get("phase") or {}).get("former_players") or []
            i = sym.arguments[0].number
            return former[i]["player"] if 0 <= i < len(former) else None
        return None

    def card_id(self, sym: Atom) -> str | None:
        if sym.type == clingo.SymbolType.String:
            text = sym.string
        elif sym.type == clingo.SymbolType.Function and not sym.arguments and sym.name:
            text = sym.name
        else:
            return None
        return text if text in self.catalog else None

    def json_value(self, sym: Atom) -> Any:
        """A term as JSON: p(S) -> name, numbers -> int, constants/strings -> str."""
        name = self.player(sym) if sym.type == clingo.SymbolType.Function else None
        if name is not None:
            return name
        if sym.type == clingo.SymbolType.Number:
            return sym.number
        if sym.type == clingo.SymbolType.String:
            return sym.string
        if sym.type == clingo.SymbolType.Function and not sym.arguments:
            return sym.name
        if sym.type == clingo.SymbolType.Function and sym.name == "":
            return [self.json_value(a) for a in sym.arguments]
        return str(sym)

    def render(self, sym: Any, spec: str, lang: str) -> str:
        """A finding argument as display text in `lang`."""
        if not isinstance(sym, _TERM_TYPES):
            return str(sym)
        if spec == "player" or (sym.type == clingo.SymbolType.Function and sym.name == "p"):
            name = self.player(sym)
            if name is not None:
                return name
        if sym.type == clingo.SymbolType.Function and sym.name == "" and sym.arguments:
            # a tuple (the Keepers a Math Rules equation uses): each member, in order
            return ("、" if lang == "zh" else ", ").join(
                self.render(a, "", lang) for a in sym.arguments)
        card = self.card_id(sym)
        if card is not None:
            return self.catalog.get(card).ref(lang)
        if sym.type == clingo.SymbolType.Function and not sym.arguments and sym.name in self.terms:
            return self.terms[sym.name][lang]
        value = self.json_value(sym)
        if isinstance(value, list):
            return ", ".join(str(v) for v in value)
        return str(value)

    def text(self, key: str, args: list[Atom], args_text: str) -> dict[str, str]:
        """The message `key` with `args` in every language. `args_text`: the arguments' term as
        printed; the text is looked up among those rendered before (a pure function of the game,
        the players' names, the key and the arguments; one table's rulings repeat most of their
        findings)."""
        memo_key = (self.catalog, self.names_key, key, args_text)
        found = _FINDING_TEXTS.get(memo_key)
        if found is None:
            found = {lang: finding_text(key, args, lang, self.render) for lang in LANGS}
            _FINDING_TEXTS.keep(memo_key, found)
        return dict(found)  # a copy: the ruling is the caller's to change

    # -- sources ----------------------------------------------------------------------------
    def source(self, sym: Atom) -> dict[str, str] | None:
        key = str(sym)
        if key not in self._sources:
            self._sources[key] = self._source(sym)
        return self._sources[key]

    def _source(self, sym: Atom) -> dict[str, str] | None:
        is_function = sym.type == clingo.SymbolType.Function
        if is_function and sym.name == "card" and len(sym.arguments) == 1:
            card = self.card_id(sym.arguments[0])
            return self.catalog.get(card).source() if card else None
        if sym.type != clingo.SymbolType.String:
            return None
        out = source_of(sym.string)
        scope = scope_of(sym.string, self.state.edition)
        if scope is not None:  # a passage of another deck, applied by analogy
            out["scope"] = scope
        return out

    def card_json(self, card: str) -> dict[str, Any]:
        c = self.catalog.get(card)
        return {"card": card, "name": {"en": c.name_en, "zh": c.name_zh}}


def source_of(source_id: str) -> dict[str, str]:
    """A source id as {id, kind, url} (docs/ARCHITECTURE.md, "Source ids and URLs")."""
    kind, _, rest = source_id.partition(":")
    if kind == "rulebook":
        url = f"/rulebook#{rest}"
    elif kind == "faq":
        url = f"/faq/{rest}"
    elif kind == "card":
        edition, _, card = rest.rpartition("/")
        url = f"/cards/{card}" + (f"?edition={edition}" if edition else "")
    else:
        url = ""
    return {"id": source_id, "kind": kind, "url": url}


def args_of(sym: Atom) -> list[Atom]:
    """The members of a tuple term (a single non-tuple term counts as one member)."""
    if sym.type == clingo.SymbolType.Function and sym.name == "":
        return list(sym.arguments)
    return [sym]


def _about_rank(about: str) -> tuple[int, str]:
    return (ABOUT_ORDER.index(about) if about in ABOUT_ORDER else len(ABOUT_ORDER), about)


def cites_of(atoms: Atoms, ctx: Context,
             keys: Collection[str] | None = None) -> dict[tuple[str, str], list[dict]]:
    """Sources by (message key, text of the args tuple); with `keys`, those of these message
    keys only."""
    out: dict[tuple[str, str], list[dict]] = defaultdict(list)
    seen: set[tuple[str, str, str]] = set()
    for key, args, src in atoms.args("cites", 3):
        if keys is not None and key.name not in keys:
            continue
        source = ctx.source(src)
        if source is None:
            continue
        entry = (key.name, str(args))
        if (*entry, source["id"]) not in seen:  # one source once per finding
            seen.add((*entry, source["id"]))
            out[entry].append(source)
    return out


def findings_of(atoms: Atoms, ctx: Context, cites: dict,
                keys: Collection[str] | None = None) -> list[dict[str, Any]]:
    """The findings of the answer set, rendered and cited, in order; with `keys`, those of these
    message keys only (the others are not rendered: a move's answer sets hold the ruling's
    findings of the table too)."""
    out = []
    for about, key, args in atoms.args("finding", 3):
        if keys is not None and key.name not in keys:
            continue
        members = args_of(args)
        args_text = str(args)
        out.append({
            "about": about.name,
            "key": key.name,
            "args": [ctx.json_value(a) for a in members],
            "text": ctx.text(key.name, members, args_text),
            "sources": cites.get((key.name, args_text), []),
        })
    out.sort(key=lambda f: (_about_rank(f["about"]), f["key"], str(f["args"])))
    return out
