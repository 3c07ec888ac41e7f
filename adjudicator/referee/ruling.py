"""The ruling of docs/FORMATS.md from the engine's answer set.

Nothing here decides a rule: this module reads the atoms the .lp files show (docs/ENGINE.md)
and lays them out as the contract's JSON, with every finding's text in English and Chinese and
its sources resolved to ids, kinds and URLs. `ruling_for(state)` is the one entry point;
`ruling_text(ruling, lang)` is the command line's plain-text view.
"""

from __future__ import annotations

from typing import Any

import clingo

from ..cards.catalog import PHASE_GAMES, Catalog, any_card, catalog_for
from ..engine.facts import catalog_text, table_facts
from ..engine.solve import Solution
from ..engine.speed import batch
from ..engine.terms import read_atoms
from ..messages import card_ref, catalog, terms, text
from ..table.state import TableState
from . import rounds
from .render import Atom, Atoms, Context, args_of, cites_of, findings_of

# Every kind rules_asp emits as legal_move/3 has a place here and a label below
# (tests/rules/test_plays.py::test_every_legal_move_kind_has_a_label keeps them in step).
MOVE_ORDER = ("draw", "play", "play_random", "free_action", "surprise", "resolve", "end_turn",
              "discard", "join")
# Labels of the text view (the JSON carries ids and both languages itself).
MOVE_LABELS = {kind: (label["en"], label["zh"])
               for kind, label in catalog("text_view")["moves"].items()}


def ruling_for(state: TableState, catalog: Catalog | None = None) -> dict[str, Any]:
    """The ruling for a validated table state."""
    here = rounds.ROUND.get()
    if here is not None and here.game == (state.edition, tuple(state.expansions)):
        return here.rulings_of([state])[0]  # in a round, with what its other tasks ask
    game = catalog or catalog_for(state.edition, state.expansions)
    # concurrent rulings of one game are grounded together (batch.py)
    solution = batch.solve(table_facts(state, game), state.edition, state.expansions,
                           catalog_text(game))
    return ruling_from(state, game, solution)


def rulings_for(states: list[TableState], catalog: Catalog | None = None
                ) -> list[dict[str, Any]]:
    """The rulings of several validated tables of one game (the outcomes of a move), grounded
    together (batch.solve_all): each the ruling `ruling_for` gives it."""
    if not states:
        return []
    game = catalog or catalog_for(states[0].edition, states[0].expansions)
    solutions = batch.solve_all([table_facts(state, game) for state in states],
                                states[0].edition, states[0].expansions, catalog_text(game))
    return [ruling_from(state, game, solution)
            for state, solution in zip(states, solutions, strict=True)]


def ruling_from(state: TableState, game: Catalog, solution: Solution) -> dict[str, Any]:
    """The ruling for `state` (of the game `game`) from the engine's `solution` for its facts
    (`facts.table_facts`)."""
    ctx = Context(state, game)
    stats: dict[str, Any] = dict(solution.stats, models=solution.models)
    if solution.warnings:
        stats["warnings"] = solution.warnings
    if not solution.ok:
        key = "engine_no_model" if solution.models == 0 else "engine_many_models"
        return {"ok": False,
                "errors": [{"path": "", "message": ctx.text(key, [], "()"), "suggestions": []}],
                "engine": stats}
    atoms = Atoms.of(read_atoms(solution.symbols))
    cites = cites_of(atoms, ctx)
    findings = findings_of(atoms, ctx, cites)
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


def _winner(atoms: Atoms, ctx: Context) -> str | None:
    winners = atoms.args("winner", 1)
    return ctx.player(winners[0][0]) if len(winners) == 1 else None


def _turn(atoms: Atoms, state: TableState) -> dict[str, Any]:
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


def _discards(atoms: Atoms, ctx: Context) -> list[dict[str, Any]]:
    out = [{"player": ctx.player(s), "zone": z.name, "count": k.number, "when": w.name}
           for s, z, k, w in atoms.args("must_discard", 4)]
    # Fluxxnomic's Hand limit 5: cards chosen at random from every hand over it when the phase
    # ends (rules_asp/ruling/phases.lp); nobody chooses them, so no move discards them
    out += [{"player": ctx.player(s), "zone": "hand", "count": k.number, "when": "end_of_turn",
             "random": True} for s, k in atoms.args("phase_random_discard", 2)]
    return sorted(out, key=lambda d: (d["when"] != "now", ctx.names.index(d["player"]), d["zone"]))


def _details(ctx: Context, details: Atom) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in args_of(details):
        if item.type != clingo.SymbolType.Function or len(item.arguments) != 1:
            continue
        value = item.arguments[0]
        if item.name == "card" and ctx.card_id(value):
            out.update(ctx.card_json(ctx.card_id(value)))
        elif (item.name in ("any", "optional", "at_once")
              and value.type == clingo.SymbolType.Function):
            out[item.name] = value.name == "true"
        else:
            out[item.name] = ctx.json_value(value)
    return out


def _move_rank(ctx: Context, active: int, move: dict[str, Any]) -> tuple[int, int, str]:
    kind = move["kind"]
    if move["player"] not in ctx.names:  # one who is not a player yet (a join): after the seats
        return (len(ctx.names), MOVE_ORDER.index(kind), str(move.get("player") or ""))
    seat = ctx.names.index(move["player"])
    return ((seat - active) % len(ctx.names),
            MOVE_ORDER.index(kind) if kind in MOVE_ORDER else len(MOVE_ORDER),
            str(move.get("card", "")))


def _legal_moves(atoms: Atoms, ctx: Context) -> list[dict[str, Any]]:
    moves = []
    for seat, kind, details in atoms.args("legal_move", 3):
        move = {"player": ctx.player(seat), "kind": kind.name, **_details(ctx, details)}
        if "reading" in move:  # a Keep Going claim: the Keepers its way of meeting the Goal uses
            move["keepers"] = _claim_keepers(atoms, ctx, seat, details)
            del move["reading"]
        move["play"] = play_of(move)
        moves.append(move)
    active = ctx.state.active_index
    return sorted(moves, key=lambda m: _move_rank(ctx, active, m))


def _claim_keepers(atoms: Atoms, ctx: Context, seat: Atom, details: Atom) -> list[str]:
    """The Keepers a claim move discards (claim_uses/5 of its Goal and reading), each copy."""
    parts = {a.name: a.arguments[0] for a in args_of(details)
             if a.type == clingo.SymbolType.Function and len(a.arguments) == 1}
    return sorted(ctx.card_id(c) for s, g, r, c, n in atoms.args("claim_uses", 5)
                  if (s, g, r) == (seat, parts["claim"], parts["reading"])
                  for _ in range(n.number))


def _not_yet(atoms: Atoms, ctx: Context, cites: dict) -> list[dict[str, Any]]:
    out = []
    for seat, kind, details, key, args in atoms.args("not_yet", 5):
        move = {"player": ctx.player(seat), "kind": kind.name, **_details(ctx, details)}
        out.append({**move, "play": play_of(move), "reason_key": key.name,
                    "reason": ctx.text(key.name, args_of(args), str(args)),
                    "sources": cites.get((key.name, str(args)), [])})
    active = ctx.state.active_index
    return sorted(out, key=lambda m: _move_rank(ctx, active, m))


# The choice keys a free action's details give (rules_asp/ruling/creepers.lp: War moves Peace to
# a player, Death and the pair abilities discard a card) in the play object of that move.
_FREE_ACTION_CHOICES = {"move": "keeper", "to": "opponent", "discard": "card"}


def play_of(move: dict[str, Any]) -> dict[str, Any]:
    """The exact body `POST /api/play` takes for a listed move (its `play`): kind and player,
    the card of a play, a Surprise or a free action, and the choices a free action's or a Keep
    Going claim's details fix. A play of a card the table does not show (`any`) names no card:
    the answer asks which."""
    play: dict[str, Any] = {"kind": move["kind"], "player": move["player"]}
    if move["player"] is None:  # a newcomer's join: the table names who joins
        del play["player"]
    if move["kind"] in ("play", "surprise", "free_action") and move.get("card"):
        play["card"] = move["card"]
    if move.get("claim") and move.get("keepers"):  # Keep Going: which way the Goal is met
        play["choices"] = {"keepers": move["keepers"]}
    if move["kind"] == "free_action":
        choices = {key: move[name] for name, key in _FREE_ACTION_CHOICES.items()
                   if move.get(name) is not None}
        if choices:
            play["choices"] = choices
    return play


def ruling_text(ruling: dict[str, Any], lang: str = "en", edition: str | None = None) -> str:
    """A plain-text view of a ruling for the command line (messages/text_view.yaml); a table
    of `edition` Fluxxnomic counts in phases (its moves' KIND@phase labels)."""
    phases = edition in PHASE_GAMES
    def say(key: str, **fields: Any) -> str:
        return text("text_view", key, lang, **fields)

    if not ruling.get("ok"):
        return "\n".join(e["message"][lang] for e in ruling.get("errors", []))
    lines: list[str] = []
    turn = ruling["turn"]
    draw, play = turn["draw"], turn["play"]
    if ruling.get("winner"):
        lines.append(say("winner") + ruling["winner"])
    elif ruling.get("tied"):
        lines.append(say("tied") + ", ".join(ruling["tied"]))
    lines.append(say("turn") + turn["player"])
    lines.append(say("draw", **draw))
    total = play["total"]
    lines.append(say("play", **{**play, "total": say(f"play_total_{total}") if isinstance(
        total, str) else say("play_total", n=total)}))
    limits = ruling["limits"]

    def limit(key: str, n: int | None) -> str:
        return say("no_limit") if n is None else say(key, n=n)
    lines.append(say("limits", hand=limit("limit", limits["hand"]),
                     keeper=limit("keeper_limit", limits["keeper"])))
    words = terms()
    for d in ruling["discards"]:
        zone = words.get(d["zone"], {}).get(lang, d["zone"])
        when = words.get(d["when"], {}).get(lang, d["when"])
        lines.append(say("discard", player=d["player"], count=d["count"], zone=zone, when=when))
    if ruling.get("next_player"):
        lines.append(say("next_player") + ruling["next_player"])
    lines.append("")
    lines.append(say("legal_moves"))
    for m in ruling["legal_moves"]:
        lines.append(say("move_line", player=m["player"] or say("newcomer"),
                         move=_move_words(m, lang, phases)))
    for m in ruling.get("not_yet", []):
        lines.append(say("not_yet_line", player=m["player"] or say("newcomer"),
                         move=_move_words(m, lang, phases),
                         reason=m["reason"][lang]))
    lines.append("")
    lines.append(say("findings"))
    about = catalog("ui")
    sep = text("text_view", "sources_sep", lang)
    for f in ruling["findings"]:
        ids = sep.join(s["id"] for s in f["sources"])
        label = about.get(f"about.{f['about']}", {}).get(lang, f["about"]) if lang == "zh" else (
            f["about"])
        lines.append(say("finding_line", about=label, text=f["text"][lang], ids=ids))
    if "pending" in ruling:
        p = ruling["pending"]
        outcome = catalog("text_view")["outcomes"].get(p["outcome"], {}).get(lang, p["outcome"])
        card = p["card"]
        if lang == "zh":
            found = any_card(card)
            card = found.ref(lang) if found else card
        lines.append(say("pending") + say("pending_card", card=card, outcome=outcome))
    return "\n".join(lines)


def _card_words(card: str, lang: str) -> str:
    found = any_card(card)
    return found.ref(lang) if found else card


def _move_words(move: dict[str, Any], lang: str, phases: bool = False) -> str:
    """A legal move in words: its kind and what it names (card, count, chooser); in a game of
    phases, the kind's KIND@phase label where it has one."""
    kind = move["kind"]
    if phases and kind + "@phase" in MOVE_LABELS:
        kind += "@phase"
    en, zh = MOVE_LABELS.get(kind, (kind, kind))
    parts = [zh if lang == "zh" else en]
    if "name" in move:
        parts.append(card_ref(move["name"][lang], lang))
    if "move" in move and "to" in move:  # War's Peace to Bo or to Cy: two moves
        parts.append(text("text_view", "give", lang, card=_card_words(move["move"], lang),
                          player=move["to"]))
    elif "discard" in move:
        parts.append(text("text_view", "discard_card", lang,
                          card=_card_words(move["discard"], lang)))
    if "zone" in move:
        parts.append(terms().get(move["zone"], {}).get(lang, move["zone"]))
    if "count" in move:
        parts.append(text("text_view", "move_count", lang, n=move["count"]))
    if "cards" in move and move["kind"] == "join":
        parts.append(text("text_view", "join_cards", lang, n=move["cards"]))
    if "chosen_by" in move:
        parts.append(text("text_view", "chosen_by", lang, player=move["chosen_by"]))
    if move.get("optional"):
        parts.append(text("text_view", "optional", lang))
    # Chinese runs the parts together: 出牌「交换手牌」, 抓牌（1张）
    return ("" if lang == "zh" else " ").join(parts)

