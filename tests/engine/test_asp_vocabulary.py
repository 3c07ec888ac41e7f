"""The shared vocabulary of rules_asp/: every predicate that one file defines and another reads is
documented in rules_asp/doc.lp, and a finding cites its sources through cite facts.

A predicate is defined by a file where it occurs in a rule's head (facts, choice and conditional
heads included) and read where it occurs in a body (conditions of aggregates and conditional
literals included). A predicate that no file defines is defined by "the input" (the facts
adjudicator/engine/facts.py and adjudicator/referee/moves.py write; the files declare them with
#defined); one that a file shows (#show) is read by "the output" (adjudicator/referee/ruling.py
and moves.py). doc.lp documents a predicate in mkdoclingo's style: a block
`%*! name(Arg1,...,ArgN)` ... `*%`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

import clingo.ast as ast
from clingo.ast import ASTType

from adjudicator.resources import rules_dir

Signature = tuple[str, int]
INPUT, OUTPUT = "(input)", "(output)"
DOC = "doc.lp"
# %*! name(Args) ... *%  (a predicate of arity 0 is written without parentheses)
DOC_ENTRY = re.compile(r"^%\*!\s*([a-z_][A-Za-z0-9_]*)(?:\(([^)]*)\))?\s*$(.*?)^\*%", re.M | re.S)


def _children(node: ast.AST) -> Iterator[ast.AST]:
    for key in node.child_keys:
        value = getattr(node, key)
        if isinstance(value, ast.AST):
            yield value
        elif value is not None and not isinstance(value, (str, int)):
            yield from (v for v in value if isinstance(v, ast.AST))


def _atoms(node: ast.AST) -> Iterator[ast.AST]:
    if node.ast_type == ASTType.SymbolicAtom:
        yield node
    for child in _children(node):
        yield from _atoms(child)


def _signature(atom: ast.AST) -> Signature | None:
    term = atom.symbol
    if term.ast_type == ASTType.UnaryOperation:  # classical negation -p(X)
        term = term.argument
    if term.ast_type == ASTType.Function:
        return term.name, len(term.arguments)
    if term.ast_type == ASTType.SymbolicTerm and term.symbol.type.name == "Function":
        return term.symbol.name, len(term.symbol.arguments)
    return None


def _head_atoms(head: ast.AST) -> list[ast.AST]:
    kind = head.ast_type
    if kind == ASTType.Literal:
        return [head.atom] if head.atom.ast_type == ASTType.SymbolicAtom else []
    if kind in (ASTType.Disjunction, ASTType.Aggregate):
        return [e.literal.atom for e in head.elements
                if e.literal.atom.ast_type == ASTType.SymbolicAtom]
    if kind == ASTType.HeadAggregate:
        return [e.condition.literal.atom for e in head.elements]
    return []


class Vocabulary:
    """Which files define and which read each predicate of the .lp files under `root`."""

    def __init__(self, root: Path, paths: Iterable[Path]) -> None:
        self.defined: dict[Signature, set[str]] = defaultdict(set)
        self.read: dict[Signature, set[str]] = defaultdict(set)
        self.declared: dict[Signature, set[str]] = defaultdict(set)
        self.shown: set[Signature] = set()
        self.rules: list[tuple[str, ast.AST]] = []
        for path in paths:
            name = path.relative_to(root).as_posix()
            # an #include is the hubs' business: each file is read on its own
            text = re.sub(r"^#include .*$", "", path.read_text(encoding="utf-8"), flags=re.M)
            ast.parse_string(text, lambda statement, n=name: self._add(n, statement))

    def _add(self, name: str, statement: ast.AST) -> None:
        kind = statement.ast_type
        if kind == ASTType.Rule:
            self.rules.append((name, statement))
            heads = _head_atoms(statement.head)
            for atom in heads:
                self.defined[_signature(atom)].add(name)
            ids = {id(a) for a in heads}
            for atom in _atoms(statement):
                signature = _signature(atom)
                if id(atom) not in ids and signature is not None:
                    self.read[signature].add(name)
        elif kind == ASTType.ShowSignature:
            self.shown.add((statement.name, statement.arity))
        elif kind == ASTType.ShowTerm:
            for atom in _atoms(statement):
                self.read[_signature(atom)].add(name)
        elif kind == ASTType.Defined:
            self.declared[(statement.name, statement.arity)].add(name)
        elif kind == ASTType.External:
            self.defined[_signature(statement.atom)].add(name)

    def predicates(self) -> set[Signature]:
        return {s for s in (*self.defined, *self.read, *self.declared, *self.shown) if s}

    def definers(self, signature: Signature) -> set[str]:
        return set(self.defined.get(signature, ())) or {INPUT}

    def readers(self, signature: Signature) -> set[str]:
        return set(self.read.get(signature, ())) | ({OUTPUT} if signature in self.shown else set())

    def shared(self) -> set[Signature]:
        """Predicates that one party defines and another reads."""
        return {s for s in self.predicates()
                if any(d != r for d in self.definers(s) for r in self.readers(s))}


def lp_files() -> list[Path]:
    return sorted(p for p in rules_dir().rglob("*.lp") if p.name != DOC)


def vocabulary() -> Vocabulary:
    return Vocabulary(rules_dir(), lp_files())


def documented() -> dict[Signature, str]:
    """doc.lp's entries: (name, arity) -> the text of the entry."""
    text = (rules_dir() / DOC).read_text(encoding="utf-8")
    out: dict[Signature, str] = {}
    for match in DOC_ENTRY.finditer(text):
        args = [a for a in (match.group(2) or "").split(",") if a.strip()]
        signature = (match.group(1), len(args))
        assert signature not in out, f"doc.lp documents {signature[0]}/{signature[1]} twice"
        out[signature] = match.group(3)
    return out


def _names(signatures: Iterable[Signature]) -> list[str]:
    return sorted(f"{n}/{a}" for n, a in signatures)


def test_every_shared_predicate_is_documented() -> None:
    vocab, docs = vocabulary(), documented()
    missing = vocab.shared() - set(docs)
    details = [f"{n}/{a}: defined by {sorted(vocab.definers((n, a)))}, "
               f"read by {sorted(vocab.readers((n, a)))}" for n, a in sorted(missing)]
    assert not missing, "add to rules_asp/doc.lp:\n" + "\n".join(details)


def test_doc_documents_only_predicates_that_exist() -> None:
    stale = set(documented()) - vocabulary().predicates()
    assert not stale, f"doc.lp documents predicates no .lp file uses: {_names(stale)}"


def test_every_doc_entry_describes_each_argument() -> None:
    """An entry says what the predicate means, then one line per argument (mkdoclingo's Args)."""
    for (name, arity), body in documented().items():
        lines = [line.strip() for line in body.strip().splitlines() if line.strip()]
        assert lines and not lines[0].startswith("-"), f"{name}/{arity} has no description"
        args = [line for line in lines if line.startswith("- ")]
        assert len(args) == arity, f"{name}/{arity} describes {len(args)} arguments"


def test_doc_lp_is_comments_only() -> None:
    """doc.lp holds no statement: it is documentation, never grounded."""
    statements: list[ast.AST] = []
    ast.parse_string((rules_dir() / DOC).read_text(encoding="utf-8"), statements.append)
    assert [s for s in statements if s.ast_type not in (ASTType.Program, ASTType.Comment)] == []


def test_findings_cite_through_cite_facts() -> None:
    """A finding's sources are cite(Key,Source) facts (citations.lp turns them into cites/3); a
    cites/3 rule reads the finding it cites (a source that depends on the finding's arguments, or
    on more than the finding's condition). The reasons of not_yet(S,Kind,Details,Key,Args) cite the
    same way: cite(Key,Source) facts, which citations.lp turns into cites(Key,Args,Source) for each
    not_yet/5 (a bare cites(reason_...,(),Source) fact is let through too)."""
    wrong = []
    for name, rule in vocabulary().rules:
        heads = _head_atoms(rule.head)
        if not heads or _signature(heads[0]) != ("cites", 3) or name == "ruling/citations.lp":
            continue
        key, args, _ = heads[0].symbol.arguments
        if not rule.body and str(args) == "()" and str(key).startswith("reason_"):
            continue
        reads_finding = any(
            _signature(a) == ("finding", 3) and str(a.symbol.arguments[1]) == str(key)
            for literal in rule.body for a in _atoms(literal))
        if not reads_finding:
            wrong.append(f"{name}: {rule}")
    assert not wrong, "\n".join(wrong)


# ---- each file's header (Purpose / Input / Output, tests/test_style.py) says what it shares:
# Input names every predicate the file reads that another file derives or Python writes, Output
# every predicate it derives that another file reads; and neither names, as name(...) or name/N,
# a predicate the file does not read (Input) or derive (Output). A name is matched as a word, so
# a header may group its lists freely ("from legal_moves.lp: ..."). The citation plumbing every
# file shares (finding/3, cites/3, cite/2, cite_card/3) need not be named. The hubs only include.
UNNAMED: set[Signature] = {("finding", 3), ("cites", 3), ("cite", 2), ("cite_card", 3)}
# name(... or name/N, not an argument of another term
MENTION = re.compile(r"(?<![(,\w])([a-z_][a-z0-9_]*)(?=\(|/\d)")
FILE_NAME = re.compile(r"[\w./*<>-]+\.(?:lp|py|yaml|json|md)\b")


def _pooled_signatures(atom: ast.AST) -> set[Signature]:
    """The signatures of an atom, each element of a pool `p(a;b)` too."""
    term = atom.symbol
    if term.ast_type == ASTType.UnaryOperation:
        term = term.argument
    terms = term.arguments if term.ast_type == ASTType.Pool else [term]
    out = set()
    for t in terms:
        if t.ast_type == ASTType.Function:
            out.add((t.name, len(t.arguments)))
        elif t.ast_type == ASTType.SymbolicTerm and t.symbol.type.name == "Function":
            out.add((t.symbol.name, len(t.symbol.arguments)))
    return out


def _header_sections(path: Path) -> dict[str, str]:
    """The header's sections: `% Input:` and its lines indented below it, likewise Output."""
    sections: dict[str, str] = {}
    current = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("%"):
            break
        match = re.match(r"%\s*(Purpose|Input|Output):(.*)", line)
        if match:
            current = match.group(1)
            sections[current] = match.group(2)
        elif current and line.startswith("%         "):
            sections[current] += "\n" + line[1:]
        else:
            current = None
    return {k: FILE_NAME.sub(" ", v) for k, v in sections.items()}


@cache
def _header_findings() -> tuple[list[str], list[str]]:
    """(names a header gives falsely, names a header lacks), over every file but the hubs."""
    root = rules_dir()
    derives: dict[str, set[Signature]] = defaultdict(set)
    reads: dict[str, set[Signature]] = defaultdict(set)

    def add(name: str, statement: ast.AST) -> None:
        if statement.ast_type == ASTType.Rule:
            heads = _head_atoms(statement.head)
            ids = {id(a) for a in heads}
            for atom in heads:
                derives[name] |= _pooled_signatures(atom)
            for atom in _atoms(statement):
                if id(atom) not in ids:
                    reads[name] |= _pooled_signatures(atom)
        elif statement.ast_type == ASTType.ShowTerm:
            for atom in _atoms(statement):
                reads[name] |= _pooled_signatures(atom)
        elif statement.ast_type == ASTType.External:
            derives[name] |= _pooled_signatures(statement.atom)

    files = {p.relative_to(root).as_posix(): p for p in lp_files()
             if not p.relative_to(root).as_posix().startswith("hubs/")}
    for name, path in files.items():
        text = re.sub(r"^#include .*$", "", path.read_text(encoding="utf-8"), flags=re.M)
        ast.parse_string(text, lambda statement, n=name: add(n, statement))
    known = {s[0] for f in files for s in derives[f] | reads[f]}
    false, lacking = [], []
    for name, path in files.items():
        sections = _header_sections(path)
        for part, own in (("Input", reads[name]), ("Output", derives[name])):
            text = sections.get(part, "")
            named = {m for m in MENTION.findall(text) if m in known}
            false += [f"{name} {part}: {m}" for m in sorted(named - {s[0] for s in own})]
            words = set(re.findall(r"[a-z_][a-z0-9_]*", text))
            if part == "Input":  # read here, derived by another file or written by Python
                shared = reads[name] - derives[name]
            else:  # derived here, read by another file
                shared = {s for s in derives[name]
                          if any(s in reads[f] for f in files if f != name)}
            lacking += [f"{name} {part}: {n}/{a}" for n, a in sorted(shared - UNNAMED)
                        if n not in words]
    return false, lacking


def test_every_header_names_only_what_its_file_reads_and_derives() -> None:
    false, _ = _header_findings()
    assert not false, "a header names a predicate its file does not read (Input) or derive " \
        "(Output):\n" + "\n".join(false)


def test_every_header_names_what_its_file_shares() -> None:
    _, lacking = _header_findings()
    assert not lacking, "a header lacks a predicate its file reads from elsewhere (Input) or " \
        "derives for another file (Output):\n" + "\n".join(lacking)
