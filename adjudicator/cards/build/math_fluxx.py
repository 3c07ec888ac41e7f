"""The Math Fluxx catalog (seed 004).

The card list, the counts and the Goals' printed numbers are parsed from the seed. The seed
prints the text of only a few cards (the Basic Rules and the two Meta Rules); one more is quoted
word for word in the general FAQ (seed 002). Every other card has no text here: the sources
lack it and the project does not invent it. Chinese names and texts are the project's own
translation. Goal targets say where each number comes from (see TARGETS).
"""

from __future__ import annotations

import re
from typing import Any

from .common import card_id, quirk

SEED_004 = "004_0959b362dfc0edcc.txt"

_GROUPS = {"Keepers": "keeper", "New Rules": "new_rule", "Actions": "action",
           "Meta Rules": "meta_rule", "Goals": "goal"}
_GROUP_LINE = re.compile(r"^(?P<group>[A-Za-z ]+) \((?P<count>\d+) cards\)$")
_ITEM = re.compile(r"^(?P<name>.+?)(?: \((?P<num>\d+)\))?$")

# Chinese names: the project's translation (names shared with the rulebook deck reuse seed 000's)
NAMES_ZH: dict[str, str] = {
    "zero": "零", "one": "一", "two": "二", "three": "三", "four": "四", "five": "五",
    "six": "六", "seven": "七", "eight": "八", "nine": "九", "ten": "十",
    "goal_mill": "目标换牌", "draw_one_for_each": "有几个抓几张", "draw_2": "抓2张牌",
    "draw_3": "抓3张牌", "draw_4": "抓4张牌", "draw_5": "抓5张牌", "get_on_with_it": "别磨蹭了！",
    "hand_limit_1": "手牌上限1", "hand_limit_2": "手牌上限2", "hand_limit_3": "手牌上限3",
    "hand_limit_4": "手牌上限4", "keeper_limit_3": "所有物上限3", "keeper_limit_4": "所有物上限4",
    "unknown_variable": "未知变量", "no_hand_bonus": "无手牌奖励", "play_2": "出2张牌",
    "play_3": "出3张牌", "play_4": "出4张牌", "play_all": "出光手牌",
    "play_all_but_1": "出到只剩1张", "increment_all": "全部加一", "combine_digits": "合并数位",
    "discard_and_draw": "弃牌重抓", "draw_2_and_use_em": "抓2用2",
    "draw_3_play_2_of_them": "抓3用2", "everybody_gets_1": "各拿1张",
    "everybody_pass_1": "各传1张", "exchange_keepers": "交换所有物", "half_time": "中场休息",
    "jackpot": "中彩", "lets_simplify": "简化一下！", "rules_reset": "重置规则",
    "steal_a_keeper": "偷一件所有物", "random_tax": "随机抽税", "trade_hands": "交换手牌",
    "trash_a_keeper": "扔一件所有物", "trash_a_new_rule": "弃一张新规则",
    "zap_a_card": "消掉一张牌",
    "sequence": "数列", "highest_score": "最高分", "lowest_score": "最低分",
    "binary_numbers": "二进制数", "biggest_number": "最大的数",
    "basic_rules": "基本规则", "math_rules": "数学规则", "keep_going": "接着玩",
    "todays_date": "今天的日期", "your_own_age": "你自己的年龄", "24_hours": "24小时",
    "99_percent": "百分之九十九", "101_spotted_dogs": "101斑点狗", "century": "一个世纪",
    "dozen": "一打", "golden_anniversary": "金婚纪念", "numbers_be_hungry": "数字饿了",
    "route_sixty_six": "66号公路", "four_squared": "四的平方", "yin_yang": "阴阳",
    "one_hundred_pi": "一百倍圆周率", "the_least_random_number": "最不随机的数",
    "silver_jubilee": "银禧", "the_speed_of_a_long_playing_record": "密纹唱片的转速",
    "the_speed_of_time_travel": "时间旅行的速度", "the_ultimate_answer": "终极答案",
    "three_cubed": "三的立方", "three_quarters": "四分之三", "unlucky": "不吉利？",
    "when_im_64": "当我六十四岁", "how_many_trombones": "多少支长号？",
    "minutes_or_seconds": "分或秒",
    "the_33rd_prime": "第33个质数", "the_2nd_perfect_number": "第2个完全数", "skidoo": "溜之大吉",
    "sum_of_the_factorials_from_1_to_5": "1到5的阶乘之和",
}

# Goal targets the seed does not print after the name: (target, source, remark).
# "name": the name states the number; "name_interpretation": the project's reading of a
# well-known phrase; "unknown": the sources do not fix the number.
TARGETS: dict[str, tuple[int | None, str, str]] = {
    "silver_jubilee": (25, "seed", "seed 004, Numbers and Math / Math Rules: Keepers Two and "
                                   "Five form 25, meeting Silver Jubilee; FAQ 004-q4: "
                                   "Silver Jubilee (25)"),
    "24_hours": (24, "name", "the name states 24"),
    "99_percent": (99, "name", "the name states 99"),
    "101_spotted_dogs": (101, "name", "the name states 101"),
    "century": (100, "name", "a century is 100"),
    "dozen": (12, "name", "a dozen is 12"),
    "route_sixty_six": (66, "name", "the name states sixty-six"),
    "four_squared": (16, "name", "4 squared is 16"),
    "three_cubed": (27, "name", "3 cubed is 27"),
    "when_im_64": (64, "name", "the name states 64"),
    "golden_anniversary": (50, "name_interpretation",
                           "the project's reading: a golden anniversary is the 50th"),
    "unlucky": (13, "name_interpretation", "the project's reading: 13 is the unlucky number"),
    "the_ultimate_answer": (42, "name_interpretation",
                            "the project's reading: 42, the Ultimate Answer of The Hitchhiker's "
                            "Guide to the Galaxy"),
    "the_speed_of_a_long_playing_record": (33, "name_interpretation",
                                           "the project's reading: an LP turns at 33 1/3 rpm, "
                                           "taken as 33"),
    "the_speed_of_time_travel": (88, "name_interpretation",
                                 "the project's reading: 88 miles per hour (Back to the Future)"),
    "three_quarters": (75, "name_interpretation",
                       "the project's reading: three quarters as 75 (per cent, or cents)"),
    "todays_date": (None, "unknown", "depends on the day; the sources do not say how it is read"),
    "your_own_age": (None, "unknown", "depends on the player; the sources do not say more"),
    "numbers_be_hungry": (None, "unknown", "the sources do not give its number"),
    "yin_yang": (None, "unknown", "the sources do not give its number"),
    "one_hundred_pi": (None, "unknown", "100 x pi is not a whole number; the sources do not "
                                        "give the printed target"),
    "the_least_random_number": (None, "unknown", "the sources do not give its number"),
}

_ZH_FROM_SEED_000 = {
    "draw_2", "draw_3", "draw_4", "draw_5", "hand_limit_1", "hand_limit_2", "keeper_limit_3",
    "keeper_limit_4", "no_hand_bonus", "play_2", "play_3", "play_4", "play_all",
    "discard_and_draw", "draw_2_and_use_em", "draw_3_play_2_of_them", "everybody_gets_1",
    "exchange_keepers", "jackpot", "lets_simplify", "rules_reset", "steal_a_keeper",
    "trade_hands", "trash_a_keeper", "trash_a_new_rule", "basic_rules",
}
_RULEBOOK_DECK_IDS = _ZH_FROM_SEED_000 - {"basic_rules", "hand_limit_3", "hand_limit_4"}


def _seed_text() -> str:
    from ...resources import faq_dir

    return (faq_dir() / "sources" / SEED_004).read_text(encoding="utf-8")


def _section(text: str, title: str, end: str) -> str:
    """The lines of the seed between a heading line and the next given heading line."""
    lines = text.splitlines()
    start = lines.index(title)
    stop = lines.index(end, start + 1)
    return "\n".join(lines[start + 1 : stop])


def parse_card_list(text: str) -> list[dict[str, Any]]:
    """The seed's "Card List": per group, its printed count and the listed names."""
    lines = text.splitlines()
    start = lines.index("Card List")
    groups: list[dict[str, Any]] = []
    for line in lines[start + 1 :]:
        if line == "Frequently Asked Questions":
            break
        m = _GROUP_LINE.match(line)
        if m and m["group"] in _GROUPS:
            groups.append({"group": m["group"], "header_count": int(m["count"]), "items": []})
        elif groups and not groups[-1]["items"]:
            # "Draw 3, Play 2 Of Them" is one card name with a comma of its own
            for item in re.split(r", (?!Play 2 Of Them)", line.rstrip(".")):
                im = _ITEM.match(item.strip())
                assert im is not None
                num = int(im["num"]) if im["num"] else None
                groups[-1]["items"].append({"name": im["name"], "num": num})
    return groups


def _rulebook_zh() -> dict[str, str]:
    """The project's Chinese of the English-only rulebook sections, by anchor."""
    from ...resources import faq_dir, read_yaml

    sections = read_yaml(faq_dir() / "annotations" / "rulebook_zh.yaml")["sections"]
    return {item["anchor"]: item["zh"].strip() for item in sections if item.get("zh")}


def _texts(text: str) -> dict[str, dict[str, Any]]:
    """The card texts the sources give, with Chinese translations of the project.

    The Meta Rules' texts are their rulebook sections, so their Chinese is the project's
    translation of those sections (faq/annotations/rulebook_zh.yaml): one text on the card page
    and in the rulebook."""
    rulebook_zh = _rulebook_zh()
    math_rules = _section(text, "Meta Rule: Math Rules", "Meta Rule: Keep Going")
    keep_going = _section(text, "Meta Rule: Keep Going", "Examples")
    basic = ["Start with 3 cards.", "Draw 1.", "Play 1."]
    assert all(f"- {line}" in text for line in basic)
    return {
        "basic_rules": {
            "en": "\n".join(basic),
            "zh": "起始3张手牌。\n每回合抓1张牌。\n每回合出1张牌。",
            "provenance": {"text_en": "seed", "section": "Types of Cards / The Basic Rules Card",
                           "remark": "the Math Fluxx rulebook: the Basic Rules card \"reads:\" "
                                     "these three lines"},
        },
        "math_rules": {
            "en": math_rules,
            "zh": rulebook_zh["math-rules"],
            "provenance": {"text_en": "seed", "section": "Meta Rule: Math Rules",
                           "remark": "the rulebook's section on this Meta Rule, taken as its text"},
        },
        "keep_going": {
            "en": keep_going,
            "zh": rulebook_zh["keep-going"],
            "provenance": {"text_en": "seed", "section": "Meta Rule: Keep Going",
                           "remark": "the rulebook's section on this Meta Rule, taken as its text"},
        },
        "play_all_but_1": {
            "en": "Play all but 1 of your cards. If you started with no cards in your hand and "
                  "only drew 1, draw an extra card.",
            "zh": "打出手牌，只留下1张。如果你回合开始时没有手牌且只抓了1张，额外抓1张牌。",
            "provenance": {"text_en": "quoted_faq", "section": "quoted in FAQ 002-40",
                           "remark": "quoted in FAQ 002-40 (the general Fluxx FAQ, also quoted in "
                                     "part in 002-24); the Math Fluxx printing is not quoted "
                                     "separately"},
            "notes": [quirk(
                "FAQ 002-40 notes that some earlier printings write the last 1 as \"one\"; the "
                "FAQ says it should be the numeral (for Inflation).",
                "FAQ 002-40 指出，一些早期印刷版把最后的 1 写成英文单词“one”；FAQ 说应为阿拉伯数字"
                "（以便与通货膨胀配合）。（本项目译文）")],
        },
    }


def build_math() -> dict[str, Any]:
    text = _seed_text()
    groups = parse_card_list(text)
    texts = _texts(text)
    cards: list[dict[str, Any]] = []
    for group in groups:
        kind = _GROUPS[group["group"]]
        for value, item in enumerate(group["items"]):
            cid = card_id(item["name"])
            ctype = "basic_rules" if cid == "basic_rules" else kind
            attrs: dict[str, Any] = {"seed_group": group["group"]}
            copies = 1
            aliases: list[str] = []
            if kind == "keeper":
                copies = item["num"] or 1
                attrs["value"] = value  # the seed lists them Zero..Ten in order
                aliases = [str(value), f"Keeper {item['name']}"]
            elif kind == "goal":
                if item["num"] is not None:
                    target, source = item["num"], "seed"
                    remark = f"the seed prints the number: {item['name']} ({item['num']})"
                    aliases = [f"{item['name']} ({item['num']})"]
                else:
                    target, source, remark = TARGETS[cid]
                attrs.update(target=target, target_source=source, target_remark=remark)
            if aliases:
                attrs["aliases"] = aliases
            if cid in _RULEBOOK_DECK_IDS:
                attrs["rulebook_deck_card"] = f"card:{cid}"
            known = texts.get(cid)
            provenance: dict[str, Any] = {
                "seed": "004", "section": f"Card List / {group['group']}",
                "name_zh": "project_translation",
                "text_en": "missing", "text_zh": "missing",
            }
            remarks = []
            if cid in _ZH_FROM_SEED_000:
                remarks.append("Chinese name as the translation of the rulebook deck gives it")
            if cid in _RULEBOOK_DECK_IDS:
                remarks.append("a card of this name is in the rulebook deck; the "
                               "Math Fluxx printing's text is not in the sources")
            notes: list[dict[str, Any]] = []
            if known:
                provenance.update(known["provenance"])
                provenance["text_zh"] = "project_translation"
                provenance["text_section"] = known["provenance"]["section"]
                provenance["section"] = f"Card List / {group['group']}"
                notes = list(known.get("notes", []))
            if remarks:
                provenance["remark"] = "; ".join([provenance.get("remark", ""), *remarks]).strip(
                    "; ")
            cards.append({
                "id": cid, "type": ctype,
                "name": {"en": item["name"], "zh": NAMES_ZH[cid]},
                "text": {"en": known["en"] if known else None,
                         "zh": known["zh"] if known else None},
                "copies": copies, "notes": notes, "provenance": provenance, "attrs": attrs,
            })
    listed = {g["group"]: sum(_copies(i, g) for i in g["items"]) for g in groups}
    printed = {g["group"]: g["header_count"] for g in groups}
    return {
        "edition": "math", "kind": "edition",
        "title": {"en": "Math Fluxx (seed 004)", "zh": "数学 Fluxx（资料 004）（本项目译名）"},
        "source": {"seed": "004", "file": SEED_004},
        "counts": {"listed": listed, "headers": printed,
                   "total_listed": sum(listed.values()),
                   "total_printed": 100},
        "remarks": [
            {"en": "The seed's own counts disagree with its lists: the Keepers heading says 27 "
                   "cards but the listed multiplicities add to 26; the Actions heading says 16 "
                   "cards but 21 names are listed. The listed cards add to 100, the box total the "
                   "seed states, so the catalog follows the lists.",
             "zh": "资料自身的数目与其列表不符：所有物标题写27张，但所列数量合计26张；行动卡标题写"
                   "16张，但"
                   "列出了21个名字。所列卡牌合计100张，与资料所说的总数一致，因此本目录以列表为准。"
                   "（本项目注）"},
            {"en": "The seed prints the text of only the Basic Rules and the two Meta Rules; Play "
                   "All But 1 is quoted in FAQ 002-40. Every other card's text is missing from the "
                   "sources and is left empty (text null, provenance text_en \"missing\").",
             "zh": "资料只给出了基本规则和两张元规则的文字；“出到只剩1张”的文字引自 FAQ 002-40。其"
                   "他卡牌"
                   "的文字在来源中缺失，留空（text 为 null，provenance text_en 为 “missing”）。（"
                   "本项目注）"},
            {"en": "Chinese names and texts of this edition are the project's translation.",
             "zh": "本版本的中文卡名和文字均为本项目的译文。"},
        ],
        "cards": cards,
    }


def _copies(item: dict[str, Any], group: dict[str, Any]) -> int:
    return (item["num"] or 1) if group["group"] == "Keepers" else 1
