"""A move's answer set read back: the next table state, and the choices made or left open.

The move program (rules_asp/moves/*.lp) derives the state after a move as `next_*` atoms:
next_table.lp the zones (hands and Keepers with the copies of each card, the rules and Goals in
order, the piles), the turn and the sub-hands set aside; chain_moves.lp the Surprise chain;
phase_moves.lp and joining.lp Fluxxnomic's phase and seats. An outcome's choices are `pick/2`,
`chance/2` and `pick_copies/3`. This module writes them back as a TableState and as the
outcome's `choices`; it decides nothing: every zone and count is the program's.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

import clingo

from ..engine.terms import Term
from ..table.choices import EXTRA_TURNS, PHASE, SUB_HANDS
from ..table.reader import UNKNOWN_CARD
from ..table.schema import NUMBER_KEYS
from ..table.state import PendingPlay, Player, TableState, Turn
from .render import Atoms, Context


def card_of(sym: Term) -> str:
    return sym.string if sym.type == clingo.SymbolType.String else sym.name


def _ordered(old: Iterable[str], new: Counter[str]) -> list[str]:
    """Cards that stay keep their order; cards that arrive follow, by id. Counts, not sets: a
    zone may hold several copies of a card (Math Fluxx)."""
    left = Counter(new)
    kept = []
    for c in old:
        if left[c] > 0:
            kept.append(c)
            left[c] -= 1
    return kept + sorted(left.elements())


def _next_pending(state: TableState, atoms: Atoms, keep: dict[str, Any]) -> list[PendingPlay]:
    """The chain after the move: its links keep their choices; a new link (the play that opens
    the chain, a Surprise answering it) keeps the choices given with the move."""
    out = []
    for i, s, c in sorted(atoms.args("next_pending", 3), key=lambda a: a[0].number):
        kept = state.pending[i.number].choices if i.number < len(state.pending) else keep
        out.append(PendingPlay(player=state.players[s.number].name, card=card_of(c),
                               choices=dict(kept)))
    return out


def next_state(state: TableState, atoms: Atoms, keep: dict[str, Any] | None = None,
                joiner: str | None = None) -> TableState:
    # a player joining (Fluxxnomic, joining.lp) takes the seat the rules give: after the others
    seated = list(state.players)
    joined = atoms.one("next_joined")
    if joined is not None and joiner is not None and joined.number == len(seated):
        seated.append(Player(name=joiner, hand=[], hand_size=0))
    n = len(seated)
    hands: dict[int, Counter[str]] = defaultdict(Counter)
    keepers: dict[int, Counter[str]] = defaultdict(Counter)
    creepers: dict[int, Counter[str]] = defaultdict(Counter)
    claimed: dict[int, Counter[str]] = defaultdict(Counter)
    unknown = {s: 0 for s in range(n)}
    # hands and Keepers with the copies of each card (next_table.lp)
    for s, c, k in atoms.args("next_in_hand", 3):
        hands[s.number][card_of(c)] += k.number
    for s, c, k in atoms.args("next_keeper", 3):
        keepers[s.number][card_of(c)] += k.number
    for s, c in atoms.args("next_creeper", 2):
        creepers[s.number][card_of(c)] += 1
    for s, c in atoms.args("next_claimed", 2):  # Keep Going: the Goals claimed (turn_moves.lp)
        claimed[s.number][card_of(c)] += 1
    for s, k in atoms.args("next_hand_unknown", 2):
        unknown[s.number] = k.number
    old_hand_order = [c for p in state.players for c in (p.hand or [])]
    players = []
    for i, p in enumerate(seated):
        known = _ordered(old_hand_order, hands[i])
        size = len(known) + unknown[i]
        players.append(Player(
            # unknown cards stay "?" beside the known ones (reader.UNKNOWN_CARD), so a move loses
            # no knowledge; a hand with no known card is written as its size only
            name=p.name, hand=None if unknown[i] and not known else
            known + [UNKNOWN_CARD] * unknown[i], hand_size=size,
            keepers=_ordered([k for q in state.players for k in q.keepers], keepers[i]),
            creepers=_ordered([k for q in state.players for k in q.creepers], creepers[i]),
            claimed_goals=_ordered([g for q in state.players for g in q.claimed_goals],
                                   claimed[i])))
    rule_copies = {card_of(c): k.number for c, k in atoms.args("next_rule_copies", 2)}
    rules = [card_of(c) for c, _ in sorted(atoms.args("next_rule", 2), key=lambda a: a[1].number)
             for _ in range(rule_copies.get(card_of(c), 1))]
    goals = [card_of(c) for c, _ in sorted(atoms.args("next_goal", 2), key=lambda a: a[1].number)]
    discard = [card_of(c) for c, _ in
               sorted(atoms.args("next_discard", 2), key=lambda a: a[1].number)]
    # the known cards of the pile by position: the rules' next_draw_pile/2, or the table's own
    # known cards where the rules keep the pile as it was (next_draw_pile_kept: drawing.lp)
    if atoms.args("next_draw_pile_kept", 0):
        pile_known = [(i, c) for i, c in enumerate(state.draw_pile or []) if c != UNKNOWN_CARD]
    else:
        pile_known = sorted((i.number, card_of(c)) for c, i in atoms.args("next_draw_pile", 2))
    size_sym = atoms.one("next_draw_pile_size")
    pile_size = size_sym.number if size_sym is not None else state.draw_pile_size
    if state.deckless:  # no deck (Fluxxnomic): the rules draw from an unending pile of made cards
        pile_known, pile_size = [], 0
    pile: list[str] | None = None
    if [i for i, _ in pile_known] == list(range(pile_size)) and (
            state.draw_pile is not None or pile_size == 0 or pile_known):
        pile = [c for _, c in pile_known]
    drawn, played = atoms.args("next_turn", 2)[0]
    active = atoms.one("next_active").number
    at_start = atoms.one("next_hand_at_start")
    extra = {k: v for k, v in state.extra.items() if k not in (SUB_HANDS, EXTRA_TURNS)}
    turns = atoms.one("next_extra_turns")
    if turns is not None and turns.number > 0:
        extra[EXTRA_TURNS] = turns.number
    frames = _next_frames(state, atoms)
    if frames:
        extra[SUB_HANDS] = frames
    number = atoms.one("next_phase_number")
    if number is not None:  # Fluxxnomic: the phase after the move (phase_moves.lp)
        extra[PHASE] = _next_phase(state, atoms, number.number, active, (drawn.number,
                                                                         played.number))
    return TableState(
        edition=state.edition, expansions=list(state.expansions), players=players,
        active=state.players[active].name, rules=rules, goals=goals,
        turn=Turn(hand_at_start=at_start.number if at_start is not None else
                  state.turn.hand_at_start, drawn=drawn.number, played=played.number,
                  # Death's start-of-turn duty behind the active player (creeper_free_actions.lp)
                  start_duties_done=sorted(card_of(c) for (c,) in
                                           atoms.args("next_start_done", 1))),
        draw_pile_size=pile_size, draw_pile=pile, discard_pile=discard,
        pending=_next_pending(state, atoms, keep or {}),
        extra=extra, deckless=state.deckless)


def _next_phase(state: TableState, atoms: Atoms, number: int, active: int,
                turn: tuple[int, int]) -> dict[str, Any]:
    """The state's `phase` after the move: the other players' counts, and each player's Keepers
    played (the active player's entry, whose draws and plays are the next turn's, only for
    them), the cards waiting, the former players."""
    counts = {s.number: (d.number, p.number) for s, d, p in atoms.args("next_phase_counts", 3)}
    keepers = {s.number: k.number for s, k in atoms.args("next_phase_keepers", 2)}
    counts[active] = turn
    players = []
    for seat in sorted(set(counts) | set(keepers)):
        (d, p), k = counts.get(seat, (0, 0)), keepers.get(seat, 0)
        if k or (seat != active and (d or p)):
            entry = {"player": state.players[seat].name, "drawn": d, "played": p}
            players.append({**entry, "keepers": k} if k else entry)
    waiting = sorted((i.number, s.number, card_of(c))
                     for i, s, c in atoms.args("next_waiting", 3))
    out: dict[str, Any] = {
        "number": number,
        "players": players,
        "waiting": [{"player": state.players[s].name, "card": c} for _, s, c in waiting]}
    # the former players who are still not players (joining.lp: next_former/1)
    former = (state.extra.get(PHASE) or {}).get("former_players") or []
    staying = sorted(i.number for (i,) in atoms.args("next_former", 1))
    if staying:
        out["former_players"] = [dict(former[i]) for i in staying]
    return out


def _next_frames(state: TableState, atoms: Atoms) -> list[dict[str, Any]]:
    cards: dict[int, list[str]] = defaultdict(list)
    for d, c, k in atoms.args("next_subhand", 3):
        cards[d.number] += [card_of(c)] * k.number
    unknown = {d.number: k.number for d, k in atoms.args("next_subhand_unknown", 2)}
    frames = []
    for d, s, o, left in sorted(atoms.args("next_subframe", 4), key=lambda a: a[0].number):
        frames.append({"player": state.players[s.number].name, "card": card_of(o),
                       "cards": sorted(cards[d.number]), "unknown": unknown.get(d.number, 0),
                       "plays_left": left.number})
    return frames


def _pick_value(ctx: Context, sym: Term) -> Any:
    if sym.type == clingo.SymbolType.Number:
        return ctx.player(sym)
    if sym.type == clingo.SymbolType.Function and sym.name == "" and len(sym.arguments) == 2:
        return {"player": ctx.player(sym.arguments[0]), "card": card_of(sym.arguments[1])}
    return card_of(sym)


def chance_keys_of(atoms: Atoms) -> frozenset[str]:
    return frozenset(key.name for key, _ in atoms.args("chance", 2))


def picks_of(ctx: Context, atoms: Atoms) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = defaultdict(list)
    for name in ("pick", "chance"):
        for key, value in atoms.args(name, 2):
            # a number chosen (Gambling's n) stays a number; other numbers are seats
            out[key.name].append(value.number if key.name in NUMBER_KEYS
                                 else _pick_value(ctx, value))
    # a value picked several times (two Trash a new rule discarding both copies of a rule)
    for key, value, copies in atoms.args("pick_copies", 3):
        out[key.name] += [_pick_value(ctx, value)] * (copies.number - 1)
    return {k: sorted(v, key=str) for k, v in out.items()}


def open_choices_of(ctx: Context, symbols: list[Term]) -> list[dict[str, Any]]:
    options: dict[tuple[str, str], list[Any]] = defaultdict(list)
    for s in symbols:
        key, value = s.arguments
        kind = "chance" if s.name == "chance" else "choice"
        v = value.number if key.name in NUMBER_KEYS else _pick_value(ctx, value)
        if v not in options[(key.name, kind)]:
            options[(key.name, kind)].append(v)
    return [{"key": k, "kind": kind, "options": sorted(v, key=str)}
            for (k, kind), v in sorted(options.items())]
