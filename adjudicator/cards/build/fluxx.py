"""The Fluxx catalog: the rulebook deck of seed 000, parsed from the seed."""

from __future__ import annotations

import re
from typing import Any

from ...resources import faq_dir
from .common import card_id, quirk

SEED_000 = "000_c6ef82012c87c322.txt"

_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
_NOTE = re.compile(r"\[([^\]]*)\]")
# "抓2张牌(Draw 2)", "头脑（无电视）(Brain (no TV))",
# "加入…俱乐部！(Join the Fluxx Fan Club!)这张卡不译"
_HEADER_PAREN = re.compile(r"^(?P<zh>[^(]+?)\((?P<en>.+)\)(?P<rest>.*)$")
# "家用电器 Appliances": the one card header of the seed written without parentheses
_HEADER_SPACE = re.compile(r"^(?P<zh>\S+) (?P<en>[A-Za-z].*)$")

_SECTION_TYPES = {"新规则卡": "new_rule", "目标卡": "goal", "行动卡": "action",
                  "所有物卡": "keeper", "特殊卡": "special"}
_SPECIAL_TYPES = {"basic_rules": "basic_rules", "join_the_fluxx_fan_club": "promo"}
# The extra header lines the seed prints for the Play, Draw, Hand Limit and Keeper Limit cards,
# matched to the cards by the start of their English name.
_EXTRA_HEADER_PREFIXES = ("Play ", "Draw ", "Hand Limit ", "Keeper Limit ")


def has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


def split_notes(line: str) -> tuple[str, list[str]]:
    """A seed line without its translator's notes in [...], and the notes."""
    notes = [n.strip() for n in _NOTE.findall(line)]
    return _NOTE.sub("", line).rstrip(), notes


def translator_note(text: str, where: str) -> dict[str, Any]:
    return {"kind": "translator", "zh": text, "en": None, "where": where,
            "remark": "translator's note kept verbatim from the seed (Chinese only)"}


def _seed_lines(name: str) -> list[str]:
    return (faq_dir() / "sources" / name).read_text(encoding="utf-8").splitlines()


def _section_type(line: str) -> str | None:
    if not line.startswith("!"):
        return None
    for key, kind in _SECTION_TYPES.items():
        if line[1:].startswith(key):
            return kind
    return None


def _parse_list(lines: list[str]) -> list[dict[str, Any]]:
    """The card list "[卡牌列表]": one "中文 English" line per card, by section."""
    start, end = lines.index("[卡牌列表]"), lines.index("[卡片详述]")
    out: list[dict[str, Any]] = []
    section, kind = "", None
    for line in lines[start + 1 : end]:
        if line.startswith("!"):
            section, kind = line[1:], _section_type(line)
            continue
        if kind is None or line == "中文译名 英文名" or not line.strip():
            continue
        zh, en = line.split(" ", 1)
        en, notes = split_notes(en)
        out.append({"zh": zh, "en": en, "kind": kind, "section": section, "notes": notes})
    return out


def _key(name: str) -> str:
    return re.sub(r"[\W_]+", "", name).casefold()


def _header(line: str) -> tuple[str, str, str] | None:
    """(zh, en, rest) if `line` opens a card (or a part of the Basic Rules card)."""
    for pattern in (_HEADER_PAREN, _HEADER_SPACE):
        m = pattern.match(line)
        if m and has_cjk(m["zh"]) and not has_cjk(m["en"]):
            return m["zh"], m["en"], m.groupdict().get("rest") or ""
    return None


def _parse_details(lines: list[str]) -> dict[str, Any]:
    """The "[卡片详述]" part: per-type header lines and each card's zh/en text."""
    start = lines.index("[卡片详述]")
    listed = {_key(c["en"]) for c in _parse_list(lines)}
    headers: dict[str, dict[str, Any]] = {}
    cards: dict[str, dict[str, Any]] = {}
    trailer: list[str] = []
    kind: str | None = None
    section = ""
    current: dict[str, Any] | None = None
    part: dict[str, Any] | None = None
    pre: list[str] = []  # lines of a section before its first card: the common header

    def flush_pre() -> None:
        if kind and pre:
            headers[kind] = {"section": section, "lines": list(pre)}
        pre.clear()

    for line in lines[start + 1 :]:
        if not line.strip():
            continue
        if line.startswith("!"):
            flush_pre()
            kind, section, current, part = _section_type(line), line[1:], None, None
            continue
        if line.startswith("[") and line.endswith("]") and kind == "special":
            trailer.append(line)  # the forum's "last edited by" footer, not part of a card
            continue
        head = _header(line)
        if head and _key(head[1]) in listed:
            flush_pre()
            zh, en, rest = head
            current = {"zh": zh, "en": en, "rest": rest.strip(), "kind": kind,
                       "section": section, "lines": [], "parts": []}
            cards[_key(en)] = current
            part = None
            continue
        if current is None:
            pre.append(line)
            continue
        if head or line == "基本规则的背面":
            # a titled part of the Basic Rules card: Draw 1, Play 1, and the back of the card
            zh, en = (head[0], head[1]) if head else (line, None)
            part = {"zh": zh, "en": en, "lines": []}
            current["parts"].append(part)
            continue
        (part or current)["lines"].append(line)
    flush_pre()
    return {"headers": headers, "cards": cards, "trailer": trailer}


def _text(lines: list[str]) -> tuple[str | None, str | None, list[str]]:
    """Joins a card's lines by language; returns (en, zh, translator notes)."""
    en: list[str] = []
    zh: list[str] = []
    notes: list[str] = []
    for raw in lines:
        line, found = split_notes(raw)
        notes += found
        (zh if has_cjk(line) else en).append(line)
    return ("\n".join(en) or None, "\n".join(zh) or None, notes)


def _pairs(lines: list[str]) -> list[dict[str, str]]:
    """Consecutive zh/en lines of a header as {zh, en} pairs (zh-only lines get en None)."""
    out: list[dict[str, Any]] = []
    for line in lines:
        if has_cjk(line):
            out.append({"zh": line, "en": None})
        elif out and out[-1]["en"] is None:
            out[-1]["en"] = line
        else:
            out.append({"zh": None, "en": line})
    return out


def _type_headers(parsed: dict[str, Any]) -> dict[str, Any]:
    """The common header printed on every card of a type, plus the seed's remarks around it."""
    out: dict[str, Any] = {}
    for kind, block in parsed["headers"].items():
        pairs = _pairs(block["lines"])
        entry: dict[str, Any] = {"section": block["section"], "lines": pairs}
        # zh-only lines are the translator's lead-ins ("…都会有如下文字："); the first zh/en pair
        # is the header every card of the type prints
        bilingual = [p for p in pairs if p["zh"] and p["en"]]
        if bilingual:
            entry["header"] = bilingual[0]
        if kind == "new_rule":
            # then one pair per rule family: Play, Draw, Hand Limit, Keeper Limit
            entry["extra"] = dict(zip(_EXTRA_HEADER_PREFIXES, bilingual[1:], strict=True))
        out[kind] = entry
    return out


# Play 2/3/4: the seed's Chinese text opens with 每轮抓N张牌 ("draw N cards per turn"), a misprint
# of 每轮出N张牌 (the card's name and its English say Play). The card shows the reading; the seed's
# words stay in its provenance and its note.
PLAY_MISPRINTS = (2, 3, 4)


def _corrected_zh(cid: str, zh: str | None) -> str | None:
    """The Chinese text a player reads: the seed's, with the Play rules' misprint corrected."""
    for n in PLAY_MISPRINTS:
        if cid == f"play_{n}" and zh and zh.startswith(f"每轮抓{n}张牌"):
            return f"每轮出{n}张牌" + zh[len(f"每轮抓{n}张牌"):]
    return zh


FLUXX_QUIRKS: dict[str, list[dict[str, Any]]] = {
    **{
        f"play_{n}": [quirk(
            f"The seed's Chinese text misprints the first line as 每轮抓{n}张牌 (\"draw {n} cards "
            f"per turn\") where the English says \"Play {n} cards per turn\"; the card's name "
            f"(出{n}张牌) and its English text make it a Play rule, so the Chinese shown reads "
            f"每轮出{n}张牌. The seed's own wording is kept in provenance.text_zh_seed.",
            f"来源的中文把第一行误印为“每轮抓{n}张牌”，而英文是“每轮出{n}张牌”（Play）；卡名“出{n}张牌”"
            f"和英文说明表明这是出牌数规则，因此这里显示为“每轮出{n}张牌”。来源原文：“每轮抓{n}张牌。”"
            "（本项目注）",
        )]
        for n in PLAY_MISPRINTS
    },
    "double_agenda": [quirk(
        "The seed's English reads \"causes this carded to be discarded\" (a typo for \"card\"). "
        "Kept verbatim.",
        "资料英文写作“causes this carded to be discarded”（card 的笔误）。原文照录。（本项目注）",
    )],
    "draw_3_play_2_of_them": [quirk(
        "The seed writes the name \"Draw, 3, Play 2 of them\" (a stray comma); the card is "
        "Draw 3, Play 2 of Them, as the Math Fluxx rulebook spells it, and that is the name "
        "shown. Both spellings are accepted.",
        "资料把英文卡名写作“Draw, 3, Play 2 of them”（多了一个逗号）；卡名应为 Draw 3, Play 2 "
        "of Them（数学 Fluxx 规则书的写法），显示的就是这个名字。两种写法都可识别。（本项目注）",
    )],
    "trash_a_new_rule": [quirk(
        "The seed's card list names it 弃一张新规则 but its card details 取消一张新规则; the list"
        "'s "
        "name is used, both are accepted.",
        "资料的“卡牌列表”译作“弃一张新规则”，“卡片详述”译作“取消一张新规则”；采用列表的译名，两者均可"
        "识别。"
        "（本项目注）",
    )],
    "appliances": [quirk(
        "The seed's card details write this card's heading as \"家用电器 Appliances\", without "
        "the parentheses the other cards have.",
        "资料的“卡片详述”中，此卡标题写作“家用电器 Appliances”，不像其他卡牌那样用括号。"
        "（本项目注）",
    )],
    "empty_the_trash": [quirk(
        "The seed's card details give this card's English text before its Chinese text.",
        "资料的“卡片详述”中，此卡先列英文、后列中文。（本项目注）",
    )],
    "basic_rules": [quirk(
        "The seed's Basic Rules card also carries the texts of Draw 1 (抓1张牌) and Play 1 "
        "(出1张牌), and a back side in Chinese only; they are part of the card's text and are "
        "also listed in attrs.parts.",
        "资料中的基本规则卡还带有“抓1张牌”（Draw 1）和“出1张牌”（Play 1）的文字，以及只有中文的背"
        "面；"
        "它们属于此卡文字，也列在 attrs.parts 中。（本项目注）",
    )],
    "join_the_fluxx_fan_club": [quirk(
        "The seed gives no text for this promo card: it says 这张卡不译 (\"this card is not "
        "translated\"), and no English text either. The card's text is missing from the sources.",
        "资料没有给出此宣传卡的文字：只写“这张卡不译”，也没有英文原文。来源中缺少此卡文字。（本项"
        "目注）",
    )],
}


# English names the seed misspells, by card id: the name the other sources give the card. The
# seed's own spelling stays an alias (a table may be typed from the seed), and the card's note
# (FLUXX_QUIRKS) records it.
NAME_FIXES = {
    # "If one of those cards is Draw 3, Play 2 of Them" (the Math Fluxx rulebook, seed 004)
    "draw_3_play_2_of_them": "Draw 3, Play 2 of Them",
}


def build_fluxx() -> dict[str, Any]:
    lines = _seed_lines(SEED_000)
    listed = _parse_list(lines)
    parsed = _parse_details(lines)
    headers = _type_headers(parsed)
    cards: list[dict[str, Any]] = []
    for entry in listed:
        # Keepers have no entry of their own in the details: only their type's header
        detail = parsed["cards"].get(_key(entry["en"])) or {
            "zh": entry["zh"], "en": entry["en"], "rest": "", "lines": [], "parts": [],
            "section": headers[entry["kind"]]["section"]}
        cid = card_id(entry["en"])
        kind = _SPECIAL_TYPES.get(cid, entry["kind"])
        en, zh, inline_notes = _text(detail["lines"])
        notes: list[dict[str, Any]] = [translator_note(n, "card list") for n in entry["notes"]]
        notes += [translator_note(n, "card details") for n in inline_notes]
        notes += FLUXX_QUIRKS.get(cid, [])
        attrs: dict[str, Any] = {}
        name_en = NAME_FIXES.get(cid, entry["en"])
        aliases = sorted({detail["en"], detail["zh"], entry["en"]} - {name_en, entry["zh"]})
        if aliases:
            attrs["aliases"] = aliases
        header = headers.get(entry["kind"], {}).get("header")
        if header:
            attrs["header"] = header
        for prefix, extra in headers.get(entry["kind"], {}).get("extra", {}).items():
            if entry["en"].startswith(prefix):
                attrs["extra_header"] = extra
        parts = []
        for p in detail["parts"]:
            p_en, p_zh, _ = _text(p["lines"])
            parts.append({"name": {"en": p["en"], "zh": p["zh"]}, "text": {"en": p_en, "zh": p_zh}})
            # the titled parts (Draw 1, Play 1) are rules text of the card; the back is not
            if p["en"]:
                en = "\n".join(x for x in (en, p_en) if x)
                zh = "\n".join(x for x in (zh, p_zh) if x)
        if parts:
            attrs["parts"] = parts
        provenance: dict[str, Any] = {
            "seed": "000", "section": f"[卡片详述] !{detail['section']}",
            "list_section": f"[卡牌列表] !{entry['section']}",
            "name_zh": "seed", "text_en": "seed" if en else "missing",
            "text_zh": "seed" if zh else "missing",
        }
        corrected = _corrected_zh(cid, zh)
        if corrected != zh:
            provenance["text_zh"], provenance["text_zh_seed"] = "seed_corrected", zh
            zh = corrected
        if kind == "keeper":
            # the seed: Keepers carry no rules text besides their name (the lower half is art)
            provenance["text_en"] = provenance["text_zh"] = "none_on_card"
            provenance["remark"] = headers["keeper"]["lines"][-1]["zh"]
        if detail["rest"]:
            provenance["remark"] = f"the seed's heading adds: {detail['rest']}"
        cards.append({
            "id": cid, "type": kind,
            "name": {"en": name_en, "zh": entry["zh"]},
            "text": {"en": en, "zh": zh},
            "copies": 1, "notes": notes, "provenance": provenance, "attrs": attrs,
        })
    return {
        "edition": "fluxx", "kind": "edition",
        "title": {"en": "Fluxx (the rulebook deck of seed 000)", "zh": "Fluxx（规则书卡"
                                                                       "组）"},
        "source": {"seed": "000", "file": SEED_000},
        "headers": headers,
        "remarks": [{
            "en": "The seed's details end with a forum footer, kept here and not in any card: "
                  + " ".join(parsed["trailer"]),
            "zh": "资料的“卡片详述”末尾是论坛的编辑记录，保留于此，不属于任何卡牌："
                  + " ".join(parsed["trailer"]),
        }],
        "cards": cards,
    }
