"""Message templates are filled in exactly as str.format would fill them (finding_text parses
each template once instead of on every call)."""

from __future__ import annotations

import string

import pytest

from adjudicator.messages import LANGS, _compiled, _Formatter, finding_text, messages


def render(value: object, spec: str, lang: str) -> str:
    return f"<{value}|{spec}|{lang}>"


@pytest.mark.parametrize("key", sorted(messages()))
def test_every_message_fills_in_as_str_format_does(key: str) -> None:
    args = [f"a{i}" for i in range(8)]
    for lang in LANGS:
        template = messages()[key][lang]
        assert finding_text(key, args, lang, render) == \
            _Formatter(render, lang).format(template, *args)


def test_templates_beyond_plain_fields_fall_back_to_the_formatter() -> None:
    assert _compiled("{0.name} and {1}") is None
    assert _compiled("{0!r}") is None
    parts = _compiled("{{literal}} {0:player}")
    assert parts is not None and [p for p in parts if p[1] is not None] == [(" ", 0, "player")]
    assert "".join(p[0] for p in parts) == string.Formatter().format("{{literal}} ")


def test_a_missing_argument_is_an_error_as_with_str_format() -> None:
    key = next(k for k, v in messages().items() if "{1}" in v["en"])
    with pytest.raises(IndexError):
        finding_text(key, ["only one"], "en", render)


def test_the_plural_form_is_parsed_once_too() -> None:
    """`{N:plural:noun}` and `{N:plural:{M}}` (the noun another argument's text) stay on the fast
    path, and count as str.format would fill the numbers in."""
    parts = _compiled("{0} discards {2:plural:{5}}, {1:plural:card}")
    assert parts is not None
    assert [p[1:] for p in parts if p[1] is not None] == [
        (0, ""), (2, "plural:{5}"), (1, "plural:card")]

    def plain(value: object, spec: str, lang: str) -> str:
        return str(value)
    key = next(k for k, v in messages().items() if "plural:{5}" in v["en"])
    args = ["Bo", "cards in hand", 1, 3, 2, "Keeper"]
    text = finding_text(key, args, "en", plain)
    assert "discards 1 Keeper " in text
    assert text == _Formatter(plain, "en").format(messages()[key]["en"], *args)
