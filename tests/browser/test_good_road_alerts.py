"""Seen in a real browser (issue 36): a player with good-road alerts on hears of a good
road forming on any other table, once, and of none while alerts are off."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .browsing import LiveServer, page_width, screenshot, sized_page
from .naturals import NaturalShoe

LIVE = "#connection.connection-live"
ALERTS_OPEN = "#alerts-menu[data-connected]"


class Dealt:
    """Tables of the test, each dealing rounds of chosen winners from its own shoe."""

    def __init__(self, server: LiveServer) -> None:
        self.server, self.shoes = server, dict[str, NaturalShoe]()

    def table(self, slug: str, name: str) -> str:
        self.server.table(slug, name)
        self.server.post(slug, "shoes")
        self.shoes[slug] = NaturalShoe()
        return slug

    def rounds(self, slug: str, winners: str) -> None:
        for winner in winners:
            self.server.post(slug, "rounds", self.shoes[slug].round(winner))


@pytest.fixture(scope="module")
def dealt(server: LiveServer) -> Dealt:
    return Dealt(server)


def alerted(page: Any) -> list[str]:
    """The alerts the page has shown (or counted), "table:shoe:round:pattern" each."""
    return (page.get_attribute("#toasts", "data-alerted") or "").split()


def wait_alerted(page: Any, key: str) -> None:
    page.wait_for_function(
        "key => (document.getElementById('toasts').dataset.alerted || '').split(' ').includes(key)", arg=key
    )


@pytest.fixture
def alerts_on(browser: Any, server: LiveServer) -> Iterator[Any]:
    """A second player's page with alerts on, on the lobby: it hears every alert, so a
    test knows an alert went out when it looks for one that must not show elsewhere."""
    with sized_page(browser, "desktop") as page:
        page.goto(f"{server.url}/")
        page.evaluate("localStorage.setItem('goodRoadAlerts', 'on')")
        page.reload()
        page.wait_for_selector(ALERTS_OPEN)
        yield page


@pytest.mark.parametrize("size", ["desktop", "phone-360"])
def test_a_player_on_table_a_hears_of_a_long_banker_on_table_b_once_and_never_of_table_a_s_own(
    server: LiveServer, browser: Any, dealt: Dealt, alerts_on: Any, size: str
) -> None:
    a, b = dealt.table(f"alert-a-{size}", "Baccarat A"), dealt.table(f"alert-b-{size}", "Baccarat B")
    with sized_page(browser, size) as page:
        page.goto(f"{server.url}/tables/{a}/")
        page.evaluate("localStorage.setItem('goodRoadAlerts', 'on')")
        page.reload()
        page.wait_for_selector(LIVE)
        page.wait_for_selector(ALERTS_OPEN)
        dealt.rounds(b, "PBBB")
        dealt.rounds(a, "PBBBB")  # table A's own Long Banker: the page shows it already
        wait_alerted(alerts_on, f"{a}:1:5:long_banker")
        assert alerted(page) == [], "no alert for three Bankers, nor for the table the player watches"
        dealt.rounds(b, "B")  # the fourth Banker in a row: a Long Banker forms
        wait_alerted(page, f"{b}:1:5:long_banker")
        toast = page.locator("#toasts .toast").first
        text = toast.inner_text()
        assert "Baccarat B" in text and "Long Banker" in text and "Banker −" in text and "Player −" in text
        assert toast.locator("svg.road-big_road").count() == 1, "the toast draws the table's Big Road"
        assert toast.locator(f"a[href='/tables/{b}/']").count() == 1, "it leads to the table"
        box, viewport = toast.bounding_box(), page.viewport_size
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] and page_width(page) <= viewport["width"]
        toast.evaluate("t => Promise.all(t.getAnimations().map(a => a.finished))")  # shown whole
        screenshot(page, f"good-road-alert-{size}", full_page=False)
        dealt.rounds(b, "B")  # five in a row: the same Long Banker, held
        wait_alerted(alerts_on, f"{a}:1:5:long_banker")  # (the lobby page heard nothing new either)
        dealt.rounds(b, "PBBBB")  # ended, then formed anew: a new alert
        wait_alerted(page, f"{b}:1:11:long_banker")
        assert [key for key in alerted(page) if key.endswith("long_banker")] == [
            f"{b}:1:5:long_banker",
            f"{b}:1:11:long_banker",
        ], "one alert a Long Banker formed, none while it held"
        if size == "phone-360":  # a phone keeps the newest toast alone: two would cover its page
            assert page.locator("#toasts .toast").count() == 1
            page.click("#alerts-menu .alerts-bell")
            panel = page.locator("#alerts-panel").bounding_box()
            assert panel["x"] >= 0 and panel["x"] + panel["width"] <= viewport["width"], "on the screen"
            page.click("#alerts-menu .alerts-bell")
        toast.locator("[data-dismiss]").click()
        assert page.locator(f"#toasts .toast[data-key='{b}:1:5:long_banker']").count() == 0, "dismissed"


def test_with_alerts_off_or_a_good_road_switched_off_no_alert_shows(
    server: LiveServer, browser: Any, dealt: Dealt, alerts_on: Any
) -> None:
    a, c = dealt.table("alert-off-a", "Baccarat A2"), dealt.table("alert-off-c", "Baccarat C")
    with sized_page(browser, "desktop") as page:
        page.goto(f"{server.url}/tables/{a}/")
        page.evaluate("localStorage.setItem('goodRoadAlerts', 'on')")
        page.reload()
        page.wait_for_selector(ALERTS_OPEN)
        page.click("#alerts-menu .alerts-bell")
        page.click("#alerts-menu [data-mode=off]")
        assert page.locator(ALERTS_OPEN).count() == 0, "the alerts socket closes with alerts off"
        dealt.rounds(c, "PBBBB")
        wait_alerted(alerts_on, f"{c}:1:5:long_banker")
        assert alerted(page) == [] and page.locator("#toasts .toast").count() == 0
        # On again, with Long Player switched off in the good-road settings: a Long
        # Player forms unheard, a Long Banker is heard.
        page.evaluate("localStorage.setItem('goodRoadsOff', JSON.stringify(['long_player']))")
        page.click("#alerts-menu [data-mode=on]")
        page.wait_for_selector(ALERTS_OPEN)
        dealt.rounds(c, "PPPP")
        wait_alerted(alerts_on, f"{c}:1:9:long_player")
        dealt.rounds(c, "BBBB")
        wait_alerted(page, f"{c}:1:13:long_banker")
        assert f"{c}:1:9:long_player" not in alerted(page)


def test_quiet_alerts_are_counted_on_the_bell_without_a_toast(server: LiveServer, browser: Any, dealt: Dealt) -> None:
    d = dealt.table("alert-quiet", "Baccarat D")
    with sized_page(browser, "phone-360") as page:
        page.goto(f"{server.url}/")
        page.evaluate("localStorage.setItem('goodRoadAlerts', 'quiet')")
        page.reload()
        page.wait_for_selector(ALERTS_OPEN)
        dealt.rounds(d, "PBBBB")
        wait_alerted(page, f"{d}:1:5:long_banker")
        assert page.locator("#toasts .toast").count() == 0
        assert page.inner_text("#alerts-menu .alerts-count") == "1"
