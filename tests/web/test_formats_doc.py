"""docs/FORMATS.md and `GET /api/openapi.json` describe the same API.

- Every operation (method and path) the OpenAPI document lists has a row in the page's endpoint
  table (the table after `<!-- endpoints -->`), and every row names an operation it lists.
- Every object of the table state, the play request and the error answer (the root and every
  object nested in it: players, turn, pending, ...) has a field table in the page (after
  `<!-- fields: PATH -->`) that names exactly its properties. PATH is the object's place:
  `state`, `state.players[]`, `request.play`, `error.errors[]`, ...
- A table after `<!-- fields beyond the schema: PATH -->` lists fields the referee reads and
  writes that the OpenAPI document does not describe: none of them may appear there, so a schema
  that starts describing one sends it to the object's own field table.

The roots are found by the operations, not by schema names: the table state is the body of
`POST /api/ruling`, the play request the body of `POST /api/play`, the error the 400 answer of
`POST /api/ruling`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "FORMATS.md"
METHODS = ("get", "post", "put", "patch", "delete")
MARKER = re.compile(r"<!--\s*(endpoints|fields|fields beyond the schema)(?::\s*(\S+))?\s*-->")
NAME = re.compile(r"`([^`]+)`")


# ---- the page ------------------------------------------------------------------------------------
def _tables(text: str) -> list[tuple[str, str | None, list[str]]]:
    """(marker kind, path, first cell of each body row) for every marked table of the page."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        m = MARKER.fullmatch(line.strip())
        if not m:
            continue
        rows = []
        j = i + 1
        while j < len(lines) and not lines[j].startswith("|"):
            assert not lines[j].strip(), f"FORMATS.md line {j + 1}: text between marker and table"
            j += 1
        body = []
        while j < len(lines) and lines[j].startswith("|"):
            body.append(lines[j])
            j += 1
        assert len(body) >= 3, f"FORMATS.md line {i + 1}: marker without a table"
        for row in body[2:]:  # header and separator first
            first = row.strip().strip("|").split("|")[0]
            names = NAME.findall(first)
            assert len(names) == 1, f"FORMATS.md: row without one `name` in its first cell: {row}"
            rows.append(names[0])
        out.append((m.group(1), m.group(2), rows))
    return out


@pytest.fixture(scope="module")
def tables() -> list[tuple[str, str | None, list[str]]]:
    return _tables(DOC.read_text(encoding="utf-8"))


# ---- the OpenAPI document ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def spec(store_path: Path) -> dict[str, Any]:
    from adjudicator.web import create_app

    app = create_app({"TESTING": True, "STORE_PATH": str(store_path)})
    answer = app.test_client().get("/api/openapi.json")
    assert answer.status_code == 200
    return answer.get_json()


def _pointer(doc: Any, ref: str) -> Any:
    node = doc
    for part in ref.lstrip("#/").split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


class _Walk:
    """Every object schema under a root, by its place (`state.players[]`), refs followed."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.bases: list[Any] = [spec]  # where a "#/..." ref may point: the document, a root

    def resolve(self, node: Any) -> Any:
        for _ in range(50):
            if not (isinstance(node, dict) and "$ref" in node):
                return node
            ref = node["$ref"]
            assert ref.startswith("#"), f"external $ref {ref}"
            for base in reversed(self.bases):
                try:
                    target = _pointer(base, ref)
                    break
                except (KeyError, IndexError, ValueError, TypeError):
                    continue
            else:
                raise AssertionError(f"unresolvable $ref {ref}")
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            node = {**target, **siblings} if siblings else target
        raise AssertionError("$ref loop")

    def objects(self, root: Any, place: str, skip: Any = None) -> dict[str, set[str]]:
        """{place: property names} of every object with properties under `root`; a schema equal
        to `skip` (another root, described by its own tables) is not entered."""
        found: dict[str, set[str]] = {}
        self.bases.append(self.resolve(root))
        self._visit(root, place, found, skip, ())
        self.bases.pop()
        return found

    def _visit(self, node: Any, place: str, found: dict[str, set[str]], skip: Any,
               path: tuple[int, ...], owners: tuple[str, ...] = ()) -> None:
        ref = node.get("$ref", "") if isinstance(node, dict) else ""
        if "/$defs/" in ref and ref.split("/$defs/")[0] in owners:
            return  # a deeper level of a schema being visited (a chain that bounds nesting)
        if ref:
            owners = (*owners, ref.split("/$defs/")[0])
        node = self.resolve(node)
        if not isinstance(node, dict) or id(node) in path or (path and node == skip):
            return
        path = (*path, id(node))
        props = node.get("properties") or {}
        if props:
            found.setdefault(place, set()).update(set(props) | set(node.get("required") or []))
        for name, sub in props.items():
            self._visit(sub, f"{place}.{name}", found, skip, path, owners)
        for key in ("oneOf", "anyOf", "allOf"):
            for sub in node.get(key) or []:
                self._visit(sub, place, found, skip, path, owners)
        for sub in [node.get("items"), *(node.get("prefixItems") or [])]:
            if isinstance(sub, dict):
                self._visit(sub, f"{place}[]", found, skip, path, owners)
        if isinstance(node.get("additionalProperties"), dict):
            self._visit(node["additionalProperties"], f"{place}{{}}", found, skip, path,
                        owners)


def _schema_objects(spec: dict[str, Any]) -> dict[str, set[str]]:
    walk = _Walk(spec)
    ruling = spec["paths"]["/api/ruling"]["post"]
    play = spec["paths"]["/api/play"]["post"]
    state = ruling["requestBody"]["content"]["application/json"]["schema"]
    request = play["requestBody"]["content"]["application/json"]["schema"]
    error = ruling["responses"]["400"]["content"]["application/json"]["schema"]
    found = walk.objects(state, "state")
    found.update(walk.objects(request, "request", skip=walk.resolve(state)))
    found.update(walk.objects(error, "error"))
    return found


def _parent(place: str) -> str | None:
    """state.sub_hands[] -> state; request.play -> request; state -> None."""
    bare = re.sub(r"(\[\]|\{\})+$", "", place)
    return bare.rsplit(".", 1)[0] if "." in bare else None


# ---- the tests -----------------------------------------------------------------------------------
def _operations(spec: dict[str, Any]) -> set[str]:
    return {f"{method.upper()} {path}" for path, item in spec["paths"].items()
            for method in item if method in METHODS}


def test_every_endpoint_is_documented_and_exists(spec, tables) -> None:
    documented = [name for kind, _, rows in tables if kind == "endpoints" for name in rows]
    assert documented, "FORMATS.md has no endpoint table (<!-- endpoints -->)"
    assert len(documented) == len(set(documented)), "an endpoint is listed twice"
    served = _operations(spec)
    assert not served - set(documented), (
        f"in /api/openapi.json but not in docs/FORMATS.md: {sorted(served - set(documented))}")
    assert not set(documented) - served, (
        f"in docs/FORMATS.md but not in /api/openapi.json: {sorted(set(documented) - served)}")


def test_every_field_is_documented_and_published(spec, tables) -> None:
    published = _schema_objects(spec)
    documented: dict[str, list[str]] = {}
    for kind, place, rows in tables:
        if kind == "fields":
            assert place, "a field table without its place (<!-- fields: state.turn -->)"
            assert place not in documented, f"two field tables for {place}"
            documented[place] = rows
    problems = []
    for place, names in sorted(published.items()):
        if place not in documented:
            problems.append(f"{place}: no field table in FORMATS.md for {sorted(names)}")
            continue
        rows = documented[place]
        if len(rows) != len(set(rows)):
            problems.append(f"{place}: a field is listed twice")
        extra, missing = sorted(set(rows) - names), sorted(names - set(rows))
        if extra:
            problems.append(f"{place}: documented, not in openapi.json: {extra}")
        if missing:
            problems.append(f"{place}: in openapi.json, not documented: {missing}")
    for place in sorted(set(documented) - set(published)):
        problems.append(f"{place}: a field table for an object openapi.json does not have")
    assert not problems, "docs/FORMATS.md and /api/openapi.json disagree:\n" + "\n".join(problems)


def test_fields_beyond_the_schema_are_not_in_it(spec, tables) -> None:
    published = _schema_objects(spec)
    problems = []
    beyond = [(place, rows) for kind, place, rows in tables if kind == "fields beyond the schema"]
    for place, rows in beyond:
        assert place, "a table of fields beyond the schema without its place"
        now_published = set(rows) & published.get(place, set())
        if now_published:
            problems.append(f"{place}: {sorted(now_published)} are in openapi.json now: move them "
                            "to the object's field table")
        if place in published and not rows:
            problems.append(f"{place}: an empty table")
    assert not problems, "\n".join(problems)
    for place, _ in beyond:  # a typo in a marker would check nothing
        assert place in published or _parent(place) in published, f"{place}: no such object"


def test_the_page_parses_as_expected(tables) -> None:
    """The markers this test reads are there: it would pass on an empty page otherwise."""
    places = {place for kind, place, _ in tables if kind == "fields"}
    assert {"state", "state.players[]", "state.turn", "state.pending[]", "request",
            "request.play", "error", "error.errors[]"} <= places
