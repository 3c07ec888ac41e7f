"""Several plays of one game in one grounding: the plays a caller asks for together (every card
of a hand: referee.together.play_responses) share clingo's fixed cost.

Plays of one table (every card of a hand) differ only in the facts of a few predicates
(do_play/2, a choice/2, ...). They are grounded in the play program as one play grounds it, with
every play's facts: the lines every play has as facts, each other line as a rule that holds only
while its play is asked (`p(a) :- asked_play(2).`), and a choice rule that leaves every
`asked_play` open (`chosen_texts`). The program is then solved once per play under the
assumptions that ask that play alone. The `asked_play` atoms occur in no other rule, so under
those assumptions the program is the play's own program (the splitting theorem), and since the
program shows only what its `#show` statements name (every game's does: the tests check it),
its answer sets are the play's own, though clingo may meet them in another order
(tests/rules/test_plays_together.py compares them play by play). The rules that cannot fire are
left out for the union of the plays' lines taken as facts: the analysis drops a rule only for a
positive body literal nothing can make true, so what it keeps grows with the facts and holds
each play's own plan (relevance.py). What the table's facts derive is grounded once for all the
plays, and so is every rule of the move that reads what all plays have (a copy that no play
moves stays where it is).

Plays of different tables (the simulator's games in lockstep) differ in nearly every fact. Their
program (the game's rules and play programs, built in the background when first needed) is
renamed apart per play as rename.py renames the rules program per table, so that each play's
atoms carry its number. Unlike a ruling, a play may have many answer sets (one per outcome or
choice), and the answer sets of several plays in one program would combine, each play's with
every other's. So every rule that can make a choice (a choice rule, a disjunction) and every
integrity constraint also gets `solved_table(T)` in its body, an atom a choice rule leaves open
for each play: the program is grounded once, then solved once per play under the assumptions
that make `solved_table` true for that play alone. The other plays then make no choice and break
no constraint, their atoms follow deterministically from their facts, and the answer sets of the
play solved are, read apart (rename.split), exactly those of its program alone.

Nothing here decides a rule: the rules are rules_asp's, as one play grounds them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import clingo
import clingo.ast as A

from .. import solve as solving
from ..terms import Term, handles, read_atoms
from .narrow import Signature, differing
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
ASKED = "asked_play"  # asked_play(N): the play of one table solved now (an assumption per solve)
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


def guarded_program(statements: Sequence[A.AST]
                    ) -> tuple[tuple[A.AST, ...], frozenset[Signature]]:
    """The renamed-apart program of `statements` (every predicate of a table is renamed:
    rename.per_table_predicates) with each per-play rule that chooses guarded by
    `solved_table(T)`, and the rule that leaves that atom open for every play; with the
    program's per-play predicates."""
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
# solves its plays of several tables one by one.
PROGRAMS: Built[Game, Program] = Built(_build_guarded, "fluxx-plays-program")


def solve_plays(facts: Sequence[str], limits: Sequence[int],
                renamed: Callable[[], Program | None], alone: Sequence[A.AST],
                limit_s: float | None = None, samples: Sequence[int | None] | None = None
                ) -> list[tuple[list[list[Term]], bool]] | None:
    """For each play's facts, up to its limit of answer sets (the shown atoms, read as Terms)
    and whether there were more, all from one grounding; None when the facts cannot be renamed
    apart (a line that is not a fact; or the renamed program is not built yet) or the search
    runs past `limit_s` (default: the engine's time limit), and the caller solves each play
    alone. A play with a sample seed (`samples`) gets one answer set found by a randomized
    search seeded with it, as moves.solve_alone finds one (the search runs in this grounding,
    so it may meet another answer set than alone). Plays that differ in a few predicates' facts
    (narrow.differing: plays of one table) are grounded in `alone`, the program one play
    grounds, choosing the play (`_solve_chosen`); the others in the game's program guarded and
    renamed apart per play, asked of `renamed` only then (`PROGRAMS.ready`: it is built when
    first needed, and a server's plays of one table never need it)."""
    started = time.perf_counter()
    apart = differing(facts)
    if apart is not None:
        return _solve_chosen(facts, limits, alone, apart[1], started, limit_s, samples)
    program = renamed()
    if program is None:
        return None
    tagged = tagged_text(facts)
    if tagged is None:
        return None
    grounding = solving.plan(program.statements, [tagged], backwards=False)
    ctl = clingo.Control(["--project=show", "--warn=none"])
    solving.add_statements(ctl, grounding.statements, grounding.texts)
    ctl.ground([("base", [])])
    guards = [clingo.Function(SOLVED, [clingo.Number(n)]) for n in range(len(facts))]
    return _solve_each(ctl, started, limits, guards, lambda model, n: split(
        handles(model.symbols(shown=True)), len(facts), program.per_table,
        program.per_table_names, program.readings)[n], limit_s, samples)


def chosen_texts(facts: Sequence[str], common: set[str]) -> tuple[str, str]:
    """The facts of plays that differ in the facts of a few predicates, for one program that
    chooses the play: the lines every play has (`common`), and a text where each other line
    holds for its play alone (`p(a) :- asked_play(2).`) and a choice rule leaves every
    `asked_play` open."""
    shared = [line for line in facts[0].split("\n") if line in common and line.strip()]
    own = [f"{{ {ASKED}(0..{len(facts) - 1}) }}."]
    for number, text in enumerate(facts):
        own += [f"{line.rstrip()[:-1]} :- {ASKED}({number})." for line in text.split("\n")
                if line.strip() and line not in common]
    return "\n".join(shared), "\n".join(own)


def _solve_chosen(facts: Sequence[str], limits: Sequence[int], statements: Sequence[A.AST],
                  common: set[str], started: float, limit_s: float | None,
                  samples: Sequence[int | None] | None
                  ) -> list[tuple[list[list[Term]], bool]] | None:
    """solve_plays for plays of one table: the play program as alone, grounded once with every
    play's facts, each line that not every play has holding only while its play is asked
    (chosen_texts), and solved once per play under the assumption that asks it alone."""
    union = "\n".join(dict.fromkeys(line for text in facts for line in text.split("\n")
                                      if line.strip()))
    # planned with every play's lines as facts: what can fire for some play (the forward
    # analysis leaves no line of a text out)
    grounding = solving.plan(statements, [union], backwards=False)
    texts = chosen_texts(facts, common)
    ctl = clingo.Control(["--project=show", "--warn=none"])
    solving.add_statements(ctl, grounding.statements, texts)
    ctl.ground([("base", [])])
    asked = [clingo.Function(ASKED, [clingo.Number(n)]) for n in range(len(facts))]
    return _solve_each(ctl, started, limits, asked,
                       lambda model, _: read_atoms(handles(model.symbols(shown=True))),
                       limit_s, samples)


def _solve_each(ctl: clingo.Control, started: float, limits: Sequence[int],
                guards: Sequence[clingo.Symbol],
                read: Callable[[clingo.Model, int], list[Term]], limit_s: float | None,
                samples: Sequence[int | None] | None
                ) -> list[tuple[list[list[Term]], bool]] | None:
    """Solves a grounded program of plays once per play, under the assumptions that make its
    guard true and every other play's false: up to the play's limit of answer sets, each read
    for that play (`read(model, play)`), and whether there were more; None past the time limit."""
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
                ctl, started, lambda model, n=number, found=models: found.append(read(model, n)),
                limit_s, assumptions=[(g, k == number) for k, g in enumerate(guards)])
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
