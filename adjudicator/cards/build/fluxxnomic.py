"""The Fluxxnomic catalog (seed 003).

Seed 003 describes its cards in four tab-separated tables. Names and English texts are parsed
from the seed; the Chinese names and texts are the project's translation. The seed heads the
Action table "possible goal cards" (a typo of the seed): the catalog records it.
"""

from __future__ import annotations

from typing import Any

from .common import card_id

SEED_003 = "003_e5e4d595c4fbcb74.txt"

# The seed's table headings, in order, and the card type each table holds.
_TABLES = (
    ("The following table describes the possible goal cards.", "action"),  # the seed's typo
    ("The following table describes the keeper cards.", "keeper"),
    ("The following table describes the possible goal cards.", "goal"),
    ("The following table describes the possible new rule cards.", "new_rule"),
)

# "Played", said of a card that stays (a Keeper, a New Rule), means "in play" in this variant
# ("no longer considered to be played" when discarded): the Chinese says 在场 there, and 打出
# only for the act of playing.
ZH: dict[str, tuple[str, str | None]] = {
    "steal_a_keeper": ("偷一件所有物", "选择另一名玩家当前在场的一件所有物，将其从该玩家处移走，改"
                                 "为归你所有。"),
    "rules_reset": ("重置规则", "弃掉当前所有在场的新规则，以及当前的目标。"),
    "draw_2_and_use_em": ("抓2用2", "抓2张牌，并立即按你喜欢的任意顺序打出。"),
    "gambling": ("赌博", "为 n 选择一个值。然后抓 n 张牌，如果其中没有所有物卡，你保留全部；否则把"
                       "它们弃掉。"),
    "trash_a_new_rule": ("弃一张新规则", "弃掉一张当前在场的新规则。"),
    "sun": ("太阳", None), "moon": ("月亮", None), "death": ("死亡", None),
    "taxes": ("税收", None), "love": ("爱", None), "peace": ("和平", None), "book": ("书", None),
    "night_and_day": ("日与夜", "太阳和月亮同时在场。"),
    "certainty": ("确定无疑", "死亡和税收同时在场。"),
    "hippyism": ("嬉皮士", "爱和和平同时在场。"),
    "all_you_need_is_love": ("要只有爱", "爱在场，且没有其他所有物在场。"),
    "i_might_need_a_bookshelf": ("我可能需要一个书架", "6本书同时在场。"),
    "10_cards_in_hand": ("10张手牌", "手中至少持有10张牌。"),
    "do_some_more": ("再多来点", "玩家每个阶段可以多抓一张牌、多出一张牌。打出另一张同类卡时，这张"
                             "卡不会被弃掉。"),
    "hand_limit_5": ("手牌上限5", "玩家手中最多持有5张牌。如果某玩家在阶段结束时手牌多于5张，则从"
                              "其手牌中随机"
                                 "选择并弃掉，直到剩下5张。"),
    "play_all": ("出光手牌", "如果玩家选择在某个阶段出牌，他必须打出手中的每一张牌。"),
    "nice_try": ("想得美", "下一次有玩家完成目标卡上的要求时，立即弃掉这张卡和该目标。尽管有相反的"
                        "规则，"
                          "达成目标的玩家不会获胜。"),
}

TYPE_ZH = {
    "Action": "打出行动卡时，打出它的玩家必须执行卡上描述的行动，然后弃掉这张卡。",
    "Keeper": "所有物卡没有描述。玩家可以在任何时候打出所有物卡，不论本阶段已经出了多少张牌。所有"
              "物卡"
              "不计入每阶段可出牌的上限。",
    "Goal": "打出目标卡时，弃掉上一张打出的目标卡。目标卡上有玩家应努力达成的条件。",
    "New Rule": "打出新规则卡时，其效果如同一条规则一样支配游戏。新规则卡的效果一直持续，直到打出"
                "要求弃掉"
                "它的卡，或打出效果与之冲突的卡（此时它被弃掉）。",
}


def _lines() -> list[str]:
    from ...resources import faq_dir

    return (faq_dir() / "sources" / SEED_003).read_text(encoding="utf-8").splitlines()


def parse_tables(lines: list[str]) -> list[dict[str, Any]]:
    """The four card tables: heading, type, and rows of (name, description or None)."""
    tables: list[dict[str, Any]] = []
    pos = 0
    for heading, kind in _TABLES:
        pos = lines.index(heading, pos)
        rows: list[tuple[str, str | None]] = []
        i = pos + 1
        while i < len(lines) and not lines[i].strip():
            i += 1
        i += 1  # the column header row ("Name" or "Name<TAB>Description")
        while i < len(lines) and lines[i].strip():
            name, _, desc = lines[i].partition("\t")
            rows.append((name.strip(), desc.strip() or None))
            i += 1
        tables.append({"heading": heading, "type": kind, "line": pos + 1, "rows": rows})
        pos = i
    return tables


def _type_table(lines: list[str]) -> dict[str, dict[str, str]]:
    start = lines.index("Type\tDescription")
    out: dict[str, dict[str, str]] = {}
    for line in lines[start + 1 :]:
        if not line.strip():
            break
        name, _, desc = line.partition("\t")
        out[name] = {"en": desc, "zh": TYPE_ZH[name] + "（本项目译文）"}
    return out


def build_fluxxnomic() -> dict[str, Any]:
    lines = _lines()
    cards: list[dict[str, Any]] = []
    for table in parse_tables(lines):
        for name, desc in table["rows"]:
            cid = card_id(name)
            zh_name, zh_text = ZH[cid]
            keeper = table["type"] == "keeper"
            provenance = {
                "seed": "003", "section": f"Card tables: {table['heading']} (line {table['line']})",
                "name_zh": "project_translation",
                "text_en": "none_on_card" if keeper else "seed",
                "text_zh": "none_on_card" if keeper else "project_translation",
            }
            notes: list[dict[str, Any]] = []
            if table["type"] == "action":
                notes.append({
                    "kind": "seed_quirk",
                    "en": "The seed heads the Action table \"The following table describes the "
                          "possible goal cards.\" (a typo: its cards are Actions).",
                    "zh": "资料把行动卡表格的标题写成“The following table describes the possible "
                          "goal cards.”（笔误：表中是行动卡）。（本项目注）",
                })
            if keeper:
                provenance["remark"] = "the seed: Keeper cards do not contain descriptions"
            cards.append({
                "id": cid, "type": table["type"],
                "name": {"en": name, "zh": zh_name},
                "text": {"en": desc, "zh": zh_text},
                "copies": 1, "notes": notes, "provenance": provenance, "attrs": {},
            })
    return {
        "edition": "fluxxnomic", "kind": "edition",
        "title": {"en": "Fluxxnomic (seed 003)",
                  "zh": "Fluxxnomic（资料 003）（本项目译名）"},
        "source": {"seed": "003", "file": SEED_003},
        "copies_unlimited": True,
        "headers": _type_table(lines),
        "remarks": [
            {"en": "The seed heads its Action table \"The following table describes the possible "
                   "goal cards.\", the same words as the Goal table: a typo of the seed. The cards "
                   "of that table are Actions (they are done, then discarded).",
             "zh": "资料的行动卡表格标题写作“The following table describes the possible goal cards"
                   ".”，"
                   "与目标卡表格相同：这是资料的笔误。该表中的卡是行动卡。（本项目注）"},
            {"en": "Fluxxnomic has no deck: a drawn card is made at random (seed 003, Cards), and "
                   "a "
                   "Goal asks for 6 Books. Copies are therefore unlimited; `copies` is 1 by "
                   "convention and is not a limit.",
             "zh": "Fluxxnomic 没有牌库：抓牌时随机生成一张牌（资料 003“Cards”一节），且有目"
                   "标要求"
                   "6本书。因此张数不限；copies 按惯例记为1，并非上限。（本项目注）"},
            {"en": "Chinese names and texts of this edition are the project's translation.",
             "zh": "本版本的中文卡名和文字均为本项目的译文。"},
        ],
        "cards": cards,
    }
