"""The roads as SVG: a mark per cell on one path per kind of mark, the newest columns in
view, and a later round's board extending an earlier one's."""

import re

from roads import svg
from tests.road_marks import asks, marks

from .pictures import roads_of


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
    assert marks(markup, "tie") == [(0, 0)] and '<text class="ties" x="10" y="13.5">2</text>' in markup


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
