"""The screens on hard shoes (issue 52), dealt by ``manage.py shoe_deal``: choppy (80 Big
Road columns), a 40-Banker dragon, tie-heavy, pairs-heavy and a normal shoe. The table
display leads with the Big Road in both orientations, in marks read from 3 m; a road with
more columns than its box holds shows its newest and says how many earlier ones are off
screen; no layout leaves more than a fifth of the screen empty; nothing runs off it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tables.game.patterns import HARD_SHOES

from .browsing import LiveServer, off_screen, page_width, screenshot, serving, sized_page, table_with_limits
from .measuring import WALL_ROADS_JS, WELL_SET, display_road_faults, display_roads, empty_share, text_faults

SHOES = tuple(HARD_SHOES)
MOST_EMPTY = 0.2  # of the screen


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A table for each hard shoe, its shoe dealt whole before any page opens."""
    for live in serving(LiveServer(tmp_path_factory.mktemp("hard-shoes"))):
        for shoe in SHOES:
            table_with_limits(live, shoe, shoe.replace("-", " ").title())
            live.manage("shoe_deal", shoe, "--shoe", shoe, "--seed", "7")
        yield live


@pytest.mark.parametrize("size", ["tv", "tv-portrait"])
@pytest.mark.parametrize("shoe", SHOES)
def test_the_display_leads_with_the_big_road_says_what_is_off_screen_and_fills_the_screen(
    server: LiveServer, browser: Any, shoe: str, size: str
) -> None:
    with sized_page(browser, size) as page:
        page.goto(f"{server.url}/tables/{shoe}/display/")
        page.wait_for_selector("#display svg.road-big_road[data-cell]")
        screenshot(page, f"hard-display-{shoe}-{size}", full_page=False)
        assert display_road_faults(page, tv=True) == []
        assert off_screen(page) == [] and page_width(page) <= page.viewport_size["width"]
        assert text_faults(page, "#display") == WELL_SET
        empty = empty_share(page)
        print(f"{shoe} {size}: {empty:.1%} of the screen empty")
        assert empty <= MOST_EMPTY


def test_the_choppy_shoe_shows_its_newest_big_road_columns_and_says_how_many_came_before(
    server: LiveServer, browser: Any
) -> None:
    with sized_page(browser, "tv") as page:
        page.goto(f"{server.url}/tables/choppy/display/")
        page.wait_for_selector("#display svg.road-big_road[data-cell]")
        big = display_roads(page)["big_road"]
        assert big["newest"] == 79  # 80 rounds, 80 columns
        assert big["first"] > 0 and big["note"] == f"‹ {big['first']:.0f} earlier columns"
        assert big["cell"] >= 40  # larger than the least, on the landscape TV


@pytest.mark.parametrize("size", ["phone-360", "phone-390", "desktop", "tv", "tv-portrait"])
def test_the_table_page_of_each_hard_shoe_runs_off_no_screen(server: LiveServer, browser: Any, size: str) -> None:
    with sized_page(browser, size) as page:
        for shoe in SHOES:
            page.goto(f"{server.url}/tables/{shoe}/")
            page.wait_for_selector("#connection.connection-live", state="attached")
            assert page_width(page) <= page.viewport_size["width"], shoe


@pytest.mark.parametrize("size", ["tv", "tv-portrait"])
def test_each_wall_card_shows_its_whole_shoe_or_says_how_many_columns_it_leaves_out(
    server: LiveServer, browser: Any, size: str
) -> None:
    with sized_page(browser, size) as page:
        page.goto(f"{server.url}/lobby/screen/")
        page.wait_for_selector("#lobby-grid .table-card[data-fitted]")
        screenshot(page, f"hard-wall-{size}", full_page=False)
        roads = page.evaluate(WALL_ROADS_JS)
        assert len(roads) == 2 * len(SHOES)
        unsaid = [r for r in roads if (r["left"] > 0) != (f"‹ {r['left']:.0f} earlier" in r["note"])]
        assert unsaid == []
        assert any(r["left"] > 0 for r in roads)  # the choppy shoe is longer than a card
