"""Sharing a ruling (web/pages/share.py, partials/share.html): "Copy the link" copies the page's
absolute URL, "Show QR code" opens an inline SVG QR code of it, made under the page's Content
Security Policy (no style attribute); a link too long for a QR code is said so, and a game's
link too long falls back to the code of the table shown."""

from __future__ import annotations

import re
from html import unescape

import segno

from adjudicator.web.pages import share, table
from adjudicator.web.pages.forms import decode_state, encode_state
from adjudicator.web.pages.game import one_table
from tests.web.ui_pages import GAME, html

TABLE = {
    "players": [{"name": "Ann", "hand": ["Draw 2", "Peace"]}, {"name": "Bo", "hand_size": 3}],
    "active": "Ann", "rules": ["Draw 3"], "goals": ["Hippyism"],
}
HOST = "http://fluxx.test"


def ruling_page(client, query: str, lang: str = "en") -> str:
    """The ruling page with its QR code: "Show QR code" loads it when opened (qr_fragment)."""
    response = client.get(f"/ruling?{query}&lang={lang}", base_url=HOST)
    assert response.status_code == 200, html(response)[:500]
    page = html(response)
    assert "<svg" not in page  # the code is made only when it is opened
    url = unescape(re.search(r'<details class="qr" hx-get="([^"]+)"', page).group(1))
    fragment = client.get(f"{url}&lang={lang}", base_url=HOST, headers={"HX-Request": "true"})
    assert fragment.status_code == 200
    return page + html(fragment)


def svg_of(page: str) -> str:
    match = re.search(r"<svg role=\"img\".*?</svg>", page, re.S)
    assert match, "no QR code on the page"
    return match.group(0)


def test_the_qr_code_and_the_copy_button_carry_the_absolute_link(client):
    page = ruling_page(client, "state=" + encode_state(TABLE))
    link = unescape(re.search(r'class="permalink" href="([^"]+)"', page).group(1))
    assert link.startswith("/ruling?state=z")  # the visible link: the table, deflated
    assert [p["name"] for p in decode_state(link.split("=", 1)[1])["players"]] == ["Ann", "Bo"]
    absolute = HOST + link
    assert unescape(re.search(r'data-copy="([^"]+)"', page).group(1)) == absolute
    svg = svg_of(page)
    assert unescape(re.search(r'data-url="([^"]+)"', svg).group(1)) == absolute
    assert 'aria-label="QR code of the link to this ruling"' in svg
    assert "style" not in svg  # the CSP allows no inline style
    assert '<details class="qr"' in page and "Show QR code" in page
    assert "<figcaption>Scan it with another phone" in page


def test_the_qr_code_decodes_to_the_same_modules_as_the_link():
    """The inline SVG draws segno's code of the URL, module for module."""
    url = HOST + "/ruling?state=" + encode_state(TABLE)
    qr = share.qr_code(url, "QR")
    assert qr is not None and qr.url == url
    expected = segno.make(url, error="l", micro=False, boost_error=True)
    assert qr.version == expected.version <= share.MAX_VERSION
    modules = expected.symbol_size(scale=1, border=share.BORDER)[0]
    scale = share.SIZE_PX // modules  # a whole number of pixels a module
    assert scale >= 2
    assert f'viewBox="0 0 {modules * scale} {modules * scale}"' in qr.svg
    assert f'width="{modules * scale}"' in qr.svg and f"scale({scale})" in qr.svg


def test_a_link_too_long_for_a_qr_code_says_so(client, monkeypatch):
    monkeypatch.setattr(share, "MAX_VERSION", 1)
    page = ruling_page(client, "state=" + encode_state(TABLE))
    assert "<svg role=\"img\"" not in page
    link = unescape(re.search(r'data-copy="([^"]+)"', page).group(1))
    assert f"This link is too long for a QR code ({len(link)} characters)" in page
    zh = ruling_page(client, "state=" + encode_state(TABLE), lang="zh")
    assert "此链接太长" in zh and "显示二维码" in zh


def test_the_qr_page_without_javascript_and_only_for_this_site(client):
    page = ruling_page(client, "state=" + encode_state(TABLE))
    url = unescape(re.search(r'<details class="qr" hx-get="([^"]+)"', page).group(1))
    alone = html(client.get(url, base_url=HOST))  # the link inside the fold, followed
    assert "<svg role=\"img\"" in alone and "<html" in alone
    foreign = client.get("/ruling/qr", query_string={"link": "//evil.example/x",
                                                     "format": "json"}, base_url=HOST)
    assert foreign.get_json()["url"] == HOST + "/"  # not another site's link


def test_no_qr_code_beyond_the_largest_version():
    assert share.qr_code("http://x/" + "a" * 3000, "QR") is None  # past version 40
    assert share.qr_code("http://x/" + "a" * 1500, "QR") is None  # past MAX_VERSION
    assert share.qr_code("http://x/" + "a" * 800, "QR") is not None
    # MAX_BYTES, the links not even tried, is what a code of MAX_VERSION holds
    fits = segno.make("a" * share.MAX_BYTES, error="l", micro=False, mode="byte")
    assert fits.version == share.MAX_VERSION
    assert segno.make("a" * (share.MAX_BYTES + 1), error="l", micro=False,
                      mode="byte").version == share.MAX_VERSION + 1


def test_a_game_link_too_long_falls_back_to_the_table_shown(client, monkeypatch):
    game = one_table(GAME).then({"kind": "play", "player": "Ann", "card": "jackpot"}, {}, GAME)
    made = share.qr_code

    def no_game_codes(url: str, label: str):
        return None if "game=" in url else made(url, label)

    monkeypatch.setattr(table, "qr_code", no_game_codes)
    page = ruling_page(client, "game=" + game.token())
    link = unescape(re.search(r'class="permalink" href="([^"]+)"', page).group(1))
    assert link.startswith("/ruling?game=")
    assert unescape(re.search(r'data-copy="([^"]+)"', page).group(1)) == HOST + link
    svg = svg_of(page)
    assert "state=" in unescape(re.search(r'data-url="([^"]+)"', svg).group(1))
    assert "opens the table shown, without the game" in page
