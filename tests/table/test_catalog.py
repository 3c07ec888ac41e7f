"""The card catalogs: counts pinned to the seeds' lists, texts checked against the seeds, name
resolution in both languages, suggestions, and the expansions."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from adjudicator.cards.build import CATALOG_NAMES, build, catalogs_dir, dump
from adjudicator.cards.build.fluxx import NAME_FIXES
from adjudicator.cards.catalog import (
    EDITIONS,
    EXPANSIONS,
    Card,
    catalog_for,
    catalog_info,
    edition_cards,
    normalize,
)
from adjudicator.resources import faq_dir

CJK = re.compile(r"[\u3400-\u9fff]")


def seed_lines(name: str) -> set[str]:
    path = next((faq_dir() / "sources").glob(f"{name}_*.txt"))
    lines = path.read_text(encoding="utf-8").splitlines()
    return {re.sub(r"\[[^\]]*\]", "", line).rstrip() for line in lines}


def by_id(edition: str) -> dict[str, Card]:
    return {c.id: c for c in edition_cards(edition)}


# -- the committed files are what the builder makes from the sources -------------------------

@pytest.mark.parametrize("name", CATALOG_NAMES)
def test_committed_catalog_matches_a_fresh_build(name: str) -> None:
    committed = (catalogs_dir() / f"{name}.json").read_text(encoding="utf-8")
    assert committed == dump(build(name)), (
        f"faq/catalogs/{name}.json is stale: run python -m adjudicator.cards.build")


@pytest.mark.parametrize("name", CATALOG_NAMES)
def test_catalog_files_follow_the_documented_format(name: str) -> None:
    data = json.loads((catalogs_dir() / f"{name}.json").read_text(encoding="utf-8"))
    assert data["edition"] == name
    assert data["kind"] == ("edition" if name in EDITIONS else "expansion")
    assert data["title"]["en"] and CJK.search(data["title"]["zh"])
    ids = [c["id"] for c in data["cards"]]
    assert len(ids) == len(set(ids))
    for c in data["cards"]:
        assert re.fullmatch(r"[0-9a-z]+(_[0-9a-z]+)*", c["id"]), c["id"]
        assert set(c) >= {"id", "type", "name", "text", "copies", "notes", "provenance", "attrs"}
        assert c["name"]["en"] and CJK.search(c["name"]["zh"]), c["id"]
        assert set(c["text"]) == {"en", "zh"}
        prov = c["provenance"]
        assert prov["name_zh"] in {"seed", "project_translation"}
        assert prov["text_en"] in {"seed", "missing", "project_words", "quoted_faq",
                                   "none_on_card"}
        assert prov["text_zh"] in {"seed", "seed_corrected", "missing", "project_translation",
                                   "none_on_card"}
        # a corrected text keeps the source's own words beside it
        assert (prov["text_zh"] == "seed_corrected") == ("text_zh_seed" in prov)
        # a text is present exactly when its provenance says where it comes from
        assert (c["text"]["en"] is None) == (prov["text_en"] in {"missing", "none_on_card"})
        assert (c["text"]["zh"] is None) == (prov["text_zh"] in {"missing", "none_on_card"})


# -- fluxx: the rulebook deck of seed 000 -----------------------------------------------------

def test_fluxx_counts_match_the_seed_lists() -> None:
    cards = edition_cards("fluxx")
    assert len(cards) == 84
    assert Counter(c.type for c in cards) == {
        "new_rule": 21, "goal": 23, "action": 20, "keeper": 18, "basic_rules": 1, "promo": 1}
    assert sum(c.copies for c in cards) == 84


def test_every_fluxx_card_has_both_names_from_the_seed() -> None:
    seed = "\n".join(seed_lines("000"))
    for card in edition_cards("fluxx"):
        assert card.name_en and card.name_zh, card.id
        assert CJK.search(card.name_zh), card.id
        assert card.provenance["name_zh"] == "seed"
        if card.id in NAME_FIXES:
            continue  # test_a_misspelt_seed_name_is_shown_as_another_source_spells_it
        assert f"{card.name_zh} {card.name_en}" in seed, card.id


def test_a_misspelt_seed_name_is_shown_as_another_source_spells_it() -> None:
    """The seed's "Draw, 3, Play 2 of them" (a stray comma) is named as seed 004 spells the card;
    the seed's spelling stays an alias, so a table typed from the seed still reads."""
    seed_000 = "\n".join(seed_lines("000"))
    seed_004 = "\n".join(seed_lines("004"))
    cards = by_id("fluxx")
    for cid, name in NAME_FIXES.items():
        card = cards[cid]
        assert card.name_en == name and name in seed_004
        (misspelt,) = card.attrs["aliases"]
        assert f"{card.name_zh} {misspelt}" in seed_000
        assert catalog_for("fluxx").resolve(misspelt).id == cid
    assert cards["draw_3_play_2_of_them"].name_en == "Draw 3, Play 2 of Them"


def test_fluxx_ids_are_the_agreed_ones() -> None:
    ids = set(by_id("fluxx"))
    assert {"draw_2_and_use_em", "draw_3_play_2_of_them", "war_death", "peace_no_war",
            "brain_no_tv", "10_cards_in_hand", "5_keepers", "lets_simplify",
            "lets_do_that_again", "join_the_fluxx_fan_club", "basic_rules", "no_hand_bonus",
            "hand_limit_0", "keeper_limit_4", "all_you_need_is_love"} <= ids


def test_fluxx_texts_are_lines_of_the_seed() -> None:
    lines = seed_lines("000")
    with_text = 0
    for card in edition_cards("fluxx"):
        # a corrected misprint: the seed's own words are the card's provenance
        zh = card.provenance.get("text_zh_seed", card.text_zh)
        for text in (card.text_en, zh):
            if text is None:
                continue
            with_text += 1
            for line in text.split("\n"):
                assert line in lines, (card.id, line)
            assert "[" not in text, card.id  # translator's notes are notes, not rules text
    assert with_text == 2 * (84 - 18 - 1)  # all but the Keepers and the promo card


def test_fluxx_texts_pinned() -> None:
    cards = by_id("fluxx")
    assert cards["draw_2"].text_en == (
        "Draw 2 cards per turn.\nThe person who played this card should immediately draw extra "
        "cards (if needed) so that they have drawn 2 cards this turn.")
    assert cards["draw_2"].text_zh.startswith("每轮抓2张牌。\n出这张卡的玩家")
    assert cards["lets_simplify"].text_en == (
        "Discard your choice of up to half (rounded up) of the New Rule cards currently in play.")
    assert cards["empty_the_trash"].text_zh == "将这张牌作为新的弃牌堆，然后把旧的弃牌堆洗进牌库。"
    assert cards["appliances"].text_en == (
        "The player with Television and the Toaster on the table wins.")


def test_fluxx_seed_quirks_are_kept_and_noted() -> None:
    cards = by_id("fluxx")
    for n in (2, 3, 4):
        card = cards[f"play_{n}"]
        assert card.text_zh.startswith(f"每轮出{n}张牌。")  # the seed misprints it "draw"
        assert card.text_en.startswith(f"Play {n} cards per turn.")
        assert any(note["kind"] == "seed_quirk" for note in card.notes)
    basic = cards["basic_rules"]
    assert "Draw 1 card per turn." in basic.text_en and "每轮出1张牌。" in basic.text_zh
    assert [p["name"]["en"] for p in basic.attrs["parts"]] == ["Draw 1", "Play 1", None]
    assert basic.notes
    fan = cards["join_the_fluxx_fan_club"]
    assert fan.type == "promo" and fan.text_en is None and fan.text_zh is None
    assert fan.provenance["text_en"] == "missing"
    assert any("这张卡不译" in note["en"] for note in fan.notes)
    assert "取消一张新规则" in cards["trash_a_new_rule"].attrs["aliases"]


def test_fluxx_translator_notes_are_notes() -> None:
    cards = by_id("fluxx")
    for cid, start in (("death_by_chocolate", "这是一种点心的名字"),
                       ("night_and_day", "其实我很想")):
        notes = [n for n in cards[cid].notes if n["kind"] == "translator"]
        assert len(notes) == 1 and notes[0]["zh"].startswith(start)
        assert "[" not in cards[cid].name_en


def test_fluxx_type_headers_are_kept() -> None:
    cards = by_id("fluxx")
    assert cards["draw_3"].attrs["header"]["en"].startswith("To play this card, place it face up")
    play_all, limit_1 = cards["play_all"].attrs, cards["hand_limit_1"].attrs
    assert play_all["extra_header"]["en"] == "Discard the previous Play rule, if any."
    assert limit_1["extra_header"]["zh"] == "如果场上有其他的手牌上限规则，则取代之。"
    assert "extra_header" not in cards["inflation"].attrs
    assert cards["toast"].attrs["header"]["en"].endswith("Discard the previous Goal, if any.")
    assert cards["love"].attrs["header"]["en"] == (
        "To play this card, place it face up on the table in front of you.")
    assert cards["love"].text_en is None and cards["love"].provenance["text_en"] == "none_on_card"
    headers = catalog_info("fluxx")["headers"]
    assert set(headers) == {"new_rule", "goal", "action", "keeper"}


# -- Math Fluxx: seed 004 --------------------------------------------------------------------

def test_math_counts_follow_the_listed_cards() -> None:
    cards = edition_cards("math")
    copies = Counter()
    for c in cards:
        copies[c.type] += c.copies
    assert dict(copies) == {"keeper": 26, "new_rule": 22, "action": 21, "meta_rule": 2,
                            "basic_rules": 1, "goal": 28}
    assert sum(copies.values()) == 100
    keepers = sorted((c for c in cards if c.type == "keeper"), key=lambda c: c.attrs["value"])
    assert [c.attrs["value"] for c in keepers] == list(range(11))
    assert [c.copies for c in keepers] == [4, 4, 3, 2, 2, 2, 2, 2, 2, 2, 1]
    assert [c.name_en for c in keepers][:3] == ["Zero", "One", "Two"]


def test_math_records_the_seeds_own_inconsistent_counts() -> None:
    info = catalog_info("math")
    assert info["counts"]["headers"]["Keepers"] == 27
    assert info["counts"]["listed"]["Keepers"] == 26
    assert info["counts"]["headers"]["Actions"] == 16
    assert info["counts"]["listed"]["Actions"] == 21
    assert info["counts"]["total_listed"] == 100
    assert any("27" in r["en"] and "16" in r["en"] for r in info["remarks"])


def test_math_texts_only_where_the_sources_give_them() -> None:
    cards = by_id("math")
    with_text = {cid for cid, c in cards.items() if c.text_en is not None}
    assert with_text == {"basic_rules", "math_rules", "keep_going", "play_all_but_1"}
    assert cards["basic_rules"].text_en == "Start with 3 cards.\nDraw 1.\nPlay 1."
    assert cards["math_rules"].text_en.startswith("Players do not win by matching the Goal")
    assert cards["play_all_but_1"].provenance["text_en"] == "quoted_faq"
    assert "002-40" in cards["play_all_but_1"].provenance["remark"]
    for cid, card in cards.items():
        assert card.provenance["name_zh"] == "project_translation"
        if cid not in with_text:
            assert card.text_zh is None and card.provenance["text_en"] == "missing"
    meta = {c.id for c in cards.values() if c.attrs["seed_group"] == "Meta Rules"}
    assert meta == {"basic_rules", "math_rules", "keep_going"}


@pytest.mark.parametrize("cid,target,source", [
    ("how_many_trombones", 76, "seed"), ("minutes_or_seconds", 60, "seed"),
    ("the_33rd_prime", 137, "seed"), ("the_2nd_perfect_number", 28, "seed"),
    ("skidoo", 23, "seed"), ("sum_of_the_factorials_from_1_to_5", 153, "seed"),
    ("silver_jubilee", 25, "seed"),
    ("century", 100, "name"), ("dozen", 12, "name"), ("24_hours", 24, "name"),
    ("99_percent", 99, "name"), ("101_spotted_dogs", 101, "name"),
    ("route_sixty_six", 66, "name"), ("four_squared", 16, "name"),
    ("three_cubed", 27, "name"), ("when_im_64", 64, "name"),
    ("golden_anniversary", 50, "name_interpretation"), ("unlucky", 13, "name_interpretation"),
    ("the_ultimate_answer", 42, "name_interpretation"),
    ("todays_date", None, "unknown"), ("your_own_age", None, "unknown"),
    ("numbers_be_hungry", None, "unknown"),
])
def test_math_goal_targets(cid: str, target: int | None, source: str) -> None:
    card = by_id("math")[cid]
    assert card.type == "goal"
    assert card.attrs["target"] == target
    assert card.attrs["target_source"] == source


def test_every_math_goal_says_where_its_target_comes_from() -> None:
    goals = [c for c in edition_cards("math") if c.type == "goal"]
    assert len(goals) == 28
    for g in goals:
        assert g.attrs["target_source"] in {"seed", "name", "name_interpretation", "unknown"}
        assert (g.attrs["target"] is None) == (g.attrs["target_source"] == "unknown")
        assert g.attrs["target_remark"]


# -- Fluxxnomic: seed 003 --------------------------------------------------------------------

def test_fluxxnomic_cards_and_the_seeds_typo() -> None:
    cards = edition_cards("fluxxnomic")
    assert Counter(c.type for c in cards) == {"action": 5, "keeper": 7, "goal": 6, "new_rule": 4}
    names = {c.id: c for c in cards}
    assert {"nice_try", "do_some_more", "gambling", "i_might_need_a_bookshelf", "book"} <= set(
        names)
    assert names["gambling"].type == "action"
    assert "possible goal cards" in names["gambling"].provenance["section"]
    assert any(n["kind"] == "seed_quirk" for n in names["gambling"].notes)
    assert any("typo" in r["en"] for r in catalog_info("fluxxnomic")["remarks"])
    lines = seed_lines("003")
    for card in cards:
        if card.text_en is not None:
            assert f"{card.name_en}\t{card.text_en}" in lines, card.id
            assert card.provenance["text_zh"] == "project_translation"
    assert names["sun"].text_en is None
    assert catalog_for("fluxxnomic").copies_unlimited


# -- expansions ------------------------------------------------------------------------------

def test_expansion_cards() -> None:
    creepers = by_id("creepers")
    assert set(creepers) == {"war", "taxes", "death", "radioactive_potato"}
    surprises = by_id("surprises")
    assert set(surprises) == {"stop_that", "veto", "thats_mine", "canceled_plans"}
    for card in [*creepers.values(), *surprises.values()]:
        assert card.provenance["text_en"] == "project_words"
        assert card.provenance["text_zh"] == "project_translation"
        assert "shared reference" in card.provenance["remark"]
    assert all(c.type == "creeper" for c in creepers.values())
    assert all(c.type == "surprise" for c in surprises.values())
    assert surprises["stop_that"].attrs["in_turn_known"] is False
    assert "unknown" in surprises["stop_that"].text_en
    assert all(surprises[c].attrs["in_turn_known"] for c in ("veto", "thats_mine",
                                                             "canceled_plans"))


def test_creepers_expansion_turns_war_and_death_into_creepers() -> None:
    plain = catalog_for("fluxx")
    assert plain.get("war").type == "keeper" and "taxes" not in plain
    game = catalog_for("fluxx", ["creepers"])
    assert len(game) == 86
    for cid in ("war", "death"):
        card = game.get(cid)
        assert card.type == "creeper" and card.edition == "creepers"
        assert card.source_id == f"card:creepers/{cid}"
    assert game.get("taxes").type == "creeper"
    assert game.resolve("Radioactive Potato").id == "radioactive_potato"
    # the Goals that name War and Death are still the rulebook deck's
    assert game.get("war_death").edition == "fluxx"
    assert len(catalog_for("fluxx", ["surprises"])) == 88
    both = catalog_for("fluxx", ["surprises", "creepers"])
    assert len(both) == 90 and both.expansions == ("creepers", "surprises")
    assert both is catalog_for("fluxx", ("creepers", "surprises"))  # cached


def test_catalog_for_refuses_unknown_editions_and_misplaced_expansions() -> None:
    with pytest.raises(ValueError):
        catalog_for("zombie")
    with pytest.raises(ValueError):
        catalog_for("fluxx", ["zombies"])
    with pytest.raises(ValueError):
        catalog_for("math", ["creepers"])
    assert EXPANSIONS == ("creepers", "surprises")


# -- card objects ---------------------------------------------------------------------------

def test_card_json_and_sources() -> None:
    draw2 = catalog_for("fluxx").get("draw_2")
    assert draw2.source_id == "card:draw_2" and draw2.url == "/cards/draw_2"
    out = draw2.to_json()
    assert out["name"] == {"en": "Draw 2", "zh": "抓2张牌"}
    assert out["sources"] == [{"id": "card:draw_2", "kind": "card", "url": "/cards/draw_2"}]
    assert out["edition"] == "fluxx" and out["copies"] == 1 and out["type"] == "new_rule"
    math = catalog_for("math").get("draw_2")
    assert math.source_id == "card:math/draw_2" and math.url == "/cards/draw_2?edition=math"
    assert math.to_json()["text"] == {"en": None, "zh": None}
    with pytest.raises(KeyError):
        catalog_for("fluxx").get("nope")


# -- name resolution ---------------------------------------------------------------------------

@pytest.mark.parametrize("name,cid", [
    ("Draw 2", "draw_2"), ("draw_2", "draw_2"), ("抓2张牌", "draw_2"), ("DRAW-2", "draw_2"),
    ("Ｄｒａｗ　２", "draw_2"), ("lets simplify", "lets_simplify"),
    ("Let's Simplify", "lets_simplify"), ("简化一下！", "lets_simplify"),
    ("简化一下", "lets_simplify"), ("War = Death", "war_death"), ("war=death", "war_death"),
    ("Peace (no War)", "peace_no_war"), ("和平（无战争）", "peace_no_war"),
    ("brain no tv", "brain_no_tv"), ("10 Cards in Hand", "10_cards_in_hand"),
    ("Draw 2 and Use 'Em", "draw_2_and_use_em"), ("draw 2 and use em", "draw_2_and_use_em"),
    ("Draw 3, Play 2 of Them", "draw_3_play_2_of_them"), ("抓3用2", "draw_3_play_2_of_them"),
    ("取消一张新规则", "trash_a_new_rule"), ("弃一张新规则", "trash_a_new_rule"),
    ("Join the Fluxx Fan Club!", "join_the_fluxx_fan_club"), ("爱", "love"),
    ("  No-Hand Bonus ", "no_hand_bonus"), ("basic rules", "basic_rules"),
])
def test_resolve_fluxx_names(name: str, cid: str) -> None:
    card = catalog_for("fluxx").resolve(name)
    assert card is not None and card.id == cid


@pytest.mark.parametrize("name,cid", [
    ("How Many Trombones? (76)", "how_many_trombones"),
    ("how many trombones", "how_many_trombones"),
    ("7", "seven"), ("Keeper Two", "two"), ("零", "zero"), ("Jackpot", "jackpot"),
    ("jackpot!", "jackpot"), ("Unlucky", "unlucky"), ("when i'm 64", "when_im_64"),
])
def test_resolve_math_names(name: str, cid: str) -> None:
    card = catalog_for("math").resolve(name)
    assert card is not None and card.id == cid


@pytest.mark.parametrize("name", ["Draw 6", "", "  ", "Stop That!", "Taxes", "xyzzy"])
def test_resolve_unknown_names(name: str) -> None:
    assert catalog_for("fluxx").resolve(name) is None


def test_resolve_refuses_non_text() -> None:
    assert catalog_for("fluxx").resolve(3) is None  # type: ignore[arg-type]
    assert catalog_for("fluxx").suggest(None) == []  # type: ignore[arg-type]


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_card_resolves_to_itself_by_each_name(edition: str) -> None:
    game = catalog_for(edition, EXPANSIONS if edition == "fluxx" else ())
    for card in game:
        for name in (card.id, card.name_en, card.name_zh, card.name_en.upper()):
            assert game.resolve(name) is card, (edition, name)


def test_no_two_cards_share_a_name_key() -> None:
    for edition in EDITIONS:
        game = catalog_for(edition, EXPANSIONS if edition == "fluxx" else ())
        keys: dict[str, str] = {}
        for card in game:
            for name in {card.id, card.name_en, card.name_zh, *card.attrs.get("aliases", ())}:
                key = normalize(name)
                assert keys.setdefault(key, card.id) == card.id, (edition, name)


# a Chinese query is answered with Chinese names
@pytest.mark.parametrize("name,first", [
    ("Jackpt", "Jackpot"), ("trade hand", "Trade Hands"), ("Hand Limit 5", "Hand Limit 0"),
    ("Peace no wars", "Peace (no War)"), ("饼干", "饼干"), ("巧克力奶昔", "巧克力奶"),
])
def test_suggest(name: str, first: str) -> None:
    hits = catalog_for("fluxx").suggest(name)
    assert hits and hits[0] == first, hits
    assert len(hits) <= 3


def test_suggest_draw_rules_and_nothing_for_noise() -> None:
    game = catalog_for("fluxx")
    assert set(game.suggest("Draw 6")) <= {"Draw 2", "Draw 3", "Draw 4", "Draw 5"}
    assert len(game.suggest("Draw 6")) == 3
    assert game.suggest("Draw 6", n=1) and len(game.suggest("Draw 6", n=1)) == 1
    assert game.suggest("qqqqzzzz") == []
    assert game.suggest("") == []
    assert catalog_for("math").suggest("trombone")[0] == "How Many Trombones?"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_play_rules_read_play_in_chinese_and_keep_the_seeds_misprint_in_a_note(n):
    """Seed 000 misprints Play N's Chinese as 每轮抓N张牌 ("draw"): the card reads 每轮出N张牌,
    the seed's words stay in its provenance and its marked note."""
    card = by_id("fluxx")[f"play_{n}"]
    assert card.text_zh.startswith(f"每轮出{n}张牌")
    assert "每轮抓" not in card.text_zh
    assert card.provenance["text_zh"] == "seed_corrected"
    assert card.provenance["text_zh_seed"].startswith(f"每轮抓{n}张牌")
    assert any(f"每轮抓{n}张牌" in note["zh"] and "本项目注" in note["zh"] for note in card.notes)


def test_fluxxnomic_says_in_play_where_the_variant_means_in_play():
    cards = by_id("fluxxnomic")
    assert cards["night_and_day"].text_zh == "太阳和月亮同时在场。"
    assert "当前在场的一件所有物" in cards["steal_a_keeper"].text_zh
    goals = [c for c in cards.values() if c.type == "goal" and c.text_zh]
    assert [c.id for c in goals if "打出" in c.text_zh] == []


@pytest.mark.parametrize("card_id, anchor", [("math_rules", "math-rules"),
                                             ("keep_going", "keep-going")])
def test_a_meta_rule_has_one_chinese_text_on_its_card_and_in_the_rulebook(card_id, anchor):
    """The Meta Rules' texts are their rulebook sections: one translation for both."""
    from adjudicator.knowledge.annotations import rulebook_translations

    sections = rulebook_translations(faq_dir() / "annotations" / "rulebook_zh.yaml")
    assert by_id("math")[card_id].text_zh == sections[anchor]["text_zh"]


@pytest.mark.parametrize("card_id, name_zh", [
    ("keep_going", "接着玩"), ("get_on_with_it", "别磨蹭了！"),
    ("draw_one_for_each", "有几个抓几张"), ("goal_mill", "目标换牌"),
    ("when_im_64", "当我六十四岁"),
])
def test_the_projects_math_fluxx_names_read_as_names(card_id, name_zh):
    assert by_id("math")[card_id].name_zh == name_zh
