"""The roads as SVG: a mark per cell on one path per kind of mark, the newest columns in
view, and a later round's board extending an earlier one's."""

import re

import pytest

from roads.entries import Color, Winner
from tables.pages import svg
from tests.html import find_all
from tests.road_marks import asks, marks
from tests.roads.pictures import roads_of

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer


def draw(board: svg.Board) -> str:
    return board.marks_html + board.asks_html


def view(board: svg.Board) -> tuple[int, int]:
    """The first and last column in view."""
    x, _, width, _ = (int(n) for n in board.view.split())
    return x // svg.CELL, (x + width) // svg.CELL - 1


def test_the_bead_plate_draws_each_round_in_its_colour_with_its_pair_dots_in_their_corners() -> None:
    markup = draw(svg.bead_plate(roads_of("bPTp")))
    assert marks(markup, "bead-B") == [(0, 0)] and marks(markup, "bead-P") == [(0, 1), (0, 3)]
    assert marks(markup, "bead-T") == [(0, 2)]
    # A banker pair is its own red dot, a player pair its own blue one, on any winner's mark.
    assert marks(markup, "pair-B") == [(0, 0)] and marks(markup, "pair-P") == [(0, 3)]


def test_the_big_road_draws_ties_as_a_stripe_with_their_number_when_more_than_one() -> None:
    markup = draw(svg.big_road(roads_of("BTTP")))
    assert marks(markup, "ring-B") == [(0, 0)] and marks(markup, "ring-P") == [(1, 0)]
    assert marks(markup, "tie") == [(0, 0)]
    assert [ties.text for ties in find_all(markup, "text", cls="ties", x="10", y="13.5")] == ["2"]


def test_ties_that_open_a_shoe_are_a_stripe_alone_until_the_first_winner_joins_them() -> None:
    assert marks(draw(svg.big_road(roads_of("TT"))), "tie") == [(0, 0)]
    markup = draw(svg.big_road(roads_of("TTB")))
    assert marks(markup, "tie") == [(0, 0)] and marks(markup, "ring-B") == [(0, 0)]


def test_a_mark_is_painted_under_its_tie_stripe_and_pair_dots() -> None:
    markup = draw(svg.big_road(roads_of("pT")))
    kinds = re.findall(r'class="mk-([\w-]+)"', markup)
    assert kinds == ["ring-P", "tie", "pair-P"]


def test_a_long_shoe_shows_the_newest_column_and_the_next_and_leaves_out_the_marks_before() -> None:
    board = svg.big_road(roads_of("BP" * 20), columns=16)  # 40 columns
    assert view(board) == (25, 40)
    cols = sorted(col for col, _ in marks(board.marks_html, "ring-B") + marks(board.marks_html, "ring-P"))
    assert cols == list(range(25, 40))
    assert view(svg.big_road(roads_of("BP"), columns=16)) == (0, 15)


def test_a_round_adds_its_marks_after_the_ones_drawn_before() -> None:
    before, after = svg.big_road(roads_of("BBP")), svg.big_road(roads_of("BBPTp"))
    added = svg.appended(before, after)
    assert added is not None and marks(added, "ring-P") == [(1, 1)] and marks(added, "tie") == [(1, 0)]
    assert marks(added, "pair-P") == [(1, 1)] and marks(added, "ring-B") == []
    bead = svg.appended(svg.bead_plate(roads_of("BBP")), svg.bead_plate(roads_of("BBPT")))
    assert bead == '<path class="mk-bead-T" d="M10 70h0"/>'  # round 4: column 0, row 3


def test_the_first_winner_after_opening_ties_is_added_to_their_stripe() -> None:
    added = svg.appended(svg.big_road(roads_of("TT")), svg.big_road(roads_of("TTP")))
    assert added is not None and marks(added, "ring-P") == [(0, 0)]


def test_a_third_tie_changes_a_count_already_drawn_so_only_a_redraw_shows_it() -> None:
    assert svg.appended(svg.big_road(roads_of("BT")), svg.big_road(roads_of("BTT"))) is not None
    assert svg.appended(svg.big_road(roads_of("BTT")), svg.big_road(roads_of("BTTT"))) is None


def test_ask_marks_are_drawn_hidden_for_the_ask_buttons() -> None:
    board = svg.derived_road(roads_of("PPPB"), "big_eye_road")
    # Columns PPP, B: a next Player starts column 3, and Big Eye compares columns 1 and 3: blue.
    assert asks(board.asks_html, "P") == [("eye-blue", (0, 0))]
    assert marks(board.marks_html, "eye-blue") == []


def test_each_derived_road_draws_its_own_icon() -> None:
    roads = roads_of("BPBPBPBP")
    for name, icon in (("big_eye_road", "eye"), ("small_road", "dot"), ("cockroach_road", "slash")):
        markup = svg.derived_road(roads, name).marks_html
        assert marks(markup, f"{icon}-red") and not marks(markup, f"{icon}-blue")


def test_the_mark_in_a_cell_names_the_rounds_behind_it() -> None:
    roads = roads_of("BTTPP")
    assert svg.mark_at(roads, "bead_plate", 0, 3) == [3]
    assert svg.mark_at(roads, "big_road", 0, 0) == [0, 1, 2]  # the Banker and its two ties
    assert svg.mark_at(roads, "big_road", 1, 1) == [4]
    assert svg.mark_at(roads, "big_road", 5, 5) == []
    assert svg.mark_at(roads_of("BPBB"), "big_eye_road", 0, 0) == [2]  # the entry after the second column's first


def test_a_rounds_mark_is_found_in_every_road_it_made_one_in() -> None:
    roads = roads_of("BTTPPBB")
    for name, col, row in (("bead_plate", 0, 4), ("big_road", 1, 1), ("big_eye_road", 0, 0)):
        assert svg.mark_at(roads, name, col, row) == [4] and svg.cell_of(roads, name, 4) == (col, row)
    assert svg.cell_of(roads, "big_road", 2) == (0, 0)  # a tie points at the entry it is drawn on
    assert svg.cell_of(roads, "small_road", 6) == (0, 0)  # the third column's first entry makes its first mark
    assert svg.cell_of(roads, "big_eye_road", 1) is None  # a tie makes no derived mark
    assert svg.cell_of(roads, "bead_plate", 7) is None  # no such round


def test_a_marked_round_is_outlined_on_each_road_at_its_cell() -> None:
    boards = svg.boards(roads_of("BTTPPBB"), {"bead_plate": 14, "big_road": 30, "small_road": 30}, marked=4)
    assert boards["bead_plate"].marked_at == (0, 4 * svg.CELL)
    assert boards["big_road"].marked_at == (svg.CELL, svg.CELL)
    assert boards["small_road"].marked is None  # the small road starts later
    assert svg.big_road(roads_of("BP")).marked_at is None  # unmarked unless asked


def test_a_table_pages_road_holds_every_column_from_the_shoes_first_and_the_next_one() -> None:
    board = svg.big_road(roads_of("BP" * 20), columns=30, whole=True)  # 40 columns: more than 30 in view
    assert view(board) == (0, 40)  # none dropped, and room for the next column
    cols = sorted(col for col, _ in marks(board.marks_html, "ring-B") + marks(board.marks_html, "ring-P"))
    assert cols == list(range(40))
    # A short shoe's road is as short: its box, not empty columns, fills the space (an SVG
    # of empty columns past the box would open scrolled to them, away from the marks).
    assert view(svg.big_road(roads_of("BP"), columns=30, whole=True)) == (0, 2)
    assert view(svg.bead_plate(roads_of("BPTBPTB"), whole=True)) == (0, 1)  # the next round's column too


def test_every_road_of_a_table_page_is_whole_and_a_lobby_cards_shows_its_newest_columns() -> None:
    roads = roads_of("BBPPT" * 17)  # 85 rounds
    for board in svg.boards(roads, {"bead_plate": 14, "big_road": 30, "big_eye_road": 20}).values():
        assert board.first == 0 and view(board)[1] >= max(col for col, _ in cells(board))
    lobby = svg.boards(roads, {"bead_plate": 8}, whole=False)["bead_plate"]
    assert view(lobby) == (7, 14) and min(col for col, _ in cells(lobby)) == 7


def cells(board: svg.Board) -> list[tuple[int, int]]:
    return [(int(x) // svg.CELL, int(y) // svg.CELL) for x, y in re.findall(r"(\d+) (\d+)", board.marks_html)]


def test_the_bead_plate_asks_show_the_next_bead_in_the_next_cell() -> None:
    board = svg.bead_plate(roads_of("BPTBPTB"), whole=True)  # 7 rounds: the next is column 1, row 1
    assert asks(board.asks_html, "B") == [("bead-B", (1, 1))] and asks(board.asks_html, "P") == [("bead-P", (1, 1))]


def test_the_big_road_asks_show_where_a_next_banker_or_player_would_go() -> None:
    board = svg.big_road(roads_of("BBP"), whole=True)
    assert asks(board.asks_html, "P") == [("ring-P", (1, 1))]  # continues the Player column
    assert asks(board.asks_html, "B") == [("ring-B", (2, 0))]  # starts a new column
    opening_ties = svg.big_road(roads_of("TT"), whole=True)  # the first winner joins the ties' square
    assert asks(opening_ties.asks_html, "B") == [("ring-B", (0, 0))]
    dragon = svg.big_road(roads_of("B" * 8), whole=True)  # six down, then along the bottom row
    assert asks(dragon.asks_html, "B") == [("ring-B", (3, 5))] and asks(dragon.asks_html, "P") == [("ring-P", (1, 0))]


def test_an_empty_shoe_asks_for_the_first_cell_of_each_road_that_has_one() -> None:
    roads = roads_of("")
    assert asks(svg.bead_plate(roads).asks_html, "B") == [("bead-B", (0, 0))]
    assert asks(svg.big_road(roads).asks_html, "P") == [("ring-P", (0, 0))]


def test_each_road_carries_the_facts_a_screen_reader_is_told_and_no_words() -> None:
    roads = roads_of("bTPPpBT")
    assert svg.bead_plate(roads).alt == svg.BeadPlateFacts(7, 2, 3, 2, 1, 1, Winner.TIE)
    assert svg.big_road(roads).alt == svg.BigRoadFacts(columns=3, ties=2, newest=Winner.BANKER, depth=1)
    assert svg.derived_road(roads, "big_eye_road").alt == svg.DerivedFacts("big_eye_road", 3, 1, Color.BLUE)
    assert svg.big_road(roads_of("TT")).alt == svg.BigRoadFacts(0, 2, None, 0)
    assert svg.derived_road(roads_of(""), "small_road").alt == svg.DerivedFacts("small_road", 0, 0, None)


def test_good_road_pictures_show_their_example_s_columns_as_deep_as_the_deepest_and_ask_nothing() -> None:
    single, slope = svg.pattern_pictures(["BPBPBP", "BPPBBBPPPP"])
    assert single.view == "0 0 120 80" and slope.view == "0 0 80 80"  # 6 and 4 columns, 4 rows
    assert marks(draw(slope), "ring-P") == [(1, 0), (1, 1), (3, 0), (3, 1), (3, 2), (3, 3)]
    assert single.asks == slope.asks == ()
