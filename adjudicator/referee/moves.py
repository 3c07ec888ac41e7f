"""Moves on a table state, in the OpenSpiel spirit: `legal_actions(state)` and
`apply_action(state, action, choices, seed) -> PlayResult`, plus `play_response` for the contract's
`POST /api/play` / `fluxx-adjudicator play`.

Nothing here decides a rule. A move becomes facts (the state's, from facts.py, plus
`do_play(S,C)`, the given choices `choice(Key,Value)`, the set-aside sub-hands of the state, and
for a seeded run the random keys), the rules engine (the rules program of the table's game plus
the move program, rules_asp/hubs/moves_*.lp: solve.hub_files) derives the next state as `next_*`
atoms, one answer set per possible outcome, and each answer set is written back as a TableState
(next_state.py) with its ruling.
docs/PLAYS.md documents the moves, choices and extension fields.
"""

from __future__ import annotations

import math
import random
import re
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from itertools import islice
from pathlib import Path
from typing import Any

import clingo
import clingo.ast
import orjson

from ..cards.catalog import Catalog, catalog_for
from ..engine import solve
from ..engine.facts import state_facts, term
from ..engine.speed import batch
from ..engine.terms import Term, handles, read_atoms
from ..errors import InputError, error, pointer
from ..messages import by_lang, pair
from ..resources import rules_dir
from ..table.choices import (
    CARD_KEYS,
    CARD_LIST_KEYS,
    CHOICE_KEYS,
    DIRECTIONS,
    DRIVER_KEYS,
    PHASE,
    PLAYER_KEYS,
    SUB_HANDS,
    card_id,
    choice_card,
    normalize_choices,
    seat_of,
    sub_hands,
    unknown_choice_key,
)
from ..table.reader import UNKNOWN_CARD, UnknownChoiceKeys, read_play
from ..table.schema import MOVE_KINDS
from ..table.state import TableState
from . import draw_odds, rounds
from .changes import changes, revealed, zones_of
from .next_state import card_of, chance_keys_of, next_state, open_choices_of, picks_of
from .render import Atoms, Context, cites_of, findings_of
from .ruling import ruling_for, rulings_for

# Cards a seeded move of a deckless edition may make (Fluxxnomic's Gambling: n up to 100,
# rules_asp/moves/phase_moves.lp's gamble_max).
MADE_KEYS = 100
MAX_OUTCOMES = 24  # outcomes listed in full; beyond that the open choices say what to decide
# Bytes of JSON the outcomes listed may take together (the first is always listed): each outcome
# is a whole table and its ruling, so a large table (a request near its 256 KB) would otherwise
# be answered with 24 copies of itself. Past it the outcomes are cut as past MAX_OUTCOMES, and
# the answer says so (`outcomes_truncated`, `outcomes_size_limit`).
MAX_OUTCOME_BYTES = 1 << 20
# (the bytes the outcomes of one play may take here: less where several plays share an answer,
# together.py's MAX_PLAYS_BYTES)
OUTCOME_BYTES: ContextVar[int] = ContextVar("fluxx_outcome_bytes", default=MAX_OUTCOME_BYTES)
# Choice keys (docs/PLAYS.md) and the shape of their values: table/choices.py (the reader
# checks the choices a link of `pending` keeps with the same code).


@dataclass
class Outcome:
    state: TableState
    ruling: dict[str, Any] | None
    picks: dict[str, list[Any]]  # the decisions and random results that led here
    findings: list[dict[str, Any]]
    changes: list[dict[str, Any]] = field(default_factory=list)  # what the move changed
    chance_keys: frozenset[str] = frozenset()  # the keys of `picks` that are random results
    # the odds of the random results given the decisions (odds.lp); None: nothing random
    probability: Fraction | None = None
    # how many unknown cards left each hand, by player (next_unknown_out/2: for `changes`)
    unknown_out: dict[str, int] = field(default_factory=dict)
    # who was given cards another player drew (next_gifted/1: for `changes`)
    gifted: frozenset[str] = frozenset()
    # whose whole hand went to whom (next_hand_to/2: for `changes`)
    hands_to: dict[str, str] = field(default_factory=dict)

    def chosen(self) -> dict[str, list[Any]]:
        """The decisions alone (the picks that are not random results)."""
        return {k: v for k, v in self.picks.items() if k not in self.chance_keys}

    def to_json(self) -> dict[str, Any]:
        winner = (self.ruling or {}).get("winner")
        out: dict[str, Any] = {**({"wins": winner} if winner else {}),
                               "changes": self.changes,
                               "state": self.state.to_json(), "ruling": self.ruling}
        if self.picks:
            out["choices"] = self.picks
        if self.probability is not None:
            out["probability"] = str(self.probability)
        out["play_findings"] = self.findings
        return out


@dataclass
class PlayResult:
    legal: bool
    reasons: list[dict[str, Any]] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    open_choices: list[dict[str, Any]] = field(default_factory=list)
    truncated: bool = False
    cut_by_size: bool = False  # outcomes left out for OUTCOME_BYTES (truncated too)
    size_limit: int = MAX_OUTCOME_BYTES  # the OUTCOME_BYTES that cut them
    # the random results (and decisions) that lead to a play whose effect is unknown (a card no
    # rule plays, its text missing: `reasons` says which), with their probability: no table can
    # be given for them, so they are not among `outcomes`
    unknown: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out = {"ok": True, "legal": self.legal, "reasons": self.reasons,
               "outcomes": [o.to_json() for o in self.outcomes],
               "open_choices": self.open_choices}
        if self.unknown:
            out["outcomes_unknown"] = self.unknown
        if len(self.outcomes) > 1:
            out["groups"] = groups(self.outcomes)
        if self.truncated:
            out["outcomes_truncated"] = True
        if self.cut_by_size:
            out["outcomes_size_limit"] = self.size_limit
        return out


def groups(outcomes: list[Outcome]) -> list[dict[str, Any]]:
    """The outcomes grouped by the decisions that lead to them: outcomes that differ only in
    random results share a group (their probabilities add up to 1 when all are listed, with
    those of the group's random results whose effect is unknown: PlayResult.unknown). Groups
    and the outcomes in them keep the outcomes' order (those in which someone wins first)."""
    out: list[dict[str, Any]] = []
    index: dict[str, dict[str, Any]] = {}
    for i, outcome in enumerate(outcomes):
        chosen = outcome.chosen()
        key = repr(sorted(chosen.items()))
        if key not in index:
            index[key] = {"choices": chosen, "outcomes": []}
            out.append(index[key])
        index[key]["outcomes"].append(i)
    return out


def _odds(atoms: Atoms) -> Fraction | None:
    """The probability of an outcome's random results (rules_asp/moves/odds.lp): W/N for each
    result drawn, and for a deal of a shuffled pool (Scramble Keepers) the product of n! over
    the players divided by the pool's size factorial. None when the outcome drew nothing."""
    odds = atoms.args("chance_odds", 4)
    deals: dict[str, list[int]] = defaultdict(list)
    for key, _, n in atoms.args("chance_deal", 3):
        deals[key.name].append(n.number)
    subsets = atoms.args("chance_subset", 4) + atoms.args("chance_subset_of", 4)
    powers = atoms.args("chance_power", 6)
    if not odds and not deals and not subsets and not powers:
        return None
    p = Fraction(1)
    for _, _, w, n in odds:
        p *= Fraction(w.number, n.number)
    # a random set of K cards of N (Hand limit 5's discard): C(copies, picked) per card over C(H, K)
    for _, _, n, k in atoms.args("chance_subset", 4):
        p *= math.comb(n.number, k.number)
    for _, _, n, k in atoms.args("chance_subset_of", 4):
        p /= math.comb(n.number, k.number)
    # E cards made alike, each with chances W in N (Gambling): (W/N)^E, or its complement
    for _, _, w, n, e, how in powers:
        q = Fraction(w.number, n.number) ** e.number
        p *= 1 - q if how.name == "complement" else q
    for counts in deals.values():
        p *= Fraction(math.prod(math.factorial(n) for n in counts), math.factorial(sum(counts)))
    return p


def _json_size(value: Any) -> int:
    try:
        return len(orjson.dumps(value))
    except TypeError:  # an integer beyond 64 bits in a field kept as given
        import json

        return len(json.dumps(value, ensure_ascii=False).encode("utf-8"))


def _within_size(outcomes: list[Outcome], game: Catalog) -> tuple[list[Outcome], bool]:
    """The outcomes whose JSON fits OUTCOME_BYTES together, in order (the first always),
    each ruled where it is not yet, and whether any was left out. Outcomes are ruled together,
    batch.MAX_BATCH at a time (`_rule`): those of the chunks past the budget are never ruled."""
    kept: list[Outcome] = []
    size, budget = 0, OUTCOME_BYTES.get()
    for start in range(0, len(outcomes), batch.MAX_BATCH):
        chunk = outcomes[start:start + batch.MAX_BATCH]
        _rule(chunk, game)
        for outcome in chunk:
            size += _json_size(outcome.to_json())
            if kept and size > budget:
                return kept, True
            kept.append(outcome)
    return kept, False


def _rule(outcomes: list[Outcome], game: Catalog) -> None:
    """Rules the outcomes not yet ruled, together (ruling.rulings_for: one grounding for up to
    batch.MAX_BATCH tables costs about what two or three tables cost alone)."""
    unruled = [o for o in outcomes if o.ruling is None]
    here = rounds.ROUND.get()
    # in a round (together.py), worked out with what its other tasks ask
    found = (rulings_for([o.state for o in unruled], game) if here is None
             else here.rulings_of([o.state for o in unruled]))
    for outcome, ruling in zip(unruled, found, strict=True):
        outcome.ruling = ruling


def _fit(result: PlayResult, game: Catalog) -> PlayResult:
    """`result` with its outcomes ruled and cut to OUTCOME_BYTES (`_within_size`)."""
    result.outcomes, cut = _within_size(result.outcomes, game)
    if cut:
        result.truncated = result.cut_by_size = True
        result.size_limit = OUTCOME_BYTES.get()
    return result


# ---- the program -------------------------------------------------------------------------------
def _included(hub: Path) -> list[str]:
    """The files a hub includes, hubs expanded (the move files, in include order), each as its
    path under rules_asp/ (an #include is relative to the including file)."""
    out: list[str] = []
    for name in re.findall(r'^#include "([^"]+)"\.', hub.read_text(encoding="utf-8"), re.M):
        path = (hub.parent / name).resolve()
        out += (_included(path) if path.parent == solve.hubs_dir().resolve()
                else [path.relative_to(rules_dir().resolve()).as_posix()])
    return out


# Every file of the move program (the full move hub's), e.g. for the message keys it uses.
PLAY_FILES = tuple(_included(solve.hubs_dir() / solve.PLAY_HUB))


def _play_statements(edition: str | None = None,
                     expansions: Iterable[str] = ()) -> tuple[clingo.ast.AST, ...]:
    """The parsed play program of a game (all of it without an edition); solve.parsed caches."""
    return solve.play_program(edition, expansions)


@cache
def game_program(game: tuple[str | None, tuple[str, ...]]) -> tuple[clingo.ast.AST, ...]:
    """The rules program and the play program of the game (edition, expansions), as a play
    grounds them (alone, or with the other plays of its table: plays.solve_plays): one tuple
    per game, so the analysis of which rules can fire (solve.pruned) is made once for it."""
    edition, expansions = game
    return (solve.program(edition=edition, expansions=expansions)
            + _play_statements(edition, expansions))


FULL: tuple[str | None, tuple[str, ...]] = (None, ())  # the full programs (no edition given)


def _game_of(state: TableState) -> tuple[str | None, tuple[str, ...]]:
    return state.edition, tuple(state.expansions)


def _solve(facts: str, limit: int, sample: int | None = None,
           game: tuple[str | None, tuple[str, ...]] = FULL
           ) -> tuple[list[list[Term]], bool]:
    """Up to `limit` answer sets (projected on the shown atoms, read as Terms: terms.py) and
    whether there were more.
    With `sample`, one answer set found by a randomized search seeded with it (the simulator's
    random decisions). `game` = (edition, expansions) chooses the programs (game_program).
    In a round (together.py), worked out with what its other tasks ask (rounds.py)."""
    here = rounds.ROUND.get()
    if here is not None and game == here.game:
        return here.solution(facts, limit, sample)
    return solve_alone(facts, limit, game, sample)


def solve_alone(facts: str, limit: int, game: tuple[str | None, tuple[str, ...]] = FULL,
                sample: int | None = None) -> tuple[list[list[Term]], bool]:
    """`_solve` in a grounding of its own."""
    options = [f"--models={limit + 1}", "--project=show", "--warn=none"]
    if sample is not None:
        options = ["--models=1", "--warn=none", f"--seed={sample}", "--rand-freq=1"]
    # the engine's time limit counts grounding too, so the clock starts before the Control
    started = time.perf_counter()
    ctl = clingo.Control(options)
    # shared parsed ASTs: added under the engine's lock (concurrent adds corrupt them); the rules
    # that cannot fire with these facts are left out (relevance.py)
    # forwards only: a play's facts are often a new table, where the backward analysis costs
    # more than it saves (bench/HISTORY.md)
    grounding = solve.plan(game_program(game), [facts], backwards=False)
    solve.add_statements(ctl, grounding.statements, grounding.texts)
    ctl.ground([("base", [])])
    models: list[list[Term]] = []
    # read by clingo's handles: no Symbol object made per atom (a discard's 21 answer sets)
    solve.solve_within(ctl, started,
                        lambda model: models.append(read_atoms(handles(model.symbols(shown=True)))))
    more = len(models) > limit
    return models[:limit], more


def _brave(facts: str, game: tuple[str | None, tuple[str, ...]] = FULL) -> list[Term]:
    """The union of all answer sets' pick/2 and chance/2 atoms (the options of each decision)."""
    started = time.perf_counter()
    ctl = clingo.Control(["--enum-mode=brave", "--warn=none"])
    # shared parsed ASTs: added under the engine's lock (concurrent adds corrupt them)
    # forwards only: a play's facts are often a new table, where the backward analysis costs
    # more than it saves (bench/HISTORY.md)
    grounding = solve.plan(game_program(game), [facts], backwards=False)
    solve.add_statements(ctl, grounding.statements, grounding.texts)
    ctl.ground([("base", [])])
    last: list[clingo.Symbol] = []

    def keep_last(model: clingo.Model) -> None:
        # brave enumeration: each model widens the previous one, the last holds the consequences
        last[:] = model.symbols(shown=True)

    solve.solve_within(ctl, started, keep_last)
    return [t for t in read_atoms(last) if t.name in ("pick", "chance")]


@cache
def play_finding_keys() -> frozenset[str]:
    """The message keys the play program's own findings use (the rest is the core's ruling)."""
    keys: set[str] = set()
    for name in PLAY_FILES:
        text = (rules_dir() / name).read_text(encoding="utf-8")
        keys |= set(re.findall(r"finding\(\w+, *([a-z]\w*)", text))
        keys |= set(re.findall(r"illegal\(([a-z]\w*),", text))
    return frozenset(keys)


# ---- facts --------------------------------------------------------------------------------------
_seat_of = seat_of
_card = card_id
_sub_hands = sub_hands


def _choice_facts(state: TableState, game: Catalog, choices: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for key, value in choices.items():
        path = pointer("play", "choices", key)
        if key not in CHOICE_KEYS:
            raise InputError(unknown_choice_key(key, path))
        if key in DRIVER_KEYS:
            if key == "order":  # the cards the player plays from a sub-hand: named, not drawn
                out.append("choice_given(order).")
            continue
        out.append(f"choice_given({key}).")
        if key == "reveal":  # the table names unknown cards of a hand: they are in that hand
            out += [f.replace("choice(reveal,(", "revealed(").replace(")).", ").")
                    for f in _player_cards(state, game, key, value, path)]
        elif key in CARD_KEYS:
            out.append(f"choice({key},{term(choice_card(game, key, value, path))}).")
        elif key in CARD_LIST_KEYS:
            items = value if isinstance(value, list) else [value]
            cards = [_card(game, v, f"{path}/{i}") for i, v in enumerate(items)]
            out += [f"choice({key},{term(c)})." for c in cards]
            # a card listed more than once: that many copies of it (choice/2 is a set)
            out += [f"choice_copies({key},{term(c)},{k})." for c, k in Counter(cards).items()
                    if k > 1]
        elif key in PLAYER_KEYS:
            out.append(f"choice({key},{_seat_of(state, value, path)}).")
        elif key == "direction":
            if value not in DIRECTIONS:
                raise InputError(error(path, "direction", list(DIRECTIONS)))
            out.append(f"choice(direction,{value}).")
        elif key == "gambling":  # Gambling's result the table saw (the schema's enum)
            out.append(f"choice(gambling,{value[0] if isinstance(value, list) else value}).")
        elif key == "n":  # a number the player chose (bounded by the schema)
            out.append(f"choice(n,{int(value[0] if isinstance(value, list) else value)}).")
        else:
            out += _player_cards(state, game, key, value, path)
    return out


def _player_cards(state: TableState, game: Catalog, key: str, value: Any, path: str) -> list[str]:
    """A choice `{player: card or [cards]}` as choice(Key,(Seat,Card)) facts."""
    if not isinstance(value, dict):
        raise InputError(error(path, "player_cards_object"))
    out = []
    for name, cards in value.items():
        seat = _seat_of(state, name, f"{path}/{name}")
        items = cards if isinstance(cards, list) else [cards]
        out += [f"choice({key},({seat},{term(_card(game, c, f'{path}/{name}'))}))."
                for c in items]
    return out


def _move_facts(state: TableState, game: Catalog, action: dict[str, Any]) -> list[str]:
    kind = action.get("kind", "play")
    if kind not in MOVE_KINDS:
        raise InputError(error("/play/kind", "unknown_move", list(MOVE_KINDS), kind=kind))
    if kind == "join":  # who becomes a player (joining.lp): whether they may is the rules'
        return [f"do_join({_joiner_term(state, action.get('player'))})."]
    seat = _seat_of(state, action.get("player") or state.active, "/play/player")
    if kind == "play" and action.get("card") is None:  # which card: the answer says
        return [f"do_play_unnamed({seat})."]
    if kind == "play":
        return [f"do_play({seat},{term(_card(game, action.get('card'), '/play/card'))})."]
    if kind == "surprise":  # a Surprise answering the open chain, out of turn (surprise_moves.lp)
        return [f"do_answer({seat},{term(_card(game, action.get('card'), '/play/card'))})."]
    if kind == "free_action":  # a rule's or a Creeper's free action (free_action_moves.lp)
        return [f"do_free_action({seat},{term(_card(game, action.get('card'), '/play/card'))})."]
    return [{"play_random": "do_play_random({})", "draw": "do_draw({})",
             "discard": "do_discard({})", "end_turn": "do_end_turn({})",
             "resolve": "do_resolve({})"}[kind].format(seat) + "."]


def _joiner_term(state: TableState, name: str | None) -> str:
    """Who a join seats, as the rules name them: a name at the table already (seated(S)), a
    former player (former(I), by their place in phase.former_players), else a newcomer (also a
    join that names nobody yet: the answer asks for the name)."""
    names = [p.name for p in state.players]
    if name in names:
        return f"seated({names.index(name)})"
    former = [f["player"] for f in (state.extra.get(PHASE) or {}).get("former_players") or []]
    return f"former({former.index(name)})" if name in former else "newcomer"


def _joiner(action: dict[str, Any]) -> str | None:
    """The name a join move seats (None for any other move, or a join naming nobody)."""
    return action.get("player") if action.get("kind") == "join" else None


def _seed_facts(game: Catalog, seed: int) -> list[str]:
    rng = random.Random(seed)
    ids = [c.id for c in game if c.playable]
    shuffle = rng.sample(range(len(ids)), len(ids))
    keys = rng.sample(range(len(ids) + 1), len(ids) + 1)
    out = [f"shuffle_key({term(c)},{k})." for c, k in zip(ids, shuffle, strict=True)]
    out += [f"random_key({term(c)},{k})." for c, k in zip(ids + ["unknown"], keys, strict=True)]
    if game.copies_unlimited:  # cards made at random (Fluxxnomic): the rules pick by the key
        out += [f"made_key({i},{rng.randrange(1 << 30)})." for i in range(MADE_KEYS)]
    return out


def _drawn_facts(game: Catalog, choices: dict[str, Any]) -> list[str]:
    """Cards the table saw drawn from an unknown pile: they are its top cards, in order."""
    named = choices.get("drawn")
    if not named:
        return []
    items = named if isinstance(named, list) else [named]
    # "?": a card drawn that the table did not see (it went into the hand face down)
    return [f"pile_hidden({i})." if v == UNKNOWN_CARD else
            f"pile_named({term(_card(game, v, f'/play/choices/drawn/{i}'))},{i})."
            for i, v in enumerate(items)]


def chain_choices(state: TableState, game: Catalog, action: dict[str, Any],
                  choices: dict[str, Any]) -> dict[str, Any]:
    """The choices of a move: for `resolve`, those kept with the chain's first play (its link 0
    in `pending`, docs/PLAYS.md) with the request's added; a request may not change one."""
    if action.get("kind") != "resolve" or not state.pending or not state.pending[0].choices:
        return choices
    link = state.pending[0]
    merged = dict(link.choices)
    given = normalize_choices(choices, game, [p.name for p in state.players], "/play/choices")
    for key, value in given.items():
        if key in merged and merged[key] != value:
            name = game.get(link.card)
            raise InputError(error(pointer("play", "choices", key), "chosen_before",
                                   [str(merged[key])], key=key, value=merged[key],
                                   card=by_lang(name.ref("en"), name.ref("zh"))))
        merged[key] = value
    return merged


def build_facts(state: TableState, action: dict[str, Any], choices: dict[str, Any] | None = None,
                seed: int | None = None, game: Catalog | None = None) -> str:
    game = game or catalog_for(state.edition, state.expansions)
    choices = chain_choices(state, game, action, choices or {})
    lines = [state_facts(state, game)]
    lines += _move_facts(state, game, action)
    lines += _choice_facts(state, game, choices)
    lines += _drawn_facts(game, choices)
    if seed is not None:
        lines += _seed_facts(game, seed)
    return "\n".join(lines) + "\n"


# ---- the move ----------------------------------------------------------------------------------
def _with_asked_keys(state: TableState, game: Catalog, play: dict[str, Any],
                     err: UnknownChoiceKeys) -> InputError:
    """read_play refused the play for unknown choice keys alone: the error, suggesting the keys
    this move asks for (which only the rules program knows) before close spellings."""
    known = {k: v for k, v in (play.get("choices") or {}).items() if k not in err.keys}
    kind = play.get("kind") or "play"
    action = {"kind": kind, "player": play.get("player") or state.active}
    if kind in ("play", "surprise", "free_action"):
        action["card"] = play.get("card")
    seed = None if play.get("seed") is None else int(play["seed"])
    asked = _asked_keys(state, game, action, known, seed)
    return InputError([unknown_choice_key(k, pointer("play", "choices", k), asked)
                       for k in err.keys])


def _asked_keys(state: TableState, game: Catalog, action: dict[str, Any],
                choices: dict[str, Any], seed: int | None) -> list[str]:
    """The choice keys of the decisions the engine finds open for this move (brave reasoning).
    A play that would wait in the Surprise chain decides nothing yet: its keys are those of
    closing the chain with it as the first link."""
    try:
        keys = _brave_keys(state, action, choices, seed, game)
        ahead = None if keys else _as_first_link(state, action, choices, seed)
        if ahead is not None:
            keys = _brave_keys(ahead, {"kind": "resolve"}, choices, seed, game)
    except InputError:
        return []
    return sorted(keys)


def _brave_keys(state: TableState, action: dict[str, Any], choices: dict[str, Any],
                seed: int | None, game: Catalog) -> set[str]:
    facts = build_facts(state, action, choices, seed, game)
    return {t.arguments[0].name for t in _brave(facts, _game_of(state))}


def _as_first_link(state: TableState, action: dict[str, Any], choices: dict[str, Any],
                   seed: int | None) -> TableState | None:
    """The table after the move when the engine puts the card in the Surprise chain (the one
    outcome's `pending`, rules_asp/moves/chain_moves.lp), else None."""
    if action.get("kind", "play") != "play" or state.pending:
        return None
    result = apply_action(state, action, choices, seed, with_ruling=False, limit=1)
    if not result.legal or len(result.outcomes) != 1:
        return None
    after = result.outcomes[0].state
    return after if after.pending else None


def apply_action(state: TableState, action: dict[str, Any], choices: dict[str, Any] | None = None,
                 seed: int | None = None, *, with_ruling: bool = True,
                 limit: int = MAX_OUTCOMES, sample: int | None = None,
                 keep: dict[str, Any] | None = None) -> PlayResult:
    """All outcomes of one move (up to `limit`), or why it is not legal. With `sample` (a seed),
    one outcome picked by a randomized search, without open choices: a random player's move.
    `keep`: the choices a new link of the Surprise chain keeps (default: `choices`)."""
    game = catalog_for(state.edition, state.expansions)
    choices = dict(choices or {})
    ctx = Context(state, game, newcomer=_joiner(action))
    choices = chain_choices(state, game, action, choices)
    if keep is None:
        keep = normalize_choices(choices, game, [p.name for p in state.players], "/play/choices")
    facts = build_facts(state, action, choices, seed, game)
    models, more = _solve(facts, limit, sample, _game_of(state))
    if sample is not None:
        more = False
    if not models:
        return _no_outcome(state, game, action, choices, seed)
    read = [Atoms.of(m) for m in models]  # each answer set read once
    first = read[0]
    illegal = first.args("illegal", 2)
    if illegal:
        keys = {k.name for k, _ in illegal}
        return PlayResult(legal=False,
                          reasons=findings_of(first, ctx, cites_of(first, ctx, keys), keys))
    # the answer sets in which the rules say what playing the card does is unknown
    # (rules_asp/moves/actions.lp): every one for such a card played, some only for a random
    # first play that may pick it, whatever order clingo met them in
    effect_unknown = [a for a in read if a.args("play_effect_unknown", 1)]
    missing, unknown = _unknown_effect(ctx, effect_unknown)
    read = [atoms for atoms in read if not atoms.args("play_effect_unknown", 1)]
    if not read:
        return PlayResult(legal=True, reasons=missing)
    first = read[0]
    asked = first.args("number_open", 3)
    if asked and sample is not None:
        # a random player (the simulator) chooses the number the rules ask for
        # (a modest number: up to four more than the least, so that simulated tables stay small)
        rng = random.Random(sample)
        chosen = {key.name: rng.randint(low.number, min(high.number, low.number + 4))
                  for key, low, high in asked}
        return apply_action(state, action, {**choices, **chosen}, seed, with_ruling=with_ruling,
                            limit=limit, sample=sample, keep=keep)
    if asked:
        # a number the player chooses (Gambling's n): the answer asks for it (phase_moves.lp)
        return PlayResult(legal=True, open_choices=[
            {"key": key.name, "kind": "choice", "minimum": low.number, "maximum": high.number}
            for key, low, high in asked])
    if action.get("kind") == "join" and not action.get("player"):
        # a newcomer may join: who they are is the table's to say (any name not at the table)
        return PlayResult(legal=True, open_choices=[{"key": "player", "kind": "name"}])
    named = first.args("card_to_name", 1)
    if action.get("kind", "play") == "play" and action.get("card") is None:
        # a card of a hand the table does not show: the table names it (the cards it may be)
        return PlayResult(legal=True, open_choices=[{
            "key": "card", "kind": "name",
            "options": sorted(card_of(c) for (c,) in named)}])
    sets: list[list[str]] = []
    drawer = _drawer(read)
    if sample is None and not choices.get("drawn") and drawer is not None:
        # the cards drawn from a pile given as a count matter at once (unseen_draws.lp: a
        # sub-hand's; creeper_moves.lp: the Creepers a draw into a hand brings): one outcome per
        # set it may draw (draw_odds: the likelier first), as many as may be listed
        # (at most MAX_OUTCOMES sets, whatever `limit`: each set is an outcome to ground and rule)
        sets, set_odds, more_sets = _draw_sets(drawer, min(limit, MAX_OUTCOMES))
    if sets:
        facts += "".join(_set_facts(i, cards) for i, cards in enumerate(sets))
        models, more = _solve(facts, limit, None, _game_of(state))
        more = more or more_sets
        # the outcomes that draw no set (a random first play's other cards) first, then the
        # sets' in their order
        read = sorted((a for a in map(Atoms.of, models) if not a.args("play_effect_unknown", 1)),
                      key=lambda a: [i.number for (i,) in a.args("drawn_set", 1)] or [-1])
    outcomes: list[Outcome] = []
    seen: dict[str, Outcome] = {}
    for atoms in read:
        new_state = next_state(state, atoms, keep, _joiner(action))
        picks, chance_keys, odds = picks_of(ctx, atoms), chance_keys_of(atoms), _odds(atoms)
        for (index,) in atoms.args("drawn_set", 1):  # the set drawn, each copy named
            picks["drawn"] = sets[index.number]
            odds = _times(odds, set_odds[index.number])
        fingerprint = rounds.fingerprint(new_state)
        if fingerprint in seen:
            # two random results that leave the same table are one outcome: their odds add up
            same = seen[fingerprint]
            if same.probability is not None and odds is not None and same.chosen() == {
                    k: v for k, v in picks.items() if k not in chance_keys}:
                same.probability += odds
            continue
        keys = play_finding_keys()
        outcomes.append(Outcome(
            state=new_state, ruling=None, picks=picks, chance_keys=chance_keys, probability=odds,
            findings=findings_of(atoms, ctx, cites_of(atoms, ctx, keys), keys),
            unknown_out={ctx.player(s): k.number for s, k in atoms.args("next_unknown_out", 2)},
            gifted=frozenset(ctx.player(s) for (s,) in atoms.args("next_gifted", 1)),
            hands_to={ctx.player(s): ctx.player(t) for s, t in atoms.args("next_hand_to", 2)}))
        seen[fingerprint] = outcomes[-1]
    cut = False
    if with_ruling:  # ruled in order, as long as the answer can hold them
        outcomes, cut = _within_size(outcomes, game)
        more = more or cut
    result = PlayResult(legal=True, reasons=missing, outcomes=outcomes, truncated=more,
                        cut_by_size=cut, size_limit=OUTCOME_BYTES.get(),
                        unknown=[_unknown_json(u) for u in unknown])
    picked = [(o.picks, o.chance_keys) for o in outcomes] + [(p, k) for p, k, _ in unknown]
    if sets and more:  # what the sets not listed may draw (_draw_sets)
        result.open_choices = [o for o in _open_from(picked) if o["key"] != "drawn"] + [
            _left_open(drawer)]
    elif len(picked) > 1 or more:
        result.open_choices = (open_choices_of(ctx, _brave(facts, _game_of(state))) if more
                               else _open_from(picked))
    # the unknown cards a hand must name, in any outcome (a random pick may take the unknown
    # card in one outcome only): read from every answer set, whatever order clingo met them in
    reveal: dict[str | None, int] = {}
    for atoms in read + effect_unknown:  # (a pick of an unknown card has no table till named)
        for seat, count in atoms.args("open_reveal", 2):
            name = ctx.player(seat)
            reveal[name] = max(reveal.get(name, 0), count.number)
    seats = [p.name for p in state.players]
    for name in sorted(reveal, key=lambda n: seats.index(n) if n in seats else len(seats)):
        result.open_choices.append({"key": "reveal", "kind": "unknown", "player": name,
                                    "count": reveal[name]})
    return result


def _unknown_effect(ctx: Context, read: list[Atoms]
                    ) -> tuple[list[dict[str, Any]],
                               list[tuple[dict[str, list[Any]], frozenset[str], Fraction | None]]]:
    """Of answer sets in which what playing the card does is unknown (play_effect_unknown):
    their `play_text_missing` findings, each once, and each one's (picks, chance keys,
    probability), one per distinct picks."""
    reasons: dict[str, dict[str, Any]] = {}
    unknown: dict[str, tuple[dict[str, list[Any]], frozenset[str], Fraction | None]] = {}
    for atoms in read:
        only = ("play_text_missing", "random_pick_unknown")
        for f in findings_of(atoms, ctx, cites_of(atoms, ctx, only), only):
            reasons.setdefault(f["text"]["en"], f)
        picks = picks_of(ctx, atoms)
        unknown.setdefault(repr(sorted(picks.items())),
                           (picks, chance_keys_of(atoms), _odds(atoms)))
    return list(reasons.values()), list(unknown.values())


def _unknown_json(entry: tuple[dict[str, list[Any]], frozenset[str], Fraction | None]
                  ) -> dict[str, Any]:
    picks, _, odds = entry
    out: dict[str, Any] = {"choices": picks}
    if odds is not None:
        out["probability"] = str(odds)
    return out


# what a draw from a pile given as a count reads (_draw_sets, _left_open)
_DRAW_ATOMS = (("odds_draw", 1), ("odds_hidden", 1), ("unseen_copies", 2), ("unseen_creeper", 2),
               ("creeper_odds", 2), ("creeper_pool", 1), ("creeper_sets_short", 0))


def _drawer(read: list[Atoms]) -> Atoms | None:
    """The atoms of an answer set whose draw from a pile given as a count lists its sets
    (_draw_sets), when every answer set that draws so draws alike, whatever order clingo met
    them in (a random first play draws only in the outcomes that pick such a card); None when
    none draws so, or when they draw differently (a random pick between two such draws: each
    draw is then told as a count)."""
    found: dict[tuple[tuple[str, ...], ...], Atoms] = {}
    for atoms in read:
        if atoms.args("odds_draw", 1) or atoms.args("creeper_odds", 2):
            key = tuple(tuple(sorted(str(a) for a in atoms.args(name, arity)))
                        for name, arity in _DRAW_ATOMS)
            found.setdefault(key, atoms)
    return next(iter(found.values())) if len(found) == 1 else None


def _draw_sets(first: Atoms, limit: int) -> tuple[list[list[str]], list[Fraction], bool]:
    """The first `limit` sets a draw from a pile given as a count may draw, as its `drawn`, with
    their odds, and whether some sets are left out (`_left_open` then says what they may draw).
    A sub-hand's draw (the rules' odds_draw/1, unseen_copies/2: unseen_draws.lp; odds_hidden/1:
    the hands' unknown cards, none a Creeper, creeper_moves.lp) names each card; a draw into a
    hand in a game with Creepers (creeper_odds/2, unseen_creeper/2, creeper_pool/1,
    creeper_sets_short/0: creeper_moves.lp) names the Creepers it brings and writes its N cards
    drawn unseen into the hand as "?" (the Creepers first: one order that draw may take)."""
    unseen = {card_of(c): u.number for c, u in first.args("unseen_copies", 2)}
    creepers = {card_of(c): u.number for c, u in first.args("unseen_creeper", 2)}
    if first.args("odds_draw", 1):
        (n,), = first.args("odds_draw", 1)
        hidden = sum(h.number for (h,) in first.args("odds_hidden", 1))
        unhidden = frozenset(creepers)
        found = list(islice(draw_odds.draws(unseen, n.number, hidden, unhidden), limit + 1))
        return (found[:limit], [draw_odds.odds(unseen, s, hidden, unhidden)
                                for s in found[:limit]], len(found) > limit)
    if not first.args("creeper_odds", 2):
        return [], [], False
    (n, most), = first.args("creeper_odds", 2)
    (pool,), = first.args("creeper_pool", 1)  # the unseen copies no hand hides
    every = draw_odds.creeper_draws(creepers, pool.number, n.number, most.number)
    listed = every[:limit]
    sets = [drawn + [UNKNOWN_CARD] * n.number for drawn, _ in listed]
    # sets left out: too many to list, or too many Creepers for the pile to replace (the rules')
    return (sets, [p for _, p in listed],
            len(every) > limit or bool(first.args("creeper_sets_short", 0)))


def _set_facts(index: int, cards: list[str]) -> str:
    """A set listed (unseen_draws.lp): its named cards in order, and its cards drawn unseen."""
    return f"listed_set({index}).\n" + "".join(
        f"draw_hidden({index},{j}).\n" if c == UNKNOWN_CARD else
        f"draw_set({index},{term(c)},{j}).\n" for j, c in enumerate(cards))


def _left_open(first: Atoms) -> dict[str, Any]:
    """The open choice `drawn` of a draw whose listed outcomes were cut (by size or limit)."""
    unseen = {card_of(c): u.number for c, u in first.args("unseen_copies", 2)}
    for (n,) in first.args("odds_draw", 1):
        return {"key": "drawn", "kind": "chance", "options": sorted(unseen), "count": n.number}
    (n, _), = first.args("creeper_odds", 2)
    return {"key": "drawn", "kind": "chance", "count": n.number, "options": sorted(
        [card_of(c) for c, _ in first.args("unseen_creeper", 2)] + [UNKNOWN_CARD])}


def _made_at_once(result: PlayResult, game: Catalog,
                  keepers: list[str] | None = None) -> PlayResult:
    """Where an outcome's ruling lists a move the rules make at once (`at_once`: a Keep Going
    claim, rules_asp/ruling/legal_moves.lp), that move is made: its outcomes replace that
    outcome, with the decisions and random results of both. `keepers`: the play's choice of
    the Keepers a claim discards (only the claim that discards them is made)."""
    if not result.legal:
        return result
    outcomes: list[Outcome] = []
    _rule(result.outcomes, game)
    for outcome in result.outcomes:
        ruling = outcome.ruling or {}
        now = [m for m in ruling.get("legal_moves", []) if m.get("at_once")]
        if not now:
            outcomes.append(outcome)
            continue
        # (the claimant's ways of meeting the Goal are moves of one player: each is made)
        ways = [m for m in now if m["player"] == now[0]["player"]]
        named = [m for m in ways if Counter(m.get("keepers") or ()) == Counter(keepers or ())]
        if keepers is not None and ways and not named:  # they name no way of meeting it
            listed = "keepers: " + "; ".join(", ".join(m.get("keepers") or ()) for m in ways)
            raise InputError(error("/play/choices/keepers", "no_outcome", ["keepers"],
                                   kept=by_lang("", ""), open=by_lang(listed, listed)))
        subs = [apply_action(outcome.state, m["play"], m["play"].get("choices") or {})
                for m in (ways if keepers is None else named)]
        made = [o for sub in subs if sub.legal for o in sub.outcomes]
        if not made:
            outcomes.append(outcome)
            continue
        outcomes += [Outcome(state=o.state, ruling=o.ruling, picks={**outcome.picks, **o.picks},
                             findings=outcome.findings + o.findings,
                             chance_keys=outcome.chance_keys | o.chance_keys,
                             probability=_times(outcome.probability, o.probability),
                             unknown_out=dict(Counter(outcome.unknown_out)
                                              + Counter(o.unknown_out)),
                             gifted=outcome.gifted | o.gifted,
                             hands_to=_then(outcome.hands_to, o.hands_to))
                     for o in made]
    result.outcomes = outcomes
    if len(outcomes) > 1 and not result.open_choices:
        result.open_choices = _open_from((o.picks, o.chance_keys) for o in outcomes)
    return result


def _then(first: dict[str, str], second: dict[str, str]) -> dict[str, str]:
    """Where each hand went over two moves, from where it went in each (hands_to)."""
    came_from = {t: s for s, t in first.items()}  # (hands travel as a permutation)
    out = dict(first)
    for holder, t in second.items():
        out[came_from.get(holder, holder)] = t
    return {s: t for s, t in out.items() if s != t}


def _times(a: Fraction | None, b: Fraction | None) -> Fraction | None:
    return b if a is None else a if b is None else a * b


def _open_from(picked: Iterable[tuple[dict[str, list[Any]], frozenset[str]]]
               ) -> list[dict[str, Any]]:
    """The keys of several outcomes' `(picks, chance keys)` with more than one value among
    them, as open choices."""
    options: dict[str, list[Any]] = defaultdict(list)
    kinds: dict[str, str] = {}
    for picks, chance_keys in picked:
        for key, values in picks.items():
            for v in values:
                if v not in options[key]:
                    options[key].append(v)
            kinds[key] = "chance" if key in chance_keys else "choice"
    return [{"key": k, "kind": kinds[k], "options": sorted(v, key=str)}
            for k, v in sorted(options.items()) if len(v) > 1]


def _no_outcome(state: TableState, game: Catalog, action: dict[str, Any],
                choices: dict[str, Any], seed: int | None) -> PlayResult:
    """The given choices allow no outcome: say which choices are open without them."""
    ctx = Context(state, game)
    bare = {k: v for k, v in choices.items() if k in DRIVER_KEYS}
    kept = by_lang("", "")
    if action.get("kind") == "resolve" and state.pending and state.pending[0].choices:
        # the choices kept with the chain's first play are among those tried (chain_choices)
        kept = by_lang(**pair("errors", "no_outcome_kept"))
        state = replace(state, pending=[replace(state.pending[0], choices={})]
                        + state.pending[1:])
    facts = build_facts(state, action, bare, seed, game)
    options = open_choices_of(ctx, _brave(facts, _game_of(state)))
    listed = [f"{o['key']}: {', '.join(map(str, o['options']))}" for o in options]
    raise InputError(error("/play/choices", "no_outcome", [o["key"] for o in options],
                           kept=kept, open=by_lang("; ".join(listed), "；".join(listed))))


# ---- whole plays: a card and everything it makes the player play -------------------------------
def play_card(state: TableState, card: str | None, player: str | None = None,
              choices: dict[str, Any] | None = None, seed: int | None = None) -> PlayResult:
    """Plays `card`; with `choices["order"]` also plays out the sub-hand it sets aside."""
    action = {"kind": "play", "card": card, "player": player or state.active}
    return _play_through(state, action, choices, seed)


def _play_through(state: TableState, action: dict[str, Any], choices: dict[str, Any] | None,
                  seed: int | None) -> PlayResult:
    """A play or the closing of the chain (`resolve`), and the sub-hand it sets aside played out
    in the order `choices["order"]` gives."""
    game = catalog_for(state.edition, state.expansions)
    choices = dict(chain_choices(state, game, action, dict(choices or {})))
    # a link that waits in the chain keeps every choice given with it, `order` and `then` too
    keep = normalize_choices(choices, game, [p.name for p in state.players], "/play/choices")
    order = list(choices.pop("order", []) or [])
    then = dict(choices.pop("then", {}) or {})
    # a step whose outcome the next step of `order` replaces needs no ruling: rulings are made
    # for the final outcomes only (below), which saves one grounding per intermediate step
    # (`order` names the cards played from the sub-hand: the draw's cards are not enumerated)
    first = {**choices, "order": order} if order else choices
    result = apply_action(state, action, first, seed, with_ruling=not order, keep=keep)
    step = 0
    # a play of the sub-hand that waits in the Surprise chain stops it: the rest of `order` is
    # played once the chain is closed (a `resolve` with `order`)
    while (result.legal and order and len(result.outcomes) == 1 and not result.open_choices
           and result.outcomes[0].state.extra.get(SUB_HANDS)
           and not result.outcomes[0].state.pending):
        nxt = order.pop(0)
        step += 1
        sub_choices = then.get(nxt) or then.get(_card(game, nxt, "/play/choices/order")) or {}
        # the rest of `order` names the cards still to be played: a sub-hand this play draws is
        # not listed set by set (unseen_draws.lp); the chain keeps the play's own choices only
        sub = apply_action(result.outcomes[0].state,
                           {"kind": "play", "card": nxt, "player": action["player"]},
                           {**sub_choices, "order": order} if order else sub_choices,
                           None if seed is None else seed + step, with_ruling=not order,
                           keep=normalize_choices(sub_choices, game,
                                                  [p.name for p in state.players],
                                                  "/play/choices"))
        if not sub.legal:
            return sub
        before = result.outcomes[0]  # what the steps so far moved, then this step's
        for o in sub.outcomes:
            o.unknown_out = dict(Counter(before.unknown_out) + Counter(o.unknown_out))
            o.gifted = before.gifted | o.gifted
            o.hands_to = _then(before.hands_to, o.hands_to)
        result = PlayResult(legal=True, reasons=result.reasons + sub.reasons,
                            outcomes=sub.outcomes, open_choices=sub.open_choices,
                            truncated=sub.truncated, cut_by_size=sub.cut_by_size,
                            size_limit=sub.size_limit, unknown=sub.unknown)
    wanted = keep.get("keepers")
    result = _made_at_once(_fit(result, game), game,
                           None if wanted is None else list(wanted) if isinstance(wanted, list)
                           else [wanted])
    if result.legal and len(result.outcomes) == 1 and not result.open_choices:
        frames = result.outcomes[0].state.extra.get(SUB_HANDS)
        # the cards set aside still have to be played (once the chain, if any, is closed): say
        # which, in what order
        if frames and not result.outcomes[0].state.pending:
            # (cards of it the table does not show: counted, named by playing them)
            unseen = frames[-1].get("unknown") or 0
            result.open_choices = [{"key": "order", "kind": "choice",
                                    "options": list(frames[-1]["cards"]),
                                    "plays_left": frames[-1]["plays_left"],
                                    **({"unknown": unseen} if unseen else {})}]
    return result


def _told(result: PlayResult, state: TableState, action: dict[str, Any],
          choices: dict[str, Any] | None = None) -> PlayResult:
    """The outcomes of `action` on `state` as players read them: each with what it changed
    (changes.py; the cards the choice `reveal` names were in their hands before), the outcomes
    in which someone wins first."""
    game = catalog_for(state.edition, state.expansions)
    card = game.resolve(action["card"]) if isinstance(action.get("card"), str) else None
    action = {**action, "card": card.id if card else None}
    _rule(result.outcomes, game)
    shown = revealed(state, game, (choices or {}).get("reveal"))
    before = zones_of(shown)
    for outcome in result.outcomes:
        outcome.changes = changes(shown, outcome.state, game, action, outcome.findings,
                                  outcome.ruling.get("winner"), before, outcome.unknown_out,
                                  outcome.gifted, outcome.hands_to,
                                  [f for f in (outcome.ruling or {}).get("findings", [])
                                   if f.get("about") == "winner"])
    result.outcomes.sort(key=lambda o: not (o.ruling or {}).get("winner"))
    return result


def play_response(state: TableState, play: dict[str, Any]) -> dict[str, Any]:
    """The contract's response to `{"state": ..., "play": {...}}` (state already parsed); the
    play is checked (table.reader.read_play) before any fact is written. Every error of the
    move, the time limit's included, is at /play."""
    try:
        play = read_play(state, play)
    except UnknownChoiceKeys as err:
        raise _with_asked_keys(state, catalog_for(state.edition, state.expansions), play,
                               err) from None
    try:
        return _respond(state, play)
    except solve.TimeLimitError as err:
        raise solve.TimeLimitError(err.limit_s, "/play") from None


def _respond(state: TableState, play: dict[str, Any]) -> dict[str, Any]:
    choices = play.get("choices") or {}
    seed = None if play.get("seed") is None else int(play["seed"])
    kind = play.get("kind") or "play"
    game = catalog_for(state.edition, state.expansions)
    action = {"kind": kind, "player": _mover(state, kind, play), "card": play.get("card")}
    if kind == "play":
        result = play_card(state, play.get("card"), play.get("player"), choices, seed)
    elif kind == "resolve":  # the first card's effect may set a sub-hand aside, like a play
        result = _play_through(state, {"kind": kind, "player": action["player"]}, choices, seed)
    else:
        result = _made_at_once(apply_action(state, action, choices, seed), game)
    # a claim's outcomes (Keep Going) may add to them: cut to the size limit last
    return _fit(_told(result, state, action, choices), game).to_json()


def _mover(state: TableState, kind: str, play: dict[str, Any]) -> str | None:
    """Who makes the move: the play's player, by default the active player; a join seats the
    player it names (none given: the answer asks who)."""
    return play.get("player") if kind == "join" else play.get("player") or state.active


def try_play(state: TableState, play: dict[str, Any], *, seed: int | None = None,
             sample: int | None = None, limit: int = MAX_OUTCOMES) -> PlayResult:
    """A `play` body read as POST /api/play reads it (table.reader.read_play), and its outcomes
    without their rulings: up to `limit`, or with `sample` (a seed) one picked by a randomized
    search, as a random player would (the simulator, the consistency tests)."""
    play = read_play(state, play)
    kind = play.get("kind") or "play"
    action = {"kind": kind, "player": _mover(state, kind, play), "card": play.get("card")}
    return apply_action(state, action, play.get("choices") or {}, seed, with_ruling=False,
                        limit=limit, sample=sample)


# ---- legal actions ---------------------------------------------------------------------------
def legal_actions(state: TableState, ruling: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The moves open now, as the bodies `POST /api/play` takes: the `play` of each of the
    ruling's legal moves (rules_asp/ruling/legal_moves.lp and the files that list moves)."""
    ruling = ruling or ruling_for(state)
    if not ruling.get("ok"):
        return []
    return [move["play"] for move in ruling.get("legal_moves", [])]
