"""The ruling of docs/FORMATS.md from the engine's answer set.

Nothing here decides a rule: this module reads the atoms the .lp files show (docs/ENGINE.md)
and lays them out as the contract's JSON, with every finding's text in English and Chinese and
its sources resolved to ids, kinds and URLs. `ruling_for(state)` is the one entry point;
`ruling_text(ruling, lang)` is the command line's plain-text view.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import clingo

from . import batch
from .catalog import Catalog, catalog_for
from .engine import Solution
from .facts import catalog_text, table_facts
from .memo import Memo
from .messages import LANGS, finding_text, terms
from .state import TableState
from .terms import Term, read_atoms

# A term of a shown atom: a Term (rulings read their atoms with terms.read_atoms: one call into
# clingo per atom) or clingo's own Symbol (plays.py): both have the same attributes.
Atom = Term | clingo.Symbol
_TERM_TYPES = (Term, clingo.Symbol)

# Findings are listed by concern in this order; unknown concerns follow, alphabetically.
ABOUT_ORDER = ("input", "winner", "goals", "pending", "surprises", "creepers", "rules", "draw",
               "play", "limits", "discards", "turn_order", "legal_moves")
# Every kind rules_asp emits as legal_move/3 has a place here and a label below
# (tests/test_play.py::test_every_legal_move_kind_has_a_label keeps them in step).
MOVE_ORDER = ("draw", "play", "play_random", "free_action", "surprise", "resolve", "end_turn",
              "discard")
# Labels of the text view (the JSON carries ids and both languages itself).
MOVE_LABELS = {
    "draw": ("draw", "抓牌"), "play": ("play", "出牌"),
    "play_random": ("random first play", "随机出牌"),
    "free_action": ("free action", "自由行动"), "surprise": ("Surprise", "意外卡"),
    "resolve": ("close the Surprise chain", "结算意外卡连锁"),
    "end_turn": ("end the turn", "结束回合"), "discard": ("discard", "弃牌"),
}


@dataclass
class _Atoms:
    """The shown atoms of one answer set, grouped by predicate name and arity, in a stable order
    (the order of their text)."""

    by_sig: dict[tuple[str, int], list[list[Atom]]] = field(default_factory=dict)

    @classmethod
    def of(cls, symbols: Iterable[Atom]) -> _Atoms:
        grouped: dict[tuple[str, int], list[tuple[str, list[Atom]]]] = defaultdict(list)
        for s in symbols:
            arguments = s.arguments
            grouped[(s.name, len(arguments))].append((str(s), arguments))
        return cls({sig: [a for _, a in sorted(items, key=lambda t: t[0])]
                    for sig, items in grouped.items()})

    def args(self, name: str, arity: int) -> list[list[Atom]]:
        return self.by_sig.get((name, arity), [])

    def one(self, name: str) -> Atom | None:
        found = self.args(name, 1)
        return found[0][0] if found else None


# Finding texts rendered so far, by game, players' names, message key and arguments' text
_FINDING_TEXTS: Memo[tuple[Any, ...], dict[str, str]] = Memo(1 << 14)


class _Context:
    """What rendering needs: the players, the catalog, and the two languages."""

    def __init__(self, state: TableState, catalog: Catalog) -> None:
        self.state, self.catalog = state, catalog
        self.names = [p.name for p in state.players]
        self.names_key = tuple(self.names)
        self.terms = terms()
        self._sources: dict[str, dict[str, str] | None] = {}

    # -- values -----------------------------------------------------------------------------
    def player(self, sym: Atom) -> str | None:
        if sym.type == clingo.SymbolType.Function and sym.name == "p" and len(sym.arguments) == 1:
            sym = sym.arguments[0]
        if sym.type == clingo.SymbolType.Number and 0 <= sym.number < len(self.names):
            return self.names[sym.number]
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
        if _is_expression(sym):
            return _infix(sym, top=True)
        card = self.card_id(sym)
        if card is not None:
            return self.catalog.get(card).name(lang)
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
        return source_of(sym.string)

    def card_json(self, card: str) -> dict[str, Any]:
        c = self.catalog.get(card)
        return {"card": card, "name": {"en": c.name_en, "zh": c.name_zh}}


# Math Rules witnesses (goals.lp math_witness/3): e(Op, A, B) read as "A Op B"; e(root, X, Y) is
# the Y-th root of X. Shown in ordinary notation in both languages.
_INFIX = {"plus": "+", "minus": "−", "times": "×", "div": "÷", "pow": "^"}
_ROOT_SIGN = {2: "√", 3: "∛", 4: "∜"}


def _is_expression(sym: Atom) -> bool:
    return (sym.type == clingo.SymbolType.Function and sym.name == "e"
            and len(sym.arguments) == 3 and sym.arguments[0].type == clingo.SymbolType.Function)


def _infix(sym: Atom, top: bool = False) -> str:
    """A witness term as an expression: e(plus,4,e(times,3,7)) -> "4 + (3 × 7)"."""
    if not _is_expression(sym):
        return str(sym.number) if sym.type == clingo.SymbolType.Number else str(sym)
    op, a, b = sym.arguments
    if op.name == "root":
        degree = b.number if b.type == clingo.SymbolType.Number else None
        sign = _ROOT_SIGN.get(degree) if degree is not None else None
        text = f"{sign}{_infix(a)}" if sign else f"{_infix(a)}^(1/{_infix(b)})"
        return text if top or sign else f"({text})"
    text = f"{_infix(a)} {_INFIX.get(op.name, op.name)} {_infix(b)}"
    return text if top else f"({text})"


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


def _args(sym: Atom) -> list[Atom]:
    """The members of a tuple term (a single non-tuple term counts as one member)."""
    if sym.type == clingo.SymbolType.Function and sym.name == "":
        return list(sym.arguments)
    return [sym]


def _about_rank(about: str) -> tuple[int, str]:
    return (ABOUT_ORDER.index(about) if about in ABOUT_ORDER else len(ABOUT_ORDER), about)


def ruling_for(state: TableState, catalog: Catalog | None = None) -> dict[str, Any]:
    """The ruling for a validated table state."""
    game = catalog or catalog_for(state.edition, state.expansions)
    # concurrent rulings of one game are grounded together (batch.py)
    solution = batch.solve(table_facts(state, game), state.edition, state.expansions,
                           catalog_text(game))
    return ruling_from(state, game, solution)


def ruling_from(state: TableState, game: Catalog, solution: Solution) -> dict[str, Any]:
    """The ruling for `state` (of the game `game`) from the engine's `solution` for its facts
    (`facts.table_facts`)."""
    ctx = _Context(state, game)
    stats: dict[str, Any] = dict(solution.stats, models=solution.models)
    if solution.warnings:
        stats["warnings"] = solution.warnings
    if not solution.ok:
        key = "engine_no_model" if solution.models == 0 else "engine_many_models"
        return {"ok": False,
                "errors": [{"path": "", "message": ctx.text(key, [], "()"), "suggestions": []}],
                "engine": stats}
    atoms = _Atoms.of(read_atoms(solution.symbols))
    cites = _cites(atoms, ctx)
    findings = _findings(atoms, ctx, cites)
    errors = [str(a[0]) for a in atoms.args("engine_error", 1)]
    if errors:
        stats["errors"] = errors
    ruling: dict[str, Any] = {
        "ok": True,
        "winner": _winner(atoms, ctx),
        "tied": [ctx.player(a[0]) for a in atoms.args("tied", 1)],
        "turn": _turn(atoms, state),
        "next_player": ctx.player(atoms.one("next_player")) if atoms.one("next_player") else None,
        "direction": atoms.one("direction").name if atoms.one("direction") else None,
        "limits": {"hand": _number(atoms.one("hand_limit")),
                   "keeper": _number(atoms.one("keeper_limit"))},
        "discards": _discards(atoms, ctx),
        "legal_moves": _legal_moves(atoms, ctx),
        "not_yet": _not_yet(atoms, ctx, cites),
        "rules_in_force": [ctx.json_value(a[0]) for a in atoms.args("in_force", 1)],
        "rule_conflicts": [{"discard": ctx.json_value(a), "stands": ctx.json_value(b)}
                           for a, b in atoms.args("superseded", 2)],
    }
    if state.pending:
        outcome = atoms.one("pending_outcome")
        ruling["pending"] = {
            "card": state.pending[0].card,
            "player": state.pending[0].player,
            "outcome": outcome.name if outcome is not None else None,
            "chain": [p.to_json() for p in state.pending],
        }
    ruling["findings"] = findings
    ruling["engine"] = stats
    return ruling


def _number(sym: Atom | None) -> int | None:
    return sym.number if sym is not None and sym.type == clingo.SymbolType.Number else None


def _winner(atoms: _Atoms, ctx: _Context) -> str | None:
    winners = atoms.args("winner", 1)
    return ctx.player(winners[0][0]) if len(winners) == 1 else None


def _turn(atoms: _Atoms, state: TableState) -> dict[str, Any]:
    total = atoms.one("play_total")
    play: dict[str, Any] = {
        "total": (total.number if total is not None and total.type == clingo.SymbolType.Number
                  else total.name if total is not None else None),
        "played": state.turn.played,
        "remaining": _number(atoms.one("play_remaining")),
    }
    extra = _number(atoms.one("optional_extra"))
    if extra is not None:
        play["optional_extra"] = extra
        play["optional_remaining"] = _number(atoms.one("optional_remaining")) or 0
    return {
        "player": state.active,
        "draw": {"total": _number(atoms.one("draw_total")), "drawn": state.turn.drawn,
                 "remaining": _number(atoms.one("draw_remaining"))},
        "play": play,
    }


def _discards(atoms: _Atoms, ctx: _Context) -> list[dict[str, Any]]:
    out = [{"player": ctx.player(s), "zone": z.name, "count": k.number, "when": w.name}
           for s, z, k, w in atoms.args("must_discard", 4)]
    return sorted(out, key=lambda d: (d["when"] != "now", ctx.names.index(d["player"]), d["zone"]))


def _details(ctx: _Context, details: Atom) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in _args(details):
        if item.type != clingo.SymbolType.Function or len(item.arguments) != 1:
            continue
        value = item.arguments[0]
        if item.name == "card" and ctx.card_id(value):
            out.update(ctx.card_json(ctx.card_id(value)))
        elif item.name in ("any", "optional") and value.type == clingo.SymbolType.Function:
            out[item.name] = value.name == "true"
        else:
            out[item.name] = ctx.json_value(value)
    return out


def _move_rank(ctx: _Context, active: int, move: dict[str, Any]) -> tuple[int, int, str]:
    seat = ctx.names.index(move["player"])
    kind = move["kind"]
    return ((seat - active) % len(ctx.names),
            MOVE_ORDER.index(kind) if kind in MOVE_ORDER else len(MOVE_ORDER),
            str(move.get("card", "")))


def _legal_moves(atoms: _Atoms, ctx: _Context) -> list[dict[str, Any]]:
    end_discards = defaultdict(list)
    for s, z, k, w in atoms.args("must_discard", 4):
        if w.name == "end_of_turn":
            end_discards[ctx.player(s)].append({"zone": z.name, "count": k.number})
    moves = []
    for seat, kind, details in atoms.args("legal_move", 3):
        move = {"player": ctx.player(seat), "kind": kind.name, **_details(ctx, details)}
        if kind.name == "end_turn":
            move["discards"] = end_discards.get(move["player"], [])
        moves.append(move)
    active = ctx.state.active_index
    return sorted(moves, key=lambda m: _move_rank(ctx, active, m))


def _not_yet(atoms: _Atoms, ctx: _Context, cites: dict) -> list[dict[str, Any]]:
    out = []
    for seat, kind, details, reason in atoms.args("not_yet", 4):
        args = list(reason.arguments) if reason.type == clingo.SymbolType.Function else []
        key = reason.name
        out.append({"player": ctx.player(seat), "kind": kind.name, **_details(ctx, details),
                    "reason": ctx.text(key, args, str(reason)),
                    "sources": cites.get((key, "()"), [])})
    active = ctx.state.active_index
    return sorted(out, key=lambda m: _move_rank(ctx, active, m))


def _cites(atoms: _Atoms, ctx: _Context) -> dict[tuple[str, str], list[dict]]:
    """Sources by (message key, text of the args tuple)."""
    out: dict[tuple[str, str], list[dict]] = defaultdict(list)
    seen: set[tuple[str, str, str]] = set()
    for key, args, src in atoms.args("cites", 3):
        source = ctx.source(src)
        if source is None:
            continue
        entry = (key.name, str(args))
        if (*entry, source["id"]) not in seen:  # one source once per finding
            seen.add((*entry, source["id"]))
            out[entry].append(source)
    return out


def _findings(atoms: _Atoms, ctx: _Context, cites: dict) -> list[dict[str, Any]]:
    out = []
    for about, key, args in atoms.args("finding", 3):
        members = _args(args)
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


def ruling_text(ruling: dict[str, Any], lang: str = "en") -> str:
    """A plain-text view of a ruling for the command line."""
    zh = lang == "zh"
    if not ruling.get("ok"):
        return "\n".join(e["message"][lang] for e in ruling.get("errors", []))
    lines: list[str] = []
    turn = ruling["turn"]
    draw, play = turn["draw"], turn["play"]
    if ruling.get("winner"):
        lines.append(("胜者：" if zh else "Winner: ") + ruling["winner"])
    elif ruling.get("tied"):
        lines.append(("平局（游戏继续）：" if zh else "Tied (play goes on): ")
                     + ", ".join(ruling["tied"]))
    lines.append(("当前玩家：" if zh else "Turn: ") + turn["player"])
    lines.append(("抓牌：共 {total}，已抓 {drawn}，还需 {remaining}" if zh else
                  "Draw: total {total}, drawn {drawn}, remaining {remaining}").format(**draw))
    lines.append(("出牌：共 {total}，已出 {played}，还需 {remaining}" if zh else
                  "Play: total {total}, played {played}, remaining {remaining}").format(**play))
    limits = ruling["limits"]
    lines.append(("上限：手牌 {hand}，所有物 {keeper}" if zh else
                  "Limits: hand {hand}, keeper {keeper}").format(
        hand=limits["hand"] if limits["hand"] is not None else "-",
        keeper=limits["keeper"] if limits["keeper"] is not None else "-"))
    words = terms()
    for d in ruling["discards"]:
        zone = words.get(d["zone"], {}).get(lang, d["zone"])
        when = words.get(d["when"], {}).get(lang, d["when"])
        lines.append(("弃牌：{p}{w}弃掉{zone} {n} 张" if zh else
                      "Discard: {p} discards {n} ({zone}) {w}").format(
            p=d["player"], n=d["count"], zone=zone, w=when))
    if ruling.get("next_player"):
        lines.append(("下一位：" if zh else "Next player: ") + ruling["next_player"])
    lines.append("")
    lines.append("可行的动作：" if zh else "Legal moves:")
    for m in ruling["legal_moves"]:
        lines.append(f"  - {m['player']}: {_move_words(m, lang)}")
    for m in ruling.get("not_yet", []):
        lines.append(f"  x {m['player']}: {_move_words(m, lang)} - {m['reason'][lang]}")
    lines.append("")
    lines.append("依据：" if zh else "Findings:")
    for f in ruling["findings"]:
        ids = ", ".join(s["id"] for s in f["sources"])
        lines.append(f"  [{f['about']}] {f['text'][lang]}  ({ids})")
    if "pending" in ruling:
        p = ruling["pending"]
        lines.append(("待结算：" if zh else "Pending: ") + f"{p['card']} -> {p['outcome']}")
    return "\n".join(lines)


def _move_words(move: dict[str, Any], lang: str) -> str:
    """A legal move in words: its kind and what it names (card, count, chooser)."""
    en, zh = MOVE_LABELS.get(move["kind"], (move["kind"], move["kind"]))
    parts = [zh if lang == "zh" else en]
    if "name" in move:
        parts.append(move["name"][lang])
    if "zone" in move:
        parts.append(terms().get(move["zone"], {}).get(lang, move["zone"]))
    if "count" in move:
        parts.append(str(move["count"]))
    if "chosen_by" in move:
        parts.append(("由 {0} 抽取" if lang == "zh" else "chosen by {0}").format(move["chosen_by"]))
    if move.get("optional"):
        parts.append("（可选）" if lang == "zh" else "(optional)")
    return " ".join(parts)


# Public names for the modules that lay out other answer sets the same way (adjudicator.play).
Atoms = _Atoms
Context = _Context
cites_of = _cites
findings_of = _findings
