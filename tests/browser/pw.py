"""Playwright's page type and `expect` for the browser tests: without Playwright the tests that
import this module are skipped, except on CI, where they fail (see conftest.py)."""

from __future__ import annotations

import os

import pytest

try:
    from playwright.sync_api import Page, Route, expect
except ImportError:  # without Playwright: skip here, fail on CI (see conftest.py)
    if os.environ.get("CI"):
        raise
    pytest.skip("Playwright for Python is not installed (pip install playwright)",
                allow_module_level=True)

# as the pages' own default timeout (conftest.py): a ruling on a busy machine takes seconds
expect.set_options(timeout=15_000)

__all__ = ["Page", "Route", "expect"]
