"""Seen in a real browser (issue 35): a reviewer has the desk (admin's index) open while a
table deals a shoe that was never shuffled; the alarm appears on the desk without a
reload, with its evidence, and on the shoe's page; the table's own page never shows it.
At a desktop's size and a phone's, nothing scrolls sideways."""

from __future__ import annotations

from typing import Any

from tables.game.cards import ALL_CARDS
from tables.game.dealing import deal_round

from .browsing import LiveServer, log_in, make_reviewer, page_width, screenshot, sized_page

REVIEWER = "pit-reviewer"
PASSWORD = "pw-pit-reviewer-1"


def deal_unshuffled(server: LiveServer, slug: str, rounds: int) -> None:
    """Rounds dealt from eight decks in new-deck order, posted whole as a dealer system does."""
    source = iter(list(ALL_CARDS) * 8)
    for _ in range(rounds):
        outcome = deal_round(lambda: next(source))
        body = {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}
        server.post(slug, "rounds", body)


def test_an_alarm_appears_on_the_open_desk_live(server: LiveServer, browser: Any) -> None:
    server.table("pit-1", "Pit 1")
    server.post("pit-1", "shoes")
    make_reviewer(server, REVIEWER, PASSWORD)
    with sized_page(browser, "desktop") as page:
        log_in(server, page, "/admin/", REVIEWER, PASSWORD)
        assert page.locator("#no-alarms").is_visible()
        page.wait_for_function("() => document.querySelector('.desk-alarms-live') && window.htmx")
        deal_unshuffled(server, "pit-1", rounds=12)
        alarm = page.locator("#desk-alarms .desk-alarm-critical[data-kind=deck_order]")
        alarm.wait_for(timeout=15_000)  # pushed: the page was never reloaded
        text = alarm.inner_text()
        assert "Cards in new-deck order" in text and "Pit 1 · shoe 1" in text and "p-value" in text.lower()
        screenshot(page, "desk-alarm-live-desktop", full_page=False)
        assert page_width(page) <= page.viewport_size["width"]
        alarm.locator("a.desk-alarm-kind").click()
        page.wait_for_selector("#alarm-note-form")
        page.fill("textarea[name=note]", "Shoe pulled from the table; the decks are being counted.")
        page.click("#alarm-note-form input[type=submit]")
        assert page.locator("#alarm-state").inner_text() == "Acknowledged"
        screenshot(page, "desk-alarm-page-desktop")

    with sized_page(browser, "phone-360") as page:
        log_in(server, page, "/admin/tables/shoe/1/change/", REVIEWER, PASSWORD)
        assert "Cards in new-deck order" in page.locator("#shoe-alarms").inner_text()
        screenshot(page, "desk-alarm-shoe-phone-360", full_page=False)
        assert page_width(page) <= page.viewport_size["width"]
        page.goto(f"{server.url}/admin/")
        screenshot(page, "desk-alarm-index-phone-360", full_page=False)
        assert page_width(page) <= page.viewport_size["width"]
        page.goto(f"{server.url}/tables/pit-1/")
        assert "new-deck order" not in page.content()  # the players' page never shows alarms
