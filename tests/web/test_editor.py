"""The table editor and the error pages through Flask's test client (tests/browser/ drives the
first two in Chromium).

1. Enter in an editor field submits the form's default button: it must be "Get the ruling",
   not the paste section's "Load into the editor".
2. "Edit this table" keeps a draw pile given as a list of cards (the round trip used to send it
   through a single-line input, which strips the newlines: "Unknown card 'Love?Peace'").
3. Every error page's heading fits its status (404, 405...), in both languages.
"""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

import pytest

from adjudicator.web.pages.forms import decode_state, encode_state
from tests.web.ui_pages import csrf_from, html

LISTED_PILE = {"players": [{"name": "A", "hand_size": 1}, {"name": "B", "hand_size": 1}],
               "active": "A", "draw_pile": ["Love", "Peace"]}


class _Fields(HTMLParser):
    """The editor form's controls in document order: (tag, attributes, text of a textarea)."""

    def __init__(self) -> None:
        super().__init__()
        self.controls: list[tuple[str, dict[str, str | None], str]] = []
        self._in_form = False
        self._in_template = False  # the seat template's fields are not the form's
        self._textarea: dict[str, str | None] | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form" and a.get("id") == "editor":
            self._in_form = True
        elif tag == "template":
            self._in_template = True
        elif not self._in_form or self._in_template:
            return
        elif tag in ("input", "button", "select"):
            self.controls.append((tag, a, ""))
        elif tag == "textarea":
            self._textarea, self._text = a, ""

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "textarea" and self._textarea is not None:
            self.controls.append(("textarea", self._textarea, self._text))
            self._textarea = None
        elif tag == "template":
            self._in_template = False
        elif tag == "form":
            self._in_form = False


def controls(page: str) -> list[tuple[str, dict[str, str | None], str]]:
    parser = _Fields()
    parser.feed(page)
    return parser.controls


def submitted(page: str) -> dict[str, list[str]]:
    """What the editor form sends as it stands (no button pressed), as a browser would."""
    data: dict[str, list[str]] = {}
    for tag, a, text in controls(page):
        name = a.get("name")
        if not name or tag in ("button", "select"):
            continue
        if tag == "textarea":
            value = text[1:] if text.startswith("\n") else text
        elif a.get("type") in ("checkbox", "radio"):
            if "checked" not in a:
                continue
            value = a.get("value") or "on"
        else:
            # an <input>'s value holds one line: a browser strips its newlines
            value = re.sub(r"[\r\n]", "", a.get("value") or "")
        data.setdefault(name, []).append(value)
    for tag, a, _ in controls(page):
        if tag == "select" and a.get("name"):
            data.setdefault(a["name"] or "", []).append("fluxx")
    return data


# --- 1. Enter gets the ruling -------------------------------------------------------------------

def test_the_editors_default_button_gets_the_ruling(client):
    page = html(client.get("/"))
    buttons = [a for tag, a, _ in controls(page)
               if tag == "button" and (a.get("type") or "submit") == "submit"]
    assert buttons, "the editor has no submit button"
    default = buttons[0]  # implicit submission (Enter) clicks the form's first submit button
    assert not default.get("formaction") and not default.get("hx-post"), default
    assert "disabled" not in default
    # and the paste section's Load button is still there, for the no-JS Load flow
    assert any(a.get("formaction") == "/" for a in buttons)


# --- 2. "Edit this table" keeps a listed draw pile ----------------------------------------------

def test_edit_this_table_keeps_a_listed_draw_pile(client):
    token = encode_state(LISTED_PILE)
    ruling = html(client.get("/ruling", query_string={"state": token, "lang": "en"}))
    edit = re.search(r'href="([^"]*)"[^>]*>\s*Edit this table', ruling)
    assert edit, "the ruling page has no 'Edit this table' link"
    editor = client.get(unescape(edit.group(1)))
    assert editor.status_code == 200
    form = submitted(html(editor))
    form["csrf_token"] = [csrf_from(html(editor))]
    again = client.post("/ruling", data=form)
    assert again.status_code == 303, html(again)[:2000]
    state = decode_state(parse_qs(urlsplit(again.headers["Location"]).query)["state"][0])
    assert state["draw_pile"] == ["love", "peace"]


def test_a_counted_draw_pile_stays_a_one_line_number_field(client):
    page = html(client.get("/", query_string={"state": encode_state(
        {**LISTED_PILE, "draw_pile": 30})}))
    pile = [(tag, a) for tag, a, _ in controls(page) if a.get("name") == "draw_pile"]
    assert len(pile) == 1 and pile[0][0] == "input" and pile[0][1].get("value") == "30"


# --- 3. error headings fit the status -----------------------------------------------------------

def _h1(page: str) -> str:
    match = re.search(r"<h1>(.*?)</h1>", page, re.S)
    assert match
    return unescape(match.group(1)).strip()


@pytest.mark.parametrize("lang, expected", [("en", "Page not found"), ("zh", "找不到该页面")])
def test_a_404_page_says_not_found(client, lang, expected):
    response = client.get("/no-such-page", query_string={"lang": lang})
    assert response.status_code == 404 and _h1(html(response)) == expected
    assert expected in re.search(r"<title>(.*?)</title>", html(response), re.S).group(1)


@pytest.mark.parametrize("lang, expected", [("en", "This page is reached through a form"),
                                            ("zh", "此页面需通过表单打开")])
def test_a_405_page_says_it_is_reached_by_a_form(client, lang, expected):
    response = client.get("/ruling/play", query_string={"lang": lang})
    assert response.status_code == 405 and _h1(html(response)) == expected


@pytest.mark.parametrize("lang, expected", [("en", "Something in the input needs fixing"),
                                            ("zh", "输入内容需要修改")])
def test_a_400_page_keeps_the_input_heading(client, lang, expected):
    response = client.get("/ruling", query_string={"state": "%%%", "lang": lang})
    assert response.status_code == 400 and _h1(html(response)) == expected
