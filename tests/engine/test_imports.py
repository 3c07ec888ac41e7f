"""The package's imports: no module imports, directly or through others, a module that imports it
back, and the table state (adjudicator/table/) never needs clingo.

Every .py file of the package is read with `ast`; every import is counted, those inside functions
too (a function-local import hides a circle, it does not remove it). A relative import is resolved
from the importing module's package; `from pkg import name` counts as an import of the module
`pkg.name` when that is a module of the package, else of `pkg` itself. Importing a module also
runs its parent packages' `__init__`, which is not counted as an edge (each package's `__init__`
is a module of its own here, with its own imports).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import adjudicator

PACKAGE = Path(adjudicator.__file__).resolve().parent
ROOT_NAME = "adjudicator"


def _module_name(path: Path) -> str:
    parts = [ROOT_NAME, *path.relative_to(PACKAGE).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))
                            if "_data" not in p.relative_to(PACKAGE).parts}


def _imports(name: str, path: Path) -> tuple[set[str], set[str]]:
    """The package's modules that `name` imports, and the top-level names of everything else it
    imports (e.g. clingo, flask)."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    inside: set[str] = set()
    outside: set[str] = set()

    def add(target: str) -> None:
        if target == ROOT_NAME or target.startswith(ROOT_NAME + "."):
            # the longest prefix that is a module of the package (`pkg.func` -> `pkg`)
            while target not in MODULES and "." in target:
                target = target.rpartition(".")[0]
            if target != name:
                inside.add(target)
        else:
            outside.add(target.partition(".")[0])

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                assert base, f"{name}: a relative import beyond the package"
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                full = f"{target}.{alias.name}"
                add(full if full in MODULES else target)
    return inside, outside


GRAPH: dict[str, set[str]] = {}
EXTERNAL: dict[str, set[str]] = {}
for _name, _path in MODULES.items():
    GRAPH[_name], EXTERNAL[_name] = _imports(_name, _path)


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _path(graph: dict[str, set[str]], start: str, goal: str, within: set[str]) -> list[str]:
    """One chain of imports from `start` to `goal` inside `within` (to show a circle)."""
    seen = {start}
    frontier = [[start]]
    while frontier:
        chain = frontier.pop(0)
        for nxt in sorted(graph[chain[-1]] & within):
            if nxt == goal:
                return chain + [nxt]
            if nxt not in seen:
                seen.add(nxt)
                frontier.append(chain + [nxt])
    return []


def test_the_walk_sees_the_package() -> None:
    assert len(MODULES) > 40
    assert "adjudicator.table.reader" in GRAPH["adjudicator.engine.facts"]
    # a function-local import counts (cli/rule.py reads the state only when the command runs)
    assert "adjudicator.table.reader" in GRAPH["adjudicator.cli.rule"]
    # `from .. import solve` names a module, not the package
    assert "adjudicator.engine.solve" in GRAPH["adjudicator.engine.speed.batch"]


def test_the_walk_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle() -> None:
    circles = _circles(GRAPH)
    shown = [" -> ".join(_path(GRAPH, c[0], c[0], set(c))) for c in circles]
    assert not circles, "import circles:\n" + "\n".join(shown)


def test_the_table_state_never_imports_clingo() -> None:
    table = [m for m in GRAPH if m.startswith("adjudicator.table")]
    assert len(table) >= 3
    reached: set[str] = set()
    todo = list(table)
    while todo:
        m = todo.pop()
        if m not in reached:
            reached.add(m)
            todo += GRAPH[m]
    assert not [m for m in reached if "clingo" in EXTERNAL[m]], reached


def test_reading_a_table_loads_no_clingo() -> None:
    code = ("import sys\nfrom adjudicator.table.reader import parse_state\n"
            "parse_state({'players': [{'name': 'A', 'hand': ['Draw 2']},"
            " {'name': 'B', 'hand_size': 1}], 'active': 'A'})\n"
            "assert 'clingo' not in sys.modules, sorted(sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=PACKAGE.parent, timeout=120)
    assert done.returncode == 0, done.stderr
