"""Seen in a real browser (issue 36): the good-roads view (/good-roads/) gains a table
live as a good road forms on it and loses it as the road ends, waiting for a good road
in the page's language in between, on a phone and a desktop."""

from __future__ import annotations

from typing import Any

import pytest

from .browsing import LiveServer, page_width, screenshot, sized_page
from .naturals import NaturalShoe

WAITING = {"en": "Waiting for a good road…", "zh-hant": "等待好路…", "th": "กำลังรอเค้าไพ่ดี…"}


@pytest.mark.parametrize(("size", "language"), [("desktop", "en"), ("phone-360", "zh-hant"), ("phone-390", "th")])
def test_the_good_roads_view_gains_and_loses_a_table_live_and_waits_in_the_page_s_language(
    server: LiveServer, browser: Any, size: str, language: str
) -> None:
    slug, shoe = f"good-view-{size}", NaturalShoe()
    server.table(slug, "Baccarat E")
    server.post(slug, "shoes")

    def deal(winners: str) -> None:
        for winner in winners:
            server.post(slug, "rounds", shoe.round(winner))

    with sized_page(browser, size) as page:
        page.goto(f"{server.url}/good-roads/?lang={language}")
        page.wait_for_selector("#connection.connection-live")
        waiting, card = page.locator("#no-good-road"), page.locator(f"#table-{slug}")
        assert waiting.is_visible() and waiting.inner_text() == WAITING[language]
        deal("PB")
        page.wait_for_function(f"document.getElementById('table-{slug}').dataset.version.startsWith('1:2')")
        assert card.is_hidden() and waiting.is_visible(), "no good road yet: not in the view"
        deal("BBB")
        page.wait_for_function(f"!document.getElementById('table-{slug}').hidden")
        assert waiting.is_hidden() and "long_banker" in (card.get_attribute("data-good-roads") or "")
        # Beside the good road, the next round's returns from the cards left in the shoe.
        page.wait_for_function(f"/\\d%/.test(document.querySelector('#table-{slug} .card-odds').textContent)")
        assert page_width(page) <= page.viewport_size["width"]
        screenshot(page, f"good-roads-view-{size}-{language}", full_page=False)
        deal("P")  # the streak ends
        page.wait_for_function(f"document.getElementById('table-{slug}').hidden")
        assert waiting.is_visible()
