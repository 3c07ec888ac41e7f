"""FAQ coverage: which FAQ entries the referee adjudicates, and why the others are not.

Every FAQ entry (the 77 of seed 002 and the 6 Math Fluxx questions of seed 004) gets one status:

- `adjudicated`: a scenario in `tests/rules/scenarios/*.yaml` lists the entry in its `source`. This
  is computed by reading the scenario files themselves (the same files the test suite runs), so
  the coverage page cannot claim more than the tests check.
- otherwise the entry's scope from `faq/annotations/faq_entries.yaml`: `other_decks` (about cards
  or decks we do not play), `not_rules` (etiquette, house rules), or `ours_not_adjudicated` (it
  applies to a card we play but no scenario encodes it yet: this list must stay empty).
- `unclassified`: no annotation gives the entry a scope (also expected to stay empty).

The entries come from the seed parsers directly (not from the SQLite store), so coverage needs no
store build and always matches the sources byte for byte.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from ..messages import catalog
from ..resources import data_dir, faq_dir, read_yaml
from .annotations import faq_annotations
from .faq_seed import FaqEntry, parse_faq_002, parse_faq_004

log = logging.getLogger(__name__)

STATUSES = ("adjudicated", "other_decks", "not_rules", "ours_not_adjudicated", "unclassified")

# What each status means, shown on the page and in the API (messages/coverage.yaml).
STATUS_LABELS: dict[str, dict[str, str]] = catalog("coverage")["statuses"]

_FAQ_SOURCE = re.compile(r"^faq:(?P<id>\S+)$")
_SEED_FILE = re.compile(r"^(?P<seed>\d{3})_[0-9a-f]+\.txt$")


@dataclass(frozen=True)
class ScenarioRef:
    """One scenario that cites an FAQ entry: its file (without .yaml) and its id."""

    file: str
    id: str
    about: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "id": self.id, "about": self.about}


@dataclass
class CoverageEntry:
    id: str
    title: dict[str, str | None]
    status: str
    scope: str | None
    topics: list[str]
    cards: list[str]
    scenarios: list[ScenarioRef] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"/faq/{self.id}"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": dict(self.title),
            "status": self.status,
            "scope": self.scope,
            "url": self.url,
            "scenarios": [s.to_json() for s in self.scenarios],
            "topics": list(self.topics),
            "cards": list(self.cards),
        }


@dataclass
class Coverage:
    entries: list[CoverageEntry]
    unknown_citations: list[tuple[ScenarioRef, str]]  # scenarios citing FAQ ids that do not exist

    @property
    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys(STATUSES, 0)
        for entry in self.entries:
            counts[entry.status] += 1
        counts["total"] = len(self.entries)
        return counts

    def by_status(self, status: str) -> list[CoverageEntry]:
        return [e for e in self.entries if e.status == status]

    def to_json(self) -> dict[str, Any]:
        return {
            "counts": self.counts,
            "statuses": {s: STATUS_LABELS[s] for s in STATUSES},
            "entries": [e.to_json() for e in self.entries],
        }


def scenarios_dir() -> Path:
    """`tests/rules/scenarios` of a checkout, or its copy inside an installed wheel (see
    pyproject)."""
    return data_dir("tests") / "rules" / "scenarios"


def _seed_text(seed: str) -> str:
    for path in sorted((faq_dir() / "sources").glob(f"{seed}_*.txt")):
        if _SEED_FILE.match(path.name):
            return path.read_text(encoding="utf-8")
    raise FileNotFoundError(f"FAQ seed {seed} not found in {faq_dir() / 'sources'}")


def faq_entries() -> list[FaqEntry]:
    """Every FAQ entry in seed order: 002-01 ... 002-77, then 004-q1 ... 004-q6."""
    return parse_faq_002(_seed_text("002")) + parse_faq_004(_seed_text("004"))


def scenario_citations(directory: Path | None = None) -> dict[str, list[ScenarioRef]]:
    """FAQ entry id -> the scenarios whose `source` lists it, read from the scenario files."""
    cited: dict[str, list[ScenarioRef]] = {}
    if directory is None:
        try:
            directory = scenarios_dir()
        except FileNotFoundError:  # an install without the scenario files: nothing is cited
            log.warning("no tests/rules/scenarios folder: no FAQ entry counts as adjudicated")
            return cited
    for path in sorted(directory.glob("*.yaml")):
        try:
            cases = read_yaml(path)
        except yaml.YAMLError as exc:  # a broken file cites nothing; its own test reports it
            log.warning("%s: not valid YAML (%s)", path, exc)
            continue
        for case in cases if isinstance(cases, list) else []:
            if not isinstance(case, dict):
                continue
            sources = case.get("source") or []
            if isinstance(sources, str):
                sources = [sources]
            ref = ScenarioRef(path.stem, str(case.get("id", "?")), _about(case.get("about")))
            for source in sources:
                match = _FAQ_SOURCE.match(str(source).strip())
                if match:
                    refs = cited.setdefault(match["id"], [])
                    if ref not in refs:
                        refs.append(ref)
    return cited


def _about(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("en")
    return str(value) if value else None


def _derived_title(entry: FaqEntry) -> dict[str, str | None]:
    """A title from the seed's own words when no annotation gives one (English only)."""
    text = entry.question_seed or entry.answer
    first = re.split(r"(?<=[.?!])\s", text.strip().lstrip("…. ").strip(), maxsplit=1)[0]
    return {"en": first[:120], "zh": None}


def _status(scope: str | None, adjudicated: bool) -> str:
    if adjudicated:
        return "adjudicated"
    if scope == "ours":
        return "ours_not_adjudicated"
    if scope in ("other_decks", "not_rules"):
        return scope
    return "unclassified"


def compute(
    annotations_path: Path | None = None, scenarios: Path | None = None
) -> Coverage:
    """The coverage of every FAQ entry, from the seeds, the annotations and the scenario files."""
    path = annotations_path or faq_dir() / "annotations" / "faq_entries.yaml"
    notes = faq_annotations(path)
    cited = scenario_citations(scenarios)
    entries: list[CoverageEntry] = []
    for entry in faq_entries():
        note = notes.get(entry.id, {})
        title = note.get("title") or {}
        if not title.get("en"):
            title = {**_derived_title(entry), **{k: v for k, v in title.items() if v}}
        refs = cited.get(entry.id, [])
        entries.append(
            CoverageEntry(
                id=entry.id,
                title={"en": title.get("en"), "zh": title.get("zh")},
                status=_status(note.get("scope"), bool(refs)),
                scope=note.get("scope"),
                topics=list(note.get("topics") or []),
                cards=list(note.get("cards") or []),
                scenarios=list(refs),
            )
        )
    known = {e.id for e in entries}
    unknown = [(ref, eid) for eid, refs in cited.items() if eid not in known for ref in refs]
    return Coverage(entries, unknown)


def topic_names() -> dict[str, dict[str, str]]:
    """Topic id -> {en, zh} from faq/annotations/topics.yaml (ids stand in when it is missing)."""
    path = faq_dir() / "annotations" / "topics.yaml"
    try:
        data = read_yaml(path) or {}
    except (OSError, yaml.YAMLError):
        return {}
    topics = data.get("topics") if isinstance(data, dict) else None
    if not isinstance(topics, dict):
        return {}
    return {str(k): {"en": str(v.get("en") or k), "zh": str(v.get("zh") or k)}
            for k, v in topics.items() if isinstance(v, dict)}


@lru_cache(maxsize=1)
def _cached(stamp: tuple[tuple[str, int], ...]) -> Coverage:
    return compute()


def current() -> Coverage:
    """`compute()`, recomputed only when a scenario or annotation file changes (for the web)."""
    files = [faq_dir() / "annotations" / "faq_entries.yaml"]
    try:
        files += sorted(scenarios_dir().glob("*.yaml"))
    except FileNotFoundError:
        pass
    stamp = tuple((str(p), p.stat().st_mtime_ns) for p in files if p.exists())
    return _cached(stamp)
