"""Text helpers for search: Chinese segmentation and the Chinese -> English query vocabulary.

Chinese has no spaces, so the index stores Chinese text pre-segmented by jieba (words joined by
spaces) and queries are segmented the same way. Card names and glossary terms are added to
jieba's dictionary so that "无手牌奖励" stays one word on both sides.

Most of the corpus (the whole official FAQ) exists only in English, so a Chinese query is also
translated term by term into English through the bilingual card names, the seed's glossary and a
small vocabulary of common rules words (`RULE_WORDS`, the project's own translation).
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

import jieba

jieba.setLogLevel(logging.WARNING)

CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff0-9]+")
_WORD = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)?")

# Common rules words the glossary and card names do not cover (the project's own translation).
# Only words a player would type when asking about a rule; each maps to the FAQ's English.
RULE_WORDS: dict[str, str] = {
    "手牌": "hand",
    "抓牌": "draw",
    "摸牌": "draw",
    "抽牌": "draw",
    "出牌": "play",
    "弃牌": "discard",
    "弃掉": "discard",
    "弃牌堆": "discard pile",
    "牌库": "draw pile",
    "洗牌": "shuffle",
    "回合": "turn",
    "轮": "turn",
    "胜利": "win",
    "获胜": "win",
    "赢": "win",
    "平局": "tie",
    "上限": "limit",
    "奖励": "bonus",
    "惊喜": "surprise",
    "惊喜卡": "surprise",
    "意外卡": "surprise",
    "附着型陷阱": "attaching creeper",
    "抓到": "draw",
    "再抓": "draw another",
    "替换": "replace",
    "冲突": "contradict",
    "矛盾": "contradict",
    "取代": "replace",
    "补一张": "replace",
    "陷阱卡": "creeper",
    "附着": "attach",
    "依附": "attach",
    "免费行动": "free action",
    "自由行动": "free action",
    "额外": "extra",
    "取消": "cancel",
    "抵消": "cancel",
    "反制": "counter",
    "目标卡": "goal",
    "规则卡": "rule",
    "规则": "rule",
    "元规则": "meta rule",
    "所有物卡": "keeper",
    "行动卡": "action",
    "新规则卡": "new rule",
    "玩家": "player",
    "对手": "opponent",
    "数字": "number",
    "数学": "math",
    "加入": "join",
    "退出": "drop out",
    "重新分配": "redistribute",
    "分配": "deal",
    "发牌": "deal",
    "偷": "steal",
    "交换": "exchange",
    "结束": "end",
    "立刻": "immediately",
    "随机": "random",
    "顺序": "order",
    "方向": "direction",
    "子手牌": "sub hand",
    "隐形": "invisible",
    "能力": "power",
    "两个": "two",
    "两人": "two",
    "摆放": "arrangement",
    "排列": "arrangement",
    "有关系": "matter",
    "开始": "start",
    "第一": "first",
    "先手": "goes first",
    "先行动": "goes first",
    "谁先": "goes first",
    "最后": "final",
    "阶段": "phase",
    "特殊能力": "special power",
    "计算": "compute",
    "乘方": "exponentiation",
    "次方": "power",
    "指数": "exponent",
    "打出": "play",
    "算不算": "count",
    "算作": "count",
    "计入": "count",
    "换一张": "different card",
    "另一张": "different card",
    "组合": "combine",
    "两位数": "two digit number",
    "限制": "limit",
    "数量": "number",
}

# Chinese function words: segmented out of queries but never searched for.
ZH_STOPWORDS = frozenset(
    """的 了 吗 呢 吧 啊 是 在 我 你 他 她 它 们 我们 你们 能 能否 还 还能 会
    要 被 把 对 让 和 与 或 就 都 也 这 那 这个 那个 哪 哪个 什么 怎么 怎么办
    怎样 如何 为什么 有 没有 时 时候 算 不算 算不算 一 张 一张 个 是否 可以
    可不可以 能不能 应该 如果 那么 然后 之后 之前 用 使用""".split()
)

# Words too common to rank anything (English side of OR queries): function words, the words a
# player wraps a question in ("does it still happen if I just ...") that say nothing about the
# rules asked about, and "game", which every question here is about.
STOPWORDS = frozenset(
    """a an and are as at be but by can could do does for from has have how i if in into is it
    its me my of on or so that the their them then there these they this to was we what when
    where which who will with would you your
    am been being between did doing had may might must shall should
    also already anyway even ever just really still
    get gets got getting happen happens happened happening
    that's it's what's there's i'm i've i'd i'll game games""".split()
)


def normalize(name: str) -> str:
    """A card reference reduced for comparison: case, punctuation and spacing ignored."""
    text = unicodedata.normalize("NFKC", name).casefold()
    return "".join(ch for ch in text if ch.isalnum())


def has_cjk(text: str) -> bool:
    return CJK.search(text) is not None


class Segmenter:
    """jieba with the project's vocabulary (card names, glossary terms) added as whole words."""

    def __init__(self, words: Iterable[str]) -> None:
        self._jieba = jieba.Tokenizer()
        self._jieba.initialize()
        for word in sorted(set(words)):
            if has_cjk(word):
                self._jieba.add_word(word, freq=200000)

    def words(self, text: str) -> list[str]:
        """The Chinese words of `text` (search granularity: long words and their parts)."""
        out: list[str] = []
        for run in _CJK_RUN.findall(text):
            if not has_cjk(run):
                continue
            for word in self._jieba.cut_for_search(run):
                if word.strip() and has_cjk(word):
                    out.append(word)
        return out

    def segment(self, text: str | None) -> str:
        """Chinese text as space-separated words, ready for a unicode61 full-text index."""
        return " ".join(self.words(text or ""))


@lru_cache(maxsize=8)
def segmenter(vocabulary: tuple[str, ...]) -> Segmenter:
    return Segmenter(vocabulary)


def english_terms(text: str) -> list[str]:
    """The English words of a query, lower case, without stopwords."""
    return [w.lower() for w in _WORD.findall(text) if w.lower() not in STOPWORDS]


def replace_words(text: str, words: dict[str, str]) -> str:
    """`text` with each English word (as `english_terms` splits them) that `words` maps, in
    lower case, replaced by its mapping; the rest of the text as it was."""
    return _WORD.sub(lambda m: words.get(m.group(0).lower(), m.group(0)), text)


def translate_zh(query: str, lexicon: dict[str, str]) -> tuple[list[tuple[str, str]], str]:
    """(Chinese term, English) for the terms of `query`, longest match first, and what is left.

    `lexicon` maps Chinese terms (card names, glossary, RULE_WORDS) to English. Matched terms are
    cut out of the query, so "无手牌奖励" yields "No-Hand Bonus" and not also "hand" and "bonus".
    """
    found: list[tuple[str, str]] = []
    rest = unicodedata.normalize("NFKC", query)
    for zh in sorted(lexicon, key=len, reverse=True):
        if zh in rest:
            found.append((zh, lexicon[zh]))
            rest = rest.replace(zh, " ")
    return found, rest
