"""axe-core (axe-playwright-python) on every main page of the web UI, in English and Chinese:
no violation of impact "serious" or "critical" (colour contrast, names of buttons and links,
labels, landmarks, the language of the page...).

The pages: the editor, a ruling with its table (the QR code shown), a What-if answer shown
inline in it, a game's page after a move (its log, a fold opened), the FAQ list, one FAQ entry,
the FAQ coverage, the rulebook, the card list, one card, and the error page of a damaged link.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest

from adjudicator.web.pages.forms import encode_state
from tests.browser.pw import Page, expect
from tests.web.ui_pages import GAME, TABLE, WHATIF_TABLE

try:
    from axe_playwright_python.sync_playwright import Axe
except ImportError:  # as for Playwright (tests/browser/pw.py): skipped here, a failure on CI
    if os.environ.get("CI"):
        raise
    pytest.skip("axe-playwright-python is not installed (it is in the test extra)",
                allow_module_level=True)

pytestmark = pytest.mark.slow  # a real browser: the whole suite runs it, the fast run does not

BLOCKING = {"serious", "critical"}


def _ruling(page: Page, lang: str) -> None:
    page.goto(f"/ruling?lang={lang}&state=" + encode_state(TABLE))
    page.locator(".qr > summary").click()
    expect(page.locator(".qr svg")).to_be_visible()


def _whatif(page: Page, lang: str) -> None:
    page.goto(f"/ruling?lang={lang}&state=" + encode_state(WHATIF_TABLE))
    page.locator(".seat-view.active .hand-card button.whatif").first.click()  # Draw 2
    # the engine's first play of the session may take a while
    expect(page.locator("#whatif .play-result .outcome").first).to_be_visible(timeout=30_000)


def _game(page: Page, lang: str) -> None:
    """A game's page after one move: its log, Undo, and the ruling of the table after it."""
    page.goto(f"/ruling?lang={lang}&state=" + encode_state(GAME))
    page.locator(".moves .move-button").first.click()
    page.locator("#whatif a.apply-outcome").first.click(timeout=30_000)
    expect(page.locator(".game-log .undo")).to_be_visible()
    page.locator(".findings details.topic > summary").first.click()  # a fold opened


def _visit(path: str) -> Callable[[Page, str], None]:
    def visit(page: Page, lang: str) -> None:
        sep = "&" if "?" in path else "?"
        page.goto(f"{path}{sep}lang={lang}")
    return visit


PAGES: dict[str, Callable[[Page, str], None]] = {
    "editor": _visit("/"),
    "ruling": _ruling,
    "whatif": _whatif,
    "game": _game,
    "faq": _visit("/faq"),
    "faq-entry": _visit("/faq/002-65"),
    "faq-coverage": _visit("/faq/coverage"),
    "rulebook": _visit("/rulebook"),
    "cards": _visit("/cards"),
    "card": _visit("/cards/peace"),
    "bad-link": _visit("/ruling?state=zNOT-A-LINK"),
}


def blocking_violations(page: Page) -> list[str]:
    """axe's violations of impact serious or critical, one line each with the nodes it found."""
    results = Axe().run(page)
    lines = []
    for v in results.response["violations"]:
        if v.get("impact") not in BLOCKING:
            continue
        targets = [" ".join(map(str, n.get("target", []))) for n in v.get("nodes", [])]
        lines.append(f"{v['impact']} {v['id']}: {v['help']} ({len(targets)}): "
                     + "; ".join(targets[:6]))
    return lines


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(PAGES))
def test_no_serious_accessibility_violation(page: Page, name: str, lang: str) -> None:
    PAGES[name](page, lang)
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans" if lang == "zh" else "en")
    found = blocking_violations(page)
    assert not found, f"{name} ({lang}):\n" + "\n".join(found)
    # the error page's own status (400) is reported on the console as a failed load
    errors = [e for e in page.js_errors if not (name == "bad-link" and "status of 400" in e)]
    assert not errors, errors
