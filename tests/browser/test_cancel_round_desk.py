"""Seen in a real browser (issue 34): a reviewer sees the round a shoe is dealing on its
admin page, cancels it with a reason, and finds it among the cancelled rounds; at a
desktop's size and a phone's, nothing scrolls sideways."""

from __future__ import annotations

from typing import Any

from .browsing import LiveServer, log_in, make_reviewer, page_width, screenshot, sized_page

REVIEWER = "floor-reviewer"
PASSWORD = "pw-floor-reviewer-1"


def deal(server: LiveServer, slug: str, cards: list[str]) -> None:
    for code in cards:
        server.post(slug, "cards", {"card": code})


def fits(page: Any, what: str) -> None:
    assert page_width(page) <= page.viewport_size["width"], f"{what} scrolls sideways"


def test_a_reviewer_sees_the_round_being_dealt_and_cancels_it(server: LiveServer, browser: Any) -> None:
    server.table("floor-1", "Floor 1")
    shoe = server.post("floor-1", "shoes")["shoe"]
    deal(server, "floor-1", ["9H", "3C"])
    server.post("floor-1", "rounds/current/cancel", {"reason": "the shoe jammed and a card came out face down"})
    deal(server, "floor-1", ["AH", "JC", "3S", "2H", "5D"])  # the Player's third card: the Banker's next
    make_reviewer(server, REVIEWER, PASSWORD)
    number = shoe["number"]
    assert number == 1
    shoe_page = "/admin/tables/shoe/1/change/"

    for size in ("desktop", "phone-360"):
        with sized_page(browser, size) as page:
            log_in(server, page, shoe_page, REVIEWER, PASSWORD)
            dealing = page.locator("#round-in-progress")
            assert "Round 1 · dealing" in dealing.inner_text()
            assert dealing.locator(".card:not(.slot)").count() == 5
            assert "Player draws" in dealing.inner_text()
            screenshot(page, f"cancel-round-shoe-{size}", full_page=False)
            page.locator("#round-cancels").scroll_into_view_if_needed()
            screenshot(page, f"cancel-round-shoe-{size}-cancels", full_page=False)
            fits(page, f"the shoe's page at {size}")
            for listed in ("shoe", "roundinprogress"):
                page.goto(f"{server.url}/admin/tables/{listed}/")
                assert "J♣" in page.locator("#result_list").inner_text()
                screenshot(page, f"cancel-round-{listed}-list-{size}", full_page=False)
                fits(page, f"the {listed} list at {size}")
            for language in ("th", "zh-hant"):  # the longest words, and the widest letters
                page.goto(f"{server.url}{shoe_page}?lang={language}")
                screenshot(page, f"cancel-round-shoe-{size}-{language}", full_page=False)
                fits(page, f"the shoe's page at {size} in {language}")
                page.goto(f"{server.url}/admin/tables/shoe/1/cancel-round/?lang={language}")
                screenshot(page, f"cancel-round-form-{size}-{language}")
                fits(page, f"the cancel form at {size} in {language}")
            page.goto(f"{server.url}{shoe_page}?lang=en")

            page.click("#cancel-round")
            page.wait_for_selector("textarea[name=reason]")
            screenshot(page, f"cancel-round-form-{size}")
            fits(page, f"the cancel form at {size}")
            page.fill("textarea[name=reason]", "   ")  # blank (the browser lets spaces through): refused
            page.click("input[type=submit].default")
            page.wait_for_selector(".errorlist")
            screenshot(page, f"cancel-round-form-{size}-blank", full_page=False)
            if size == "phone-360":
                page.fill("textarea[name=reason]", "misdeal: Banker's card exposed")
                page.click("input[type=submit].default")
                page.wait_for_selector(".messagelist .success")
                assert "is cancelled (cards A♥ J♣ 3♠ 2♥ 5♦)" in page.locator(".messagelist").inner_text()
                assert page.locator("#round-in-progress").count() == 0
                screenshot(page, f"cancel-round-done-{size}", full_page=False)
                fits(page, f"the shoe's page after the cancel at {size}")

    for size in ("desktop", "phone-360"):
        with sized_page(browser, size) as page:
            log_in(server, page, "/admin/tables/roundcancel/", REVIEWER, PASSWORD)
            page.wait_for_selector("#result_list")
            text = page.locator("#result_list").inner_text()
            assert "misdeal: Banker's card exposed" in text and REVIEWER in text and "Dealer system" in text
            screenshot(page, f"cancel-round-list-{size}")
            fits(page, f"the cancelled rounds at {size}")
