"""Chinese as players read it: card names set off as 「名字」 and full-width punctuation.

1. Every Chinese finding, rendered by the referee's own renderer with sample cards in every
   argument (names ending in ！, as 「住手！」 and 「简化一下！」 do): each name stands between
   「」, once, and no ！ or ？ of a name runs into the sentence's 。 or ：.
2. Every Chinese UI string, filled in as its callers fill it (a card's name through card_ref):
   no doubled quotes around a name.
3. No half-width `:` `,` `(` `)` `=` in the Chinese of any message file, outside placeholders,
   code, JSON examples and paths.
"""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

import clingo
import pytest

from adjudicator.cards.catalog import catalog_for
from adjudicator.i18n import messages as ui_messages
from adjudicator.messages import card_ref, catalog, finding_text, messages
from adjudicator.referee.render import Context
from adjudicator.table.reader import parse_state

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ("stop_that", "thats_mine", "war", "peace", "lets_simplify", "veto", "dreamland",
           "canceled_plans")
STATE = parse_state({"expansions": ["surprises", "creepers"], "active": "Ann",
                     "players": [{"name": "Ann", "hand": []}, {"name": "Bo", "hand": []}]})
GAME = catalog_for("fluxx", ("surprises", "creepers"))
# a name's ！ or ？ followed by the sentence's own stop, colon or comma
DOUBLED = re.compile(r"[！？][。：，；]")


def _sample_args(n: int) -> list[clingo.Symbol]:
    return [clingo.Function(SAMPLES[i % len(SAMPLES)]) for i in range(n)]


@pytest.mark.parametrize("key", sorted(messages()))
def test_a_chinese_finding_sets_off_every_card_name(key: str) -> None:
    ctx = Context(STATE, GAME)
    args = _sample_args(8)
    text = finding_text(key, args, "zh", ctx.render)
    names = {GAME.get(str(a)).name_zh for a in args}
    for name in names:
        bare = text.replace(f"「{name}」", "")
        assert name not in bare, f"{key}: {name} not set off in {text}"
    assert "「「" not in text and "」」" not in text and "“「" not in text, text
    assert not DOUBLED.search(text), f"{key}: {text}"
    # the English is left as it was: a name without quotes
    en = finding_text(key, args, "en", ctx.render)
    assert "「" not in en


class _Blank(dict):
    def __missing__(self, key: str) -> str:
        return "3"


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


@pytest.mark.parametrize("key", sorted(k for k, v in ui_messages().items()
                                       if "card" in _fields(v["zh"])))
def test_a_chinese_ui_string_quotes_no_card_name_itself(key: str) -> None:
    """The callers pass a card's name through card_ref (Card.ref): the string adds no quotes."""
    template = ui_messages()[key]["zh"]
    filled = string.Formatter().vformat(template, (), _Blank(card=card_ref("住手！", "zh")))
    assert "「「" not in filled and "“「" not in filled and "」」" not in filled, filled
    assert not DOUBLED.search(filled), filled


def _zh_texts() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []

    def walk(value: Any, where: str) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if k == "zh" and isinstance(v, str):
                    out.append((where, v))
                else:
                    walk(v, f"{where}.{k}")
    for path in sorted((ROOT / "adjudicator" / "messages").glob("*.yaml")):
        if path.name != "glossary.yaml":
            walk(catalog(path.stem), path.stem)
    return out


# What may keep half-width signs: placeholders, `code`, JSON examples ("key": ...), paths
# and query strings (/api/ruling, ?state=...), a header name (Content-Type: ...)
_NOT_PROSE = re.compile(r"\{\{.*\}\}|\{\d\} = \{\d\}|\{\d+:\w+:\{\d+\}\}|\{[^{}]*\}|`[^`]*`|"
                        r"\"[a-z_]+\": ?\S*|\?[a-z_]+=\S*|https?://\S+|/[a-z_/]+|"
                        r"Content-Type: \S+|\(\d+ KB\)")


@pytest.mark.parametrize(("where", "zh"), _zh_texts(), ids=lambda v: v if "." in v else None)
def test_chinese_punctuation_is_full_width(where: str, zh: str) -> None:
    prose = _NOT_PROSE.sub("", zh)
    assert not re.search(r"[:,()=]", prose), f"{where}: {zh}"


def _card_names_zh() -> set[str]:
    from adjudicator.cards.catalog import EDITIONS, EXPANSIONS

    return {card.name("zh") for edition in EDITIONS
            for card in catalog_for(edition, EXPANSIONS if edition == "fluxx" else ())}


def test_a_card_named_by_hand_in_a_message_has_its_current_name() -> None:
    """A message that names a card itself (「接着玩」：...) names it as the catalog does, so that a
    card renamed in the catalog cannot keep its old name in the findings."""
    names = _card_names_zh()
    stale = [(where, quoted) for where, zh in _zh_texts()
             for quoted in re.findall(r"「([^」{}]+)」", zh) if quoted not in names]
    assert not stale
    assert "接着玩" in names and "继续前进" not in names  # the check reads the current names


def test_no_card_name_is_set_off_by_other_quotes() -> None:
    """A card's name in Chinese stands in 「」, in the project's FAQ and rulebook Chinese too, never
    in “” (those are kept for words quoted from a text)."""
    names = _card_names_zh()
    texts = [(p.name, p.read_text(encoding="utf-8"))
             for p in sorted((ROOT / "faq" / "annotations").glob("*.yaml"))] + _zh_texts()
    quoted = [(where, q) for where, text in texts
              for q in re.findall(r"“([^”]{1,20})”", text) if q in names]
    assert not quoted


def test_the_check_sees_a_half_width_colon_and_a_bare_name() -> None:
    assert re.search(r"[:,()=]", _NOT_PROSE.sub("", "牌库: {n}"))
    assert not re.search(r"[:,()=]", _NOT_PROSE.sub("", "请发送 {{\"players\": [...]}}。"))
    ctx = Context(STATE, GAME)
    assert ctx.render(clingo.Function("stop_that"), "", "zh") == "「住手！」"
    assert ctx.render(clingo.Function("stop_that"), "", "en") == "Stop That!"
    assert DOUBLED.search("住手！。")


def test_every_card_of_a_ruling_page_is_set_off(client) -> None:
    """A Chinese ruling page: its findings name 「战争」 and 「和平（无战争）」, the table's counts
    use full-width colons and parentheses."""
    from adjudicator.web.pages.forms import encode_state
    from tests.web.ui_pages import html
    table = {"players": [{"name": "Ann", "hand": ["Draw 2"], "keepers": ["War", "Peace"]},
                         {"name": "Bo", "hand_size": 2}], "active": "Ann",
             "goals": ["peace_no_war"], "draw_pile": 30}
    page = html(client.get("/ruling", query_string={"state": encode_state(table), "lang": "zh"}))
    findings = re.findall(r'<span class="finding-text">(.*?)</span>', page)
    assert findings and any("「战争」" in f for f in findings)
    for text in findings:
        assert not re.search("战争|和平", re.sub("「[^」]*」", "", text)), text
    assert "牌库：" in page and "牌库:" not in page
    assert not re.search(r'class="count">\(', page)


# --- suggestions and errors in the query's language ---------------------------------------------

def _errors(hand: list[str], **table: Any) -> list[Any]:
    from adjudicator.errors import InputError
    try:
        parse_state({"players": [{"name": "Ann", "hand": hand}, {"name": "Bo", "hand_size": 1}],
                     "active": "Ann", **table})
    except InputError as err:
        return err.items
    raise AssertionError("no error")


def test_a_chinese_query_is_answered_with_chinese_names() -> None:
    assert catalog_for("fluxx").suggest("中采") == ["中彩"]
    assert catalog_for("fluxx").suggest("Jackpt")[0] == "Jackpot"
    (item,) = _errors(["中采"])
    assert item.suggestions == ["中彩"]
    # the deck by its name, never its id
    assert item.zh == "Fluxx（规则书版）的卡组中没有卡牌“中采”。" and "fluxx" not in item.zh
    assert "the fluxx deck" in item.en  # the English is unchanged


def test_a_card_of_an_unused_expansion_names_the_expansion() -> None:
    (item,) = _errors(["住手！"])
    assert item.zh.startswith("「住手！」属于意外卡（Surprises）扩展")
    assert item.suggestions == ["住手！"]
    (item,) = _errors(["Stop That!"])
    assert item.suggestions == ["Stop That!"]


def test_a_chinese_page_suggests_a_card_by_both_names(client) -> None:
    from adjudicator.web.pages.forms import encode_state
    from tests.web.test_ui_words import words
    table = {"players": [{"name": "Ann", "hand": ["中采"]}, {"name": "Bo", "hand_size": 2}],
             "active": "Ann"}
    page = client.get("/ruling", query_string={"state": encode_state(table), "lang": "zh"})
    text = re.sub(r"\s+", "", words(page))
    assert "你是不是要找「中彩」（Jackpot）？" in text
    # the editor's script reads the value itself, which the reader resolves
    assert 'data-value="中彩"' in page.get_data(as_text=True)


def _cli(capsys, *argv: str) -> tuple[str, str]:
    from adjudicator.cli import main
    main(list(argv))
    captured = capsys.readouterr()
    return captured.out, captured.err


def test_the_command_line_counts_fluxxnomic_in_phases(capsys, tmp_path) -> None:
    import json
    table = tmp_path / "t.json"
    table.write_text(json.dumps({
        "edition": "fluxxnomic", "active": "Ann",
        "players": [{"name": "Ann", "hand": ["Sun"]}, {"name": "Bo", "hand_size": 2}]}),
        encoding="utf-8")
    zh, _ = _cli(capsys, "rule", str(table), "--lang", "zh")
    en, _ = _cli(capsys, "rule", str(table))
    assert "Ann：结束本阶段" in zh and "结束回合" not in zh
    assert "Ann: end the phase" in en and "end the turn" not in en


def test_the_chinese_command_line_prints_no_raw_keys(capsys, tmp_path) -> None:
    import json
    table = tmp_path / "t.json"
    table.write_text(json.dumps({
        "edition": "math", "active": "Ann", "rules": ["play_all_but_1"],
        "players": [{"name": "Ann", "hand": ["Draw 2"], "keepers": ["Five"]},
                    {"name": "Bo", "hand": ["Six"]}]}), encoding="utf-8")
    out, _ = _cli(capsys, "rule", str(table), "--lang", "zh")
    assert "出牌：出到只剩1张手牌" in out and "上限：手牌无" in out
    for raw in ("共 all", "[draw]", "[play]", "->", "） - ", "Ann: ", "手牌 -"):
        assert raw not in out, raw
    table.write_text(json.dumps({
        "active": "Ann", "turn": {"drawn": 1},
        "players": [{"name": "Ann", "hand": ["Trade Hands", "War"], "keepers": ["Peace"]},
                    {"name": "Bo", "hand": ["Love"]}]}), encoding="utf-8")
    out, _ = _cli(capsys, "play", str(table), "Trade Hands", "--lang", "zh")
    assert "结果 1：对手：Bo" in out and "Ann：手牌 「爱」；所有物 「和平」" in out
    for raw in ("hand ", "keepers ", "rules ", "discard ", "['", "opponent"):
        assert raw not in out, raw
    en, _ = _cli(capsys, "play", str(table), "Trade Hands")
    assert "Ann: hand ['love']; keepers ['peace']" in en  # the English view is as it was


def test_the_chinese_command_line_says_its_errors_in_chinese(capsys, tmp_path) -> None:
    import json
    table = tmp_path / "t.json"
    table.write_text(json.dumps({"active": "Ann", "players": [{"name": "Ann", "hand": ["中采"]},
                                             {"name": "Bo", "hand_size": 1}]}), encoding="utf-8")
    _, err = _cli(capsys, "rule", str(table), "--lang", "zh")
    assert err.strip() == ("错误（/players/0/hand/0）：Fluxx（规则书版）的卡组中没有卡牌“中采”。"
                           "你是不是要找「中彩」（Jackpot）？")
    _, err = _cli(capsys, "rule", str(table))
    assert err.startswith("error at /players/0/hand/0: Unknown card")


def test_a_card_page_says_its_provenance_in_chinese(client) -> None:
    from tests.web.test_ui_words import words
    zh = words(client.get("/cards/math_rules?edition=math&lang=zh"))
    assert "取规则书中讲这条元规则的一节作为卡面文字" in zh and "taken as its text" not in zh
    en = words(client.get("/cards/math_rules?edition=math&lang=en"))
    assert "the rulebook's section on this Meta Rule, taken as its text" in en
    for remark in catalog("remarks"):
        assert set(catalog("remarks")[remark]) == {"en", "zh"}


# --- numbers with their measure word -----------------------------------------------------------

@pytest.mark.parametrize(("key", "args", "zh"), [
    ("goal_met_most", ["Cy", "10_cards_in_hand", 12, 10, "cards_in_hand"],
     "「10张手牌」：已有人达到10张或以上，而Cy的手牌最多（12张），因此Cy达成了这个目标。"),
    ("most_below", ["5_keepers", 4, 5, "keepers_in_play"],
     "「5件所有物」：目前最多的只有4件，不到5件，还没有人达成。"),
    ("most_tie", ["Ann", "10_cards_in_hand", 11, "cards_in_hand"],
     "「10张手牌」：Ann与他人并列最多（11张），没有明确的胜者，游戏继续，直到出现明确的胜者为止。"),
])
def test_a_count_says_its_measure_word(key: str, args: list[Any], zh: str) -> None:
    ctx = Context(STATE, GAME)
    symbols = [clingo.Number(a) if isinstance(a, int) else
               clingo.String(a) if a in ("Cy", "Ann") else clingo.Function(a) for a in args]
    render = ctx.render

    def named(sym: Any, spec: str, lang: str) -> str:  # the players by name, as p(S) would be
        return sym.string if sym.type == clingo.SymbolType.String else render(sym, spec, lang)
    assert finding_text(key, symbols, "zh", named) == zh
    assert "张" not in finding_text(key, symbols, "en", named)  # English: the number alone


def test_the_turn_facts_count_in_cards(client) -> None:
    from adjudicator.web.pages.forms import encode_state
    from tests.web.test_ui_words import words
    table = {"edition": "math", "rules": ["play_all_but_1"], "active": "Ann",
             "players": [{"name": "Ann", "hand": ["Draw 2", "One"]},
                         {"name": "Bo", "hand_size": 1}]}
    text = words(client.get("/ruling", query_string={"state": encode_state(table), "lang": "zh"}))
    assert "本回合须出到只剩 1 张手牌，已出 0 张" in text
    table = {"players": [{"name": "Ann", "hand": ["Draw 2"]}, {"name": "Bo", "hand_size": 1}],
             "active": "Ann", "rules": ["play_2"]}
    text = words(client.get("/ruling", query_string={"state": encode_state(table), "lang": "zh"}))
    assert "本回合共须出 2 张，已出 0 张" in text


# --- Fluxxnomic counts in phases ---------------------------------------------------------------

@pytest.mark.parametrize(("edition", "hand", "says", "never"), [
    # nothing is owed in a phase: the boxes say what it allows
    ("fluxxnomic", "Nice try", ("结束本阶段", "抓牌可选：本阶段最多"), ("结束回合", "本回合共须")),
    ("fluxx", "Draw 2", ("结束回合", "本回合共须抓"), ("本阶段",)),
])
def test_a_game_of_phases_says_phase(client, edition, hand, says, never) -> None:
    from adjudicator.web.pages.forms import encode_state
    from tests.web.test_ui_words import words
    table = {"edition": edition, "active": "Ann", "turn": {"drawn": 1, "played": 1},
             "players": [{"name": "Ann", "hand": [hand]}, {"name": "Bo", "hand_size": 2}]}
    text = words(client.get("/ruling", query_string={"state": encode_state(table), "lang": "zh"}))
    assert all(s in text for s in says), [s for s in says if s not in text]
    assert not any(n in text for n in never), [n for n in never if n in text]


def test_every_phase_twin_has_its_key() -> None:
    twins = [k for k in ui_messages() if k.endswith("@phase")]
    assert twins and all(k.removesuffix("@phase") in ui_messages() for k in twins)
    # a twin counts in phases, or says what a Goal met wins: the cycle
    for key in twins:
        zh, en = ui_messages()[key]["zh"], ui_messages()[key]["en"]
        assert ("阶段" in zh or "周期" in zh) and ("phase" in en or "cycle" in en), key


# --- moves that say what they do ---------------------------------------------------------------

def test_two_moves_of_one_card_say_what_each_does(client) -> None:
    """War's free action, Peace to Bo or to Cy: two buttons, each naming the Keeper and where it
    goes, in both languages (and in the command line's view)."""
    from adjudicator.referee.ruling import ruling_for, ruling_text
    from adjudicator.web.pages.forms import encode_state
    from tests.web.ui_pages import html
    table = {"expansions": ["creepers"], "active": "Ann", "turn": {"drawn": 1},
             "players": [{"name": "Ann", "hand": ["Draw 2"], "creepers": ["War"],
                          "keepers": ["Peace"]},
                         {"name": "Bo", "hand_size": 1}, {"name": "Cy", "hand_size": 1}]}
    want = {"zh": ["自由行动「战争」：把「和平」交给 Bo", "自由行动「战争」：把「和平」交给 Cy"],
            "en": ["free action: War (give Peace to Bo)", "free action: War (give Peace to Cy)"]}
    for lang, labels in want.items():
        page = html(client.get("/ruling", query_string={"state": encode_state(table),
                                                        "lang": lang}))
        buttons = re.findall(r'class="whatif move-button"[^>]*>(.*?)</button>', page)
        assert [b for b in buttons if "War" in b or "战争" in b] == labels
    text = ruling_text(ruling_for(parse_state(table)), "zh")
    assert "  - Ann：自由行动「战争」：把「和平」交给 Bo" in text.split("\n")


def test_chinese_small_labels_are_at_least_0_8rem() -> None:
    """Card-type labels (.68rem for Latin capitals) are too small for Chinese characters."""
    css = ROOT / "adjudicator" / "web" / "static" / "css" / "app.css"
    rule = re.search(r"((?::lang\(zh\) [^,{]+,\s*)*:lang\(zh\) [^,{]+)\{([^}]*)\}",
                     re.sub(r"/\*.*?\*/", "", css.read_text(encoding="utf-8"), flags=re.S))
    assert rule and ".card-type" in rule.group(1)
    size = float(re.search(r"font-size:\s*([.\d]+)rem", rule.group(2)).group(1))
    assert size >= 0.8


def test_no_chinese_finding_chains_three_colons() -> None:
    """The densest findings read as a player would say them: no text strings three clauses
    together with colons (「现在不是Bo的回合，Bo的手牌有5张，超过上限（3张），须立刻弃掉2张。」)."""
    dense = {k: v["zh"] for k, v in messages().items() if v["zh"].count("：") >= 3}
    assert not dense, dense
