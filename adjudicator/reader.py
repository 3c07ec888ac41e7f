"""Reads a table state (docs/FORMATS.md, "Table state") into a validated `TableState`.

`load_state_text` parses JSON or YAML; `parse_state` checks the shape, resolves every card name
to its catalog id and refuses impossible tables. All problems are collected and raised as one
`InputError`, each naming its field by JSON pointer, in English and Chinese, with suggestions.
Nothing here decides a game rule: the checks are about what can physically be on the table
(types of zones, copies in the deck, who is seated), as the contract describes the input.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from typing import Any

import yaml

from .catalog import EDITIONS, EXPANSION_BASE, EXPANSIONS, Card, Catalog, catalog_for
from .errors import ErrorItem, InputError, pointer
from .extension_state import normalize_choices
from .state import PendingPlay, Player, TableState, Turn

MAX_ITEMS = 500  # longest list accepted anywhere in the input
MAX_DEPTH = 32  # deepest nesting accepted anywhere in the input
MAX_TEXT = 1_000_000  # characters of JSON/YAML text
MAX_PLAYERS = 12
MIN_PLAYERS = 2
MAX_NAME = 60
# "Did you mean" look-ups are fuzzy matches over the whole catalog, and their cost grows with the
# text's length: a hostile body of thousands of long unknown names must not buy minutes of CPU.
# Counts (hand_size, turn, draw_pile) above this are no real table; the engine's integers are 32
# bits wide, so a larger number would silently wrap into a wrong ruling.
MAX_COUNT = 10_000
MAX_GUESSES = 20  # look-ups per input; later unknown names get no suggestions
MAX_GUESS_LEN = 80  # longer text is no card's or field's name: no look-up

KNOWN_FIELDS = ("edition", "expansions", "players", "active", "rules", "goals", "turn",
                "draw_pile", "discard_pile", "pending")
# "?" in a hand or a listed draw pile is a card that is there but unknown (after a draw from an
# unknown pile, say): it counts toward the hand size and the deck, and is never resolved.
UNKNOWN_CARD = "?"
UNKNOWN_ZONES = ("hand", "draw_pile")
PLAYER_FIELDS = ("name", "hand", "hand_size", "keepers", "creepers", "claimed_goals")
TURN_FIELDS = ("hand_at_start", "drawn", "played")
PENDING_FIELDS = ("player", "card", "choices")

# How a card type is named in messages.
TYPE_NAMES: dict[str, tuple[str, str]] = {
    "basic_rules": ("the Basic Rules card", "基本规则卡"),
    "new_rule": ("a New Rule", "新规则卡"),
    "meta_rule": ("a Meta Rule", "元规则卡"),
    "goal": ("a Goal", "目标卡"),
    "keeper": ("a Keeper", "所有物卡"),
    "action": ("an Action", "行动卡"),
    "creeper": ("a Creeper", "陷阱卡"),
    "surprise": ("a Surprise", "意外卡"),
    "promo": ("a promo card", "宣传卡"),
}
# Zones: (English, Chinese) description and the card types they may hold (None: any playable).
ZONES: dict[str, tuple[str, str, tuple[str, ...] | None]] = {
    "hand": ("a hand", "手牌", None),
    "keepers": ("the Keepers in play", "场上的所有物", ("keeper",)),
    "creepers": ("the Creepers in play", "场上的陷阱", ("creeper",)),
    "rules": ("the rules in play", "场上的规则", ("new_rule", "meta_rule")),
    "goals": ("the Goals in play", "场上的目标", ("goal",)),
    "claimed_goals": ("the Goals a player has claimed (Keep Going)", "玩家已赢取的目标（继续前进）",
                      ("goal",)),
    "discard_pile": ("the discard pile", "弃牌堆", None),
    "draw_pile": ("the draw pile", "牌库", None),
    "pending": ("the pending plays", "待结算的出牌", None),
}


def load_state_text(text: str) -> Any:
    """Parses a table state written as JSON or YAML. Syntax errors -> InputError at path ""."""
    if not isinstance(text, str):
        raise InputError(ErrorItem("", "The table state must be text (JSON or YAML).",
                                   "桌面状态必须是文本（JSON 或 YAML）。"))
    if len(text) > MAX_TEXT:
        raise InputError(ErrorItem(
            "", f"The table state is too long ({len(text)} characters; at most {MAX_TEXT}).",
            f"桌面状态过长（{len(text)} 个字符；最多 {MAX_TEXT} 个）。"), status=413)
    if not text.strip():
        raise InputError(ErrorItem("", "The table state is empty.", "桌面状态为空。"))
    try:
        return json.loads(text)
    except RecursionError:
        raise _too_deep() from None
    except ValueError as err:
        json_error = err
    if text.lstrip()[:1] in "{[":
        # it was meant to be JSON: the JSON parser's position is the useful one
        msg = getattr(json_error, "msg", str(json_error))
        line, col = getattr(json_error, "lineno", 0), getattr(json_error, "colno", 0)
        raise InputError(ErrorItem(
            "", f"The table state is not valid JSON: {msg} (line {line}, column {col}).",
            f"桌面状态不是有效的 JSON：{msg}（第 {line} 行，第 {col} 列）。"))
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent):
                # aliases can expand exponentially ("billion laughs"): refuse them
                raise InputError(ErrorItem(
                    "", "YAML aliases (*name) are not accepted in a table state.",
                    "桌面状态中不接受 YAML 别名（*name）。"))
        return _jsonable(yaml.safe_load(text))
    except RecursionError:
        raise _too_deep() from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        where_zh = f"（第 {mark.line + 1} 行，第 {mark.column + 1} 列）" if mark else ""
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise InputError(ErrorItem(
            "", f"The table state is neither valid JSON nor valid YAML: {problem}{where}.",
            f"桌面状态既不是有效的 JSON 也不是有效的 YAML：{problem}{where_zh}。")) from None


def _too_deep() -> InputError:
    return InputError(ErrorItem("", f"The table state is nested too deeply (at most {MAX_DEPTH} "
                                    "levels).",
                                f"桌面状态嵌套层数过多（最多 {MAX_DEPTH} 层）。"))


def _jsonable(value: Any) -> Any:
    """YAML values as JSON would have them: dates and other scalars become text, keys text."""
    if isinstance(value, dict):
        return {k if isinstance(k, str) else str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def read_state_text(text: str) -> TableState:
    """`parse_state(load_state_text(text))`."""
    return parse_state(load_state_text(text))


def _kind(value: Any) -> tuple[str, str]:
    if value is None:
        return "null", "null"
    if isinstance(value, bool):
        return "true/false", "布尔值"
    if isinstance(value, int | float):
        return "a number", "数字"
    if isinstance(value, str):
        return "text", "文本"
    if isinstance(value, list):
        return "a list", "列表"
    if isinstance(value, dict):
        return "an object", "对象"
    return type(value).__name__, type(value).__name__


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _close(word: str, options: list[str], n: int = 3) -> list[str]:
    by_key = {o.casefold(): o for o in options}
    hits = difflib.get_close_matches(word.casefold(), list(by_key), n=n, cutoff=0.5)
    return [by_key[h] for h in hits]


@dataclass
class _Place:
    path: str
    zone: str


@dataclass
class _Reader:
    errors: list[ErrorItem] = field(default_factory=list)
    catalog: Catalog | None = None
    # every place a card was seen, in reading order: for the copies check
    seen: dict[str, list[_Place]] = field(default_factory=dict)
    guesses: int = 0  # "did you mean" look-ups made so far (MAX_GUESSES)

    def may_guess(self, word: str) -> bool:
        self.guesses += 1
        return self.guesses <= MAX_GUESSES and len(word) <= MAX_GUESS_LEN

    def error(self, path: str, en: str, zh: str, suggestions: list[str] | None = None) -> None:
        unique = list(dict.fromkeys(suggestions or []))
        self.errors.append(ErrorItem(path, en, zh, unique))

    def wrong_type(self, path: str, value: Any, want_en: str, want_zh: str) -> None:
        got_en, got_zh = _kind(value)
        self.error(path, f"Expected {want_en}, got {got_en}.",
                   f"应为{want_zh}，实际是{got_zh}。")

    # -- generic shapes -------------------------------------------------------------------

    def count(self, value: Any, path: str, default: int | None = None) -> int | None:
        """A whole number >= 0, or `default` when absent (None)."""
        if value is None:
            return default
        if not _is_int(value):
            self.wrong_type(path, value, "a whole number (0 or more)", "非负整数")
            return default
        if value < 0:
            self.error(path, f"Must be 0 or more, got {value}.", f"必须大于或等于 0，实际是"
                                                                 f" {value}。")
            return default
        if value > MAX_COUNT:
            self.error(path, f"At most {MAX_COUNT}, got {value}: no table holds that many cards.",
                       f"最多 {MAX_COUNT}，实际是 {value}：没有桌面会有这么多牌。")
            return default
        return int(value)

    def listing(self, value: Any, path: str, what_en: str, what_zh: str) -> list[Any]:
        """A list (absent or null: empty)."""
        if value is None:
            return []
        if not isinstance(value, list):
            self.wrong_type(path, value, f"a list of {what_en}", f"{what_zh}列表")
            return []
        return value

    def unknown_fields(self, obj: dict[str, Any], path: str, known: tuple[str, ...]) -> None:
        for key in obj:
            if key not in known:
                self.error(pointer_join(path, key),
                           f"Unknown field {key!r}; known fields: {', '.join(known)}.",
                           f"未知字段 {key!r}；可用字段：{', '.join(known)}。",
                           _close(str(key), list(known)) if self.may_guess(str(key)) else [])

    # -- cards ---------------------------------------------------------------------------

    def card(self, value: Any, path: str, zone: str) -> str | None:
        """Resolves one card of a zone to its id; records an error and returns None if bad."""
        if not isinstance(value, str):
            self.wrong_type(path, value, "a card name (text)", "卡名（文本）")
            return None
        if value.strip() == UNKNOWN_CARD and zone in UNKNOWN_ZONES:
            return UNKNOWN_CARD  # a card that is there but not known (drawn face down)
        if self.catalog is None:
            return None  # the edition is unknown: cards cannot be checked
        card = self.catalog.resolve(value)
        if card is None:
            self.unknown_card(value, path)
            return None
        if zone == "rules" and card.type == "basic_rules":
            return card.id  # always on the table anyway: accepted, and dropped by the caller
        if not self.fits(card, path, zone):
            return None
        self.seen.setdefault(card.id, []).append(_Place(path, zone))
        return card.id

    def unknown_card(self, value: str, path: str) -> None:
        assert self.catalog is not None
        game = self.catalog
        elsewhere = _card_in_expansion(game, value)
        if elsewhere is not None:
            exp = elsewhere.edition
            self.error(path, f"{elsewhere.name_en!r} belongs to the {exp!r} expansion, which "
                             f"this game does not use; add \"{exp}\" to expansions.",
                       f"“{elsewhere.name_zh}”属于 {exp} 扩展，本局未使用该扩展；请在 expansions 中"
                       f"加入 \"{exp}\"。", [elsewhere.name_en])
            return
        ed = game.edition + (f" + {', '.join(game.expansions)}" if game.expansions else "")
        self.error(path, f"Unknown card {value!r} in the {ed} deck.",
                   f"{ed} 卡组中没有卡片“{value}”。",
                   game.suggest(value) if self.may_guess(value) else [])

    def fits(self, card: Card, path: str, zone: str) -> bool:
        zone_en, zone_zh, allowed = ZONES[zone]
        type_en, type_zh = TYPE_NAMES.get(card.type, (card.type, card.type))
        if card.type == "basic_rules":
            self.error(path, "The Basic Rules card is always on the table; it is never in "
                             f"{zone_en}.",
                       f"基本规则卡始终在桌面上，不会出现在{zone_zh}中。")
            return False
        if zone == "hand" and card.type == "creeper":
            self.error(path, f"{card.name_en} is a Creeper: a Creeper is never held in hand "
                             "(it goes in front of its owner at once).",
                       f"“{card.name_zh}”是陷阱卡：陷阱卡从不留在手中（抓到后立刻放到面前）。")
            return False
        if allowed is not None and card.type not in allowed:
            want = " or ".join(TYPE_NAMES[t][0] for t in allowed)
            want_zh = "或".join(TYPE_NAMES[t][1] for t in allowed)
            hint_en = hint_zh = ""
            if zone == "creepers" and self.catalog is not None and (
                    "creepers" not in self.catalog.expansions):
                hint_en = " Creepers are in play only with the \"creepers\" expansion."
                hint_zh = "只有使用 creepers 扩展时才有陷阱卡。"
            self.error(path, f"{card.name_en} is {type_en}; only {want} can be in {zone_en}."
                             + hint_en,
                       f"“{card.name_zh}”是{type_zh}；{zone_zh}中只能有{want_zh}。" + hint_zh)
            return False
        return True

    def cards(self, value: Any, path: str, zone: str) -> list[str]:
        items = self.listing(value, path, "cards", "卡片")
        out = []
        for i, item in enumerate(items):
            cid = self.card(item, pointer_join(path, i), zone)
            if cid is not None:
                out.append(cid)
        return out

    def check_copies(self) -> None:
        if self.catalog is None or self.catalog.copies_unlimited:
            return
        for cid, places in self.seen.items():
            card = self.catalog.get(cid)
            if len(places) <= card.copies:
                continue
            first = places[0].path
            for extra in places[card.copies :]:
                copies_en = "1 copy" if card.copies == 1 else f"{card.copies} copies"
                self.error(extra.path,
                           f"{card.name_en} is already at {first}; the deck has only {copies_en}.",
                           f"“{card.name_zh}”已在 {first}；卡组中只有 {card.copies} 张。")


def pointer_join(base: str, *parts: str | int) -> str:
    return base + pointer(*parts)


def _card_in_expansion(game: Catalog, value: str) -> Card | None:
    """The card `value` names in an expansion the game does not use (fluxx only)."""
    if game.edition != EXPANSION_BASE:
        return None
    missing = [e for e in EXPANSIONS if e not in game.expansions]
    if not missing:
        return None
    card = catalog_for(EXPANSION_BASE, EXPANSIONS).resolve(value)
    if card is not None and card.edition in missing:
        return card
    return None


def _check_sizes(value: Any, parts: tuple[str | int, ...], depth: int,
                 errors: list[ErrorItem]) -> None:
    """Refuses huge lists and deep nesting anywhere before reading anything. `parts`: the
    path as its parts, made a pointer only for an error (most states have none)."""
    if depth > MAX_DEPTH:
        errors.append(ErrorItem(pointer(*parts),
                                f"Nested too deeply (more than {MAX_DEPTH} levels).",
                                f"嵌套层数过多（超过 {MAX_DEPTH} 层）。"))
        return
    # a scalar below the deepest level allowed is the only scalar that can be refused
    deeper = depth + 1 > MAX_DEPTH
    if isinstance(value, list):
        if len(value) > MAX_ITEMS:
            errors.append(ErrorItem(pointer(*parts),
                                    f"Too many items: {len(value)} (at most {MAX_ITEMS}).",
                                    f"条目过多：{len(value)} 个（最多 {MAX_ITEMS} 个）。"))
            return
        for i, item in enumerate(value):
            if deeper or isinstance(item, (list, dict)):
                _check_sizes(item, (*parts, i), depth + 1, errors)
    elif isinstance(value, dict):
        if len(value) > MAX_ITEMS:
            errors.append(ErrorItem(pointer(*parts),
                                    f"Too many fields: {len(value)} (at most {MAX_ITEMS}).",
                                    f"字段过多：{len(value)} 个（最多 {MAX_ITEMS} 个）。"))
            return
        for key, item in value.items():
            if deeper or isinstance(item, (list, dict)):
                _check_sizes(item, (*parts, str(key)), depth + 1, errors)


def parse_state(data: Any, *, check_copies: bool = True) -> TableState:
    """A validated TableState from decoded JSON/YAML; raises InputError listing every problem.

    `check_copies=False` skips refusing a card seen in more places than the deck has copies
    (for callers that must accept such tables, e.g. hand-written what-if examples).
    """
    if not isinstance(data, dict):
        got_en, got_zh = _kind(data)
        raise InputError(ErrorItem("", f"The table state must be an object, got {got_en}.",
                                   f"桌面状态必须是一个对象，实际是{got_zh}。"))
    size_errors: list[ErrorItem] = []
    _check_sizes(data, (), 0, size_errors)
    if size_errors:
        raise InputError(size_errors)
    r = _Reader()
    edition, expansions = _edition(r, data)
    if edition is not None:
        r.catalog = catalog_for(edition, expansions)
    players = _players(r, data.get("players"))
    names = [p.name for p in players]
    active = _active(r, data.get("active"), names)
    rules = [c for c in r.cards(data.get("rules"), "/rules", "rules") if c != "basic_rules"]
    goals = r.cards(data.get("goals"), "/goals", "goals")
    _check_goal_count(r, goals, rules)
    turn = _turn(r, data.get("turn"), players, active)
    discard = r.cards(data.get("discard_pile"), "/discard_pile", "discard_pile")
    draw_size, draw_list = _draw_pile(r, data.get("draw_pile"))
    pending = _pending(r, data.get("pending"), names)
    if check_copies:
        r.check_copies()
    draw_size = _deck_size(r, players, rules, goals, discard, pending, draw_size,
                           data.get("draw_pile"))
    if r.errors:
        raise InputError(r.errors)
    assert edition is not None and active is not None
    extra = {k: v for k, v in data.items() if k not in KNOWN_FIELDS}
    return TableState(
        edition=edition, expansions=list(expansions), players=players, active=active,
        rules=rules, goals=goals, turn=turn, draw_pile_size=draw_size, draw_pile=draw_list,
        discard_pile=discard, pending=pending, extra=extra,
    )


def _edition(r: _Reader, data: dict[str, Any]) -> tuple[str | None, tuple[str, ...]]:
    edition = data.get("edition", "fluxx")
    if edition is None:
        edition = "fluxx"
    if not isinstance(edition, str):
        r.wrong_type("/edition", edition, f"one of {', '.join(EDITIONS)}",
                     f"{', '.join(EDITIONS)} 之一")
        edition = None
    elif edition not in EDITIONS:
        r.error("/edition", f"Unknown edition {edition!r}; known: {', '.join(EDITIONS)}.",
                f"未知版本 {edition!r}；可用版本：{', '.join(EDITIONS)}。",
                _close(edition, list(EDITIONS)))
        edition = None
    chosen: list[str] = []
    raw = r.listing(data.get("expansions"), "/expansions", "expansion names", "扩展名")
    for i, name in enumerate(raw):
        path = pointer("expansions", i)
        if not isinstance(name, str):
            r.wrong_type(path, name, f"one of {', '.join(EXPANSIONS)}",
                         f"{', '.join(EXPANSIONS)} 之一")
        elif name not in EXPANSIONS:
            r.error(path, f"Unknown expansion {name!r}; known: {', '.join(EXPANSIONS)}.",
                    f"未知扩展 {name!r}；可用扩展：{', '.join(EXPANSIONS)}。",
                    _close(name, list(EXPANSIONS)))
        elif name not in chosen:
            chosen.append(name)
    if chosen and edition is not None and edition != EXPANSION_BASE:
        r.error("/expansions", f"Expansions apply to the {EXPANSION_BASE} edition only, not to "
                               f"{edition}.",
                f"扩展只适用于 {EXPANSION_BASE} 版本，不适用于 {edition}。")
        edition = None
    return edition, tuple(chosen)


def _players(r: _Reader, value: Any) -> list[Player]:
    if value is None:
        r.error("/players", "Missing: the players at the table (a list of 2 to 12).",
                "缺少玩家列表（2 到 12 名玩家）。")
        return []
    if not isinstance(value, list):
        r.wrong_type("/players", value, "a list of players", "玩家列表")
        return []
    if not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
        r.error("/players", f"A game has {MIN_PLAYERS} to {MAX_PLAYERS} players; got "
                            f"{len(value)}.",
                f"一局游戏需要 {MIN_PLAYERS} 到 {MAX_PLAYERS} 名玩家；实际有 {len(value)} 名。")
    players: list[Player] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(value):
        path = pointer("players", i)
        if not isinstance(raw, dict):
            r.wrong_type(path, raw, "a player object", "玩家对象")
            continue
        r.unknown_fields(raw, path, PLAYER_FIELDS)
        name = raw.get("name")
        if not isinstance(name, str) or not name.strip():
            if name is None:
                r.error(path + "/name", "Missing: the player's name.", "缺少玩家名字。")
            else:
                r.error(path + "/name", "A player's name must be non-empty text.",
                        "玩家名字必须是非空文本。")
            name = f"#{i}"
        elif len(name) > MAX_NAME:
            r.error(path + "/name", f"A player's name has at most {MAX_NAME} characters.",
                    f"玩家名字最多 {MAX_NAME} 个字符。")
        elif name in seen:
            r.error(path + "/name", f"Two players are named {name!r} (also /players/"
                                    f"{seen[name]}); names must be unique.",
                    f"有两名玩家都叫 {name!r}（另见 /players/{seen[name]}）；名字必须唯一。")
        else:
            seen[name] = i
        players.append(_player(r, raw, path, name))
    return players


def _player(r: _Reader, raw: dict[str, Any], path: str, name: str) -> Player:
    hand: list[str] | None = None
    given_size = r.count(raw.get("hand_size"), path + "/hand_size")
    if "hand" in raw and raw["hand"] is not None:
        hand = r.cards(raw["hand"], path + "/hand", "hand")
        listed = raw["hand"] if isinstance(raw["hand"], list) else []
        if given_size is not None and isinstance(raw["hand"], list) and given_size != len(listed):
            r.error(path + "/hand_size",
                    f"hand_size is {given_size} but the hand lists {len(listed)} cards.",
                    f"hand_size 是 {given_size}，但手牌列出了 {len(listed)} 张。")
        size = len(listed)
    elif given_size is not None:
        size = given_size
    else:
        if "hand_size" not in raw:
            r.error(path, "Give the player's hand (a list of cards) or hand_size.",
                    "请给出该玩家的手牌（卡片列表）或 hand_size。", ["hand", "hand_size"])
        size = 0
    return Player(
        name=name, hand=hand, hand_size=size,
        keepers=r.cards(raw.get("keepers"), path + "/keepers", "keepers"),
        creepers=r.cards(raw.get("creepers"), path + "/creepers", "creepers"),
        claimed_goals=r.cards(raw.get("claimed_goals"), path + "/claimed_goals", "claimed_goals"),
    )


def _active(r: _Reader, value: Any, names: list[str]) -> str | None:
    if value is None:
        r.error("/active", "Missing: whose turn it is (a player's name).",
                "缺少当前行动的玩家（玩家名字）。", names[:3])
        return None
    if not isinstance(value, str):
        r.wrong_type("/active", value, "a player's name", "玩家名字")
        return None
    if value not in names:
        folded = [n for n in names if n.casefold() == value.casefold()]
        r.error("/active", f"{value!r} is not a player at the table.",
                f"{value!r} 不是桌上的玩家。", folded or _close(value, names) or names[:3])
        return None
    return value


def _check_goal_count(r: _Reader, goals: list[str], rules: list[str]) -> None:
    # Double Agenda (the only card the catalogs hold that allows a second Goal) raises the
    # number of Goals that can lie on the table: a fact of the table, checked as such.
    allowed = 2 if "double_agenda" in rules else 1
    if len(goals) > allowed:
        if allowed == 1:
            r.error("/goals", f"{len(goals)} Goals are on the table, but only 1 can be without "
                              "Double Agenda in the rules.",
                    f"桌上有 {len(goals)} 张目标卡，但规则中没有双重目标时只能有 1 张。")
        else:
            r.error("/goals", f"{len(goals)} Goals are on the table; with Double Agenda at most "
                              "2 can be.",
                    f"桌上有 {len(goals)} 张目标卡；有双重目标时最多只能有 2 张。")


def _turn(r: _Reader, value: Any, players: list[Player], active: str | None) -> Turn:
    hand_now = next((p.hand_size for p in players if p.name == active), 0)
    if value is None:
        return Turn(hand_at_start=hand_now)
    if not isinstance(value, dict):
        r.wrong_type("/turn", value, "an object {hand_at_start, drawn, played}",
                     "对象 {hand_at_start, drawn, played}")
        return Turn(hand_at_start=hand_now)
    r.unknown_fields(value, "/turn", TURN_FIELDS)
    start = r.count(value.get("hand_at_start"), "/turn/hand_at_start", hand_now)
    drawn = r.count(value.get("drawn"), "/turn/drawn", 0)
    played = r.count(value.get("played"), "/turn/played", 0)
    return Turn(hand_at_start=start or 0, drawn=drawn or 0, played=played or 0)


def _draw_pile(r: _Reader, value: Any) -> tuple[int | None, list[str] | None]:
    if value is None:
        return None, None
    if isinstance(value, list):
        cards = r.cards(value, "/draw_pile", "draw_pile")
        return len(value), cards
    if _is_int(value):
        return r.count(value, "/draw_pile"), None
    r.wrong_type("/draw_pile", value, "a number of cards or a list of cards (top first)",
                 "卡片数量或卡片列表（顶部在前）")
    return None, None


def _pending(r: _Reader, value: Any, names: list[str]) -> list[PendingPlay]:
    out: list[PendingPlay] = []
    for i, raw in enumerate(r.listing(value, "/pending", "plays {player, card}",
                                      "出牌 {player, card}")):
        path = pointer("pending", i)
        if not isinstance(raw, dict):
            r.wrong_type(path, raw, "an object {player, card}", "对象 {player, card}")
            continue
        r.unknown_fields(raw, path, PENDING_FIELDS)
        player = raw.get("player")
        ok = True
        if not isinstance(player, str):
            r.wrong_type(path + "/player", player, "a player's name", "玩家名字")
            ok = False
        elif player not in names:
            r.error(path + "/player", f"{player!r} is not a player at the table.",
                    f"{player!r} 不是桌上的玩家。", _close(player, names) or names[:3])
            ok = False
        if raw.get("card") is None:
            r.error(path + "/card", "Missing: the card being played.", "缺少正在打出的卡片。")
            continue
        cid = r.card(raw.get("card"), path + "/card", "pending")
        choices = _pending_choices(r, raw.get("choices"), names, path + "/choices")
        if ok and cid is not None:
            out.append(PendingPlay(player=player, card=cid, choices=choices))
    return out


def _pending_choices(r: _Reader, value: Any, names: list[str], path: str) -> dict[str, Any]:
    """The choices given with a link of the chain (docs/PLAYS.md), cards as ids."""
    if value is None or r.catalog is None:
        return {}
    try:
        return normalize_choices(value, r.catalog, names, path, guess=r.may_guess)
    except InputError as bad:
        r.errors.extend(bad.items)
        return {}


def _known_cards(players: list[Player], rules: list[str], goals: list[str],
                 discard: list[str], pending: list[PendingPlay]) -> int:
    """Cards whose place is known or counted, the Basic Rules card included."""
    held = sum(p.hand_size + len(p.keepers) + len(p.creepers) + len(p.claimed_goals)
               for p in players)
    return held + len(rules) + len(goals) + len(discard) + len(pending) + 1


def _deck_size(r: _Reader, players: list[Player], rules: list[str], goals: list[str],
               discard: list[str], pending: list[PendingPlay], draw: int | None,
               raw_draw: Any) -> int:
    """The draw pile's size, checking that the table holds no more cards than the deck.

    When the draw pile is not given, it is the deck less every card accounted for. Listed
    cards are checked one by one against their copies; this catches counts (hand_size, a draw
    pile given as a number) that add up to more cards than the deck has.
    """
    if r.catalog is None or r.catalog.copies_unlimited:
        return draw or 0
    total = sum(c.copies for c in r.catalog)
    on_table = _known_cards(players, rules, goals, discard, pending)
    if on_table + (draw or 0) <= total:
        return total - on_table if draw is None else draw
    if _is_int(raw_draw):
        path, hint = "/draw_pile", [str(max(0, total - on_table))]
    else:
        unknown = [i for i, p in enumerate(players) if p.hand is None and p.hand_size]
        path = pointer("players", unknown[0], "hand_size") if unknown else (
            "/draw_pile" if draw else "")
        hint = []
    drawn_en = f" and {draw} in the draw pile" if draw else ""
    drawn_zh = f"，牌库 {draw} 张" if draw else ""
    r.error(path,
            f"The table holds {on_table + (draw or 0)} cards ({on_table} in hands, in play and "
            f"in the discard pile, the Basic Rules included{drawn_en}), but the deck has only "
            f"{total}.",
            f"桌上共有 {on_table + (draw or 0)} 张牌（手牌、场上和弃牌堆中 {on_table} 张，含基本"
            f"规则{drawn_zh}），但卡组只有 {total} 张。", hint)
    return draw or 0
