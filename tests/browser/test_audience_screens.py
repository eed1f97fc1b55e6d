"""What players and the room see late in a shoe whose Perfect Pair favours the player on
the cards left (seed 11's shoe, round 64): on a table of the safe default, the full-shoe
returns alone, on every screen it is read on; in a training room, every number, said so."""

from __future__ import annotations

from typing import Any

import pytest

from tests.shuffled import shoe_rounds

from .browsing import SCREENS, LiveServer, log_in, make_reviewer, page_width, past_the_side, screenshot, sized_page

LIVE = "#connection.connection-live"
COUNTING_AIDS = ("Shoe left", "Change", "cards left", "edge", "Next round returns")


@pytest.fixture(scope="module")
def late_tables(server: LiveServer) -> LiveServer:
    """Two tables 64 rounds into the same shoe: one public as a casino's floor has it (the
    default), one a training room."""
    rounds = shoe_rounds(11, 64)
    for slug, audience in (("floor", "full_shoe"), ("training", "everything")):
        server.table(slug, slug.title(), audience)
        server.post(slug, "shoes")
        server.record(slug, rounds)
    return server


def shown_text(page: Any) -> str:
    return str(page.evaluate("() => document.body.innerText"))


@pytest.mark.parametrize("size", ["phone-360", "desktop", "tv", "tv-portrait"])
def test_a_floor_tables_page_shows_full_shoe_returns_only_on_every_screen(
    late_tables: LiveServer, browser: Any, size: str
) -> None:
    with sized_page(browser, size) as page:
        page.goto(f"{late_tables.url}/tables/floor/")
        page.wait_for_selector(LIVE)
        odds = page.locator("#odds")
        text = odds.inner_text()
        assert "Perfect Pair" in text and "FULL SHOE" in text.upper()
        assert not [word for word in COUNTING_AIDS if word.lower() in text.lower()], text
        assert page.locator("[data-chart=chart-odds]").count() == 0
        assert page_width(page) <= page.viewport_size["width"]  # nothing runs off the side
        box = odds.bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 200
        screenshot(page, f"audience-floor-table-{size}")
        odds.screenshot(path=str(SCREENS / f"audience-floor-odds-{size}.png"))


@pytest.mark.parametrize("size", ["tv", "tv-portrait"])
def test_a_floor_tables_display_and_the_lobby_wall_carry_no_return_on_the_cards_left(
    late_tables: LiveServer, browser: Any, size: str
) -> None:
    with sized_page(browser, size) as page:
        page.goto(f"{late_tables.url}/tables/floor/display/")
        page.wait_for_selector("#display svg.road")
        html = page.content()
        assert not [word for word in COUNTING_AIDS if word in html]
        screenshot(page, f"audience-floor-display-{size}", full_page=False)
        page.goto(f"{late_tables.url}/lobby/screen/")
        page.wait_for_selector("#table-floor")
        card = page.locator("#table-floor").inner_html()
        assert "Next round returns" not in card and "Training room" not in card
        assert "Training room" in page.locator("#table-training").inner_html()
        screenshot(page, f"audience-wall-{size}", full_page=False)


def test_a_training_room_shows_every_return_on_the_cards_left_and_says_it_is_one(
    late_tables: LiveServer, browser: Any
) -> None:
    with sized_page(browser, "desktop") as page:
        page.goto(f"{late_tables.url}/tables/training/")
        page.wait_for_selector("[data-chart=chart-odds] .main-svg")
        text = shown_text(page)
        assert "Training room" in text and "SHOE LEFT" in page.locator("#odds").inner_text().upper()
        assert page.locator("#odds tr.edge-positive").count() >= 1  # the Perfect Pair, flagged
        page.locator("#odds").screenshot(path=str(SCREENS / "audience-training-odds-desktop.png"))


@pytest.mark.parametrize("size", ["phone-360", "desktop"])
def test_the_desk_shows_the_floor_tables_advantage_window_the_players_never_see(
    late_tables: LiveServer, browser: Any, size: str
) -> None:
    shoe = late_tables.manage(
        "shell", "-c", "from tables.models import Shoe; print(Shoe.objects.get(table__slug='floor').pk)"
    ).split()[-1]  # the shell may say first what it imported
    if size == "phone-360":
        make_reviewer(late_tables, "pit-boss", "pw-pit-boss-1")
    with sized_page(browser, size) as page:
        log_in(late_tables, page, f"/admin/tables/shoe/{shoe}/change/", "pit-boss", "pw-pit-boss-1")
        for _ in range(20):  # the odds (and so the windows) are worked out after each round
            if page.locator("table.advantage-windows").count():
                break
            page.wait_for_timeout(500)
            page.reload()
        assert page.locator("#advantage-windows").count(), f"{page.url}: {shown_text(page)[:600]}"
        window = page.locator("table.advantage-windows tbody tr", has_text="Perfect Pair")
        assert window.count() == 1, page.locator("#advantage-windows").inner_text()
        assert "+" in window.inner_text()  # the return the player had, on the desk
        alarm = page.locator("#shoe-alarms .desk-alarm[data-kind=advantage_window]")
        listed = page.locator("#shoe-alarms").inner_text()
        assert alarm.count() == 1 and "Perfect Pair" in listed and "CARDS LEFT" in listed.upper()
        assert page_width(page) <= page.viewport_size["width"], past_the_side(page)
        screenshot(page, f"audience-desk-advantage-{size}")
        for part in ("shoe-alarms", "advantage-windows"):
            for attempt in range(3):  # the desk's socket may swap the alarms' panel in as it is taken
                try:
                    page.locator(f"#{part}").screenshot(path=str(SCREENS / f"audience-desk-{part}-{size}.png"))
                    break
                except Exception as error:  # playwright's Error, its import kept out of collection
                    if "not attached" not in str(error) or attempt == 2:
                        raise
