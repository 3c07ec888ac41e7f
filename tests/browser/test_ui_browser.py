"""The web UI in a real browser (Playwright driving Debian's Chromium).

A newcomer's path: build a table in the editor with the card picker (English and Chinese
names), read the ruling, follow a citation to the FAQ, see it all in Chinese, search the FAQ in
Chinese, share the ruling's permalink. Screenshots of the main pages at desktop and phone
widths land in tests/browser/screenshots/.
"""

from __future__ import annotations

import re

import pytest

from adjudicator.web.pages.forms import decode_state, encode_state
from tests.browser.pw import Page, expect
from tests.web.ui_pages import CHAIN, TABLE, WHATIF_TABLE, what_if

pytestmark = pytest.mark.slow  # a real browser: the whole suite runs it, the fast run does not


def pick(page: Page, field: str, query: str) -> None:
    """Type into a zone's card picker and choose the first match (Down, then Enter: Enter alone
    adds only a card the text names exactly)."""
    box = page.locator(f"textarea[name='{field}'] + .picker input[type=search]")
    box.fill(query)
    options = page.locator(f"textarea[name='{field}'] + .picker li[role=option]")
    expect(options.first).to_be_visible()
    box.press("ArrowDown")
    box.press("Enter")


def build_table(page: Page) -> None:
    page.goto("/")
    page.fill("input[name='players-0-name']", "Ann")
    pick(page, "players-0-hand", "draw 2")
    pick(page, "players-0-hand", "和平")  # Peace, by its Chinese name
    pick(page, "players-0-hand", "jackp")
    page.fill("input[name='players-1-name']", "Bo")
    page.fill("input[name='players-1-hand_size']", "3")
    pick(page, "players-1-keepers", "love")
    pick(page, "rules", "Hand Limit 2")
    pick(page, "goals", "嬉皮")  # Hippyism, by part of its Chinese name


def test_build_a_table_and_get_the_ruling(page: Page, shoot) -> None:
    build_table(page)
    hand = page.locator("textarea[name='players-0-hand'] + .picker .chip")
    expect(hand).to_have_count(3)
    assert hand.nth(1).get_attribute("data-card") == "peace"
    assert page.locator("textarea[name='players-0-hand']").input_value() == (
        "draw_2\npeace\njackpot")
    # a zone's label names its card search box (the textarea behind it is hidden)
    expect(page.get_by_label("Rules on the table")).to_have_attribute("role", "combobox")
    shoot(page, "editor-filled-desktop")
    page.click("#get-ruling")
    result = page.locator("#result .verdict")
    expect(result).to_be_visible()
    expect(result).to_contain_text("Ann must still draw")
    expect(result.locator(".fact-limits")).to_contain_text("Hand Limit: 2")
    expect(result.locator(".fact-discards")).to_contain_text("Bo must discard 1 card from hand now")
    # the table is drawn as cards, the active player's hand with "What if I play this?"
    expect(page.locator("#result .seat-view.active .hand-card")).to_have_count(3)
    # the answer came inline, and the address bar holds its permalink (HX-Push-Url)
    page.wait_for_url(re.compile(r"/ruling\?state=[A-Za-z0-9_-]+$"))
    expect(page.locator("form#editor")).to_be_visible()
    shoot(page, "editor-ruling-desktop")
    assert not page.js_errors, page.js_errors


def test_paste_yaml_load_it_and_add_a_player(page: Page) -> None:
    page.goto("/")
    page.click("summary:has-text('Paste a state')")
    page.fill("textarea[name='state_text']",
              "players:\n  - {name: Ann, hand: [Draw 2]}\n  - {name: Bo, hand_size: 2}\n"
              "active: Bo\nrules: [Play 2]\n")
    page.click("button:has-text('Load into the editor')")
    expect(page.locator("input[name='players-1-name']")).to_have_value("Bo")
    expect(page.locator("input[name='active'][value='1']")).to_be_checked()
    expect(page.locator("textarea[name='rules'] + .picker .chip")).to_have_text(["Play 2×"])
    seats = page.locator("#seats .seat")
    before = seats.count()
    page.click("#add-seat")
    expect(seats).to_have_count(before + 1)
    page.fill(f"input[name='players-{before}-name']", "Cy")
    page.click("#get-ruling")
    expect(page.locator("#result .seat-view .player-name")).to_have_text(["Ann", "Bo", "Cy"])
    assert not page.js_errors, page.js_errors


def test_what_if_i_play_this(page: Page) -> None:
    answer = what_if(page, WHATIF_TABLE, "draw_2")
    expect(answer).to_contain_text("What if Ann plays Draw 2?")
    outcome = answer.locator(".outcome").first
    expect(outcome.locator(".changes")).to_contain_text("Draw 2")
    outcome.locator(".outcome-ruling > summary").click()  # the ruling after it, folded
    expect(outcome.locator(".banner")).to_be_visible()
    outcome.locator("a.permalink").click()
    expect(page.locator(".zone-rules .card[data-card=draw_2]")).to_be_visible()
    expect(page.locator(".zone-rules .card[data-card=draw_3]")).to_have_count(0)


def test_click_a_citation_and_land_on_the_faq_entry(page: Page) -> None:
    build_table(page)
    page.click("#get-ruling")
    citation = page.locator("#result .finding a.source-faq").first
    expect(citation).to_be_visible()
    target = citation.get_attribute("href")
    entry_id = target.rsplit("/", 1)[1]
    citation.click()
    page.wait_for_url(re.compile(re.escape(target) + "$"))
    expect(page.locator("h1 .faq-id")).to_have_text(entry_id)
    # the answer in the page's language; the other one folded below it
    expect(page.locator(".answer > blockquote")).not_to_be_empty()
    expect(page.locator(".answer details.original blockquote")).to_be_hidden()


def test_switch_to_chinese_and_it_stays(page: Page, shoot) -> None:
    page.goto("/")
    expect(page.locator("h1")).to_have_text("Set up the table")
    page.get_by_role("link", name="中文").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    expect(page.locator("h1")).to_have_text("布置牌桌")
    page.get_by_role("link", name="规则书").click()  # remembered without ?lang=
    expect(page.locator("h1")).to_have_text("规则书")
    page.goto("/ruling?state=" + encode_state(TABLE))
    expect(page.locator(".verdict .fact-draw h3")).to_have_text("Ann 还须抓牌")
    expect(page.locator(".seat-view.active .card[data-card=peace] .card-name")).to_have_text("和平")
    shoot(page, "ruling-zh-desktop")


def test_search_the_faq_in_chinese(page: Page, shoot) -> None:
    page.goto("/faq?lang=zh")
    page.fill("#faq-q", "意外卡")
    page.press("#faq-q", "Enter")
    count = page.locator("#faq-results .count")
    expect(count).to_contain_text("意外卡")
    first = page.locator("#faq-results .faq-link").first
    expect(first).to_be_visible()
    href = first.get_attribute("href")
    shoot(page, "faq-search-zh-desktop")
    first.click()
    page.wait_for_url(re.compile(re.escape(href) + "$"))
    expect(page.locator(".answer")).to_be_visible()


def test_open_a_shared_permalink(page: Page, browser, live_server: str) -> None:
    build_table(page)
    page.click("#get-ruling")
    link = page.locator("#result a.permalink").first
    expect(link).to_be_visible()
    url = live_server + link.get_attribute("href")
    verdict = page.locator("#result .facts").inner_text()
    friend = browser.new_context(locale="zh-CN")  # someone else, another browser
    try:
        other = friend.new_page()
        other.goto(url + "&lang=en")
        expect(other.locator(".verdict .facts")).to_have_text(verdict)
        expect(other.locator(".seat-view .player-name")).to_have_text(["Ann", "Bo"])
    finally:
        friend.close()


def test_the_editor_works_without_javascript(browser, live_server: str) -> None:
    context = browser.new_context(java_script_enabled=False, base_url=live_server)
    try:
        page = context.new_page()
        page.goto("/")
        page.fill("input[name='players-0-name']", "Ann")
        page.fill("textarea[name='players-0-hand']", "Draw 2\n和平")
        page.fill("input[name='players-1-name']", "Bo")
        page.fill("input[name='players-1-hand_size']", "2")
        page.click("#get-ruling")
        page.wait_for_url(re.compile(r"/ruling\?state="))
        expect(page.locator(".verdict .fact-play")).to_contain_text("Ann must still play")
    finally:
        context.close()


MAIN_PAGES = {
    "editor": "/",
    "ruling": "/ruling?state=" + encode_state(TABLE),
    "faq": "/faq",
    "faq-entry": "/faq/002-65",
    "rulebook": "/rulebook",
    "cards": "/cards",
    "card": "/cards/draw_2",
}


@pytest.mark.parametrize("name", list(MAIN_PAGES))
def test_screenshots_desktop_and_phone(page: Page, phone_page: Page, shoot, name: str) -> None:
    for view, size in ((page, "desktop"), (phone_page, "phone")):
        view.goto(MAIN_PAGES[name])
        expect(view.locator("main h1")).to_be_visible()
        # nothing sticks out sideways on a phone: the page is as wide as the screen
        width = view.evaluate("document.documentElement.scrollWidth")
        assert width <= view.viewport_size["width"], f"{name} is {width}px wide on {size}"
        shoot(view, f"{name}-{size}")
        assert not view.js_errors, view.js_errors  # no script error, no CSP violation


# ---- What-if and the language switch (tests/web/test_whatif.py pins the same pages
# through Flask's test client): an inline ruling puts its permalink in the address bar; a
# Surprise answering the open chain is tried as a Surprise, and resolving the chain has its own
# button.
PERMALINK = re.compile(r"/ruling\?state=[A-Za-z0-9_-]+$")


def test_the_language_switch_after_an_inline_ruling_keeps_the_table(page: Page) -> None:
    page.goto("/")
    page.fill("input[name='players-0-name']", "Ann")
    for query in ("draw 2", "和平"):  # the hand's card picker, first match
        box = page.locator("textarea[name='players-0-hand'] + .picker input[type=search]")
        box.fill(query)
        expect(page.locator("textarea[name='players-0-hand'] + .picker li[role=option]")
               .first).to_be_visible()
        box.press("Enter")
    page.fill("input[name='players-1-name']", "Bo")
    page.fill("input[name='players-1-hand_size']", "3")
    page.click("#get-ruling")
    expect(page.locator("#result .verdict")).to_be_visible()
    page.wait_for_url(PERMALINK)
    permalink = page.url
    page.get_by_role("link", name="中文").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    expect(page.locator(".verdict .fact-draw h3")).to_have_text("Ann 还须抓牌")
    expect(page.locator(".seat-view.active .card[data-card=peace] .card-name")).to_have_text("和平")
    page.go_back()
    page.wait_for_url(permalink)
    page.go_forward()
    expect(page.locator(".seat-view.active .card[data-card=draw_2]")).to_be_visible()
    assert not page.js_errors, page.js_errors


def test_what_if_on_a_surprise_answering_the_chain(page: Page) -> None:
    answer = what_if(page, CHAIN, "veto")
    expect(answer).to_contain_text("What if Ann plays Veto!?")
    expect(answer.locator(".banner.illegal")).to_have_count(0)
    page.locator(".moves").get_by_role("button", name="resolve the chain").click()
    expect(answer).to_contain_text("What if Ann resolves the chain of Trade Hands?")
    assert not page.js_errors, page.js_errors


# ---- the editor (tests/web/test_editor.py pins the same through Flask's test
# client): Enter in an ordinary editor field gets the ruling. A browser's implicit submission
# presses the form's first submit button, so the form opens with a hidden ruling button
# (`default-submit`, templates/editor.html) ahead of the paste section's "Load into the editor";
# "Edit this table" keeps a draw pile given as a list of cards.
def fill_two_seats(page: Page) -> None:
    page.goto("/")
    page.fill("input[name='players-0-name']", "Ann")
    page.fill("input[name='players-1-name']", "Bo")
    page.fill("input[name='players-1-hand_size']", "2")


@pytest.mark.parametrize("field", ["input[name='draw_pile']",
                                   "input[name='players-1-hand_size']",
                                   "textarea[name='rules'] + .picker input[type=search]"])
def test_enter_in_a_field_gets_the_ruling(page: Page, field: str) -> None:
    fill_two_seats(page)
    page.fill("input[name='draw_pile']", "30")
    box = page.locator(field)
    if "search" in field:
        box.click()  # nothing typed in the card box: Enter is not a pick
    box.press("Enter")
    expect(page.locator("#result .verdict")).to_be_visible()
    page.wait_for_url(re.compile(r"/ruling\?state=[A-Za-z0-9_-]+$"))
    assert not page.js_errors, page.js_errors


def test_enter_gets_the_ruling_without_javascript(browser, live_server: str) -> None:
    context = browser.new_context(java_script_enabled=False, base_url=live_server)
    try:
        page = context.new_page()
        fill_two_seats(page)
        page.fill("input[name='draw_pile']", "30")
        page.press("input[name='draw_pile']", "Enter")
        page.wait_for_url(re.compile(r"/ruling\?state="))
        expect(page.locator(".verdict")).to_be_visible()
    finally:
        context.close()


def test_edit_this_table_keeps_a_listed_draw_pile(page: Page) -> None:
    state = {"players": [{"name": "A", "hand_size": 1}, {"name": "B", "hand_size": 1}],
             "active": "A", "draw_pile": ["Love", "Peace"]}
    page.goto("/ruling?state=" + encode_state(state))
    page.get_by_role("link", name="Edit this table").click()
    page.wait_for_url(re.compile(r"/\?state="))
    expect(page.locator("textarea[name='draw_pile'] + .picker .chip")).to_have_count(2)
    page.click("#get-ruling")
    expect(page.locator("#result .verdict")).to_be_visible()
    expect(page.locator("#result .errors")).to_have_count(0)
    page.wait_for_url(re.compile(r"/ruling\?state="))
    token = page.evaluate("() => new URL(location.href).searchParams.get('state')")
    assert decode_state(token)["draw_pile"] == ["love", "peace"]  # a permalink is deflated
    assert not page.js_errors, page.js_errors
