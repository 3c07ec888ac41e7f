"""On a phone (390 x 844), the targets a finger must hit alone are at least 24 by 24 CSS pixels
(WCAG 2.5.8, "Target Size (Minimum)"), in English and Chinese: the editor's check boxes and
radio buttons, the rulebook's contents and section anchors, the game log's links, and the
radio buttons of an answer's open choices. Links inside a sentence are exempt and not checked."""

from __future__ import annotations

import pytest

from adjudicator.web.pages.forms import encode_state
from tests.browser.pw import Page, expect
from tests.web.test_open_choices import NOMIC
from tests.web.ui_pages import GAME

pytestmark = pytest.mark.slow  # a real browser: the whole suite runs it, the fast run does not

MIN = 24
SIZES = """(selector) => Array.from(document.querySelectorAll(selector))
  .map((e) => [e.getBoundingClientRect(), e])
  .filter(([r]) => r.width > 0 && r.height > 0)
  .map(([r, e]) => [(e.innerText || e.value || e.name || e.tagName).trim().slice(0, 30),
                    Math.round(r.width * 10) / 10, Math.round(r.height * 10) / 10])"""


def too_small(page: Page, selector: str) -> list:
    sizes = page.evaluate(SIZES, selector)
    assert sizes, f"nothing matches {selector}"
    return [s for s in sizes if s[1] < MIN or s[2] < MIN]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_phone_targets_are_at_least_24_px(phone_page: Page, lang: str, shoot) -> None:
    page = phone_page
    page.goto(f"/?lang={lang}")
    assert not too_small(page, "form#editor input[type=checkbox], form#editor input[type=radio]")
    page.goto(f"/rulebook?lang={lang}")
    assert not too_small(page, "nav.toc a, .rule-section .anchor")
    # a game of two moves: the log links back to the start and to the first move
    page.goto(f"/ruling?lang={lang}&state=" + encode_state(GAME))
    for moves, card in ((1, "jackpot"), (2, "use_what_you_take")):  # Bread would win at once
        page.locator(f".moves form:has(input[value*='{card}']) button").click()
        page.locator("#whatif .apply-outcome").first.click()
        expect(page.locator(".log-entry")).to_have_count(moves + 1)  # the start and each move
    expect(page.locator(".log-go")).to_have_count(1)
    assert not too_small(page, ".log-go, .log-start > a, a.card.mini, .json-twin")
    shoot(page, f"tap-targets-log-{lang}")
    # the radio buttons of an open choice (Gambling's result, once n is given)
    page.goto(f"/ruling?lang={lang}&state=" + encode_state(NOMIC))
    page.locator(".seat-view.active .hand-card").filter(
        has=page.locator("[data-card=gambling]")).locator("button").click()
    page.locator("#whatif input[type=number]").fill("2")
    page.locator("#whatif .choices-submit").click()
    expect(page.locator("#whatif input[type=radio]")).to_have_count(2)
    assert not too_small(page, "#whatif input[type=radio], #whatif .choices-submit")
    assert not page.js_errors, page.js_errors
