"""A lobby card's roads: the newest columns in view, and the marks of the whole shoe,
for the lobby wall's bigger cards to widen the view over."""

from __future__ import annotations

import re

import pytest

from tables.pages import svg
from tables.pages.road_data import ShoeRoads
from tables.templatetags.road_svg import road_board
from tests.roads.pictures import roads_of

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer


def columns_drawn(board: svg.Board) -> list[int]:
    return sorted({int(x) // svg.CELL for x in re.findall(r"(\d+) \d+", board.marks_html)})


def test_a_lobby_card_views_its_newest_columns_and_draws_the_whole_shoe() -> None:
    shoe = ShoeRoads(roads_of("BBPPT" * 17), [])  # 85 rounds: 15 Bead Plate columns
    bead = road_board(shoe, "bead_plate", 4)
    assert (bead.first, bead.columns) == (11, 4)  # the newest columns, and the next round's
    assert columns_drawn(bead) == list(range(15))


def test_a_short_shoes_card_draws_every_mark() -> None:
    bead = road_board(ShoeRoads(roads_of("BPTBPTBPTBPTB"), []), "bead_plate", 8)  # 3 columns
    assert bead.first == 0 and columns_drawn(bead) == [0, 1, 2]
