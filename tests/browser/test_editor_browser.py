"""The editor's card picker and its mistakes, in a real browser: typos and number words find the
card, a card of the wrong kind says what it is, a card the server refuses is marked on its chip
with its suggestions as buttons, and Tab moves from field to field with no invisible stop. Text
typed and not picked is never dropped: it is added when it names a card exactly, else the ruling
waits and the box says why; Enter adds only the card named or the suggestion chosen; a name no
card has gets the server's own suggestions."""

from __future__ import annotations

import re

import pytest

from tests.browser.pw import Page, Route, expect
from tests.browser.test_ui_browser import fill_two_seats, pick

pytestmark = pytest.mark.slow  # a real browser: the whole suite runs it, the fast run does not


def options(page: Page, field: str, query: str):
    box = page.locator(f"textarea[name='{field}'] + .picker input[type=search]")
    box.fill(query)
    return page.locator(f"textarea[name='{field}'] + .picker .picker-list li")


@pytest.mark.parametrize(("query", "card"), [("Infaltion", "inflation"),
                                              ("hand limit one", "hand_limit_1"),
                                              ("jackpt", "jackpot")])
def test_a_typo_or_a_number_word_still_finds_the_card(page: Page, query: str, card: str) -> None:
    page.goto("/")
    field = "rules" if card != "jackpot" else "players-0-hand"
    found = options(page, field, query)
    expect(found.first).to_have_attribute("data-card", card)
    assert not page.js_errors, page.js_errors


def test_a_typo_typed_before_the_fuzzy_search_arrives_is_matched_when_it_does(
        page: Page) -> None:
    # Fuse.js is loaded apart (a module): on a slow connection the player may type first
    held: list[Route] = []
    page.route("**/fuse.basic.min.mjs", lambda route: held.append(route))
    page.goto("/")
    found = options(page, "rules", "Infaltion")
    expect(found.first).to_have_text("No card matches")
    for _ in range(100):  # the module asked for, and held
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the editor asks for Fuse.js on its own"
    for route in held:
        route.continue_()
    expect(found.first).to_have_attribute("data-card", "inflation")
    assert not page.js_errors, page.js_errors


def test_a_card_of_another_kind_says_what_it_is(page: Page) -> None:
    page.goto("/")
    found = options(page, "rules", "Milk")
    expect(found).to_have_count(1)
    expect(found.first).to_have_text("Milk is a Keeper: it does not go here.")


def test_a_refused_card_is_marked_on_its_chip_with_its_fix(page: Page, shoot) -> None:
    page.goto("/")
    page.locator("details.paste summary").click()
    page.fill("textarea[name=state_text]", '{"players": [{"name": "Ann", "hand": ["Draw 2"]},'
              ' {"name": "Bo", "hand_size": 3}], "active": "Ann", "rules": ["Infaltion"]}')
    page.get_by_role("button", name="Load into the editor").click()
    chip = page.locator("textarea[name='rules'] + .picker .chip")
    expect(chip).to_have_count(1)
    page.click("#get-ruling")
    expect(page.locator("#result .errors")).to_be_visible()
    expect(chip).to_have_class("chip unknown chip-error")
    fix = chip.get_by_role("button", name="Inflation")
    expect(fix).to_be_visible()
    shoot(page, "editor-error-at-chip")
    fix.click()
    expect(chip).to_have_attribute("data-card", "inflation")
    page.click("#get-ruling")
    expect(page.locator("#result .verdict")).to_be_visible()
    # the refused table's 400 is the only console message: no script error
    assert all("status of 400" in e for e in page.js_errors), page.js_errors


def test_an_error_names_the_other_place_in_words(page: Page) -> None:
    page.goto("/")
    page.fill("input[name='players-0-name']", "Ann")
    pick(page, "players-0-hand", "love")
    page.fill("input[name='players-1-name']", "Bo")
    pick(page, "players-1-hand", "love")
    page.click("#get-ruling")
    message = page.locator("#result .error-message").first
    expect(message).to_contain_text("Player 1 (Ann)")
    expect(message).not_to_contain_text("/players/0")
    expect(page.locator("textarea[name='players-1-hand'] + .picker .chip-error")).to_have_count(1)


def test_tab_moves_through_the_editor_with_no_invisible_stop(page: Page) -> None:
    page.goto("/")
    page.locator("input[name='players-0-name']").focus()
    for _ in range(25):
        page.keyboard.press("Tab")
        where = page.evaluate("""() => {
            const el = document.activeElement;
            return {tag: el.tagName, cls: el.className || '',
                    visible: !!el.offsetParent || el === document.body,
                    open: [...document.querySelectorAll('.picker-list')].some(l => !l.hidden)};
        }""")
        assert where["tag"] != "BODY", where
        assert where["tag"] != "UL" and "picker-list" not in where["cls"], where
        assert where["visible"], where
        assert not where["open"], "Tab alone opened a picker's list"


def test_a_card_of_another_edition_keeps_its_name_when_the_edition_changes(page: Page) -> None:
    page.goto("/")
    pick(page, "players-0-hand", "peace")  # a Keeper of the rulebook deck, not of Math Fluxx
    page.select_option("select[name=edition]", "math")
    chip = page.locator("textarea[name='players-0-hand'] + .picker .chip")
    expect(chip).to_have_class(re.compile(r"\bother-edition\b"))
    expect(chip).to_contain_text("Peace")
    assert "not in this edition" in (chip.get_attribute("title") or "")


def test_a_surprise_left_in_hand_while_in_the_chain_is_offered_its_fix(page: Page) -> None:
    page.goto("/")
    page.locator("details.paste summary").click()
    page.fill("textarea[name=state_text]", '{"edition": "fluxx", "expansions": ["surprises"],'
              ' "players": [{"name": "Ann", "hand": ["Draw 2"]},'
              ' {"name": "Bo", "hand": ["Veto!", "Milk"]}], "active": "Ann",'
              ' "pending": [{"player": "Ann", "card": "Trade Hands"},'
              ' {"player": "Bo", "card": "Veto!"}]}')
    page.get_by_role("button", name="Load into the editor").click()
    expect(page.locator("textarea[name='players-1-hand'] + .picker .chip")).to_have_count(2)
    page.click("#get-ruling")
    chip = page.locator("textarea[name='players-1-hand'] + .picker .chip").first
    fix = chip.get_by_role("button", name="take it out of here")
    expect(fix).to_be_visible()
    fix.click()
    expect(page.locator("textarea[name='players-1-hand'] + .picker .chip")).to_have_count(1)
    page.click("#get-ruling")
    expect(page.locator("#result .verdict")).to_be_visible()


def search_box(page: Page, field: str):
    return page.locator(f"textarea[name='{field}'] + .picker input[type=search]")


def chips(page: Page, field: str):
    return page.locator(f"textarea[name='{field}'] + .picker .chip")


def test_text_left_in_a_card_box_is_added_or_holds_the_ruling_back(page: Page, shoot) -> None:
    fill_two_seats(page)
    search_box(page, "players-1-keepers").fill("Music")  # no such card in Fluxx
    page.click("#get-ruling")
    note = page.locator("textarea[name='players-1-keepers'] + .picker .picker-note")
    expect(note).to_have_text(re.compile("“Music” is not added: no card has exactly that name"))
    expect(search_box(page, "players-1-keepers")).to_be_focused()
    expect(search_box(page, "players-1-keepers")).to_have_attribute("aria-invalid", "true")
    shoot(page, "editor-uncommitted-refused")
    page.wait_for_timeout(300)
    expect(page.locator("#result .verdict")).to_have_count(0)  # the ruling was not asked for
    # a name typed in full, not picked, is the card: it is added and ruled on
    search_box(page, "players-1-keepers").fill("peace")
    page.click("#get-ruling")
    expect(page.locator("#result .verdict")).to_be_visible()
    expect(page.locator("#result .seat-view", has_text="Bo").locator("[data-card=peace]")
           ).to_be_visible()
    assert not page.js_errors, page.js_errors


def test_enter_adds_only_the_card_named_or_the_suggestion_chosen(page: Page) -> None:
    page.goto("/")
    box = search_box(page, "players-0-hand")
    box.fill("Taxes")  # not a card of the rulebook deck; Taxation resembles it
    expect(page.locator("textarea[name='players-0-hand'] + .picker li[role=option]").first
           ).to_be_visible()
    box.press("Enter")
    expect(chips(page, "players-0-hand")).to_have_count(0)
    expect(page.locator("textarea[name='players-0-hand'] + .picker .picker-note")).to_contain_text(
        "“Taxes” is not added")
    expect(page.locator("#result .verdict")).to_have_count(0)
    box.press("ArrowDown")  # the player chooses the first suggestion: that one is added
    chosen = page.locator("textarea[name='players-0-hand'] + .picker li[aria-selected=true]")
    card = chosen.get_attribute("data-card")
    box.press("Enter")
    expect(chips(page, "players-0-hand")).to_have_count(1)
    expect(chips(page, "players-0-hand").first).to_have_attribute("data-card", card)
    box.fill("TAXATION")  # the name itself, case aside
    box.press("Enter")
    expect(chips(page, "players-0-hand").nth(1)).to_have_attribute("data-card", "taxation")
    assert not page.js_errors, page.js_errors


@pytest.mark.parametrize(("query", "card"), [("The Sun", "sun"), ("Da Sun", "sun")])
def test_a_name_no_card_has_gets_the_servers_suggestions(page: Page, query: str,
                                                         card: str) -> None:
    page.goto("/")
    found = options(page, "players-0-hand", query)
    expect(found.first).to_have_text("No card has that name. Did you mean:")
    expect(page.locator("textarea[name='players-0-hand'] + .picker li[role=option]"
                        f"[data-card={card}]")).to_be_visible()
    assert not page.js_errors, page.js_errors
