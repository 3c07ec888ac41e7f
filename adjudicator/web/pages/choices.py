"""The open choices of a "What if" answer as form fields, and the choices such a form posts.

A play whose outcome depends on something the table must say (`open_choices`, docs/PLAYS.md)
answers with the choices it needs and, often, no outcome: the page must let the player state
them and post the move again, or the game stops there. Each open choice becomes one control:

- `card` and `player` of kind `name` (a play from a hand the table does not show, a newcomer's
  join) are the move's own fields: the answer says "play again with the one the table names";
- a number with `minimum` and `maximum` (Fluxxnomic's Gambling: `n`);
- `count` cards named in order (`drawn`: the cards the table saw drawn; `reveal`: the unknown
  cards of one player's hand put face up, any card of the deck where no options are given);
- `plays_left` cards in order (`order`: a sub-hand played out);
- otherwise one of the options offered (a player, a card, a value), or several of them for the
  keys that take a list (Let's Simplify's `rules`, Taxation's `tax`...).

A value offered is posted back as offered: the form carries each option as its JSON and the
server reads it back, so a card id, a player's name or a `{"player", "card"}` pair reaches the
engine untouched. Each value goes back inside a list, the shape of an outcome's `choices`,
which the play reader takes for every key (a lone `{"player", "card"}` of Taxation is not).
"""

from __future__ import annotations

import json
from typing import Any

from werkzeug.datastructures import MultiDict

from ...cards.catalog import catalog_for
from ...errors import InputError, error

# Form field names: PREFIX + choice key (or + player name for `reveal`).
JSON_FIELD = "choice-json:"
NUMBER_FIELD = "choice-number:"
CARDS_FIELD = "choice-cards:"
REVEAL_FIELD = "choice-reveal:"
TEXT_FIELD = "choice-text:"
MOVE_FIELD = "move:"  # a field of the move itself: move:card, move:player

# keys whose value is a list of several decisions (docs/PLAYS.md, "Choice keys, per card")
MANY = frozenset({"rules", "tax", "give", "cards", "keepers", "scramble", "random_discard"})
# options at most this many are shown as radio buttons or checkboxes, more as a list
FEW = 8
UNSEEN = "?"
NAME_MAX = 60  # docs/FORMATS.md: a player's name


def choice_fields(open_choices: list[dict[str, Any]], edition: str,
                  expansions: list[str] | tuple[str, ...]) -> list[dict[str, Any]]:
    """One control per open choice: `control` (select, radio, checkbox, number, text, cards),
    the field `name`, the choice `key`, its `options` and, for `cards`, how many (`count`) and
    whether each may be left empty (`optional`)."""
    return [_with_values(f) for f in _fields(open_choices, edition, expansions)]


def _with_values(field: dict[str, Any]) -> dict[str, Any]:
    """Each option's value as the form posts it: its JSON where the server reads JSON back."""
    if "values" not in field:
        field["values"] = list(field["options"])
    return field


def _fields(open_choices: list[dict[str, Any]], edition: str,
            expansions: list[str] | tuple[str, ...]) -> list[dict[str, Any]]:
    fields = []
    for choice in open_choices:
        key = str(choice.get("key", ""))
        options = list(choice.get("options") or [])
        field: dict[str, Any] = {"key": key, "kind": choice.get("kind"), "options": options,
                                 "player": choice.get("player"), "required": False}
        if choice.get("kind") == "name" and key in ("card", "player"):
            field.update(name=MOVE_FIELD + key, required=True,
                         control="select" if options else "text")
            if key == "card":
                field["options"] = _by_name(options, edition, expansions)
        elif "minimum" in choice or "maximum" in choice:
            field.update(control="number", name=NUMBER_FIELD + key, required=True,
                         minimum=choice.get("minimum"), maximum=choice.get("maximum"))
        elif key == "reveal" or "count" in choice or "plays_left" in choice:
            count = choice.get("count") or choice.get("plays_left") or 1
            if not options and key == "reveal":
                options = _deck(edition, expansions)
            player = choice.get("player")
            name = (REVEAL_FIELD + str(player)) if key == "reveal" and player else (
                CARDS_FIELD + key)
            field.update(control="cards", name=name, count=int(count),
                         optional="plays_left" in choice,
                         options=_by_name(options, edition, expansions))
        elif options:
            many = key in MANY
            control = ("checkbox" if many else "radio") if len(options) <= FEW else "select"
            field.update(control=control, name=JSON_FIELD + key, multiple=many,
                         values=[json.dumps(o, ensure_ascii=False, sort_keys=True)
                                 for o in options])
        else:
            field.update(control="text", name=TEXT_FIELD + key)
        fields.append(field)
    return fields


def _deck(edition: str, expansions: list[str] | tuple[str, ...]) -> list[str]:
    """Every card of the game but Basic Rules: what an unknown card of a hand may be."""
    try:
        catalog = catalog_for(edition, tuple(expansions))
    except ValueError:
        return []
    return [c.id for c in catalog if c.type != "basic_rules"]


def _by_name(options: list[Any], edition: str,
             expansions: list[str] | tuple[str, ...]) -> list[Any]:
    """Card options in the order of their names in the page's language (a long list is read by
    name, not by id); "?" (a card drawn unseen) first, anything that is not a card last."""
    from ...i18n import current_lang

    lang = current_lang()
    try:
        catalog = catalog_for(edition, tuple(expansions))
    except ValueError:
        return options

    def order(option: Any) -> tuple[int, str]:
        if option == UNSEEN:
            return (0, "")
        card = catalog.cards.get(option) if isinstance(option, str) else None
        return (1, card.name(lang).casefold()) if card else (2, str(option))

    return sorted(options, key=order)


def posted_move(form: MultiDict[str, str], play: dict[str, Any]) -> dict[str, Any]:
    """`play` with what the open choices' form adds: the move's card or player, and each
    choice stated (a field left empty states nothing). Errors at /play/choices/KEY."""
    play = dict(play)
    choices: dict[str, Any] = dict(play.get("choices") or {})
    for name in form:
        values = [v.strip() for v in form.getlist(name) if v.strip()]
        if not values:
            continue
        if name.startswith(MOVE_FIELD):
            key = name.removeprefix(MOVE_FIELD)
            if key in ("card", "player"):
                play[key] = values[0][:NAME_MAX * 4]
        elif name.startswith(JSON_FIELD):
            key = name.removeprefix(JSON_FIELD)
            choices[key] = [_offered(v, key) for v in values]
        elif name.startswith(TEXT_FIELD):
            choices[name.removeprefix(TEXT_FIELD)] = values
        elif name.startswith(NUMBER_FIELD):
            key = name.removeprefix(NUMBER_FIELD)
            # a number the browser let through as text is passed on: the play reader says
            # what the choice takes
            choices[key] = int(values[0]) if values[0].lstrip("-").isdigit() else values[0]
        elif name.startswith(CARDS_FIELD):
            choices[name.removeprefix(CARDS_FIELD)] = values
        elif name.startswith(REVEAL_FIELD):
            reveal = dict(choices.get("reveal") or {})
            reveal[name.removeprefix(REVEAL_FIELD)] = values
            choices["reveal"] = reveal
    if choices:
        play["choices"] = choices
    return play


def _offered(value: str, key: str) -> Any:
    """An option as the answer offered it: the form carries its JSON."""
    try:
        return json.loads(value)
    except ValueError:
        raise InputError(error(f"/play/choices/{key}", "move_not_json")) from None
