"""FAQ coverage (adjudicator/knowledge/coverage.py, /faq/coverage, GET /api/faq/coverage).

The report must account for every FAQ entry exactly once, count an entry as adjudicated only when
a scenario file cites it, and leave no entry that applies to a card we play unadjudicated.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from adjudicator.knowledge import coverage
from adjudicator.resources import read_yaml

SCENARIOS = Path(__file__).resolve().parents[1] / "rules" / "scenarios"


@pytest.fixture(scope="module")
def report() -> coverage.Coverage:
    return coverage.compute()


def test_every_entry_once(report: coverage.Coverage) -> None:
    ids = [e.id for e in report.entries]
    assert len(ids) == 83 == len(set(ids))
    assert ids[0] == "002-01" and ids[76] == "002-77"
    assert ids[77:] == [f"004-q{n}" for n in range(1, 7)]


def test_counts_add_up_to_83(report: coverage.Coverage) -> None:
    counts = report.counts
    assert counts["total"] == 83
    assert sum(counts[s] for s in coverage.STATUSES) == 83


def test_no_entry_of_ours_left_unadjudicated(report: coverage.Coverage) -> None:
    left = [(e.id, e.title["en"]) for e in report.by_status("ours_not_adjudicated")]
    assert left == [], f"FAQ entries about cards we play with no scenario: {left}"


def test_every_entry_classified(report: coverage.Coverage) -> None:
    assert report.by_status("unclassified") == []


def test_scenarios_cite_existing_entries(report: coverage.Coverage) -> None:
    assert report.unknown_citations == []


def test_adjudicated_means_cited_by_a_scenario_file(report: coverage.Coverage) -> None:
    """Read the scenario files independently: the report agrees with them both ways."""
    cited: dict[str, set[str]] = {}
    for path in SCENARIOS.glob("*.yaml"):
        for case in read_yaml(path) or []:
            for source in case.get("source", []):
                if str(source).startswith("faq:"):
                    cited.setdefault(str(source)[4:], set()).add(f"{path.stem}:{case['id']}")
    for entry in report.entries:
        refs = {f"{s.file}:{s.id}" for s in entry.scenarios}
        assert refs == cited.get(entry.id, set()), entry.id
        assert (entry.status == "adjudicated") == bool(refs), entry.id


def test_the_faq_chain_entries_are_adjudicated(report: coverage.Coverage) -> None:
    """The FAQ's chain cases (A, B, A, B ... and a third player) are encoded."""
    by_id = {e.id: e for e in report.entries}
    for entry_id in ("002-54", "002-62", "002-43", "002-70", "002-72", "002-01"):
        assert by_id[entry_id].status == "adjudicated", entry_id
        assert any(s.file == "surprises" for s in by_id[entry_id].scenarios), entry_id


def _write(tmp: Path, scenarios: list[dict], notes: list[dict]) -> tuple[Path, Path]:
    sdir = tmp / "scenarios"
    sdir.mkdir()
    (sdir / "case.yaml").write_text(yaml.safe_dump(scenarios), encoding="utf-8")
    ann = tmp / "faq_entries.yaml"
    ann.write_text(yaml.safe_dump(notes), encoding="utf-8")
    return ann, sdir


def test_status_rules(tmp_path: Path) -> None:
    """A scenario beats the scope; scope ours without one is flagged; no scope is unclassified."""
    scenarios = [{"id": "a", "source": ["faq:002-02", "card:war"], "about": "x"},
                 {"id": "b", "source": "faq:002-03"},
                 {"id": "c", "source": ["faq:002-99"]}]
    notes = [{"id": "002-01", "scope": "ours", "title": {"en": "One", "zh": "一"}},
             {"id": "002-02", "scope": "other_decks", "topics": ["themed_decks"]},
             {"id": "002-03", "scope": "ours"},
             {"id": "002-04", "scope": "not_rules"},
             {"id": "002-05", "scope": "other_decks"}]
    ann, sdir = _write(tmp_path, scenarios, notes)
    report = coverage.compute(ann, sdir)
    status = {e.id: e.status for e in report.entries}
    assert status["002-01"] == "ours_not_adjudicated"
    assert status["002-02"] == "adjudicated"
    assert status["002-03"] == "adjudicated"
    assert status["002-04"] == "not_rules"
    assert status["002-05"] == "other_decks"
    assert status["002-06"] == "unclassified"
    assert report.counts["total"] == 83
    assert [(r.id, eid) for r, eid in report.unknown_citations] == [("c", "002-99")]
    first = report.entries[0].to_json()
    assert first["title"] == {"en": "One", "zh": "一"}
    assert report.entries[1].topics == ["themed_decks"]
    assert report.entries[1].scenarios[0].to_json() == {"file": "case", "id": "a", "about": "x"}


def test_api(client, report: coverage.Coverage) -> None:
    r = client.get("/api/faq/coverage")
    assert r.status_code == 200
    data = r.get_json()
    assert data["counts"] == report.counts
    assert len(data["entries"]) == 83
    entry = next(e for e in data["entries"] if e["id"] == "002-54")
    assert set(entry) >= {"id", "title", "status", "scenarios", "topics"}
    assert entry["status"] == "adjudicated" and entry["scenarios"]
    assert entry["title"]["en"]


def test_api_status_filter(client, report: coverage.Coverage) -> None:
    data = client.get("/api/faq/coverage?status=other_decks").get_json()
    assert {e["status"] for e in data["entries"]} == {"other_decks"}
    assert len(data["entries"]) == report.counts["other_decks"]
    bad = client.get("/api/faq/coverage?status=nope")
    assert bad.status_code == 400
    body = bad.get_json()
    assert body["ok"] is False and body["errors"][0]["path"] == "/status"
    assert body["errors"][0]["message"]["zh"]


@pytest.mark.parametrize("lang,heading", [("en", "FAQ coverage"), ("zh", "FAQ 覆盖情况")])
def test_page(client, report: coverage.Coverage, lang: str, heading: str) -> None:
    r = client.get(f"/faq/coverage?lang={lang}")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert heading in html
    for entry in report.entries:
        assert f'data-entry="{entry.id}"' in html
    # topics carry their names in the page's language (faq/annotations/topics.yaml)
    chains = coverage.topic_names()["surprise_chains"][lang]
    assert f">{chains}</a>" in html
    for status in (*coverage.STATUSES, "total"):
        assert f'data-status="{status}">{report.counts[status]}</strong>' in html


def test_page_json_twin(client, report: coverage.Coverage) -> None:
    r = client.get("/faq/coverage", headers={"Accept": "application/json"})
    assert r.get_json()["counts"] == report.counts
