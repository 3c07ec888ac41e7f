"""Full-text search over FAQ entries, rulebook sections and cards, in English and Chinese.

The query becomes one FTS5 OR-expression (bm25 rewards documents that match more of it):
- its English words (stemmed by the index's porter tokenizer), and the whole English phrase;
- its Chinese words, segmented by jieba exactly as the index was;
- English phrases for its Chinese terms, through the store's lexicon (card names, glossary, common
  rules words), so a Chinese question finds the English-only FAQ answers.

An FAQ entry's Chinese answer is a row of its own in the index, joined to its entry before the
ranking (`_join_pieces`), so that its length weighs nothing against an English query.

Ranking: bm25 weighs titles, card names and the FAQ entries' questions above body text. The
candidates are then re-ranked: a document whose title or linked card names contain a whole
phrase of the query gains (PHRASE_BOOST), as does one whose title holds more of the query's
parts (TITLE_COVERAGE); one that covers more of the query's parts (words, translated terms, card
names) anywhere keeps more of its score (COVERAGE_FLOOR); and a card the query does not name
gives way to the FAQ and rulebook passages that discuss it (CARD_UNNAMED). English words that
only frame a question ("does it still happen", "in a game") are stop words (text.STOPWORDS).
A query that is a source id ("002-63", "faq:004-q2", "setup", "card:math/draw_2") puts that
source first.

An `edition` narrows every kind that belongs to one: cards to that catalog's printings, FAQ
entries to those the annotations place in that game (`faq_editions`); rulebook passages are the
rules of every edition and always stay.

Spelling: an English word of the query that matches nothing in the index ("inflaton") is
replaced by the closest word of the store's `vocabulary` (difflib's ratio, at least
SPELL_CUTOFF), and `find` says which query it searched for ("inflation").

`find` also counts the matches: `total` is the number of results there are in all, however
many `limit` lets through (a card printed in several editions counted once, as it is shown).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlite_utils

from ..cards.catalog import EXPANSIONS
from ..errors import InputError, error
from .store import CATALOG_NAMES as EDITION_ORDER
from .store import FTS_COLUMNS, open_db, recorded_fingerprint
from .text import (
    ZH_STOPWORDS,
    english_terms,
    has_cjk,
    normalize,
    replace_words,
    segmenter,
    translate_zh,
)

KINDS = ("faq", "rulebook", "card")
# Characters of a query, for every caller (the API, the CLI): a longer text is no question, and
# each extra word adds an OR-term for FTS to rank for nothing.
MAX_QUERY = 500
# bm25 weights for FTS_COLUMNS: f_title, f_names, f_en, f_zh, f_tags, f_question. A player's
# question is worded like an entry's (restated) question far more than like its answer.
WEIGHTS = (6.0, 3.0, 1.0, 1.0, 1.5, 4.0)
PHRASE_BOOST = 0.5  # per whole query phrase found in a title or card name
# A title that holds every part of the query gains this much, one that holds some of them its
# share: the title says what an entry is about, where a long answer mentions much in passing.
TITLE_COVERAGE = 0.5
COVERAGE_FLOOR = 0.3  # score share kept by a document that matches none of the query's parts
POOL = 300  # bm25 candidates re-ranked; fixed, so a result's rank does not depend on `limit`
CARD_UNNAMED = 0.5  # score share kept by a card the query does not name
# A word the index does not know is replaced by a vocabulary word at least this close (difflib's
# ratio): "inflaton", "infaltion" and "jackpt" are 0.89 to 0.94 from their words, while two
# different words of the rules rarely come above 0.8.
SPELL_CUTOFF = 0.8
SPELL_MIN = 4  # shorter words have too many close neighbours to guess which one was meant
# Words respelled per query at most: each is compared with the whole vocabulary, and a question
# with more unknown words than this is noise, not a typo.
SPELL_MAX = 8
# One result per thing shown: a card by its id (its printings are grouped), the rest by source id.
_RESULT_KEY = ("case when docs.kind = 'card' then 'card:' || docs.ref"
               " else docs.source_id end")
if len(WEIGHTS) != len(FTS_COLUMNS):
    raise RuntimeError("search.WEIGHTS must give one weight per store.FTS_COLUMNS column")


@dataclass
class Query:
    """A user query taken apart for the index."""

    text: str
    en_words: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)  # English phrases (typed or translated)
    translated: list[str] = field(default_factory=list)  # English for the Chinese terms
    zh_words: list[str] = field(default_factory=list)  # Chinese words left after translation
    zh_terms: list[str] = field(default_factory=list)  # Chinese terms that were translated
    names: list[str] = field(default_factory=list)  # English card names the query contains
    pairs: list[tuple[str, str]] = field(default_factory=list)  # (Chinese term, English)

    def needles(self) -> list[str]:
        """What to look for in raw text when cutting a snippet, most specific first."""
        return [*self.zh_terms, *self.translated, *self.zh_words, *self.phrases, *self.en_words]

    def concepts(self) -> list[list[list[str]]]:
        """The query's parts for coverage: each part is met by any of its alternatives, and an
        alternative by all of its words (a translated term: its English words or the Chinese)."""
        out = [[english_terms(en), [zh]] for zh, en in self.pairs]
        out += [[_name_words(name)] for name in self.names]
        out += [[[w]] for w in [*self.en_words, *self.zh_words]]
        return [[alt for alt in c if alt] for c in out if any(c)]

    def fts(self) -> str:
        terms: list[str] = []
        for phrase in [*self.phrases, *self.translated, *self.names]:
            # a name of stop words only ("Get On With It") is still searched as a phrase
            spelled = re.findall(r"\w+", phrase.lower())
            if len(spelled) > 1:
                terms.append(_quote(" ".join(spelled)))
            terms.extend(_quote(w) for w in english_terms(phrase))
        terms.extend(_quote(w) for w in self.en_words)
        terms.extend(_quote(w) for w in [*self.zh_terms, *self.zh_words])
        return " OR ".join(dict.fromkeys(t for t in terms if t != '""'))


@dataclass
class Found:
    """What a search found: the best `results` (at most the limit asked for), the number of
    results there are in all (`total`), and the query as searched (`corrected`) when words of
    it were respelled, else None."""

    results: list[dict[str, Any]]
    total: int = 0
    corrected: str | None = None


def _name_words(name: str) -> list[str]:
    """The words a card name is recognised by: its words beyond the stop words, or all of them
    for a name made of stop words ("Get On With It")."""
    return english_terms(name) or re.findall(r"\w+", name.lower())


def _quote(term: str) -> str:
    return '"' + term.replace('"', " ").strip() + '"'


def _lexicon(db: sqlite_utils.Database) -> dict[str, str]:
    return {row["zh"]: row["en"] for row in db["lexicon"].rows}


def parse_query(text: str, db: sqlite_utils.Database) -> Query:
    query = Query(text)
    if has_cjk(text):
        lexicon = _lexicon(db)
        translated, rest = translate_zh(text, lexicon)
        query.translated = list(dict.fromkeys(en for _, en in translated))
        query.zh_terms = [zh for zh, _ in translated]
        query.pairs = translated
        query.names = _card_names_in(rest, db)
        seg = segmenter(tuple(sorted(lexicon)))
        words = seg.words(rest)
        # one-character words are mostly particles; longer words carry the meaning
        query.zh_words = list(dict.fromkeys(
            w for w in words if len(w) > 1 and w not in ZH_STOPWORDS))
        query.en_words = english_terms(rest)
        if len(query.en_words) > 1:
            query.phrases.append(" ".join(query.en_words))
    else:
        query.en_words = list(dict.fromkeys(english_terms(text)))
        plain = " ".join(re.findall(r"[A-Za-z0-9']+", text))
        if len(plain.split()) > 1:
            query.phrases.append(plain)
        query.names = _card_names_in(text, db)
    return query


def check_query_length(text: str, path: str = "/q") -> None:
    """Refuse a query longer than MAX_QUERY (the same words for the API and the CLI)."""
    if len(text) > MAX_QUERY:
        raise InputError(error(path, "query_too_long", max=MAX_QUERY))


def faq_editions(edition: str) -> tuple[str, ...]:
    """The FAQ annotations' edition ids that place an entry in the game of `edition`.

    The annotations call the rulebook deck with its Creepers and Surprises "fluxx" (see the
    `edition_labels` table), so an expansion's entries are the ones placed in "fluxx".
    """
    return (edition, "fluxx") if edition in EXPANSIONS else (edition,)


def faq_edition_clause(edition: str, table: str = "faq",
                       prefix: str = "fe") -> tuple[str, dict[str, str]]:
    """SQL that keeps the FAQ rows (of `table`) in `edition`'s game, and its named parameters.

    An entry the annotations tie to no edition (`[]`) is a general one: it stays everywhere.
    """
    ids = faq_editions(edition)
    names = [f"{prefix}{i}" for i in range(len(ids))]
    clause = (f"(coalesce(json_array_length({table}.editions), 0) = 0"
              f" or exists (select 1 from json_each({table}.editions)"
              f" where value in ({', '.join(':' + n for n in names)})))")
    return clause, dict(zip(names, ids, strict=True))


def _edition_where(edition: str) -> tuple[str, dict[str, str]]:
    """SQL over `docs` for an edition filter: its cards only, FAQ entries of its game only,
    every rulebook passage (the rulebook is the rules of every edition)."""
    faq_clause, params = faq_edition_clause(edition)
    clause = ("(docs.kind not in ('card', 'faq')"
              " or (docs.kind = 'card' and docs.edition = :edition)"
              " or (docs.kind = 'faq' and exists (select 1 from faq where faq.id = docs.ref"
              f" and {faq_clause})))")
    return clause, {"edition": edition, **params}


def _card_names_in(text: str, db: sqlite_utils.Database) -> list[str]:
    """The multi-word English card names that a query spells out ("get on with it")."""
    said = " " + " ".join(re.findall(r"\w+", text.lower())) + " "
    found = []
    for (name,) in db.execute("select distinct name_en from cards where name_en like '% %'"):
        words = " ".join(re.findall(r"\w+", name.lower()))
        if f" {words} " in said:
            found.append(name)
    return found


def search(
    query: str,
    limit: int = 10,
    kinds: Sequence[str] | None = None,
    db: sqlite_utils.Database | None = None,
    edition: str | None = None,
) -> list[dict[str, Any]]:
    """The best matches for `query`, best first: id, kind, ref, title {en, zh}, snippet, url, score.

    `kinds` restricts to "faq", "rulebook" and/or "card"; `edition` keeps that catalog's cards
    and the FAQ entries of its game (rulebook passages always stay). `find` also says how many
    matches there are and which query was searched.
    """
    return find(query, limit, kinds, db, edition).results


def find(
    query: str,
    limit: int = 10,
    kinds: Sequence[str] | None = None,
    db: sqlite_utils.Database | None = None,
    edition: str | None = None,
    within: Collection[str] | None = None,
) -> Found:
    """`search`'s results with their total and the respelled query (`Found`).

    `within` (refs: FAQ entry ids, rulebook anchors, card ids) keeps only those sources: the
    FAQ filters of `queries.faq_search`, applied before counting so the total stays true.
    """
    if db is None:
        db = open_db()
        try:
            return find(query, limit, kinds, db, edition, within)
        finally:
            db.close()
    text = query or ""
    respelled, fixes = correct_spelling(text, db)
    corrected = respelled if fixes else None
    if limit < 1:
        return Found([], 0, corrected)
    parsed = parse_query(respelled, db)
    expression = parsed.fts()
    if not expression:
        return Found([], 0, corrected)
    where = ["docs_fts match :q"]
    params: dict[str, Any] = {"q": expression, "n": max(limit * 4, POOL)}
    if kinds is not None:
        names = [k for k in kinds if k in KINDS]
        if not names:
            return Found([], 0, corrected)
        where.append(f"docs.kind in ({', '.join(f':k{i}' for i in range(len(names)))})")
        params.update({f"k{i}": k for i, k in enumerate(names)})
    if edition:
        clause, extra = _edition_where(edition)
        where.append(clause)
        params.update(extra)
    if within is not None:
        where.append("docs.ref in (select value from json_each(:within))")
        params["within"] = json.dumps(list(within))
    weights = ", ".join(str(w) for w in WEIGHTS)
    matched = f"from docs_fts join docs on docs.rowid = docs_fts.rowid where {' and '.join(where)}"
    sql = f"select docs.*, bm25(docs_fts, {weights}) as rank {matched} order by rank limit :n"
    rows = _join_pieces([dict(r) for r in _rows(db, sql, params)])
    # the count runs apart from the ranking: the ranked rows stop at the pool, the count must not
    keys = {key for (key,) in db.execute(f"select distinct {_RESULT_KEY} {matched}", params)}
    direct = _direct_hit(text, db, kinds, edition, within)
    concepts = parsed.concepts()
    for row in rows:
        row["score"] = (-row["rank"]
                        * (1.0 + _boost(row, parsed)
                           + TITLE_COVERAGE * _coverage(row, concepts, ("f_title",)))
                        * (COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * _coverage(row, concepts))
                        * _card_factor(row, parsed))
    # best first; ties in a stable order (the rulebook deck's printing first)
    rows.sort(key=lambda r: (-round(r["score"], 6), r["edition"] != "fluxx", r["source_id"]))
    # a card printed in several editions shows once, at its best rank, as its preferred
    # printing (rulebook deck first), with the other editions listed
    printings: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        if row["kind"] == "card":
            printings.setdefault(row["ref"], []).append(row)
    results: list[dict[str, Any]] = []
    for row in rows:
        if row["kind"] == "card":
            group = printings.pop(row["ref"], None)
            if group is None:
                continue  # shown already
            # the edition asked for first (the where-clause already keeps only its printings;
            # this keeps the shown printing right should a group ever mix editions)
            best = min(group, key=lambda r: (
                r["edition"] != edition if edition else False,
                EDITION_ORDER.index(r["edition"]) if r["edition"] in EDITION_ORDER
                else len(EDITION_ORDER)))
            result = _result(dict(best, score=row["score"]), parsed)
            result["other_editions"] = [r["edition"] for r in group if r is not best]
        else:
            result = _result(row, parsed)
        results.append(result)
    if direct is not None:
        # the source named stands for its whole group: a card named by one printing's id
        # replaces the grouped card rather than showing beside it
        results = [r for r in results if _key(r) != _key(direct)]
        direct["score"] = round((results[0]["score"] if results else 0.0) + 1.0, 4)
        results.insert(0, direct)
        keys.add(_key(direct))
    return Found(results[:limit], len(keys), corrected)


def _key(result: dict[str, Any]) -> str:
    """A result's `_RESULT_KEY`."""
    return f"card:{result['ref']}" if result["kind"] == "card" else result["id"]


# --- spelling -------------------------------------------------------------------------------

_VOCABULARY: dict[str, dict[str, int]] = {}  # the store's fingerprint -> its vocabulary


def _vocabulary(db: sqlite_utils.Database) -> dict[str, int]:
    """The store's `vocabulary` table (word -> documents holding it), read once per store."""
    stamp = recorded_fingerprint(db) or ""
    words = _VOCABULARY.get(stamp)
    if words is None:
        words = dict(db.execute("select term, docs from vocabulary").fetchall())
        _VOCABULARY.clear()  # one store at a time: a rebuilt store replaces the old words
        _VOCABULARY[stamp] = words
    return words


def _in_index(word: str, db: sqlite_utils.Database) -> bool:
    """Whether the full-text index matches `word` (stemmed as the index stems it)."""
    found = db.execute("select 1 from docs_fts where docs_fts match ? limit 1", [_quote(word)])
    return found.fetchone() is not None


def correct_spelling(text: str, db: sqlite_utils.Database) -> tuple[str, dict[str, str]]:
    """`text` with each English word the index does not match replaced by the closest word of
    the store's vocabulary, and the replacements made ({typed: used}, lower case).

    Only words of letters, SPELL_MIN long or more, that match no document are respelled (the
    first SPELL_MAX of them): a word the index knows is never second-guessed, and a word with no
    word close enough stays as typed. Among equally close words the one more documents use wins.
    """
    candidates = [w for w in dict.fromkeys(english_terms(text))
                  if len(w) >= SPELL_MIN and w.isascii() and w.isalpha()]
    unknown = [w for w in candidates[:SPELL_MAX * 4] if not _in_index(w, db)][:SPELL_MAX]
    if not unknown:
        return text, {}
    vocabulary = _vocabulary(db)
    fixes: dict[str, str] = {}
    for word in unknown:
        close = difflib.get_close_matches(word, vocabulary, n=3, cutoff=SPELL_CUTOFF)
        if close:
            fixes[word] = max(close, key=lambda c: (
                round(difflib.SequenceMatcher(None, word, c).ratio(), 6), vocabulary[c]))
    return (replace_words(text, fixes) if fixes else text), fixes


_ENTRY_ID = re.compile(r"\d{3}-(?:\d{2}|q\d)")


def _direct_hit(text: str, db: sqlite_utils.Database, kinds: Sequence[str] | None,
                edition: str | None = None,
                within: Collection[str] | None = None) -> dict[str, Any] | None:
    """A query that is a source id ("faq:002-63", "002-63", "rulebook:setup", "setup",
    "card:math/draw_2") puts that source first, unless `edition` filters it out: "love" in
    Math Fluxx must not bring back the rulebook deck's Love."""
    text = text.strip()
    if not text or " " in text:
        return None
    ids = [text]
    if _ENTRY_ID.fullmatch(text):
        ids.append(f"faq:{text}")
    elif ":" not in text:
        ids.extend([f"rulebook:{text}", f"card:{text}"])
        if edition:  # a card of another catalog is named card:<edition>/<id>
            ids.append(f"card:{edition}/{text}")
    params: dict[str, Any] = {f"id{i}": value for i, value in enumerate(ids)}
    sql = f"select * from docs where source_id in ({', '.join(':' + k for k in params)})"
    if edition:
        clause, extra = _edition_where(edition)
        sql += f" and {clause}"
        params.update(extra)
    row = next(iter(_rows(db, sql, params)), None)
    if row is None or (kinds and row["kind"] not in kinds):
        return None
    if within is not None and row["ref"] not in within:
        return None
    result = _result(dict(row, score=0.0), Query(text))
    if row["kind"] == "card":
        result["other_editions"] = []
    return result


def _join_pieces(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per source: an FAQ entry's Chinese answer, indexed as a row of its own (see
    store._index), gives the entry its rank where it ranks better (not the sum: a card's name
    said ten times in a long answer would outrank the card itself) and its Chinese words for
    the coverage; alone, it stands for the entry (it carries the entry's titles, link and
    texts)."""
    out: list[dict[str, Any]] = []
    by_source: dict[str, dict[str, Any]] = {}
    for row in rows:
        seen = by_source.get(row["source_id"])
        if seen is None:
            by_source[row["source_id"]] = row
            out.append(row)
        elif row["kind"] == "faq":
            seen["rank"] = min(seen["rank"], row["rank"])  # bm25: lower is better
            seen["f_zh"] = "\n".join(t for t in (seen["f_zh"], row["f_zh"]) if t)
        else:
            out.append(row)  # a card's printings share no source id; nothing else repeats
    return out


def _rows(db: sqlite_utils.Database, sql: str, params: dict[str, Any] | list) -> Iterable[dict]:
    cursor = db.execute(sql, params)
    columns = [c[0] for c in cursor.description]
    for values in cursor.fetchall():
        yield dict(zip(columns, values, strict=True))


def _boost(row: dict[str, Any], query: Query) -> float:
    """Extra weight for a whole query phrase (or Chinese card name) in a title or card names."""
    heads = f"{row['title_en'] or ''}\n{row['f_names'] or ''}".lower()
    heads_zh = f"{row['title_zh'] or ''}\n{row['f_names'] or ''}"
    boost = sum(PHRASE_BOOST for p in [*query.phrases, *query.names]
                if _contains_phrase(heads, p))
    boost += sum(PHRASE_BOOST / 2 for w in query.zh_words if len(w) > 1 and w in heads_zh)
    return boost


def _coverage(row: dict[str, Any], concepts: list[list[list[str]]],
              columns: Sequence[str] = FTS_COLUMNS) -> float:
    """The share of the query's parts that the document contains (stem-ish, in `columns`)."""
    if not concepts:
        return 1.0
    text = "\n".join(str(row.get(c) or "") for c in columns).lower()
    found = sum(
        any(all(_has_word(text, w) for w in alternative) for alternative in concept)
        for concept in concepts
    )
    return found / len(concepts)


def _has_word(text: str, word: str) -> bool:
    if has_cjk(word):
        return word in text
    stem = word if len(word) <= 4 else word[: max(4, len(word) - 3)]
    return re.search(r"\b" + re.escape(stem), text) is not None


def _card_factor(row: dict[str, Any], query: Query) -> float:
    """Cards rank on their own name: a query that names the card keeps full weight, a question
    that merely shares words with a card's text gives way to the FAQ and the rulebook."""
    if row["kind"] != "card":
        return 1.0
    names = [normalize(row["title_en"] or ""), normalize(row["title_zh"] or "")]
    said = normalize(query.text)
    named = any(n and n in said for n in names) or any(
        normalize(p) in names for p in query.translated)
    return 1.0 if named else CARD_UNNAMED


def _contains_phrase(text: str, phrase: str) -> bool:
    words = re.findall(r"\w+", phrase.lower())
    if not words:
        return False
    return re.search(r"\b" + r"\W+".join(map(re.escape, words)) + r"\b", text) is not None


def _result(row: dict[str, Any], query: Query) -> dict[str, Any]:
    return {
        "id": row["source_id"],
        "kind": row["kind"],
        "ref": row["ref"],
        "edition": row["edition"],
        "title": {"en": row["title_en"], "zh": row["title_zh"]},
        "snippet": snippet(row, query),
        "url": row["url"],
        "score": round(row["score"], 4),
    }


def snippet(row: dict[str, Any], query: Query, width: int = 220) -> str:
    """A window of the document's own text around the first thing the query names."""
    texts = [row.get("raw_zh"), row.get("raw_en")] if has_cjk(query.text) else [
        row.get("raw_en"), row.get("raw_zh")]
    texts = [t for t in texts if t]
    if not texts:
        return ""
    for text in texts:  # the query's language first
        for needle in query.needles():
            at = _find(text, needle)
            if at >= 0:
                return _window(text, at, width)
    return _window(texts[0], 0, width)


def _find(text: str, needle: str) -> int:
    if has_cjk(needle):
        return text.find(needle)
    words = re.findall(r"\w+", needle.lower())
    if not words:
        return -1
    # the stem-ish start of each word, so "drawing" finds "draw" and "draws"
    stems = [w if len(w) <= 4 else w[: max(4, len(w) - 3)] for w in words]
    match = re.search(r"\b" + r"\w*\W+".join(map(re.escape, stems)), text, re.I)
    return match.start() if match else -1


def _window(text: str, at: int, width: int) -> str:
    flat = " ".join(text.split())
    # positions move when whitespace collapses; recompute on the flat text
    at = len(" ".join(text[:at].split())) + (1 if at and text[at - 1].isspace() else 0)
    start = max(0, at - width // 4)
    if start:
        space = flat.rfind(" ", 0, start)
        start = space + 1 if space >= 0 and start - space < 20 else start
    end = min(len(flat), start + width)
    if end < len(flat):
        space = flat.find(" ", end)
        end = space if 0 <= space - end < 20 else end
    return ("…" if start else "") + flat[start:end].strip() + ("…" if end < len(flat) else "")
