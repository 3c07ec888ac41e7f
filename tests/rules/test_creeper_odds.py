"""A draw into a hand from a pile given as a count, in a game with Creepers: one outcome per set of
unseen Creepers it may bring, each Creeper in front of the drawer (FAQ 002-47), with exact odds
(rules_asp/moves/creeper_moves.lp, adjudicator/referee/draw_odds.py creeper_draws). The odds are
checked against every ordering of a small pile; the outcomes' `choices` sent back reproduce them."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations
from typing import Any

import pytest

from adjudicator.referee import draw_odds, moves
from adjudicator.table.reader import parse_state
from adjudicator.web.pages.forms import encode_state
from tests.rules.test_plays import assert_odds_add_up
from tests.rules.test_unseen_draws import table


def brute_force(creepers: dict[str, int], others: int, n: int) -> dict[tuple[str, ...], Fraction]:
    """The odds of each set of Creeper copies drawn before the n-th other card, over every
    ordering of the copies (each copy distinct: Creeper c's copies c#0, c#1, ...)."""
    copies = [(c, i) for c, u in creepers.items() for i in range(u)] + [
        ("", i) for i in range(others)]
    counts: Counter[tuple[str, ...]] = Counter()
    for order in permutations(copies):
        drawn, kept = [], 0
        for card, _ in order:
            if kept == n:
                break
            if card:
                drawn.append(card)
            else:
                kept += 1
        counts[tuple(sorted(drawn))] += 1
    total = math.factorial(len(copies))
    return {k: Fraction(v, total) for k, v in counts.items()}


@pytest.mark.parametrize(("creepers", "others", "n"), [
    ({"war": 1}, 1, 1), ({"war": 1, "taxes": 1}, 2, 1), ({"war": 1, "taxes": 1}, 3, 2),
    ({"war": 1, "taxes": 1, "death": 1}, 3, 2), ({"war": 1, "taxes": 1, "death": 1}, 2, 2),
    ({"war": 2, "taxes": 1}, 3, 2), ({"war": 1}, 5, 3)])
def test_the_odds_are_those_of_every_ordering(creepers: dict[str, int], others: int,
                                              n: int) -> None:
    # every set, the Creepers replaced as long as the pile lasts (most: all of them)
    c = sum(creepers.values())
    listed = draw_odds.creeper_draws(creepers, c + others, n, c)
    assert {tuple(s): p for s, p in listed} == brute_force(creepers, others, n)
    assert sum(p for _, p in listed) == 1  # not truncated: the outcomes add up to 1
    chances = [p for _, p in listed]
    assert chances == sorted(chances, reverse=True)  # the likelier first


def test_the_sets_a_short_pile_allows() -> None:
    # At most one Creeper replaced: the sets of none or one, with the same odds as over every
    # ordering, and less than 1 together (the rest would empty the pile).
    creepers = {"war": 1, "taxes": 1, "death": 1}
    listed = draw_odds.creeper_draws(creepers, 6, 2, 1)
    every = brute_force(creepers, 3, 2)
    assert {tuple(s): p for s, p in listed} == {k: v for k, v in every.items() if len(k) <= 1}
    assert sum(p for _, p in listed) < 1


def test_copies_first_by_hand() -> None:
    # T = 80, c = 4, N = 2: none C(76,2)/C(80,2) = 2850/3160 = 285/316; one given Creeper
    # C(76,2)*2/(3*C(80,3)) = 5700/246480 = 95/4108.
    assert draw_odds.copies_first(80, 4, 2, 0) == Fraction(285, 316)
    assert draw_odds.copies_first(80, 4, 2, 1) == Fraction(95, 4108)
    assert draw_odds.copies_first(5, 4, 2, 0) == 0  # one card not a Creeper: never two


def creeper_table(pile: int, **extra: Any) -> dict[str, Any]:
    """Ann draws her last 2 cards of Draw 3 from a pile given as a count; every Creeper unseen."""
    return {"expansions": ["creepers"], "active": "Ann", "rules": ["Draw 3"],
            "goals": ["Time is Money"],
            "players": [{"name": "Ann", "hand": ["Love"], "keepers": ["Time", "Money"]},
                        {"name": "Bo", "hand_size": 2}],
            "turn": {"hand_at_start": 1, "drawn": 1, "played": 0}, "draw_pile": pile, **extra}


def test_each_set_of_creepers_is_an_outcome() -> None:
    response = moves.play_response(parse_state(creeper_table(30)), {"kind": "draw"})
    outcomes = response["outcomes"]
    assert len(outcomes) == 16 and not response.get("outcomes_truncated")
    assert_odds_add_up(response)
    assert sum(Fraction(o["probability"]) for o in outcomes) == 1
    for o in outcomes:
        drawn = o["choices"]["drawn"]
        creepers = [c for c in drawn if c != "?"]
        assert drawn == creepers + ["?", "?"]  # the Creepers, then the 2 cards owed unseen
        ann = o["state"]["players"][0]
        assert sorted(ann["creepers"]) == creepers
        assert ann["hand"] == ["love", "?", "?"]
        assert o["state"]["draw_pile"] == 28 - len(creepers)
        assert o["state"]["turn"]["drawn"] == 3
        # a Creeper in front blocks the win (Time is Money names none)
        assert o["ruling"]["winner"] == (None if creepers else "Ann")
    # the pile's cards are any of the 80 unseen copies less Bo's 2 unknown cards, no Creepers
    # (FAQ 002-35): T = 78, c = 4; none C(74,2)/C(78,2) = 2701/3003
    assert outcomes[0]["choices"]["drawn"] == ["?", "?"]
    assert outcomes[0]["probability"] == "2701/3003"


def test_an_outcomes_choices_sent_back_make_it() -> None:
    state = parse_state(creeper_table(30))
    response = moves.play_response(state, {"kind": "draw"})
    for o in response["outcomes"][:6]:
        again = moves.play_response(state, {"kind": "draw", "choices": o["choices"]})
        assert len(again["outcomes"]) == 1
        assert again["outcomes"][0]["state"] == o["state"]
        assert "probability" not in again["outcomes"][0]  # seen: no chance left


def test_a_short_pile_lists_what_it_can_replace() -> None:
    # A pile of 3: 2 cards owed and at most 1 Creeper replaced: 1 + 4 sets, the rest not listed.
    response = moves.play_response(parse_state(creeper_table(3)), {"kind": "draw"})
    assert len(response["outcomes"]) == 5 and response["outcomes_truncated"] is True
    drawn = next(o for o in response["open_choices"] if o["key"] == "drawn")
    assert drawn == {"key": "drawn", "kind": "chance", "count": 2,
                     "options": ["?", "death", "radioactive_potato", "taxes", "war"]}
    said = {f["key"]: f for f in response["outcomes"][0]["play_findings"]}
    assert "at most 1 Creeper of the 4" in said["creeper_sets_pile_short"]["text"]["en"]


def test_a_game_without_creepers_unseen_keeps_one_outcome() -> None:
    # Every Creeper in sight (Bo's): the cards drawn are sure to be no Creeper.
    data = creeper_table(30)
    data["players"][1]["creepers"] = ["War", "Taxes", "Death", "Radioactive Potato"]
    response = moves.play_response(parse_state(data), {"kind": "draw"})
    assert len(response["outcomes"]) == 1
    assert "creepers_from_unseen" not in {f["key"]
                                          for f in response["outcomes"][0]["play_findings"]}


def test_jackpot_lists_the_creepers_too() -> None:
    # Jackpot! draws 3 into the hand: the same listing (N = 3).
    data = creeper_table(30)
    data["players"][0]["hand"] = ["Love", "Jackpot!"]
    data["turn"] = {"hand_at_start": 2, "drawn": 2, "played": 0}
    response = moves.play_response(parse_state(data), {"card": "Jackpot!"})
    assert len(response["outcomes"]) == 16
    assert response["outcomes"][0]["choices"]["drawn"] == ["?", "?", "?"]
    assert_odds_add_up(response)


def test_too_few_cards_that_are_not_creepers_are_not_listed() -> None:
    # Unseen: War, Taxes, Milk, Cookies (the pile, 4). Jackpot! owes 3 cards that are not
    # Creepers, and only 2 are unseen: the draw is sure to empty the pile; one outcome of
    # unknown cards, and a finding says why.
    data = table("fluxx", ["war", "taxes", "milk", "cookies"], "jackpot", expansions=["creepers"])
    response = moves.play_response(parse_state(data), {"card": "Jackpot!"})
    assert len(response["outcomes"]) == 1
    said = {f["key"]: f for f in response["outcomes"][0]["play_findings"]}
    assert "only 2 are not Creepers, fewer than the 3 cards" in (
        said["creeper_draw_unlisted"]["text"]["en"])


def test_a_small_pile_by_every_ordering() -> None:
    # Unseen: War, Milk, Cookies, Sun (the pile, 4); Jackpot! draws 3. Over the 4! orderings:
    # War comes before the 3rd other card unless it is last: 3/4 (and then 4 cards drawn, the
    # pile empty); none 1/4. copies_first(4, 1, 3, 1) = C(3,3)*3/(4*C(4,4)) = 3/4.
    data = table("fluxx", ["war", "milk", "cookies", "sun"], "jackpot", expansions=["creepers"])
    response = moves.play_response(parse_state(data), {"card": "Jackpot!"})
    odds = {tuple(o["choices"]["drawn"]): o["probability"] for o in response["outcomes"]}
    assert odds == {("war", "?", "?", "?"): "3/4", ("?", "?", "?"): "1/4"}
    with_war = next(o for o in response["outcomes"] if "war" in o["choices"]["drawn"])
    assert with_war["state"]["players"][0]["creepers"] == ["war"]
    assert with_war["state"]["draw_pile"] == []  # the pile emptied, written as a list


def test_post_api_play_takes_an_outcomes_drawn_back(client) -> None:
    # Through the API: a set's `choices` sent back verbatim ("?" included) make that outcome;
    # "?" is no card name elsewhere (a card choice naming "?" is refused).
    table = creeper_table(30)
    body = {"state": table, "play": {"kind": "draw"}}
    first = client.post("/api/play", json=body).get_json()
    chosen = next(o for o in first["outcomes"] if o["choices"]["drawn"] == ["war", "?", "?"])
    again = client.post("/api/play", json={**body, "play": {"kind": "draw",
                                                          "choices": chosen["choices"]}})
    assert again.status_code == 200
    (outcome,) = again.get_json()["outcomes"]
    assert outcome["state"] == chosen["state"]
    refused = client.post("/api/play", json={**body, "play": {"kind": "draw",
                                                            "choices": {"keepers": ["?"]}}})
    assert refused.status_code == 400


def test_a_hand_holds_no_creeper() -> None:
    # Unseen: War, Milk, Cookies, Sun, Moon; Bo's hand is one of them (a count), the pile the
    # other 4. Bo's card is no Creeper (FAQ 002-35), so War is in the pile, with 3 of the 4
    # others: Jackpot! (3 cards) brings War unless it is the pile's last card: 3/4, none 1/4
    # (copies_first(4, 1, 3, 1) = C(3,3)*3/(4*C(4,4)); counting Bo's card among the places War
    # may be would give 3/5 and 2/5).
    data = table("fluxx", ["war", "milk", "cookies", "sun", "moon"], "jackpot", hidden=1,
                 expansions=["creepers"])
    response = moves.play_response(parse_state(data), {"card": "Jackpot!"})
    odds = {tuple(o["choices"]["drawn"]): o["probability"] for o in response["outcomes"]}
    assert odds == {("war", "?", "?", "?"): "3/4", ("?", "?", "?"): "1/4"}
    said = {f["key"]: f for f in response["outcomes"][0]["play_findings"]}
    assert "faq:002-35" in {s["id"] for s in said["creepers_from_unseen"]["sources"]}


def test_the_what_if_page_says_a_card_drawn_unseen(client) -> None:
    # The page's words for "?" of `drawn`, and "Play this" of a set with War leads to its table.
    from tests.web.test_game_log import apply_links, page_of, shown_state, what_if

    table = creeper_table(30)
    page = page_of(client, "/ruling?state=" + encode_state(table))
    answer = what_if(client, page, {"kind": "draw", "player": "Ann"}, table)
    assert "a card drawn unseen into the hand" in answer
    links = apply_links(answer)
    assert len(links) == 16
    war = next(link for link in links
               if shown_state(link)["players"][0].get("creepers") == ["war"])
    assert "War" in page_of(client, war)


def test_a_sub_hands_sets_count_no_creeper_in_a_hand() -> None:
    # Unseen: War, Milk, Cookies, Sun, Moon; Bo's one unknown card is none of them but War
    # (FAQ 002-35), so War is among the pile's 4 cards: Draw 2 and Use 'Em takes it with odds
    # 1/2 (3 of the C(4, 2) = 6 pairs of the pile), each pair with War 1/8 (Bo hides one of the
    # other 4 with odds 1/4, each pile then C(4, 2) ways: 1/4 * 3/6 ... = 1/8), each pair
    # without War 1/12. Counting Bo's card as any of the 5 would give War 2/5, each pair 1/10.
    data = table("fluxx", ["war", "milk", "cookies", "sun", "moon"], "draw_2_and_use_em",
                 hidden=1, expansions=["creepers"])
    response = moves.play_response(parse_state(data), {"card": "Draw 2 and Use 'Em"})
    odds = {tuple(sorted(o["choices"]["drawn"])): Fraction(o["probability"])
            for o in response["outcomes"]}
    assert len(odds) == 10 and sum(odds.values()) == 1
    assert sum(p for s, p in odds.items() if "war" in s) == Fraction(1, 2)
    assert odds[("milk", "war")] == Fraction(1, 8) and odds[("cookies", "milk")] == Fraction(1, 12)
    said = {f["key"] for o in response["outcomes"] for f in o["play_findings"]}
    assert "sub_draw_hidden_not_creepers" in said


def test_hands_that_hide_more_than_the_deck_allows_leave_the_pile_unknown() -> None:
    # Unseen: the four Creepers, Milk, Cookies, Sun; 4 cards hidden in Bo's hand, the pile 3: at
    # most 3 can be hidden (a hand holds no Creeper), so the table does not fit the deck.
    data = table("fluxx", ["war", "taxes", "death", "radioactive_potato", "milk", "cookies",
                           "sun"], "jackpot", hidden=4, expansions=["creepers"])
    response = moves.play_response(parse_state(data), {"card": "Jackpot!"})
    assert len(response["outcomes"]) == 1
    said = {f["key"]: f for f in response["outcomes"][0]["play_findings"]}
    assert "4" in said["hidden_count_unknown"]["text"]["en"]
    assert "creeper_draw_unlisted" not in said and "creepers_from_unseen" not in said


@pytest.mark.parametrize(("unseen", "n", "hidden"), [
    ({"war": 1, "milk": 1, "cookies": 1, "sun": 1, "moon": 1}, 2, 1),
    ({"war": 1, "death": 1, "zero": 2, "one": 3, "two": 1}, 2, 2),
    ({"war": 1, "death": 1, "zero": 2, "one": 3, "two": 1}, 3, 3),
    ({"war": 2, "x": 1, "y": 1, "z": 2}, 3, 2)])
def test_hidden_cards_weigh_the_sets_as_every_hiding_does(unseen: dict[str, int], n: int,
                                                         hidden: int) -> None:
    # Every way the hands may hide `hidden` copies that are no Creeper, then every n of the rest:
    # each set's odds, and the sets listed the likelier first.
    creepers = frozenset(c for c in unseen if c in ("war", "death"))
    copies = [c for c, u in unseen.items() for _ in range(u)]
    counts: Counter[tuple[str, ...]] = Counter()
    ways = 0
    for hid in combinations(range(len(copies)), hidden):
        if any(copies[i] in creepers for i in hid):
            continue
        ways += 1
        rest = [c for i, c in enumerate(copies) if i not in hid]
        counts.update(tuple(sorted(d)) for d in combinations(rest, n))
    each = ways * math.comb(len(copies) - hidden, n)
    expected = {k: Fraction(v, each) for k, v in counts.items()}
    listed = list(draw_odds.draws(unseen, n, hidden, creepers))
    got = {tuple(s): draw_odds.odds(unseen, s, hidden, creepers) for s in listed}
    assert got == expected
    chances = [got[tuple(s)] for s in listed]
    assert chances == sorted(chances, reverse=True)
