"""Goals and winning (rules_asp/ruling/goals.lp, rules_asp/cards/*_goals.lp) beyond the scenarios.

- The Goal data agrees with the catalogs: every Goal of every edition is modeled, and the Math
  Fluxx targets are exactly the catalog's `attrs.target` (unknown ones stay unknown).
- Several copies of one Keeper (Math Fluxx's Zeros and Ones, Fluxxnomic's Books) reach the rules
  as `keeper_copies/3` and count as many times as they are listed.
- The Math Rules search is checked against an independent brute force in Python over random
  Keeper sets, with the same bound (at most 4 Keepers, whole numbers within +-46340).
"""

from __future__ import annotations

import json
import re
from typing import Any

import clingo
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.engine.facts import state_facts, term
from adjudicator.engine.math_facts import card_data
from adjudicator.engine.math_search import decide, equation_text
from adjudicator.engine.solve import solve
from adjudicator.resources import faq_dir, rules_dir
from adjudicator.table.reader import parse_state

NUMBER_KEEPERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                  "nine", "ten"]


def catalog(edition: str) -> dict[str, dict[str, Any]]:
    data = json.loads((faq_dir() / "catalogs" / f"{edition}.json").read_text(encoding="utf-8"))
    return {c["id"]: c for c in data["cards"]}


def lp_facts(name: str, predicate: str) -> list[list[str]]:
    """The arguments of every `predicate(...)` fact written in rules_asp/<name>."""
    text = (rules_dir() / name).read_text(encoding="utf-8")
    out = []
    for match in re.finditer(rf"^{predicate}\(([^)]*)\)\.", text, re.M):
        out.append([a.strip().strip('"') for a in match.group(1).split(",")])
    return out


@pytest.mark.parametrize("edition,lp", [("fluxx", "cards/fluxx_goals.lp"),
                                        ("math", "cards/math_goals.lp"),
                                        ("fluxxnomic", "cards/fluxxnomic_goals.lp")])
def test_every_goal_is_specified(edition: str, lp: str) -> None:
    goals = {cid for cid, c in catalog(edition).items() if c["type"] == "goal"}
    specified = {args[1] for args in lp_facts(lp, "goal_spec") if args[0] == edition}
    assert specified == goals
    for args in lp_facts(lp, "goal_spec"):
        prefix = "card:" if edition == "fluxx" else f"card:{edition}/"
        assert args[2] == prefix + args[1]


def test_rulebook_deck_has_23_goals() -> None:
    assert len([a for a in lp_facts("cards/fluxx_goals.lp", "goal_spec")]) == 23


def test_math_targets_match_the_catalog() -> None:
    goals = {cid: c for cid, c in catalog("math").items() if c["type"] == "goal"}
    known = {a[1]: int(a[2]) for a in lp_facts("cards/math_goals.lp", "goal_target")}
    unknown = {a[1] for a in lp_facts("cards/math_goals.lp", "goal_target_unknown")}
    for cid, card in goals.items():
        target = card["attrs"]["target"]
        if target is None:
            assert cid in unknown and cid not in known
        else:
            assert known[cid] == target and cid not in unknown
    keepers = {a[1]: int(a[2]) for a in lp_facts("cards/math_goals.lp", "number_keeper")}
    assert keepers == {cid: c["attrs"]["value"] for cid, c in catalog("math").items()
                       if c["type"] == "keeper"}


# ---- running the hub ---------------------------------------------------------------------------

def rule(state: dict[str, Any]) -> dict[str, list[clingo.Symbol]]:
    solution = solve(state_facts(parse_state(state)))
    assert solution.models == 1, solution.models
    assert not solution.warnings, solution.warnings
    atoms: dict[str, list[clingo.Symbol]] = {}
    for sym in solution.symbols:
        atoms.setdefault(sym.name, []).append(sym)
    return atoms


def winners(atoms: dict[str, list[clingo.Symbol]]) -> list[int]:
    return sorted(s.arguments[0].number for s in atoms.get("winner", []))


def keys(atoms: dict[str, list[clingo.Symbol]]) -> set[str]:
    return {s.arguments[1].name for s in atoms.get("finding", [])}


def math_state(keepers: list[str], rules: list[str], goal: str, active: str = "Ann") -> dict:
    return {"edition": "math",
            "players": [{"name": "Ann", "hand_size": 2, "keepers": keepers},
                        {"name": "Bo", "hand_size": 2}],
            "active": active, "rules": rules, "goals": [goal]}


def test_one_zero_zero_form_century_with_copies() -> None:
    """FAQ 004-q3: a 1 and a 0 substitute for 10 in the usual manner: One, Zero, Zero form 100."""
    state = math_state(["One", "Zero"], [], "Century", active="Bo")
    assert winners(rule(state)) == []  # one Zero only: 1, 0 cannot form 100
    atoms = rule(math_state(["One", "Zero", "Zero"], [], "Century", active="Bo"))
    assert winners(atoms) == [0]
    assert "goal_met_digits" in keys(atoms)


def test_digits_need_enough_copies() -> None:
    # 99 Percent: one Nine is not two
    assert winners(rule(math_state(["Nine"], [], "99 Percent", active="Bo"))) == []
    assert winners(rule(math_state(["Nine", "Nine"], [], "99 Percent", active="Bo"))) == [0]


def test_keep_going_with_math_rules_claims_by_math() -> None:
    state = math_state(["Two", "Three", "Five"], ["Math Rules", "Keep Going"], "Silver Jubilee")
    atoms = rule(state)
    assert winners(atoms) == []
    assert [str(s) for s in atoms.get("goal_claim", [])] == ["goal_claim(0,silver_jubilee)"]


def test_bookshelf_needs_six_books() -> None:
    def state(books: int) -> dict[str, Any]:
        return {"edition": "fluxxnomic",
                "players": [{"name": "Ann", "hand_size": 2, "keepers": ["Book"] * books},
                            {"name": "Bo", "hand_size": 2}],
                "active": "Bo", "goals": ["I might need a bookshelf"]}

    assert winners(rule(state(5))) == []
    atoms = rule(state(6))
    assert winners(atoms) == [0]
    assert {"goal_met_copies", "wins_cycle"} <= keys(atoms)


def test_five_keepers_counts_copies() -> None:
    """keeper_count/2 counts every copy, so 5 Keepers sees duplicate Keepers (Math Fluxx)."""
    state = {"edition": "fluxx",
             "players": [{"name": "Ann", "hand_size": 1,
                          "keepers": ["Bread", "Toaster", "Milk", "Cookies", "Sleep"]},
                         {"name": "Bo", "hand_size": 1, "keepers": ["Dreams"]}],
             "active": "Bo", "goals": ["5 Keepers"]}
    assert winners(rule(state)) == [0]


# ---- Math Rules: the rules program applies the arithmetic search's answer -----------------------
# (the search itself against a brute force: tests/engine/test_math_search.py)

TARGETS = {a[1]: int(a[2]) for a in lp_facts("cards/math_goals.lp", "goal_target")}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(keepers=st.lists(st.integers(min_value=0, max_value=10), min_size=2, max_size=6),
       goal=st.sampled_from(sorted(TARGETS)), combine=st.booleans())
@pytest.mark.slow
def test_math_rules_win_is_the_search_answer(keepers: list[int], goal: str,
                                             combine: bool) -> None:
    copies = {v: catalog("math")[NUMBER_KEEPERS[v]]["copies"] for v in range(11)}
    keepers = [v for i, v in enumerate(keepers) if keepers[:i + 1].count(v) <= copies[v]]
    names = [catalog("math")[NUMBER_KEEPERS[v]]["name"]["en"] for v in keepers]
    rules = ["Math Rules"] + (["Combine Digits"] if combine else [])
    goal_name = catalog("math")[goal]["name"]["en"]
    atoms = rule(math_state(names, rules, goal_name))
    engine_says = any(str(s) == f"math_win(0,{term(goal)})" for s in atoms.get("math_win", []))
    answer = decide(keepers, TARGETS[goal], combine, joins=card_data("math").joins)
    assert engine_says == (answer.status == "can"), (keepers, goal, combine)
    if engine_says:
        assert winners(atoms) == [0]
        (witness,) = atoms["math_witness"]
        assert witness.arguments[2].string == equation_text(answer.witness)


@pytest.mark.parametrize("keepers,goal,rules,expected", [
    (["Two", "Three", "Five"], "Silver Jubilee", ["Math Rules"], True),       # (2 + 3) x 5
    (["Two", "Five"], "Silver Jubilee", ["Math Rules"], True),                # 5 ^ 2
    (["One", "Five", "Ten"], "Silver Jubilee", ["Math Rules"], False),
    (["One", "Five", "Ten"], "Silver Jubilee", ["Math Rules", "Combine Digits"], True),  # 15 + 10
    (["Nine"], "Three Cubed", ["Math Rules"], False),                         # one number only
])
def test_math_rules_examples(keepers: list[str], goal: str, rules: list[str],
                             expected: bool) -> None:
    atoms = rule(math_state(keepers, rules, goal))
    assert (winners(atoms) == [0]) is expected


def test_an_undecided_computation_neither_wins_nor_draws_3(monkeypatch) -> None:
    """Ann matches Century (100) in the usual manner (One, Zero, Zero) under Math Rules; with a
    search that cannot finish, the ruling says undecided and applies neither the win nor Math
    Rules' draw of 3 (rules_asp/ruling/goals_math.lp, math_unknown)."""
    from adjudicator.engine import math_facts
    from adjudicator.engine.math_search import Decision
    from adjudicator.referee.ruling import ruling_for

    def undecided(numbers: tuple[int, ...], target: int, *args: object) -> Decision:
        return Decision("undecided", None, len(numbers), 0)

    monkeypatch.setattr(math_facts, "decision", undecided)
    ann = {"name": "Ann", "hand": [], "keepers": ["One", "Zero", "Zero"]}
    state = parse_state({"edition": "math", "active": "Ann", "rules": ["Math Rules"],
                         "goals": ["Century"], "players": [ann, {"name": "Bo", "hand_size": 2}]})
    ruling = ruling_for(state)
    keys = {f["key"] for f in ruling["findings"]}
    assert "math_undecided" in keys
    assert not keys & {"math_rules_no_digit_win", "math_rules_draw_3", "goal_met_math"}
    assert ruling["winner"] is None
    assert not [m for m in ruling["legal_moves"] if m.get("at_once")]
