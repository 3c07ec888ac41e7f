"""Passing the table to another phone, and printing a ruling, in a real browser.

"Show QR code" opens the QR code of the page's absolute link (an inline SVG, under the page's
Content Security Policy); "Copy the link" copies that URL. Printed (print media), the ruling
keeps the verdict, the table and the sources (with their addresses) on white, without the
navigation, the language switch, the buttons or the forms. Screenshots of the ruling with its
QR code, at desktop and phone sizes, and of its print, land in tests/browser/screenshots/.
"""

from __future__ import annotations

import pytest

from adjudicator.web.pages.forms import encode_state
from tests.browser.pw import Page, expect
from tests.web.ui_pages import TABLE

pytestmark = pytest.mark.slow  # a real browser: the whole suite runs it, the fast run does not

RULING = "/ruling?state=" + encode_state(TABLE)


def open_qr(page: Page, live_server: str) -> str:
    """Opens "Show QR code" and checks the code against the page's link; its absolute URL."""
    page.goto(RULING)
    svg = page.locator(".share .qr svg.qr-code")
    expect(svg).to_be_hidden()  # behind the toggle
    page.get_by_text("Show QR code").click()
    expect(svg).to_be_visible()
    expect(page.locator(".qr summary .when-open")).to_be_visible()
    expect(page.locator(".qr summary .when-closed")).to_be_hidden()
    absolute = live_server + page.locator(".share a.permalink").get_attribute("href")
    assert absolute.startswith(live_server + "/ruling?state=z")
    expect(svg).to_have_attribute("data-url", absolute)
    expect(svg).to_have_attribute("role", "img")
    expect(page.get_by_role("img", name="QR code of the link to this ruling")).to_be_visible()
    # drawn square and big enough to scan
    box = svg.bounding_box()
    assert box and abs(box["width"] - box["height"]) < 1 and box["width"] >= 150, box
    return absolute


def test_the_qr_code_of_the_link_desktop(page: Page, live_server: str, shoot) -> None:
    absolute = open_qr(page, live_server)
    copy = page.locator("button.copy-link")
    expect(copy).to_have_attribute("data-copy", absolute)
    shoot(page, "ruling-qr-desktop")
    assert not page.js_errors, page.js_errors  # a CSP violation would be one


def test_copy_the_link_copies_the_absolute_url(browser, live_server: str) -> None:
    context = browser.new_context(base_url=live_server, locale="en-US")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page = context.new_page()
    try:
        page.goto(RULING)
        copy = page.locator("button.copy-link")
        expect(copy).to_have_text("Copy the link")
        expect(copy).to_be_visible()
        copy.click()
        expect(copy).to_have_text("Link copied")
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == live_server + page.locator("a.permalink").get_attribute("href")
    finally:
        context.close()


def test_the_qr_code_of_the_link_phone(phone_page: Page, live_server: str, shoot) -> None:
    open_qr(phone_page, live_server)
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width}px)"
    shoot(phone_page, "ruling-qr-phone")
    assert not phone_page.js_errors, phone_page.js_errors


def test_print_keeps_the_ruling_and_drops_what_is_clicked(page: Page, shoot) -> None:
    page.goto(RULING)
    page.emulate_media(media="print")
    for gone in ("header.site", "nav.primary", ".lang-switch", ".share", "footer.site",
                 ".hand-card button.whatif", ".copy-link"):
        expect(page.locator(gone).first).to_be_hidden()
    expect(page.locator("form:visible button:visible:not(.move-button)")).to_have_count(0)
    expect(page.locator(".verdict .banner")).to_be_visible()
    expect(page.locator(".verdict .fact-draw")).to_contain_text("Ann must still draw")
    expect(page.locator(".table-view .seat-view.active")).to_be_visible()
    expect(page.locator(".findings .finding").first).to_be_visible()
    # the listed moves stay, as words
    expect(page.locator(".moves .move-button").first).to_be_visible()
    source = page.locator(".findings a.source").first
    expect(source).to_be_visible()
    after = source.evaluate("a => getComputedStyle(a, '::after').content")
    assert source.get_attribute("href") in after, after
    background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    assert background == "rgb(255, 255, 255)", background
    shoot(page, "ruling-print-desktop")
    page.emulate_media(media="screen")
    expect(page.locator("nav.primary")).to_be_visible()
    expect(page.locator(".sources a.source").first).not_to_contain_text("(/")
