"""`fluxx-adjudicator faq QUERY`: search the FAQ and the rulebook (English or Chinese)."""

from __future__ import annotations

import argparse
import json
import textwrap

from ..errors import InputError, error
from ..messages import pair

RELEVANCE = 0.3  # a match is shown when its score is at least this share of the best one


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("faq", help="search the FAQ and the rulebook (English or Chinese)")
    p.add_argument("query", nargs="+", help="words to look for, e.g. 无手牌奖励 or 'Trade Hands'")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--limit", type=int, default=5, help="matches per kind (default 5)")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="language of titles")
    p.set_defaults(func=run_faq)


def run_faq(args: argparse.Namespace) -> int:
    from ..knowledge import queries, store
    from ..knowledge.search import check_query_length, search

    query = " ".join(args.query).strip()
    if not query:
        raise InputError(error("/query", "query_empty"))
    # the API's limit (search.MAX_QUERY): the same question gets the same answer everywhere,
    # and an overlong one a clear error rather than "No matches"
    check_query_length(query, "/query")
    if not 1 <= args.limit <= 100:
        raise InputError(error("/limit", "faq_limit_range"))
    db = store.open_db()
    try:
        found = queries.faq_search(query, limit=args.limit, db=db)
        rules = search(query, limit=args.limit, kinds=["rulebook"], db=db)
    finally:
        db.close()
    faq = found.results
    # FAQ and rulebook scores share one scale: drop the matches far weaker than the best one,
    # so a rulebook question does not list FAQ entries that merely share a word with it
    best = max([h["score"] for h in [*faq, *rules]], default=0.0)
    faq = [h for h in faq if h["score"] >= RELEVANCE * best]
    rules = [h for h in rules if h["score"] >= RELEVANCE * best]
    if args.json:
        print(json.dumps({"ok": True, "query": query, "corrected": found.corrected, "faq": faq,
                          "rulebook": rules}, ensure_ascii=False, indent=2))
        return 0
    lang = args.lang
    if found.corrected:  # both searches respell alike: the one store vocabulary
        print(_both("corrected", q=found.corrected) + "\n")
    if not faq and not rules:
        print(_both("no_matches"))
        return 0
    print(f"{_both('faq_heading', ' · ')} ({len(faq)})")
    for hit in faq:
        _print_hit(hit["id"], hit["title"], hit.get("snippet") or hit["text"], hit["url"], lang)
        if hit["cards"]:
            names = ", ".join(f"{c['name']['en']} {c['name']['zh']}" for c in hit["cards"])
            print(f"    cards: {names}")
    print(f"\n{_both('rulebook_heading', ' · ')} ({len(rules)})")
    for hit in rules:
        _print_hit(hit["id"], hit["title"], hit["snippet"], hit["url"], lang)
    return 0


def _both(key: str, between: str = " ", **fields: str) -> str:
    """A line of messages/text_view.yaml in English and Chinese at once."""
    words = pair("text_view", key, **fields)
    return words["en"] + between + words["zh"]


def _print_hit(ident: str, title: dict, text: str, url: str, lang: str) -> None:
    other = "zh" if lang == "en" else "en"
    print(f"\n  [{ident}] {title[lang]}")
    if title.get(other) and title[other] != title[lang]:
        print(f"    {title[other]}")
    for line in textwrap.wrap(text, width=92)[:4]:
        print(f"    {line}")
    print(f"    {url}")
