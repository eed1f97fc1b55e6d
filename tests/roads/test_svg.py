"""The roads as SVG: one mark per cell, the newest columns in view, titles when asked."""

import re

from roads import svg

from .pictures import roads_of


def marks(markup: str, css: str) -> list[tuple[int, int]]:
    """Grid (col, row) of every mark whose classes start with ``css``."""
    found = re.findall(rf'<g class="{css}[^"]*" transform="translate\((\d+) (\d+)\)"', markup)
    return [((int(x) - 10) // svg.CELL, (int(y) - 10) // svg.CELL) for x, y in found]


def test_the_bead_plate_draws_each_round_with_its_letter_and_pair_dots() -> None:
    markup = svg.bead_plate(roads_of("bPT"))
    assert marks(markup, "bead win-B") == [(0, 0)] and marks(markup, "bead win-P") == [(0, 1)]
    assert marks(markup, "bead win-T") == [(0, 2)]
    assert markup.count('class="pair-B"') == 1 and markup.count('class="pair-P"') == 0


def test_the_big_road_draws_ties_as_a_stripe_with_their_number_when_more_than_one() -> None:
    markup = svg.big_road(roads_of("BTTP"))
    assert marks(markup, "ring win-B") == [(0, 0)] and marks(markup, "ring win-P") == [(1, 0)]
    assert markup.count('class="tie"') == 1 and '<text class="ties" y="3.5">2</text>' in markup


def test_a_long_shoe_scrolls_so_the_newest_column_and_the_next_stay_in_view() -> None:
    markup = svg.big_road(roads_of("BP" * 20), columns=16)  # 40 columns
    cols = [col for col, _ in marks(markup, "ring")]
    assert max(cols) == 14 and min(cols) == 0 and len(cols) == 15


def test_titles_name_the_round_behind_each_mark_only_when_given() -> None:
    titles = [f"Round {n}" for n in range(1, 4)]
    assert "<title>Round 2</title>" in svg.bead_plate(roads_of("BPB"), titles=titles)
    assert "<title>Round" not in svg.bead_plate(roads_of("BPB"))


def test_titles_are_escaped() -> None:
    assert "<title>&lt;b&gt;</title>" in svg.bead_plate(roads_of("B"), titles=["<b>"])


def test_ask_marks_are_drawn_hidden_for_the_ask_buttons() -> None:
    markup = svg.derived_road(roads_of("PPPB"), "big_eye_road")
    assert 'class="eye mark-blue ask ask-P"' in markup
