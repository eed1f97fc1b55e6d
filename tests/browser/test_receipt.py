"""Seen in a real browser: a player opens a round's receipt from the table page's history,
with no login, and sees its cards and its roads with the round marked."""

from __future__ import annotations

from typing import Any

from tests.road_marks import marks
from tests.rounds import SEED

from .browsing import SCREENS, LiveServer, page_width, screenshot, sized_page

BANKER_NATURAL = {"player": ["2H", "3D"], "banker": ["9S", "KH"]}
# The marked cell lies within its road's box: in view, not scrolled away.
MARKED_IN_VIEW = """road => {
    const box = document.querySelector(`svg.road-${road}`).closest(".road-box").getBoundingClientRect();
    const cell = document.querySelector(`svg.road-${road} rect.marked`).getBoundingClientRect();
    return cell.width > 0 && cell.left >= box.left && cell.right <= box.right; }"""

VOID = (
    "from tables import services; from tables.models import Round; "
    "services.round_void(round_=Round.objects.get(round_id='{round_id}'), reason='scanner fault', user=None)"
)


def test_an_anonymous_visitor_opens_a_rounds_receipt_and_sees_its_cards_and_marked_roads(
    server: LiveServer, browser: Any
) -> None:
    slug = "receipt-1"
    server.table(slug, "Baccarat Receipt")
    server.post(slug, "shoes")
    ids = [server.post(slug, "rounds", cards)["round"]["id"] for cards in (SEED, BANKER_NATURAL, SEED)]

    with sized_page(browser, "desktop") as page:
        page.goto(f"{server.url}/tables/{slug}/")
        page.click(f"#history a[href='/rounds/{ids[1]}/']")
        page.wait_for_url(f"**/rounds/{ids[1]}/")
        assert page.locator(".receipt-id dd").inner_text() == ids[1]
        assert page.locator(".receipt-cards .card").all_inner_texts() == ["2♥", "3♦", "9♠", "K♥"]
        assert page.locator(".receipt-cards .verdict").inner_text() == "Banker wins"
        bead_plate = page.locator("svg.road-bead_plate").inner_html()
        assert marks(bead_plate, "bead-P") == [(0, 0)] and marks(bead_plate, "bead-B") == [(0, 1)]  # not round 3
        for road in ("bead_plate", "big_road"):
            assert page.evaluate(MARKED_IN_VIEW, road), f"the round's mark on the {road} is out of view"
        screenshot(page, "receipt-desktop")

    with sized_page(browser, "phone-390") as page:
        page.goto(f"{server.url}/tables/{slug}/")
        history = page.locator("#history")
        history.scroll_into_view_if_needed()
        SCREENS.mkdir(parents=True, exist_ok=True)
        history.screenshot(path=str(SCREENS / "receipt-history-phone-390.png"))
        page.tap(f"#history a[href='/rounds/{ids[1]}/']")
        page.wait_for_url(f"**/rounds/{ids[1]}/")
        assert page.evaluate(MARKED_IN_VIEW, "big_road")
        assert page_width(page) <= 390
        screenshot(page, "receipt-phone-390")
        server.manage("shell", "-c", VOID.format(round_id=ids[2]))
        page.goto(f"{server.url}/rounds/{ids[2]}/")
        assert page.locator(".receipt-void").inner_text().startswith("Voided: scanner fault\n")
        assert page.locator("rect.marked").count() == 0
        # Nothing of a voided round reads as won: its verdict and every bet's line struck through.
        struck = "e => getComputedStyle(e).textDecorationLine"
        assert page.locator(".receipt-cards .verdict").evaluate(struck) == "line-through"
        assert {td.evaluate(struck) for td in page.locator(".receipt-bets td").all()} == {"line-through"}
        screenshot(page, "receipt-voided-phone-390")
        page.goto(f"{server.url}/tables/{slug}/")
        voided = page.locator(f"#history tr.voided:has(a[href='/rounds/{ids[2]}/'])")
        assert voided.locator(".result").evaluate(struck) == "line-through"
        assert {tag.evaluate(struck) for tag in voided.locator(".tag-win").all()} <= {"line-through"}
        assert voided.locator(".tag-voided").evaluate("t => getComputedStyle(t).display") == "inline-block"  # unstruck
        voided.screenshot(path=str(SCREENS / "receipt-voided-history-phone-390.png"))
        response = page.goto(f"{server.url}/rounds/NOSUCHROUND/")
        assert response is not None and response.status == 404
        assert page.locator("h1").inner_text() == "No such round"
        screenshot(page, "receipt-unknown-phone-390")
