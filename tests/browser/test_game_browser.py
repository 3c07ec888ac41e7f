"""Going on from a ruling, in a real browser: a listed move is a button that shows its outcome,
"Play this" makes the outcome the table, Undo and Redo walk the log, and so do the browser's
Back and Forward; after a win nothing more is offered. Screenshots at desktop and phone size."""

from __future__ import annotations

import re

import pytest

from adjudicator.web.pages.forms import encode_state
from tests.browser.pw import Page, Route, expect
from tests.browser.test_ui_browser import fill_two_seats
from tests.web.ui_pages import GAME

pytestmark = pytest.mark.slow  # a real browser: the whole suite runs it, the fast run does not

TABLE = GAME


def move_button(page: Page, words: str):
    return page.locator(".moves .move-button", has_text=words)


def test_play_a_move_undo_redo_and_back(page: Page, shoot) -> None:
    page.goto("/ruling?state=" + encode_state(TABLE))
    move_button(page, "Jackpot").click()
    answer = page.locator("#whatif .play-result")
    expect(answer).to_contain_text("What if Ann plays Jackpot?")
    expect(answer.locator(".outcome .changes").first).to_contain_text("Ann drew 3")
    shoot(page, "game-whatif-desktop")
    answer.get_by_role("link", name="Play this").click()
    # the new page's scripts must have run before its buttons are used: a click before htmx
    # has taken the forms over posts the form itself (the page of the answer, not #whatif)
    page.wait_for_load_state("load")
    log = page.locator(".game-log")
    expect(log).to_contain_text("After move 1 of 1")
    expect(page.locator(".seat-view.active .hand-card [data-card=moon]")).to_be_visible()
    # a second move from there: Bread makes Toast with the Toaster, and Ann wins
    move_button(page, "Bread").click()
    win = page.locator("#whatif .outcome-win")
    expect(win).to_contain_text("Ann wins")
    win.get_by_role("link", name="Play this").click()
    expect(page.locator(".banner.win")).to_contain_text("Ann wins the game.")
    expect(page.locator(".fact-over")).to_be_visible()
    expect(page.locator(".whatif-form")).to_have_count(0)  # nothing is played after a win
    shoot(page, "game-log-desktop")
    page.get_by_role("link", name="Undo").click()
    expect(log).to_contain_text("After move 1 of 2")
    expect(page.locator(".log-entry.undone")).to_have_count(1)
    page.get_by_role("link", name="Undo").click()
    expect(log).to_contain_text("Before the first move")
    page.get_by_role("link", name="Redo").click()
    expect(log).to_contain_text("After move 1 of 2")
    # the browser's Back and Forward walk the same steps
    page.go_back()
    expect(log).to_contain_text("Before the first move")
    page.go_back()
    expect(log).to_contain_text("After move 1 of 2")
    page.go_forward()
    expect(log).to_contain_text("Before the first move")
    assert not page.js_errors, page.js_errors


def test_the_game_on_a_phone(phone_page: Page, shoot) -> None:
    page = phone_page
    page.goto("/ruling?state=" + encode_state(TABLE))
    move_button(page, "Use What You Take").click()
    answer = page.locator("#whatif .play-result")
    expect(answer.locator(".group-title")).to_have_count(2)
    expect(answer.locator(".badge.odds").first).to_be_visible()
    shoot(page, "game-whatif-phone")
    answer.get_by_role("link", name="Play this").first.click()
    expect(page.locator(".game-log")).to_contain_text("After move 1 of 1")
    shoot(page, "game-log-phone")
    # nothing wider than the screen
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    assert not page.js_errors, page.js_errors


def test_back_after_an_inline_ruling_returns_to_the_table_entered(page: Page) -> None:
    fill_two_seats(page)
    page.click("#get-ruling")
    expect(page.locator("#result .verdict")).to_be_visible()
    assert "/ruling?state=" in page.url
    page.go_back()
    # Back misses htmx's history cache and reloads the editor holding the table. The page on
    # screen already shows Ann before that reload lands, so wait for the reloaded editor (its
    # language links keep the table, where the inline ruling's pointed at the ruling) and for
    # its load (htmx takes over the browser's history once the document is loaded) before going
    # Forward: a Forward during the reload races it, and one before htmx is ready changes the
    # address alone.
    expect(page.locator("#lang-switch a").first).to_have_attribute(
        "href", re.compile(r"^/\?state="))
    page.wait_for_load_state("load")
    expect(page.locator("input[name='players-0-name']")).to_have_value("Ann")
    expect(page.locator("input[name='players-1-hand_size']")).to_have_value("2")
    expect(page.locator(".verdict")).to_have_count(0)
    page.go_forward()
    expect(page.locator(".verdict")).to_be_visible()
    assert not page.js_errors, page.js_errors


def test_forward_before_the_pages_scripts_have_loaded_still_shows_the_ruling(
        page: Page) -> None:
    # On a slow connection the player may press Forward (to the ruling htmx pushed) while the
    # reloaded editor's scripts are still on their way: the page must follow the address
    fill_two_seats(page)
    page.click("#get-ruling")
    expect(page.locator("#result .verdict")).to_be_visible()
    held: list[Route] = []
    page.route("**/htmx.min.js", lambda route: held.append(route))
    page.go_back()
    # the reloaded editor's HTML (its language links keep the table), htmx not yet arrived
    expect(page.locator("#lang-switch a").first).to_have_attribute(
        "href", re.compile(r"^/\?state="))
    expect(page.locator(".verdict")).to_have_count(0)
    assert held, "the reloaded editor asks for htmx"
    page.go_forward(wait_until="commit")
    expect(page.locator(".verdict")).to_be_visible(timeout=5_000)
    assert "/ruling?state=" in page.url
    page.unroute_all(behavior="ignoreErrors")  # the requests of the pages left are gone
    expect(page.locator(".verdict")).to_be_visible()
    assert not page.js_errors, page.js_errors


def test_a_phone_ruling_reads_in_two_screens_before_the_folds(phone_page: Page, shoot) -> None:
    page = phone_page
    page.goto("/ruling?state=" + encode_state(TABLE))
    expect(page.locator(".deciding li").first).to_be_visible()
    folds = page.locator(".findings").bounding_box()
    assert folds and folds["y"] < 2 * 844, folds  # the verdict, what is owed and the moves
    expect(page.locator(".findings details.topic").first).not_to_have_attribute("open", "")
    shoot(page, "ruling-phone-folded")
    assert not page.js_errors, page.js_errors
