"""Draws from a draw pile given as a count whose cards matter at once (a sub-hand to play): one
outcome per set of cards the draw may take, each with its exact probability over the deck's
unseen copies (rules_asp/moves/unseen_draws.lp, adjudicator/referee/draw_odds.py). The fractions
are worked out by hand in each test's comment."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from adjudicator.cards.catalog import catalog_for
from adjudicator.referee import draw_odds, moves
from adjudicator.referee.simulate import deck
from adjudicator.table.reader import parse_state
from tests.rules.test_plays import assert_odds_add_up


def table(edition: str, unseen: list[str], card: str, hidden: int = 0,
          expansions: tuple[str, ...] | list[str] = ()) -> dict[str, Any]:
    """Ann holds `card` alone; every other copy of the deck is in sight (Bo's Keepers and
    Creepers, the discard pile) except `unseen`, which are the draw pile (given as a count)
    and, with `hidden`, that many cards of Bo's hand shown as a count."""
    game = catalog_for(edition, tuple(expansions))
    rest = deck(game) + [c.id for c in game if c.type == "promo"]
    for c in [*unseen, card]:
        rest.remove(c)
    keepers = [c for c in rest if game.get(c).type == "keeper"]
    creepers = [c for c in rest if game.get(c).type == "creeper"]
    others = [c for c in rest if game.get(c).type not in ("keeper", "creeper")]
    bo: dict[str, Any] = {"name": "Bo", "keepers": keepers, "creepers": creepers}
    bo.update({"hand_size": hidden} if hidden else {"hand": []})
    return {"edition": edition, "expansions": list(expansions),
            "players": [{"name": "Ann", "hand": [card]}, bo],
            "active": "Ann", "turn": {"drawn": 1, "played": 0},
            "draw_pile": len(unseen) - hidden, "discard_pile": others}


def odds_by_draw(response: dict[str, Any]) -> dict[tuple[str, ...], str]:
    return {tuple(o["choices"]["drawn"]): o["probability"] for o in response["outcomes"]}


def test_draw_2_and_use_em_from_four_unseen_cards() -> None:
    # Unseen: Milk, Cookies, Sun, Moon (one copy each). Two of four: C(4,2) = 6 sets, each
    # 1*1 / 6 = 1/6; together 1.
    state = parse_state(table("fluxx", ["milk", "cookies", "sun", "moon"], "draw_2_and_use_em"))
    response = moves.play_response(state, {"card": "Draw 2 and Use 'Em"})
    assert odds_by_draw(response) == {
        ("cookies", "milk"): "1/6", ("cookies", "moon"): "1/6", ("cookies", "sun"): "1/6",
        ("milk", "moon"): "1/6", ("milk", "sun"): "1/6", ("moon", "sun"): "1/6"}
    assert len(response["groups"]) == 1  # no decision: the draws are one group
    assert_odds_add_up(response)
    first = response["outcomes"][0]
    assert first["state"]["sub_hands"][0]["cards"] == list(first["choices"]["drawn"])
    assert first["state"]["sub_hands"][0]["unknown"] == 0
    assert "drawn_from_unseen" in {f["key"] for f in first["play_findings"]}


def test_math_copies_weigh_the_draw() -> None:
    # Math Fluxx, unseen: Zero x2, One, Two (T = 4 copies). Two cards: C(4,2) = 6 ways.
    # {Zero, Zero}: C(2,2) = 1 way -> 1/6; {One, Zero}: C(2,1)*C(1,1) = 2 -> 1/3;
    # {Two, Zero}: 2 -> 1/3; {One, Two}: 1 -> 1/6. Sum 1/6 + 1/3 + 1/3 + 1/6 = 1.
    state = parse_state(table("math", ["zero", "zero", "one", "two"], "draw_2_and_use_em"))
    response = moves.play_response(state, {"card": "Draw 2 And Use 'Em"})
    assert odds_by_draw(response) == {("zero", "zero"): "1/6", ("one", "zero"): "1/3",
                                      ("two", "zero"): "1/3", ("one", "two"): "1/6"}
    assert_odds_add_up(response)


def test_a_hand_shown_as_a_count_hides_unseen_cards() -> None:
    # The same four unseen copies, one of them in Bo's hand (hand_size 1), three in the pile:
    # the pile's cards are any three of the four, so the two drawn are any two of the four:
    # the same odds as above.
    state = parse_state(table("math", ["zero", "zero", "one", "two"], "draw_2_and_use_em",
                              hidden=1))
    response = moves.play_response(state, {"card": "Draw 2 And Use 'Em"})
    assert odds_by_draw(response) == {("zero", "zero"): "1/6", ("one", "zero"): "1/3",
                                      ("two", "zero"): "1/3", ("one", "two"): "1/6"}


def test_draw_3_play_2_of_them() -> None:
    # Three of the four single unseen cards: C(4,3) = 4 sets, each 1/4.
    state = parse_state(table("fluxx", ["milk", "cookies", "sun", "moon"],
                              "draw_3_play_2_of_them"))
    response = moves.play_response(state, {"card": "Draw 3, Play 2 of Them"})
    assert sorted(odds_by_draw(response).values()) == ["1/4"] * 4
    assert_odds_add_up(response)


def test_an_outcomes_draw_is_accepted_back() -> None:
    # Sending the outcome's own `drawn` back names the cards: one outcome, seen, no probability.
    state = parse_state(table("math", ["zero", "zero", "one", "two"], "draw_2_and_use_em"))
    response = moves.play_response(state, {"card": "Draw 2 And Use 'Em",
                                           "choices": {"drawn": ["zero", "zero"]}})
    assert len(response["outcomes"]) == 1
    outcome = response["outcomes"][0]
    assert "probability" not in outcome
    assert outcome["state"]["sub_hands"][0]["cards"] == ["zero", "zero"]


def test_a_draw_into_the_hand_stays_one_outcome() -> None:
    # Jackpot draws three into the hand: nothing in the move depends on which cards they are.
    state = parse_state(table("fluxx", ["milk", "cookies", "sun", "moon"], "jackpot"))
    response = moves.play_response(state, {"card": "Jackpot!"})
    assert len(response["outcomes"]) == 1
    assert "probability" not in response["outcomes"][0]


def test_many_unseen_cards_are_capped() -> None:
    # Math Fluxx: Ann holds Draw 2 And Use 'Em and One; Bo's three cards are a count. Unseen:
    # 100 - Basic Rules - Ann's two cards = 97 copies; C(97,2) = 4656 ways. Unseen copies: Zero
    # 4, One 3 (Ann holds one), Two 3, Three to Nine 2 each, the rest 1. The likeliest sets:
    # {One, Zero} and {Two, Zero}, 3*4 = 12 ways: 12/4656 = 1/388; {One, Two} 3*3 = 9/4656 =
    # 3/1552; {Three, Zero} 2*4 = 8/4656 = 1/582. The sets listed stop at MAX_OUTCOMES, the
    # likelier first, and the answer says so.
    state = parse_state({"edition": "math", "active": "Ann",
                         "players": [{"name": "Ann", "hand": ["Draw 2 And Use 'Em", "One"]},
                                     {"name": "Bo", "hand_size": 3}],
                         "turn": {"hand_at_start": 2, "drawn": 1, "played": 0}})
    response = moves.play_response(state, {"card": "Draw 2 And Use 'Em"})
    assert len(response["outcomes"]) == moves.MAX_OUTCOMES
    assert response["outcomes_truncated"] is True
    odds = odds_by_draw(response)
    assert list(odds.items())[:3] == [(("one", "zero"), "1/388"), (("two", "zero"), "1/388"),
                                      (("one", "two"), "3/1552")]
    assert odds[("three", "zero")] == "1/582"
    chances = [Fraction(p) for p in odds.values()]
    assert chances == sorted(chances, reverse=True)
    drawn = next(o for o in response["open_choices"] if o["key"] == "drawn")
    assert drawn["kind"] == "chance" and drawn["count"] == 2 and "seven" in drawn["options"]


def test_more_copies_than_the_deck_leaves_the_pile_unknown() -> None:
    # Five Zeros on the table (Math Fluxx has four): what the pile holds is not known; the
    # draw stays count-only and a finding says why (no crash).
    state = parse_state({"edition": "math", "active": "Ann",
                         "players": [{"name": "Ann", "hand": ["Draw 2 And Use 'Em"],
                                      "keepers": ["Zero", "Zero", "Zero"]},
                                     {"name": "Bo", "hand": [], "keepers": ["Zero", "Zero"]}],
                         "turn": {"hand_at_start": 1, "drawn": 1, "played": 0},
                         "draw_pile": 20}, check_copies=False)
    response = moves.play_response(state, {"card": "Draw 2 And Use 'Em"})
    assert len(response["outcomes"]) == 1
    outcome = response["outcomes"][0]
    assert outcome["state"]["sub_hands"][0]["unknown"] == 2
    keys = {f["key"]: f for f in outcome["play_findings"]}
    assert "pile_copies_unknown" in keys
    assert keys["pile_copies_unknown"]["sources"][0]["id"] == "card:math/zero"


def test_more_unknown_cards_than_the_deck_leaves_the_pile_unknown() -> None:
    # Four copies unseen (Milk, Cookies, Sun, Moon), but the table counts six unknown cards: the
    # pile's 4 and the 2 unknown cards of the Draw 3, Play 2 of Them sub-hand Ann plays from.
    # What the pile holds is not known: the draw stays count-only, a finding says why.
    data = table("fluxx", ["milk", "cookies", "sun", "moon"], "draw_2_and_use_em")
    data["players"][0]["hand"] = []
    data["sub_hands"] = [{"player": "Ann", "card": "Draw 3, Play 2 of Them",
                          "cards": ["Draw 2 and Use 'Em"], "unknown": 2, "plays_left": 2}]
    data["turn"]["played"] = 1
    response = moves.play_response(parse_state(data), {"card": "Draw 2 and Use 'Em"})
    assert len(response["outcomes"]) == 1
    outcome = response["outcomes"][0]
    assert outcome["state"]["sub_hands"][-1]["unknown"] == 2
    said = {f["key"]: f for f in outcome["play_findings"]}
    assert "counts 6 cards" in said["pile_count_unknown"]["text"]["en"]
    assert "only 4 cards" in said["pile_count_unknown"]["text"]["en"]


def test_the_odds_add_up() -> None:
    # Vandermonde: the sets of n cards of the unseen copies add up to 1.
    unseen = {"zero": 4, "one": 3, "two": 1, "six": 2}
    for n in range(1, 6):
        sets = list(draw_odds.draws(unseen, n))
        assert len(sets) == len({tuple(s) for s in sets})
        assert sum(draw_odds.odds(unseen, s) for s in sets) == 1
        chances = [draw_odds.odds(unseen, s) for s in sets]
        assert chances == sorted(chances, reverse=True)  # the likelier first
    assert draw_odds.odds(unseen, ["zero", "zero"]) == Fraction(6, 45)  # C(4,2)/C(10,2)


def test_a_creeper_drawn_is_replaced() -> None:
    # Creepers: unseen War, Milk, Cookies, the pile 3. Two of three: C(3,2) = 3 sets, each 1/3.
    # A set with War puts War in front of Ann and draws one more card for it (FAQ 002-47): the
    # sub-hand still has two cards, the one drawn for War unknown.
    data = table("fluxx", ["war", "milk", "cookies"], "draw_2_and_use_em",
                 expansions=["creepers"])
    response = moves.play_response(parse_state(data), {"card": "Draw 2 and Use 'Em"})
    assert odds_by_draw(response) == {("cookies", "milk"): "1/3", ("cookies", "war"): "1/3",
                                      ("milk", "war"): "1/3"}
    with_war = next(o for o in response["outcomes"] if "war" in o["choices"]["drawn"])
    assert with_war["state"]["players"][0]["creepers"] == ["war"]
    frame = with_war["state"]["sub_hands"][0]
    assert len(frame["cards"]) + frame["unknown"] == 2


def test_order_names_the_cards_and_a_card_played_unseen_is_seen() -> None:
    # Unseen: Milk, Cookies, Sun, Moon, Bread and Draw 3, Play 2 of Them (6 copies, the pile 6).
    # With the whole `order` given, the cards played are named: one outcome.
    data = table("fluxx", ["milk", "cookies", "sun", "moon", "draw_3_play_2_of_them", "bread"],
                 "draw_2_and_use_em")
    state = parse_state(data)
    named = moves.play_response(state, {"card": "Draw 2 and Use 'Em", "choices": {
        "order": ["Draw 3, Play 2 of Them", "Milk", "Cookies", "Sun"]}})
    assert len(named["outcomes"]) == 1
    assert named["outcomes"][0]["state"]["players"][0]["keepers"] == ["milk", "cookies", "sun"]
    # `order` ends with Draw 3, Play 2 of Them, played from the two unknown cards: it is in
    # sight now, so its three cards are any three of the 5 copies still unseen (the pile's 4 and
    # the other unknown card of the first sub-hand): C(5,3) = 10 sets, each 1/10.
    response = moves.play_response(state, {"card": "Draw 2 and Use 'Em", "choices": {
        "order": ["Draw 3, Play 2 of Them"]}})
    odds = odds_by_draw(response)
    assert len(odds) == 10 and set(odds.values()) == {"1/10"}
    assert all("draw_3_play_2_of_them" not in drawn for drawn in odds)
