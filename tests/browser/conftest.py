"""A real ASGI server on loopback and headless Debian Chromium driven by Playwright.

The server runs in a subprocess on its own SQLite database (a temp DATA_DIR), so the
browser sees exactly what a user would. Under CI=true a missing browser fails.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import servers

from .browsing import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, LiveServer, refused_by_policy, serving


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from serving(LiveServer(tmp_path_factory.mktemp("server")))


@pytest.fixture(scope="package")  # one Chromium for every browser test: each page has a context of its own
def browser() -> Iterator[Any]:
    ARTIFACTS.mkdir(exist_ok=True)
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        servers.unavailable(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every browser test is backend-free: its server drops DATABASE_URL and REDIS_URL
    (``LiveServer.env``), so it is the same test on either pass of the suite."""
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(pytest.mark.backend_free)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call":
        item.stash.setdefault(FAILED, report.failed)  # type: ignore[arg-type]
    return report


FAILED = pytest.StashKey[bool]()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A desktop-sized page; the test fails if the site's policy refused anything the
    page tried to run or load (every page must work under it)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    refused = refused_by_policy(page)
    yield page
    if request.node.stash.get(FAILED, False):
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()
    assert refused == [], f"the Content-Security-Policy refused what a page needs: {refused}"
