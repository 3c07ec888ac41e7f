"""Parse the FAQ seeds into entries: seed 002 (the official Fluxx FAQ) and Math Fluxx's (004).

Seed 002 is a list of answers separated by lines reading `Back To Top`. Most answers lost their
question; where the seed kept some of it (lines before the answer's `A:` line, often starting with
`…`, `Example:` or `Or …`), that text is kept verbatim as the entry's question fragment.

One block holds two question/answer pairs (a "Secondary Q:" with its own `A:`): the seed has 76
separators but 77 answers, so that block yields two entries and the ids run 002-01 ... 002-77,
one per answer, in the seed's order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

FAQ_SEED = "002"
MATH_SEED = "004"

_SEPARATOR = re.compile(r"^Back To Top[ \t]*$", re.M)
_ANSWER = re.compile(r"^A:[ \t]*", re.M)
_SECONDARY = re.compile(r"^Secondary Q:", re.M)


@dataclass(frozen=True)
class FaqEntry:
    id: str  # "002-07", "004-q3"
    seed: str
    number: int  # position within its seed, from 1
    question_seed: str | None  # the question text the seed kept, verbatim, or None
    answer: str  # the answer text, verbatim, without the leading "A:" marker
    fragments: list[str] = field(default_factory=list)  # the question's lines, verbatim

    @property
    def source_id(self) -> str:
        return f"faq:{self.id}"

    @property
    def url(self) -> str:
        return f"/faq/{self.id}"


def _blocks(text: str) -> list[str]:
    """The non-empty blocks between `Back To Top` lines, each one question/answer pair."""
    blocks: list[str] = []
    for chunk in _SEPARATOR.split(text):
        if not chunk.strip():
            continue  # the seed ends with a separator: nothing follows it
        # A block with a "Secondary Q:" holds two pairs; split it before that line.
        cut = _SECONDARY.search(chunk)
        if cut and len(_ANSWER.findall(chunk)) > 1:
            blocks.extend([chunk[: cut.start()], chunk[cut.start() :]])
        else:
            blocks.append(chunk)
    return blocks


def _entry(seed: str, number: int, entry_id: str, block: str) -> FaqEntry:
    block = block.strip("\n")
    match = _ANSWER.search(block)
    if match is None:
        raise ValueError(f"FAQ seed {seed}: block {number} has no 'A:' answer line")
    question = block[: match.start()].strip()
    answer = block[match.end() :].strip()
    fragments = [line for line in question.splitlines() if line.strip()]
    return FaqEntry(entry_id, seed, number, question or None, answer, fragments)


def parse_faq_002(text: str) -> list[FaqEntry]:
    """The 77 entries of seed 002, ids 002-01 ... 002-77."""
    return [
        _entry(FAQ_SEED, n, f"{FAQ_SEED}-{n:02d}", block)
        for n, block in enumerate(_blocks(text), start=1)
    ]


_MATH_FAQ_HEADING = "Frequently Asked Questions"
_QA = re.compile(r"^Q:\s*(?P<q>.*?)\s+A:\s*(?P<a>.*)$")


def parse_faq_004(text: str) -> list[FaqEntry]:
    """The Q:/A: lines of the Math Fluxx FAQ (seed 004), ids 004-q1 ... 004-q6."""
    _, found, tail = text.partition(f"\n{_MATH_FAQ_HEADING}\n")
    if not found:
        raise ValueError(f"seed {MATH_SEED}: no '{_MATH_FAQ_HEADING}' heading")
    entries: list[FaqEntry] = []
    for line in tail.splitlines():
        match = _QA.match(line.strip())
        if match:
            n = len(entries) + 1
            q, a = match["q"], match["a"]
            entries.append(FaqEntry(f"{MATH_SEED}-q{n}", MATH_SEED, n, q, a, [q]))
    return entries
