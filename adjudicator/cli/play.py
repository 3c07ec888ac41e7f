"""`fluxx-adjudicator play FILE|- CARD [--json]`: the outcomes of playing a card.

The table state is read as JSON or YAML from a file or standard input, and the outcomes of
playing CARD are printed (docs/FORMATS.md, "Playing a card"); `--choices` takes the decisions
as JSON (docs/PLAYS.md).
"""

from __future__ import annotations

import argparse
import json

from ..errors import InputError, error
from ..messages import text


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="the outcomes of playing a card on a table state")
    p.add_argument("file", help="a file holding the table state (JSON or YAML), or - for stdin")
    p.add_argument("card", help="the card to play (id, English or Chinese name)")
    p.add_argument("--player", help="who plays it (default: the active player)")
    p.add_argument("--choices", help='the decisions as JSON, e.g. \'{"opponent": "Bo"}\'')
    p.add_argument("--seed", type=int, help="make chance concrete (shuffles, random picks)")
    p.add_argument("--json", action="store_true", help="print the contract's JSON response")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="language of the text view")
    p.set_defaults(func=run_play)


def _choices(text: str | None) -> dict:
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError:  # a syntax error, or an integer longer than Python converts
        raise InputError(error("/play/choices", "choices_not_json")) from None
    if not isinstance(value, dict):
        raise InputError(error("/play/choices", "choices_not_object"))
    return value


def run_play(args: argparse.Namespace) -> int:
    from ..referee.moves import play_response
    from ..table.reader import load_state_text, parse_state
    from .rule import read_input

    state = parse_state(load_state_text(read_input(args.file)))
    play = {"card": args.card, "player": args.player, "choices": _choices(args.choices),
            "seed": args.seed}
    response = play_response(state, play)
    if args.json:
        print(json.dumps(response, ensure_ascii=False, indent=2))
    else:
        print(play_text(response, args.lang))
    return 0 if response["legal"] else 1


def play_text(response: dict, lang: str = "en") -> str:
    """A plain-text view of a play response (messages/text_view.yaml)."""
    def say(key: str) -> str:
        return text("text_view", key, lang)

    lines = [say("legal" if response["legal"] else "not_legal")]
    for reason in response["reasons"]:
        refs = ", ".join(s["id"] for s in reason["sources"])
        lines.append(f"  - {reason['text'][lang]} [{refs}]")
    for choice in response.get("open_choices", []):
        options = ", ".join(json.dumps(o, ensure_ascii=False) for o in choice.get("options", []))
        lines.append(f"{say('open_choice')} {choice['key']} ({choice['kind']}): {options}")
    for i, outcome in enumerate(response["outcomes"], start=1):
        s = outcome["state"]
        picks = json.dumps(outcome.get("choices", {}), ensure_ascii=False)
        lines.append(f"{say('outcome')} {i}: {picks}")
        for p in s["players"]:
            hand = p.get("hand", p.get("hand_size"))
            lines.append(f"  {p['name']}: hand {hand}; keepers {p['keepers']}")
        lines.append(f"  rules {s['rules']}; goals {s['goals']}; discard {s['discard_pile'][:5]}")
        for f in outcome.get("play_findings", []):
            lines.append(f"  * {f['text'][lang]}")
        ruling = outcome.get("ruling") or {}
        if ruling.get("winner"):
            lines.append(f"  {say('outcome_winner')}: {ruling['winner']}")
    return "\n".join(lines)
