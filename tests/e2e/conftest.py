"""Browser fixtures: Playwright driving Debian's Chromium, headless, against the live server."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

CHROMIUM = os.environ.get("CLAIMCHECK_CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(
    os.environ.get("CLAIMCHECK_SCREENSHOTS", settings.BASE_DIR / "artifacts" / "screenshots")
)


@pytest.fixture
def browser() -> Iterator[Any]:
    """Started per test: Playwright's sync API keeps an event loop running in this thread while it
    is open, which would break later tests that call asyncio.run()."""
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.fail(
            f"Chromium not found at {CHROMIUM}; `apt-get install chromium` (scripts/test does)"
        )
    # Playwright's sync API runs an event loop in this thread; the Django test database is
    # touched from the same thread by fixtures, which is safe here.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def screenshot(page: Any) -> Any:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
