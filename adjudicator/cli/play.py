"""`fluxx-adjudicator play FILE|- [CARD ...] [--kind KIND | --move JSON] [--json]`: the outcomes
of a move.

The table state is read as JSON or YAML from a file or standard input, and the outcomes of the
move are printed (docs/FORMATS.md, "Playing a card"), each with what it changed first:
playing CARD, or a move of another `--kind` (draw, discard, end_turn, ...), or `--move` with a
legal move's `play` object from a ruling (`fluxx-adjudicator rule FILE --json`). `--choices`
takes the decisions as JSON (docs/PLAYS.md). `--state-out PATH` writes the state of outcome
`--outcome N` (default 1), so that the game goes on from it, move by move. Several CARDs are
played each on the same table, worked out together (POST /api/plays): each answer is printed
under its card, or with `--json` the API's `{"ok": true, "answers": [...]}`.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

from ..cards.catalog import any_card
from ..errors import InputError, error
from ..messages import catalog, text


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="the outcomes of playing a card on a table state")
    p.add_argument("file", help="a file holding the table state (JSON or YAML), or - for stdin")
    p.add_argument("card", nargs="*", help="the card to play (id, English or Chinese name); "
                                            "several: each played on the same table")
    p.add_argument("--kind", help="the kind of move (default: play): draw, play, discard, "
                                  "end_turn, resolve, surprise, free_action, play_random, join")
    p.add_argument("--move", help="a legal move's play object as JSON (from a ruling)")
    p.add_argument("--player", help="who plays it (default: the active player; join: who joins)")
    p.add_argument("--choices", help='the decisions as JSON, e.g. \'{"opponent": "Bo"}\'')
    p.add_argument("--seed", type=int, help="make chance concrete (shuffles, random picks)")
    p.add_argument("--json", action="store_true", help="print the contract's JSON response")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="language of the text view")
    p.add_argument("--state-out", help="write the state of one outcome to this file (JSON)")
    p.add_argument("--outcome", type=int, default=1, help="which outcome --state-out writes")
    p.set_defaults(func=run_play)


def _choices(text: str | None, path: str = "/play/choices") -> dict:
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError:  # a syntax error, or an integer longer than Python converts
        raise InputError(error(path, "choices_not_json")) from None
    if not isinstance(value, dict):
        raise InputError(error(path, "choices_not_object"))
    return value


def run_play(args: argparse.Namespace) -> int:
    from ..referee.moves import play_response
    from ..referee.together import play_responses
    from ..table.reader import load_state_text, parse_state
    from .rule import read_input

    state = parse_state(load_state_text(read_input(args.file)))
    cards = args.card or [None]
    plays = [{"kind": args.kind, "card": card, "player": args.player,
              "choices": _choices(args.choices), "seed": args.seed} for card in cards]
    if args.move:
        if len(cards) > 1:
            raise InputError(error("/play", "move_several_cards"))
        given = _choices(args.move, "/play")
        plays = [{**given, "choices": {**(given.get("choices") or {}), **play["choices"]},
                  "seed": args.seed} for play in plays]
    plays = [{k: v for k, v in play.items() if v not in (None, {})} for play in plays]
    if len(plays) > 1:
        if args.state_out:
            raise InputError(error("/state_out", "state_out_one_play"))
        answers = play_responses(state, plays)
        if args.json:
            print(json.dumps({"ok": True, "answers": answers}, ensure_ascii=False, indent=2))
        else:
            print("\n\n".join(text("text_view", "play_header", args.lang, card=card) + "\n"
                               + play_text(answer, args.lang)
                               for card, answer in zip(cards, answers, strict=True)))
        return 0 if all(a["legal"] for a in answers) else 1
    response = play_response(state, plays[0])
    if args.json:
        print(json.dumps(response, ensure_ascii=False, indent=2))
    else:
        print(play_text(response, args.lang))
    if args.state_out and response["legal"]:
        outcomes = response["outcomes"]
        if not 1 <= args.outcome <= len(outcomes):
            raise InputError(error("/outcome", "no_such_outcome", count=len(outcomes)))
        written = json.dumps(outcomes[args.outcome - 1]["state"], ensure_ascii=False, indent=2)
        try:
            with open(args.state_out, "w", encoding="utf-8") as out:
                out.write(written)
        except OSError as err:  # a folder, a full disk, a folder that is not there
            raise InputError(error("/state_out", "file_unwritable", name=args.state_out,
                                   error=err.strerror or str(err))) from None
    return 0 if response["legal"] else 1


def play_text(response: dict, lang: str = "en") -> str:
    """A plain-text view of a play response (messages/text_view.yaml)."""
    def say(name: str, /, **fields: object) -> str:  # (a field may be called `key`)
        return text("text_view", name, lang, **fields)

    def cards(ids: list) -> str:
        """Cards as the text shows them: in English the ids as a list, in Chinese by name."""
        if lang != "zh":
            return str(ids)
        names = [found.ref(lang) if (found := any_card(c)) else str(c) for c in ids]
        return "、".join(names) if names else say("none")

    lines = [say("legal" if response["legal"] else "not_legal")]
    for reason in response["reasons"]:
        refs = ", ".join(s["id"] for s in reason["sources"])
        lines.append(say("reason_line", text=reason["text"][lang], ids=refs))
    for choice in response.get("open_choices", []):
        options = ", ".join(json.dumps(o, ensure_ascii=False) for o in choice.get("options", []))
        lines.append(say("open_choice_line", label=say("open_choice"), key=choice["key"],
                         kind=choice["kind"], options=options))
    for entry in response.get("outcomes_unknown", []):
        picks = _choice_words(entry["choices"], response, cards) if lang == "zh" else (
            json.dumps(entry["choices"], ensure_ascii=False))
        odds = (say("odds", label=say("probability"), p=entry["probability"])
                if "probability" in entry else "")
        lines.append(say("unknown_line", label=say("unknown_outcome"), picks=picks, odds=odds))
    for i, outcome in enumerate(response["outcomes"], start=1):
        s = outcome["state"]
        picks = _choice_words(outcome.get("choices", {}), response, cards) if lang == "zh" else (
            json.dumps(outcome.get("choices", {}), ensure_ascii=False))
        odds = (say("odds", label=say("probability"), p=outcome["probability"])
                if "probability" in outcome else "")
        lines.append(say("outcome_line", label=say("outcome"), i=i, picks=picks, odds=odds))
        for change in outcome.get("changes", []):
            lines.append(f"  > {change['text'][lang]}")
        for p in s["players"]:
            hand = p.get("hand", p.get("hand_size"))
            shown = cards(hand) if isinstance(hand, list) else (
                say("limit", n=hand) if lang == "zh" else hand)
            lines.append(say("seat_line", name=p["name"], hand=shown,
                             keepers=cards(p["keepers"])))
        lines.append(say("piles_line", rules=cards(s["rules"]), goals=cards(s["goals"]),
                         discard=cards(s["discard_pile"][:5])))
        for f in outcome.get("play_findings", []):
            lines.append(f"  * {f['text'][lang]}")
        ruling = outcome.get("ruling") or {}
        if ruling.get("winner"):
            lines.append(say("winner_line", label=say("outcome_winner"), player=ruling["winner"]))
    return "\n".join(lines)


def _choice_words(choices: dict, response: dict, cards: Callable[[list], str]) -> str:
    """An outcome's choices in Chinese: each by its label (ui.yaml `choice.<card>.<key>`, else
    `choice.<key>`) and its value, cards by name: 对手：Bo；拿走的所有物：「爱」."""
    ui = catalog("ui")
    card = response.get("play", {}).get("card", "")
    parts = []
    for key, value in choices.items():
        label = (ui.get(f"choice.{card}.{key}") or ui.get(f"choice.{key}") or {}).get("zh", key)
        parts.append(f"{label}：{_value_words(value, cards)}")
    return "；".join(parts) or "—"


def _value_words(value: object, cards: Callable[[list], str]) -> str:
    if isinstance(value, str):
        shown = cards([value])
        return shown if shown != value else value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "、".join(_value_words(v, cards) for v in value)
    if isinstance(value, dict):
        return "；".join(f"{k}：{_value_words(v, cards)}" for k, v in value.items())
    return json.dumps(value, ensure_ascii=False)
