"""A play that waits for a choice goes on in a real browser: the answer's open choices are
controls, "See the outcome of these choices" shows the outcome, "Play this" makes it the table
and the game continues from there. A play from a hand the table does not show, Fluxxnomic's
Gambling and a newcomer's join, in English and Chinese, at desktop and phone size."""

from __future__ import annotations

import pytest

from adjudicator.web.pages.forms import encode_state
from tests.browser.pw import Page, expect
from tests.web.test_open_choices import NOMIC, UNKNOWN_HAND

pytestmark = pytest.mark.slow  # a real browser: the whole suite runs it, the fast run does not

# Play 2: Bo plays two cards of his unknown hand, then his turn ends
TWO_PLAYS = {**UNKNOWN_HAND, "rules": ["Play 2"]}


def ask(page: Page, words: str):
    """The answer of the listed move whose button says `words`."""
    page.locator(".moves .move-button", has_text=words).first.click()
    return page.locator("#whatif .play-result")


def play_this(page: Page, answer, name: str = "Play this") -> None:
    answer.get_by_role("link", name=name).first.click()
    page.wait_for_load_state("load")


def test_a_play_from_an_unknown_hand_names_its_card_and_the_game_goes_on(page: Page,
                                                                          shoot) -> None:
    page.goto("/ruling?state=" + encode_state(TWO_PLAYS))
    answer = ask(page, "play")
    expect(answer.locator("h2")).to_have_text("What if Bo plays a card from their hand?")
    answer.get_by_label("card played").select_option(label="Draw 2")
    shoot(page, "choices-card-desktop")
    answer.get_by_role("button", name="See the outcome of these choices").click()
    expect(answer.locator("h2")).to_have_text("What if Bo plays Draw 2?")
    play_this(page, answer)
    expect(page.locator(".game-log")).to_contain_text("Bo: play Draw 2")
    # the game goes on from the new table: Bo plays again, a card the table names again
    answer = ask(page, "play")
    answer.get_by_label("card played").select_option(label="Milk")
    answer.get_by_role("button", name="See the outcome of these choices").click()
    play_this(page, answer)
    expect(page.locator(".seat-view", has_text="Bo").locator("[data-card=milk]")).to_be_visible()
    answer = ask(page, "end the turn")
    play_this(page, answer)
    expect(page.locator(".game-log")).to_contain_text("After move 3 of 3")
    expect(page.locator(".seat-view.active")).to_contain_text("Ann")
    assert not page.js_errors, page.js_errors


def test_gambling_and_a_join_in_chinese_on_a_phone(phone_page: Page, shoot) -> None:
    page = phone_page
    page.goto("/ruling?lang=zh&state=" + encode_state(NOMIC))
    answer = ask(page, "赌博")
    expect(answer.locator("h2")).to_have_text("如果 Ann 打出「赌博」？")
    answer.get_by_label("n 的值（要抓的牌数）").fill("2")
    answer.get_by_role("button", name="按这些选择查看结果").click()
    expect(answer.locator(".outcome")).to_have_count(2)
    # what the table saw: the cards were kept
    answer.get_by_label("保留（其中没有所有物）").check()
    shoot(page, "choices-gambling-phone-zh")
    answer.get_by_role("button", name="按这些选择查看结果").click()
    expect(answer.locator(".outcome")).to_have_count(1)
    play_this(page, answer, "就这样走")
    expect(page.locator(".game-log")).to_contain_text("第 1 步之后")
    # a newcomer joins: the answer asks the name
    answer = ask(page, "加入游戏")
    expect(answer.locator("h2")).to_have_text("如果有新玩家加入游戏？")
    answer.get_by_label("新玩家的名字").fill("Dee")
    shoot(page, "choices-join-phone-zh")
    answer.get_by_role("button", name="按这些选择查看结果").click()
    expect(answer.locator("h2")).to_have_text("如果 Dee 加入游戏？")
    play_this(page, answer, "就这样走")
    expect(page.locator(".seat-view").filter(has_text="Dee")).to_be_visible()
    # and the game goes on: Ann ends the phase
    answer = ask(page, "结束本阶段")
    expect(answer.locator(".outcome")).to_have_count(1)
    play_this(page, answer, "就这样走")
    expect(page.locator(".game-log")).to_contain_text("第 3 步之后")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    assert not page.js_errors, page.js_errors
