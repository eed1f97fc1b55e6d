"""The display beside a table: its page, and that the table's pushes find their places on it."""

from __future__ import annotations

import re

from django.test import Client

from tables import selectors, services
from tables.pages import fragments
from tests.html import find_all
from tests.road_marks import marks
from tests.rounds import SEED

BANKER_NATURAL = {"player": ["2H", "3D"], "banker": ["9S", "KH"]}


def places(html: str) -> set[str]:
    """The ids a push's elements are swapped into: their own, or the one their hx-swap-oob names."""
    targets = set(re.findall(r'hx-swap-oob="[a-z]+:#([-\w]+)"', html))
    own = {m for m in re.findall(r'^<\w+[^>]*? id="([-\w]+)"', html, flags=re.M)}
    return targets | own


def test_the_display_shows_the_tables_name_limits_roads_counts_and_last_round(client: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    table.limits = {"banker": [10, 5000], "tie": [10, 1000]}
    table.save()
    services.shoe_start(table=table)
    services.round_record(table=table, **SEED)
    services.round_record(table=table, **BANKER_NATURAL)
    response = client.get("/tables/baccarat-1/display/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Baccarat 1" in page and "10–5000" in page and "10–1000" in page
    assert marks(page, "bead-P") == [(0, 0)] and marks(page, "bead-B") == [(0, 1)]
    assert marks(page, "ring-P") == [(0, 0)] and marks(page, "ring-B") == [(1, 0)]
    assert all(find_all(page, "svg", id=f"road-{name}") for name in fragments.TABLE_ROADS)
    assert "Banker wins" in page  # the last round, whose cards show beside it
    assert find_all(page, "main", ws_connect="/ws/tables/baccarat-1/?lang=en")  # the table page's own socket and group
    assert "css/display.css" in page and "js/display.js" in page and "plotly" not in page


def test_every_element_a_table_push_carries_has_its_place_on_the_display(client: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    shoe = services.shoe_start(table=table).shoe
    services.round_record(table=table, **SEED)
    since = selectors.table_version(shoe)
    page = client.get("/tables/baccarat-1/display/").content.decode()
    services.round_record(table=table, **BANKER_NATURAL)
    version = selectors.table_version(shoe)
    whole = fragments.table_live_html(table, shoe, version)
    delta = fragments.table_push_html(table, shoe, version, since=since)
    odds = fragments.table_odds_html(table)
    pushed = places(whole) | places(delta) | places(odds)
    assert {"game-info", "roads", "last-round", "stats", "marks-big_road", "history-rows"} <= pushed
    assert {place for place in pushed if not find_all(page, "*", id=place)} == set()


def test_a_display_of_a_table_with_no_shoe_yet_waits_for_its_first_round(client: Client, baccarat_1) -> None:
    page = client.get("/tables/baccarat-1/display/").content.decode()
    assert "Waiting for the first round" in page


def test_there_is_no_display_for_an_unknown_table(client: Client, db: None) -> None:
    assert client.get("/tables/nowhere/display/").status_code == 404
