"""The `creepers` and `surprises` expansion catalogs.

No seed prints these cards. What is known of them is in the shared reference
(faq/sources/creepers-and-surprises.md, from public transcriptions of the printed cards and the
official FAQ's quotes). The texts below are in the project's own words, keeping the meaning;
where the reference marks a fact unknown, the card says so.
"""

from __future__ import annotations

from typing import Any

REFERENCE = "creepers-and-surprises.md"

_CREEPER_CLAUSE_EN = "You cannot win while you have this card, unless the Goal says otherwise."
_CREEPER_CLAUSE_ZH = "你有这张卡时不能获胜，除非目标卡另有说明。"
_SURPRISE_CLAUSE_EN = "Surprise: may be played at any time, even when it is not your turn."
_SURPRISE_CLAUSE_ZH = "意外卡：任何时候都可以打出，即使不在你的回合。"
_SURPRISE_COUNTER_EN = "Any Surprise can also cancel another Surprise."
_SURPRISE_COUNTER_ZH = "任何意外卡也可以取消另一张意外卡。"


def _card(cid: str, kind: str, name: tuple[str, str], text: tuple[str, str], remark: str,
          section: str, name_zh_source: str = "project_translation",
          attrs: dict[str, Any] | None = None, notes: list[dict[str, Any]] | None = None,
          ) -> dict[str, Any]:
    return {
        "id": cid, "type": kind,
        "name": {"en": name[0], "zh": name[1]},
        "text": {"en": text[0], "zh": text[1]},
        "copies": 1,
        "notes": notes or [],
        "provenance": {
            "reference": REFERENCE, "section": section,
            "name_zh": name_zh_source, "text_en": "project_words",
            "text_zh": "project_translation", "remark": remark,
        },
        "attrs": attrs or {},
    }


def _creeper(cid: str, name: tuple[str, str], ability: tuple[str, str], remark: str,
             **kw: Any) -> dict[str, Any]:
    clause = (("You cannot win while you have this card; no Goal makes an exception.",
               "你有这张卡时不能获胜，没有任何目标卡例外。")
              if cid == "radioactive_potato" else (_CREEPER_CLAUSE_EN, _CREEPER_CLAUSE_ZH))
    text = (f"{clause[0]}\n{ability[0]}", f"{clause[1]}\n{ability[1]}")
    return _card(cid, "creeper", name, text, remark,
                 "Creepers (the Creeper Pack / Fluxx 4.0)", **kw)


CREEPER_REMARK = "card text, Creeper Pack / Fluxx 4.0, as described in the shared reference"


def build_creepers() -> dict[str, Any]:
    replaced = {"name_zh_source": "seed"}  # War and Death keep the Chinese names of seed 000
    cards = [
        _creeper("war", ("War", "战争"),
                 ("If you have Peace, you must move it to another player.",
                  "如果你有和平，必须把它移给另一名玩家。"),
                 CREEPER_REMARK, attrs={"replaces": "war"}, **replaced),
        _creeper("taxes", ("Taxes", "税收"),
                 ("If you have Money in play, you may discard it together with Taxes.",
                  "如果你场上有金钱，可以把它和税收一起弃掉。"),
                 CREEPER_REMARK),
        _creeper("death", ("Death", "死亡"),
                 ("If you have Death at the start of your turn, discard something else you have "
                  "in play (a Keeper or a Creeper). You may discard Death itself whenever it is "
                  "the only card you have in play.",
                  "如果你在回合开始时有死亡，弃掉你场上的另一张牌（所有物或陷阱）。"
                  "当死亡是你场上唯一的牌时，你可以随时弃掉死亡本身。"),
                 CREEPER_REMARK, attrs={"replaces": "death"}, **replaced),
        _creeper("radioactive_potato", ("Radioactive Potato", "放射性土豆"),
                 ("Whenever the Goal changes, move this card to the next player in the direction "
                  "opposite to turn order.",
                  "每当目标改变时，把这张卡移给逆着回合顺序方向的下一名玩家。"),
                 CREEPER_REMARK),
    ]
    return {
        "edition": "creepers", "kind": "expansion", "base": "fluxx",
        "title": {"en": "Creepers (Creeper Pack / Fluxx 4.0)",
                  "zh": "陷阱卡（Creeper 扩展包 / Fluxx 4.0）（本项目译名）"},
        "source": {"reference": REFERENCE},
        "headers": {"creeper": {
            "en": "Creeper: you cannot win while you have it, unless the Goal says otherwise. "
                  "A Creeper is never held in hand: when drawn it goes in front of you at once and "
                  "you draw a replacement (it counts neither as a card drawn for the Draw rule nor "
                  "as a play). Creepers dealt in a starting hand are put on the table and replaced "
                  "until the hand holds none. There is no limit on Creepers.",
            "zh": "陷阱卡：你有陷阱卡时不能获胜，除非目标卡另有说明。陷阱卡从不留在手中：抓到时立"
                  "刻放到你"
                  "面前并补抓一张（既不算作抓牌数规则的抓牌，也不算出牌）。起始手牌中的陷阱卡放到"
                  "桌上并补牌，"
                  "直到手中没有陷阱卡。陷阱卡没有上限。（本项目译文）",
            "provenance": {"reference": REFERENCE, "text_en": "project_words",
                           "text_zh": "project_translation"},
        }},
        "remarks": [{
            "en": "With this expansion on the rulebook deck, War and Death are Creepers, not "
                  "Keepers (as in Fluxx 4.0), and Taxes and Radioactive Potato join the deck. "
                  "Goals that name War or Death (Peace (no War), War = Death) then refer to "
                  "the Creepers.",
            "zh": "在规则书卡组中加入本扩展时，战争和死亡是陷阱卡而不是所有物（与 Fluxx 4.0 相同）"
                  "，税收和放射性土豆加入卡组。提到战争或死亡的目标卡（和平（无战争）、战争就是死亡）"
                  "指的是这两张陷阱卡。（本项目译文）",
        }],
        "cards": cards,
    }


SURPRISE_REMARK = ("card text, Fluxx 5.0 (the four standard Surprises), as described in the "
                   "shared reference")


def _surprise(cid: str, name: tuple[str, str], out_turn: tuple[str, str],
              in_turn: tuple[str, str] | None, cancels: str) -> dict[str, Any]:
    if in_turn is None:
        in_turn = ("During your turn: what this card does is unknown: the project's sources do "
                   "not give its in-turn function.",
                   "在你的回合中：此卡的效果未知——本项目的资料没有给出它在回合内的功能。")
    text = (f"{_SURPRISE_CLAUSE_EN}\nOut of turn: {out_turn[0]}\n{in_turn[0]}\n"
            f"{_SURPRISE_COUNTER_EN}",
            f"{_SURPRISE_CLAUSE_ZH}\n不在你的回合时：{out_turn[1]}\n{in_turn[1]}\n"
            f"{_SURPRISE_COUNTER_ZH}")
    attrs: dict[str, Any] = {"cancels": cancels, "in_turn_known": cid != "stop_that"}
    notes = []
    if cid == "stop_that":
        notes.append({
            "kind": "unknown",
            "en": "The in-turn function of Stop That! is unknown to the project's sources; "
                  "rulings that need it say so.",
            "zh": "“住手！”在回合内的功能在本项目的资料中未知；需要它的裁定会说明这一点。",
        })
    return _card(cid, "surprise", name, text, SURPRISE_REMARK,
                 "Surprises (Fluxx 5.0: the four standard ones)", attrs=attrs, notes=notes)


def build_surprises() -> dict[str, Any]:
    cards = [
        _surprise("stop_that", ("Stop That!", "住手！"),
                  ("cancel an Action another player has just played; the Action is discarded.",
                   "取消另一名玩家刚打出的行动卡；该行动卡被弃掉。"),
                  None, "action"),
        _surprise("veto", ("Veto!", "否决！"),
                  ("cancel a New Rule another player has just played.",
                   "取消另一名玩家刚打出的新规则卡。"),
                  ("During your turn, as one of your plays: discard your choice of up to 2 New "
                   "Rules in play.",
                   "在你的回合中（算作一次出牌）：选择弃掉场上至多2张新规则卡。"),
                  "new_rule"),
        _surprise("thats_mine", ("That's Mine!", "那是我的！"),
                  ("a Keeper another player has just played goes in front of you instead.",
                   "另一名玩家刚打出的所有物改为放到你面前。"),
                  ("During your turn, as one of your plays: steal a Keeper from another player.",
                   "在你的回合中（算作一次出牌）：从另一名玩家处偷一件所有物。"),
                  "keeper"),
        _surprise("canceled_plans", ("Canceled Plans", "计划取消"),
                  ("a Goal another player has just played is discarded instead.",
                   "另一名玩家刚打出的目标卡改为被弃掉。"),
                  ("During your turn, as one of your plays: discard the current Goal(s).",
                   "在你的回合中（算作一次出牌）：弃掉当前的目标卡。"),
                  "goal"),
    ]
    return {
        "edition": "surprises", "kind": "expansion", "base": "fluxx",
        "title": {"en": "Surprises (Fluxx 5.0)", "zh": "意外卡（Fluxx 5.0）（本项目译名）"},
        "source": {"reference": REFERENCE},
        "headers": {"surprise": {
            "en": "A Surprise can be played at any time, even out of turn. Each has an out-of-turn "
                  "function, which cancels a card of one type just played by another player, and "
                  "an in-turn function, which uses one of your plays. Any Surprise can cancel "
                  "another Surprise.",
            "zh": "意外卡可以在任何时候打出，即使不在自己的回合。每张意外卡都有回合外功能（取消另"
                  "一名玩家刚"
                  "打出的某类卡）和回合内功能（占用你的一次出牌）。任何意外卡都可以取消另一张意外"
                  "卡。"
                  "（本项目译文）",
            "provenance": {"reference": REFERENCE, "text_en": "project_words",
                           "text_zh": "project_translation"},
        }},
        "remarks": [{
            "en": "The FAQ's own rulings on Surprise timing, counter-Surprise chains, play counts "
                  "and paradoxes are in seed 002.",
            "zh": "FAQ 中关于意外卡时机、反制链、出牌计数和悖论的裁定见资料 002。（本项目译文）",
        }],
        "cards": cards,
    }
