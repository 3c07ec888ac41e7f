"""Browser fixtures: the app on a free localhost port, and Debian's Chromium under Playwright.

The server is werkzeug's, in a background thread, for the whole session. Chromium is the
system's (/usr/bin/chromium): no browser is ever downloaded. Without Playwright or Chromium the
browser tests are skipped with the reason, unless $CI is set: then they fail, so CI cannot pass
without having run them.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("FLUXX_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run on CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def live_server(store_path: Path) -> Iterator[str]:
    """The base URL of the app served on 127.0.0.1 at a free port."""
    from werkzeug.serving import make_server

    from adjudicator.web import create_app

    app = create_app({"TESTING": True, "STORE_PATH": str(store_path)})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright for Python is not installed (pip install playwright)")
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        _unavailable(f"Chromium not found at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def _watched(page):
    """Collect script errors and console errors (a CSP violation is one) on `page.js_errors`."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.js_errors = errors
    return page


@pytest.fixture
def page(browser, live_server: str):
    """A fresh browser context (no cookies) at desktop size, English first."""
    context = browser.new_context(viewport=DESKTOP, locale="en-US", base_url=live_server)
    context.set_default_timeout(15_000)
    yield _watched(context.new_page())
    context.close()


@pytest.fixture
def phone_page(browser, live_server: str):
    context = browser.new_context(viewport=PHONE, locale="en-US", base_url=live_server,
                                  is_mobile=True, has_touch=True, device_scale_factor=2)
    context.set_default_timeout(15_000)
    yield _watched(context.new_page())
    context.close()


def screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


@pytest.fixture
def shoot():
    """Save a full-page screenshot under tests/browser/screenshots/ (git-ignored)."""
    return screenshot
