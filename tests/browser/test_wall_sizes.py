"""The lobby wall with 1, 6, 12, 13 and 24 tables (issue 52, item 2), on a landscape and a
portrait TV: names as casinos give them (long ones too), shoes from a few rounds to a
whole one. No text is cut (a label, a name, a count), nothing scrolls, and every card's
roads show their whole shoe or say how many columns they leave out. The wall grows from
one table to 24 in one test: a table dealt once serves every wall after it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .browsing import LiveServer, page_width, screenshot, serving, sized_page, table_with_limits
from .measuring import WELL_SET, text_faults, wall_roads_unsaid

NAMES = [
    "Baccarat Royale", "Carousel", "Dragon Phoenix", "Golden Lotus Salon", "Imperial 8", "Jade Garden",
    "Lucky Panda", "Macau Classic", "Ocean Pearl Private", "Red Lantern", "Silver Moon", "Tiger Eye",
    *(f"Baccarat {n}" for n in range(13, 25)),
]  # fmt: skip
COUNTS = (1, 6, 12, 13, 24)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from serving(LiveServer(tmp_path_factory.mktemp("wall-sizes")))


def test_walls_of_1_6_12_13_and_24_tables_cut_no_text_and_say_what_their_roads_leave_out(
    server: LiveServer, browser: Any
) -> None:
    made = 0
    for count in COUNTS:
        for n in range(made, count):  # the tables so far, and the ones this wall adds
            slug = f"w{n:02d}"
            table_with_limits(server, slug, NAMES[n])
            # A few shoes longer than a card shows (dealing costs: each round's odds).
            server.manage("shoe_deal", slug, "--pattern", "." * (64 if n in (0, 5, 12) else 6), "--seed", str(n))
        made = count
        for size in ("tv", "tv-portrait"):
            with sized_page(browser, size) as page:
                page.goto(f"{server.url}/lobby/screen/")
                page.wait_for_selector("#lobby-grid .table-card[data-fitted]")
                screenshot(page, f"wall-{count}-{size}", full_page=False)
                assert text_faults(page, "#lobby-grid") == WELL_SET, f"{count} tables, {size}"
                assert page_width(page) <= page.viewport_size["width"]
                assert wall_roads_unsaid(page) == [], f"{count} tables, {size}"
