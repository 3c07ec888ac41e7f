"""Several plays of one game in one grounding: the plays a caller asks for together (every card
of a hand: referee.together.play_responses) share clingo's fixed cost.

A play's program (the rules program and the play program of its game: referee.moves) is
renamed apart per play as rename.py renames the rules program per table, so that each play's
atoms carry its number. Unlike a ruling, a play may have many answer sets (one per outcome or
choice), and the answer sets of several plays in one program would combine, each play's with
every other's. So every rule that can make a choice (a choice rule, a disjunction) and every
integrity constraint also gets `solved_table(T)` in its body, an atom a choice rule leaves open
for each play: the program is grounded once, then solved once per play under the assumptions
that make `solved_table` true for that play alone. The other plays then make no choice and break
no constraint, their atoms follow deterministically from their facts, and the answer sets of the
play solved are, read apart (rename.split), exactly those of its program alone, though clingo may
meet them in another order (tests/rules/test_plays_together.py compares them play by play).

Plays of one table (every card of a hand) differ only in their move facts, so only what those
facts reach needs renaming apart: a narrow program (`program_for`) renames the predicates
derived from the predicates in which the plays' facts differ (do_play/2, say: the move files'
next_* atoms, findings), and grounds the rules program of the table once for all of them
rather than once per play. Plays of different tables (the simulator's) differ in nearly every
predicate and use the game's program, which renames every predicate of a table.

Nothing here decides a rule: the rules are rules_asp's, renamed apart per play.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import clingo
import clingo.ast as A

from .. import solve as solving
from ..terms import Term, handles
from .narrow import NARROW_PROGRAMS, Narrow, Signature, narrow_program, reached_from
from .rename import (
    TABLE,
    Built,
    Game,
    Program,
    per_table_names,
    per_table_predicates,
    split,
    tag_program,
    tagged_text,
)

SOLVED = "solved_table"  # solved_table(T): the play solved now (an assumption per solve)
_T = A.ASTType


def _chooses(rule: A.AST) -> bool:
    """Whether the rule can make a choice or refuse an answer set: a choice or disjunctive head,
    or an integrity constraint (a head that is a Boolean constant)."""
    head = rule.head
    if head.ast_type in (_T.Aggregate, _T.HeadAggregate, _T.Disjunction):
        return True
    return head.ast_type == _T.Literal and head.atom.ast_type == _T.BooleanConstant


def _tagged(rule: A.AST) -> bool:
    """Whether tag_program renamed the rule per play (its body ends with `table(T)`)."""
    last = rule.body[-1] if rule.body else None
    return (last is not None and last.ast_type == _T.Literal
            and last.atom.ast_type == _T.SymbolicAtom
            and last.atom.symbol.ast_type == _T.Function and last.atom.symbol.name == TABLE)


def guarded_program(statements: Sequence[A.AST],
                    per_table: frozenset[Signature] | None = None
                    ) -> tuple[tuple[A.AST, ...], frozenset[Signature]]:
    """The renamed-apart program of `statements` (the predicates `per_table`, by default every
    predicate of a table: rename.per_table_predicates) with each per-play rule that chooses
    guarded by `solved_table(T)`, and the rule that leaves that atom open for every play; with
    the program's per-play predicates."""
    if per_table is None:
        per_table = per_table_predicates(statements)
    if any(name == SOLVED for name, _ in per_table):
        raise ValueError(f"the program has a predicate named {SOLVED}")
    out: list[A.AST] = []
    for s in tag_program(statements, per_table):
        if s.ast_type == _T.Rule and _chooses(s) and _tagged(s):
            table = s.body[-1].atom.symbol.arguments[0]
            guard = A.Literal(s.location, A.Sign.NoSign, A.SymbolicAtom(
                A.Function(s.location, SOLVED, [table], 0)))
            s = s.update(body=[*s.body, guard])
        out.append(s)
    A.parse_string(f"{{ {SOLVED}(T) }} :- {TABLE}(T).",
                   lambda s: out.append(s) if s.ast_type == _T.Rule else None)
    return tuple(out), per_table


def _build_guarded(game: Game) -> Program:
    """The guarded program of a game: its rules and play programs, renamed apart per play."""
    edition, expansions = game
    statements = (solving.parse_private(edition, expansions)
                  + solving.parse_private(edition, expansions, play=True))
    guarded, per_table = guarded_program(statements)
    return Program(guarded, per_table, per_table_names(statements, per_table))


# Built once per game (rename.Built): until then, `PROGRAMS.ready` answers None and the caller
# solves its plays one by one.
PROGRAMS: Built[Game, Program] = Built(_build_guarded, "fluxx-plays-program")


def _build_narrow(key: Narrow) -> Program:
    (edition, expansions), inputs = key
    statements = (solving.parse_private(edition, expansions)
                  + solving.parse_private(edition, expansions, play=True))
    guarded, per_play = guarded_program(statements, reached_from(statements, inputs))
    return Program(guarded, per_play, per_table_names(statements, per_play))


# The narrow programs of plays (narrow.narrow_program): plays of one table, which differ in
# their move facts alone (do_play/2, a choice/2, ...); other plays use the game's program.
NARROW: Built[Narrow, Program] = Built(_build_narrow, "fluxx-narrow-plays-program",
                                       most=NARROW_PROGRAMS)


def program_for(game: Game, facts: Sequence[str]) -> tuple[Program, str] | None:
    """The narrow program of plays of `game` with these facts and their facts' text, when the
    plays differ in few predicates and it is built (else it is built in the background, within
    NARROW_PROGRAMS, and the caller uses the game's program meanwhile)."""
    return narrow_program(NARROW, game, facts)


def solve_plays(facts: Sequence[str], limits: Sequence[int], program: Program,
                limit_s: float | None = None, samples: Sequence[int | None] | None = None,
                game: Game | None = None) -> list[tuple[list[list[Term]], bool]] | None:
    """For each play's facts, up to its limit of answer sets (the shown atoms, read as Terms)
    and whether there were more, all from one grounding; None when the facts cannot be renamed
    apart (a line that is not a fact) or the search runs past `limit_s` (default: the engine's
    time limit), and the caller solves each play alone. A play with a sample seed (`samples`)
    gets one answer set found by a randomized search seeded with it, as moves.solve_alone
    finds one (the search runs in this grounding, so it may meet another answer set than alone).
    With `game`, plays that differ in few predicates use its narrow program (`program_for`)
    instead of `program`."""
    started = time.perf_counter()
    narrow = program_for(game, facts) if game is not None else None
    if narrow is not None:
        program, tagged = narrow
    else:
        found = tagged_text(facts)
        if found is None:
            return None
        tagged = found
    grounding = solving.plan(program.statements, [tagged], backwards=False)
    ctl = clingo.Control(["--project=show", "--warn=none"])
    solving.add_statements(ctl, grounding.statements, grounding.texts)
    ctl.ground([("base", [])])
    guards = [clingo.Function(SOLVED, [clingo.Number(n)]) for n in range(len(facts))]
    out: list[tuple[list[list[Term]], bool]] = []
    try:
        for number, limit in enumerate(limits):
            sample = samples[number] if samples else None
            _searching(ctl, sample)
            # a sample: one answer set, and `more` is not asked (moves.apply_action)
            ctl.configuration.solve.models = str(1 if sample is not None  # type: ignore[union-attr]
                                                 else limit + 1)
            models: list[list[Term]] = []
            solving.solve_within(
                ctl, started,
                lambda model, n=number, found=models: found.append(
                    split(handles(model.symbols(shown=True)), len(facts), program.per_table,
                          program.per_table_names, program.readings)[n]),
                limit_s,
                assumptions=[(g, k == number) for k, g in enumerate(guards)])
            out.append((models[:limit], len(models) > limit))
    except solving.TimeLimitError:
        return None
    return out


def _searching(ctl: clingo.Control, sample: int | None) -> None:
    """Sets the search of the next solve: randomized with the sample's seed (clingo's
    `--seed=S --rand-freq=1`, as moves.solve_alone samples), or clingo's default."""
    solver = ctl.configuration.solver
    solver.seed = str(sample if sample is not None else 1)  # type: ignore[union-attr]
    solver.rand_freq = "1" if sample is not None else "0"  # type: ignore[union-attr]
