"""The seed parsers: FAQ entries and rulebook sections, pinned to the seeds' own text."""

from __future__ import annotations

import pytest

from adjudicator.knowledge.faq_seed import parse_faq_002, parse_faq_004
from adjudicator.knowledge.rulebook_seed import (
    EN_ONLY_ANCHORS,
    ZH_ANCHORS,
    parse_glossary,
    parse_rulebook_000,
    parse_rulebook_004,
)
from adjudicator.knowledge.store import seed_text

# The first five words of every answer, in seed order (ids 002-01 ... 002-77, 004-q1 ... q6).
FIRST_WORDS = {
    "002-01": 'When someone counters your Play',
    "002-02": 'Yes, the unattached Creeper will',
    "002-03": 'No, using any special powers',
    "002-04": 'On your turn, you can',
    "002-05": 'Well you can… just not',
    "002-06": 'Yes, you must finish drawing',
    "002-07": 'When those cards are returned',
    "002-08": 'Each benefit has it’s own',
    "002-09": 'To recap, the Action Rotate',
    "002-10": 'To refresh, in Fantasy Fluxx,',
    "002-11": 'Magic Ring? What Magic Ring?',
    "002-12": 'This is specifically mentioned in',
    "002-13": 'No, you cannot. In most',
    "002-14": 'Though an Invisible player is',
    "002-15": 'Playing the Ring to the',
    "002-16": 'While your Invisible Keepers are',
    "002-17": 'Those methods of getting rid',
    "002-18": 'No, the Surprise you draw',
    "002-19": 'You must finish distributing all',
    "002-20": 'TLDR: no, they may not.',
    "002-21": 'If you have only one',
    "002-22": 'Although the attachment of attaching',
    "002-23": '“On your turn” means every',
    "002-24": 'This is VERY good question,',
    "002-25": 'You are correct: when we',
    "002-26": 'We here at Looney Labs',
    "002-27": 'Yes. Of course, you /',
    "002-28": 'No. You could move the',
    "002-29": 'It goes into your hand.',
    "002-30": 'If you are Invisible when',
    "002-31": 'This is a tricky case,',
    "002-32": 'To refresh, if you use',
    "002-33": 'TLDR: Officially, no… BUT, when',
    "002-34": 'Double Agenda allows there to',
    "002-35": 'Some versions of the rules',
    "002-36": 'No, once you’ve attached an',
    "002-37": 'No, the Creeper does not',
    "002-38": 'Yup. The same would apply',
    "002-39": 'Yes. In these cases, since',
    "002-40": 'The card Play All But',
    "002-41": 'The clear answer is that',
    "002-42": 'While one of the most',
    "002-43": 'If you are the active',
    "002-44": 'In order to take the',
    "002-45": 'No, none of the regular',
    "002-46": 'No. The instructions on Get',
    "002-47": 'It’s true, the Creeper card',
    "002-48": 'Cards (Actions) that end your',
    "002-49": 'We’re very careful not to',
    "002-50": 'Those are not considered “Actions”',
    "002-51": 'Well, it all depends how',
    "002-52": 'No. Surprises can only be',
    "002-53": 'Whoever caused it to go',
    "002-54": 'The short answer is that',
    "002-55": 'There are many analogues to',
    "002-56": 'The wording on Let’s Simplify',
    "002-57": 'No. (If that were the',
    "002-58": 'Yes, you can chain Keeper/Item',
    "002-59": 'You may notice that Attaching',
    "002-60": 'You could certainly put either',
    "002-61": 'When you play an Action',
    "002-62": 'You can use the counter-Surprise',
    "002-63": 'The No-Hand Bonus states: “Draw',
    "002-64": 'Since the cards drawn for',
    "002-65": 'Yes. (Note that if you',
    "002-66": 'No. Hand and Keeper Limits',
    "002-67": 'Creeper cards say “You can’t',
    "002-68": 'No. That’s the whole point',
    "002-69": 'There is no reason Surprises',
    "002-70": 'If you use the Surprise',
    "002-71": 'Yes, you can use a',
    "002-72": 'No. If the surprise were',
    "002-73": 'No, not if they are',
    "002-74": 'If there is an empty',
    "002-75": 'First of all, only for',
    "002-76": 'You are correct, your friends',
    "002-77": 'No. There is no limit',
    "004-q1": "If you're winning using Math,",
    "004-q2": 'Yes, exponentiation (or roots) are',
    "004-q3": "Yes, if you're not using",
    "004-q4": 'The normal way to win',
    "004-q5": 'You may only create ONE',
    "004-q6": 'Keeper arrangement on the table',
}


@pytest.fixture(scope="module")
def entries():
    return parse_faq_002(seed_text("002")) + parse_faq_004(seed_text("004"))


def test_faq_counts(entries):
    assert len([e for e in entries if e.seed == "002"]) == 77
    assert len([e for e in entries if e.seed == "004"]) == 6


def test_faq_ids_in_order(entries):
    assert [e.id for e in entries] == list(FIRST_WORDS)


@pytest.mark.parametrize("entry_id", list(FIRST_WORDS))
def test_faq_first_words(entries, entry_id):
    entry = next(e for e in entries if e.id == entry_id)
    assert " ".join(entry.answer.split()[:5]) == FIRST_WORDS[entry_id]


def test_every_answer_is_the_seed_text(entries):
    text = seed_text("002")
    for entry in entries:
        if entry.seed == "002":
            assert entry.answer in text  # verbatim, not rewritten
        assert not entry.answer.startswith("A:")
        assert "Back To Top" not in entry.answer


def test_separators_and_answers_agree():
    # 76 separators and 77 answers: one block holds a second pair ("Secondary Q:")
    text = seed_text("002")
    assert text.count("Back To Top") == 76
    assert sum(line.startswith("A:") for line in text.splitlines()) == 77


def test_question_fragments_kept(entries):
    by_id = {e.id: e for e in entries}
    assert by_id["002-01"].question_seed is None
    assert by_id["002-08"].question_seed.startswith("… For example, in Fantasy Fluxx")
    assert by_id["002-51"].fragments[0] == "…Example:"
    assert by_id["002-74"].question_seed.startswith("Or can it replace the single Goal")
    assert by_id["002-63"].question_seed.startswith("If I qualify for drawing three cards")
    assert by_id["002-64"].question_seed.startswith("Secondary Q: So if I increase the Draw")
    assert by_id["002-64"].answer.startswith("Since the cards drawn for the No-Hand bonus")
    assert "Secondary Q" not in by_id["002-63"].answer


def test_math_faq_questions(entries):
    math = [e for e in entries if e.seed == "004"]
    assert [e.id for e in math] == [f"004-q{n}" for n in range(1, 7)]
    assert math[0].question_seed.startswith("So, in Math Fluxx, does it have to be my turn")
    assert math[5].question_seed == "Does the order of your Keepers on the table matter?"


def test_rulebook_000_sections():
    sections = parse_rulebook_000(seed_text("000"))
    assert [s.anchor for s in sections] == list(ZH_ANCHORS.values())
    by_anchor = {s.anchor: s for s in sections}
    assert by_anchor["setup"].text_zh.startswith("将基本规则卡放在桌子中央")
    assert by_anchor["each-turn"].text_zh.splitlines()[0] == "1)抓当前规则规定数目的牌"
    assert by_anchor["basic-rules"].parent == "card-types"
    assert by_anchor["winning"].text_zh.startswith("游戏进行到有人达成当前目标卡上的条件为止")
    # translator's notes are kept apart from the rules text
    note = by_anchor["each-turn"].notes[0]
    assert note.zh.startswith("根据某一个FAQ") and note.en
    assert "译者注" not in by_anchor["each-turn"].text_zh
    assert "[" not in by_anchor["keepers"].text_zh
    assert by_anchor["keepers"].notes[0].zh.startswith("这只是就Fluxx本身来说的")


def test_rulebook_004_sections():
    english = parse_rulebook_004(seed_text("004"))
    for anchor in EN_ONLY_ANCHORS:
        assert english[anchor].text_en, anchor
    assert english["turn-sequence"].text_en.startswith("- Draw the number of cards")
    assert english["goal-card"].text_en.startswith("Goals indicate which Keepers")
    assert english["example-keeper-first"].text_en.startswith("Suppose your hand contains")
    assert english["dropping-out"].text_en.startswith("Players can exit the game")
    assert english["math-rules"].text_en.startswith("Players do not win by matching")
    assert "Card List" not in english["dropping-out"].text_en


def test_glossary():
    terms = parse_glossary(seed_text("000"))
    assert len(terms) == 11
    pairs = {(t.en, t.zh_term) for t in terms}
    assert ("Creeper", "陷阱") in pairs
    assert ("Hand Limit", "手牌上限") in pairs
    assert {t.group for t in terms} == {"卡片类型", "卡片术语"}
