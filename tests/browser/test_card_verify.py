"""Seen in a real browser: a player opens the card authentication panel, clicks Verify on
a revealed card and sees its Verified Hash Value match the Public one, and the click makes
no request; a round dealt while the list is open adds its cards, live."""

from __future__ import annotations

from typing import Any

from tables.game.authentication import card_hash, new_plaintext
from tables.game.cards import ALL_CARDS, Card

from .browsing import LiveServer, page_width, screenshot, sized_page

HEAD = [Card.parse(c) for c in ("3H", "2S", "2D", "2C", "9H", "AH", "KS", "7C", "2H", "4H", "3H", "5H")]


def secret_shoe() -> list[str]:
    rest = list(ALL_CARDS) * 8
    for card in HEAD:
        rest.remove(card)
    return [new_plaintext(card) for card in HEAD + rest]


def test_a_player_verifies_a_revealed_card_in_the_browser_with_no_request(server: LiveServer, browser: Any) -> None:
    slug = "verify-1"
    server.table(slug, "Baccarat Verify")
    cards = secret_shoe()
    server.post(slug, "shoes", {"commitments": [card_hash(p) for p in cards]})
    server.post(slug, "shoes/current/burn", {"plaintext": cards[0]})
    server.post(slug, "rounds", {"player": ["9H", "KS"], "banker": ["AH", "7C"], "plaintexts": cards[4:8]})

    for size in ("desktop", "phone-390"):
        with sized_page(browser, size) as page:
            page.goto(f"{server.url}/tables/{slug}/")
            page.wait_for_selector(".connection-live")
            page.locator(".auth-cards summary").click()
            row = page.locator('.card-row[data-card="1-5"]')
            row.wait_for()
            requests: list[str] = []
            page.on("request", lambda request, seen=requests: seen.append(request.url))
            row.locator("button.verify").click()
            verified = row.locator(".verified.match")
            verified.wait_for()
            assert row.locator(".verified-hash").inner_text() == card_hash(cards[4])
            assert row.locator(".public-hash").inner_text() == card_hash(cards[4])
            assert "Match" in verified.inner_text()
            assert requests == [], f"Verify asked the server for {requests}"
            if size == "phone-390":
                assert page_width(page) <= 390, "a hash widens the page"
                row.scroll_into_view_if_needed()
                screenshot(page, "card-verify-phone-390", full_page=False)
            else:
                assert page.locator('.card-row[data-card="1-9"] button.verify').count() == 0  # not revealed yet
                # A round dealt now adds its cards to the open list, with their Verify buttons.
                server.post(slug, "rounds", {"player": ["2H", "3H"], "banker": ["4H", "5H"], "plaintexts": cards[8:12]})
                page.locator('.card-row[data-card="1-9"] button.verify').wait_for()
                assert page.locator("#cards-revealed").inner_text().startswith("9 of 416")
                page.locator("#cards-auth").scroll_into_view_if_needed()
                screenshot(page, "card-verify-desktop", full_page=False)
