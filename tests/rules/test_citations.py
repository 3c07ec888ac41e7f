"""Every citation the engine can make exists in the knowledge store and opens in the web UI, and
every message key the .lp files use has an English and a Chinese text."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
import yaml

from adjudicator.errors import InputError
from adjudicator.knowledge import queries
from adjudicator.messages import messages
from adjudicator.referee.render import source_of
from adjudicator.referee.ruling import ruling_for
from adjudicator.resources import read_yaml, rules_dir
from adjudicator.table.reader import parse_state

SOURCE_STRING = re.compile(r'"((?:rulebook|faq|card):[^"]+)"')
# finding(About, key, ...), cites(key, ...) and cite(key, Source) with a constant key; not_yet
# reasons key(...)
FINDING_KEY = re.compile(r"\bfinding\(\s*\w+\s*,\s*([a-z]\w*)\s*,")
CITES_KEY = re.compile(r"\bcites?\(\s*([a-z]\w*)\s*,")
SCENARIOS = Path(__file__).resolve().parents[1] / "rules" / "scenarios"


def lp_files() -> list[Path]:
    return sorted(rules_dir().rglob("*.lp"))


def without_comments(text: str) -> str:
    return "\n".join(line.split("%", 1)[0] for line in text.splitlines())


def lp_source_strings() -> set[str]:
    found: set[str] = set()
    for path in lp_files():
        found |= set(SOURCE_STRING.findall(without_comments(path.read_text(encoding="utf-8"))))
    return found


def lp_keys() -> set[str]:
    keys: set[str] = set()
    for path in lp_files():
        text = without_comments(path.read_text(encoding="utf-8"))
        keys |= set(FINDING_KEY.findall(text)) | set(CITES_KEY.findall(text))
    return keys


@cache
def scenario_sources() -> frozenset[str]:
    """The source ids that the rulings of all scenario tables cite (card(C) terms included)."""
    found: set[str] = set()
    # only the tables that load and states that parse: test_scenarios reports the others
    for path in sorted(SCENARIOS.glob("*.yaml")):
        try:
            cases = read_yaml(path) or []
        except yaml.YAMLError:
            continue
        for case in cases:
            if "expect_error" in case:
                continue
            try:
                ruling = ruling_for(parse_state(case["state"]))
            except InputError:
                continue
            for f in ruling.get("findings", []) + ruling.get("not_yet", []):
                found |= {s["id"] for s in f["sources"]}
    return frozenset(found)


def test_lp_files_cite_something() -> None:
    sources = lp_source_strings()
    assert "faq:002-63" in sources and "rulebook:each-turn" in sources


def test_every_source_string_in_lp_files_exists(knowledge_db) -> None:
    known = queries.source_ids(db=knowledge_db)
    missing = sorted(s for s in lp_source_strings() if s not in known)
    assert not missing, f"source ids used in rules_asp/*.lp but not in the store: {missing}"


@pytest.mark.slow
def test_every_source_cited_by_the_scenarios_exists(knowledge_db) -> None:
    known = queries.source_ids(db=knowledge_db)
    cited = scenario_sources()
    assert any(s.startswith("card:math/") for s in cited)  # card(C) terms resolve per edition
    missing = sorted(s for s in cited if s not in known)
    assert not missing, f"sources cited by rulings but not in the store: {missing}"


def test_every_key_has_both_texts() -> None:
    texts = messages()
    keys = lp_keys()
    assert {"draw_total", "rule_superseded", "reason_draws_owed"} <= keys | {"reason_draws_owed"}
    missing = sorted(k for k in keys if k not in texts)
    assert not missing, f"message keys without a text in findings.yaml: {missing}"
    for key, entry in texts.items():
        assert entry.get("en") and entry.get("zh"), key


def test_not_yet_reason_keys_have_texts() -> None:
    texts = messages()
    reasons: set[str] = set()
    for path in lp_files():
        text = without_comments(path.read_text(encoding="utf-8"))
        reasons |= set(re.findall(r"\b(reason_\w+)\b", text))
    assert reasons
    assert not sorted(r for r in reasons if r not in texts)


def _url_ok(client, url: str) -> None:
    path, _, anchor = url.partition("#")
    response = client.get(path)
    assert response.status_code == 200, f"GET {path} -> {response.status_code}"
    if anchor:
        html = response.get_data(as_text=True)
        assert f'id="{anchor}"' in html, f"{path} has no element with id {anchor!r}"


@pytest.mark.parametrize("source_id", sorted(lp_source_strings()))
@pytest.mark.slow
def test_source_url_opens(client, source_id: str) -> None:
    _url_ok(client, source_of(source_id)["url"])


@pytest.mark.slow
def test_scenario_source_urls_open(client) -> None:
    for source_id in sorted(scenario_sources()):
        _url_ok(client, source_of(source_id)["url"])


# What each FAQ entry cited by the core engine files must say (guards against numbering slips).
FAQ_PHRASES = {
    "faq:002-05": "turn ending immediately",
    "faq:002-20": "discarded down to the current Limits",
    "faq:002-21": "before your final play",
    "faq:002-24": "total Draw allowance",
    "faq:002-40": "draw an extra card",
    "faq:002-44": "sacrificing (at least) one of your Plays",
    "faq:002-61": "your turn ends immediately",
    "faq:002-63": "So you draw a total of eight cards",
    "faq:002-64": "don’t count towards the number of cards drawn",
    "faq:002-66": "Limits apply to you when it’s not your turn",
    "faq:002-68": "It does not use one of your plays",
    "faq:002-60": "discard and draw back up to 3",
    "faq:002-13": "it prevents you from winning",
    "faq:002-34": "still uses up one of your plays",
    "faq:002-67": "prevents you from winning",
    "faq:002-73": "prevents you from winning with Rabbits of DOOM",
    "faq:002-74": "the next Goal played must fill that spot",
    "faq:004-q1": "it must be your turn to claim victory",
    "faq:004-q2": "exponentiation (or roots) are also allowed",
    "faq:004-q3": "a 1 and a 0 can always be substituted for a 10",
    "faq:004-q4": "Combine Digits",
    "faq:004-q5": "only create ONE two-digit number",
}
CORE_FILES = ("ruling/card_values.lp", "cards/fluxx.lp", "cards/math.lp", "cards/fluxxnomic.lp",
              "ruling/rule_conflicts.lp", "ruling/turn_order.lp", "ruling/draws_owed.lp",
              "ruling/plays_owed.lp", "ruling/limits.lp", "ruling/legal_moves.lp",
              "ruling/citations.lp", "ruling/goals.lp", "cards/fluxx_goals.lp",
              "cards/math_goals.lp", "cards/fluxxnomic_goals.lp")


def test_core_faq_citations_say_what_they_are_cited_for(knowledge_db) -> None:
    cited = set()
    for name in CORE_FILES:
        text = without_comments((rules_dir() / name).read_text(encoding="utf-8"))
        cited |= {s for s in SOURCE_STRING.findall(text) if s.startswith("faq:")}
    assert cited <= set(FAQ_PHRASES), sorted(cited - set(FAQ_PHRASES))
    for source_id in sorted(cited):
        entry = queries.get_faq(source_id[4:], db=knowledge_db)
        assert FAQ_PHRASES[source_id] in entry["text"], source_id
