"""CLI subcommands of plays: `play FILE|- CARD [--json]` and `simulate --games N --players K`.

`play` reads a table state (JSON or YAML, a file or standard input) and prints the outcomes of
playing CARD (docs/FORMATS.md, "Playing a card"); `--choices` takes the decisions as JSON
(docs/PLAYS.md). `simulate` plays whole games of random legal moves and sums them up.
"""

from __future__ import annotations

import argparse
import json

from .errors import ErrorItem, InputError


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

    s = sub.add_parser("simulate", help="play whole games of random legal moves")
    s.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    s.add_argument("--players", type=int, default=3, help="players per game, 2-6 (default 3)")
    s.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    s.add_argument("--max-steps", type=int, default=300,
                   help="moves per game before it counts as a step cap (default 300)")
    s.add_argument("--json", action="store_true", help="print every game's result as JSON")
    s.set_defaults(func=run_simulate)


def _choices(text: str | None) -> dict:
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        raise InputError(ErrorItem("/play/choices", "--choices is not valid JSON.",
                                   "--choices 不是有效的 JSON。")) from None
    if not isinstance(value, dict):
        raise InputError(ErrorItem("/play/choices", "--choices must be a JSON object.",
                                   "--choices 必须是 JSON 对象。"))
    return value


def run_play(args: argparse.Namespace) -> int:
    from .cli_rulings import read_input
    from .play import play_response
    from .reader import load_state_text, parse_state

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
    """A plain-text view of a play response."""
    zh = lang == "zh"
    lines = [("合法" if response["legal"] else "不合法") if zh else
             ("legal" if response["legal"] else "not legal")]
    for reason in response["reasons"]:
        refs = ", ".join(s["id"] for s in reason["sources"])
        lines.append(f"  - {reason['text'][lang]} [{refs}]")
    for choice in response.get("open_choices", []):
        options = ", ".join(json.dumps(o, ensure_ascii=False) for o in choice.get("options", []))
        label = "待选" if zh else "open choice"
        lines.append(f"{label} {choice['key']} ({choice['kind']}): {options}")
    for i, outcome in enumerate(response["outcomes"], start=1):
        s = outcome["state"]
        picks = json.dumps(outcome.get("choices", {}), ensure_ascii=False)
        lines.append(f"{'结果' if zh else 'outcome'} {i}: {picks}")
        for p in s["players"]:
            hand = p.get("hand", p.get("hand_size"))
            lines.append(f"  {p['name']}: hand {hand}; keepers {p['keepers']}")
        lines.append(f"  rules {s['rules']}; goals {s['goals']}; discard {s['discard_pile'][:5]}")
        for f in outcome.get("play_findings", []):
            lines.append(f"  * {f['text'][lang]}")
        ruling = outcome.get("ruling") or {}
        if ruling.get("winner"):
            lines.append(f"  {'获胜' if zh else 'winner'}: {ruling['winner']}")
    return "\n".join(lines)


def run_simulate(args: argparse.Namespace) -> int:
    from .simulate import simulate

    if not 2 <= args.players <= 6:
        raise InputError(ErrorItem("/players", "--players must be 2 to 6.",
                                   "--players 必须在 2 到 6 之间。"))
    if args.games < 1 or args.max_steps < 1:
        raise InputError(ErrorItem("/games", "--games and --max-steps must be positive.",
                                   "--games 和 --max-steps 必须为正数。"))
    summary = simulate(args.games, args.players, args.seed, args.max_steps)
    if not args.json:
        summary = {k: v for k, v in summary.items() if k != "results"}
    print(json.dumps(summary, ensure_ascii=False, indent=2))
    return 0 if not summary["violations"] else 1
