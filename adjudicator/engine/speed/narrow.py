"""Tables that differ in few predicates: a narrow program renames apart only what those reach.

The outcomes of one discard differ only in discard/2, in_hand/2 and hand_copies/3. `differing`
finds the predicates in which the tables' facts differ, `reached_from` what the program derives
from them: only that is renamed apart per table, and the rest of the program, which reads what
every table has, is grounded once for all of them (README.md, "narrow programs"). `narrow_text`
writes the tables' facts for such a program, and `narrow_program` answers a built narrow program
with those facts, or None, and the caller uses the game's program. The programs themselves are
built by their user, batch.NARROW (a move's outcomes ruled together). Plays of one table use
`differing` alone: they are grounded in the play program itself, the play chosen (plays.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import clingo
import clingo.ast as A

from .rename import FACT_LINE, TABLE, Built, Game, Program, derived_from, signatures

_T = A.ASTType

# Tables that differ only in a few predicates' facts (the outcomes of one discard: discard/2,
# in_hand/2 and hand_copies/3) need only what those facts reach renamed apart: the rest of the
# program reads what every table has, and is grounded once for all of them. A narrow program is
# built per set of differing predicates, for tables that differ in at most NARROW_INPUTS of them,
# and at most NARROW_PROGRAMS per process (the sets come from the requests). Plays of one table
# are told by the same bound (plays.py grounds them with the play chosen, in no narrow program).
NARROW_INPUTS = 6
NARROW_PROGRAMS = 24
Signature = tuple[str, int]
Narrow = tuple[Game, frozenset[Signature]]


def _derives(rule: A.AST) -> tuple[set[Signature], set[Signature]]:
    """What a rule derives (the atoms of its head, not the conditions of a choice's elements)
    and what it reads (its body, those conditions and an aggregate's guards)."""
    head, reads = rule.head, signatures(list(rule.body))
    if head.ast_type == _T.Literal:
        return signatures(head), reads
    if head.ast_type == _T.HeadAggregate:
        elements = [(e.condition.literal, [*e.terms, *e.condition.condition])
                    for e in head.elements]
    else:  # a choice (Aggregate) or a disjunction: each element a literal and its condition
        elements = [(e.literal, list(e.condition)) for e in head.elements]
    guards = [g.term for g in (getattr(head, "left_guard", None),
                               getattr(head, "right_guard", None)) if g is not None]
    return (signatures([atom for atom, _ in elements]),
            reads | signatures([c for _, cond in elements for c in cond]) | signatures(guards))


def reached_from(statements: Sequence[A.AST],
                 inputs: frozenset[Signature]) -> frozenset[Signature]:
    """`inputs` (the predicates of the facts in which tables differ) and every predicate a
    rule derives from one of them: what a narrow program renames apart. What a rule derives is
    told apart from what it reads (`1 = { goal_out(G): goal(G) }` derives goal_out/1, not
    goal/1), or nearly every predicate would be reached. Renamed, p/n becomes p/n+1, so a
    predicate p/n+1 of the program is renamed too (else its atoms and the renamed ones of p/n
    would be one predicate)."""
    rules = [_derives(s) for s in statements if s.ast_type == _T.Rule]
    every = set().union(*(signatures(s) for s in statements if s.ast_type == _T.Rule))
    reached = derived_from(rules, inputs)
    while clash := {(n, a + 1) for n, a in reached if (n, a + 1) in every} - reached:
        reached = derived_from(rules, reached | clash)
    return reached


def _signature(line: str) -> Signature:
    symbol = clingo.parse_term(line.rstrip()[:-1])
    return symbol.name, len(symbol.arguments)


def differing(facts: Sequence[str]) -> tuple[frozenset[Signature], set[str]] | None:
    """The predicates of the fact lines that not every table has (when they bear at most
    NARROW_INPUTS names), and the lines every table has; None for tables that differ in more
    (found as soon as they do: tables of different games differ at once), or where such a line
    is not a fact."""
    first = set(facts[0].split("\n"))
    common = set(first)
    lines: set[str] = set()
    names: set[str] = set()
    for text in facts[1:]:
        other = set(text.split("\n"))
        apart = (first ^ other) - lines
        common &= other
        for line in apart:
            if line.strip():
                m = FACT_LINE.match(line)
                if m is None:
                    return None
                names.add(m.group(1))
                lines.add(line)
        if len(names) > NARROW_INPUTS:
            return None
    try:
        return frozenset(_signature(line) for line in lines), common
    except RuntimeError:  # clingo's parse error: not a fact
        return None


def narrow_text(facts: Sequence[str], common: set[str], per_table: frozenset[Signature]) -> str:
    """The facts of several tables for a narrow program: each line of a per-table predicate
    tagged with its table's number, every other line (the same in every table) once."""
    names = {name for name, _ in per_table}
    tagged = {line for line in common if _per_table(line, names, per_table)}
    out = [line for line in facts[0].split("\n")
           if line in common and line not in tagged and line.strip()]
    for table, text in enumerate(facts):
        for line in text.split("\n"):
            if (line not in common or line in tagged) and line.strip():
                m = FACT_LINE.match(line)
                if m is None:
                    raise ValueError(f"not a fact: {line!r}")
                out.append(f"{m.group(1)}({table},{line[m.end():]}" if m.group(2) == "("
                           else f"{m.group(1)}({table}).")
        out.append(f"{TABLE}({table}).")
    return "\n".join(out)


def _per_table(line: str, names: set[str], per_table: frozenset[Signature]) -> bool:
    m = FACT_LINE.match(line)
    return m is not None and m.group(1) in names and _signature(line) in per_table


def narrow_program(built: Built[Narrow, Program], game: Game,
                   facts: Sequence[str]) -> tuple[Program, str] | None:
    """The narrow program of `built` for tables of `game` with these facts, and their facts'
    text, when the tables differ in few predicates and it is built (else it is built in the
    background, within `built`'s bound, and the caller uses the game's program meanwhile)."""
    found = differing(facts)
    if found is None or len(found[0]) > NARROW_INPUTS:  # a name of several arities
        return None
    inputs, common = found
    program = built.ready((game, inputs))
    if program is None:
        return None
    try:
        return program, narrow_text(facts, common, program.per_table)
    except (ValueError, RuntimeError):
        return None
