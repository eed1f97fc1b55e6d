"""Big Eye Road, Small Road and Cockroach Road (seed 000)."""

import random

import pytest

from roads.derived import Comparison
from roads.entries import Color

from .pictures import derived, expected, roads_of

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer


def first_marked_round(text: str, road: str) -> int | None:
    """1-based number of the round that made the road's first mark."""
    text = text.replace(" ", "")
    for n in range(1, len(text) + 1):
        if roads_of(text[:n]).to_data()[road]["marks"]:
            return n
    return None


@pytest.mark.parametrize(
    ("road", "text", "first"),
    [
        # "the hand after the first entry in the second column of the Big Road"
        ("big_eye_road", "B P P", 3),  # column 2 row 2
        ("big_eye_road", "B P B", 3),  # column 3 row 1 when column 2 has one entry
        ("big_eye_road", "B B B P P", 5),
        # Small Road: after the first entry of the third column
        ("small_road", "B P B B", 4),
        ("small_road", "B P B P", 4),
        ("small_road", "B P P B B", 5),  # column 3's first entry (round 4) gets no mark
        # Cockroach Road: after the first entry of the fourth column
        ("cockroach_road", "B P B P P", 5),
        ("cockroach_road", "B P B P B", 5),
        ("cockroach_road", "BB PP BB PP BB", 8),
    ],
)
def test_each_derived_road_starts_with_the_entry_after_the_first_entry_of_column_k_plus_1(
    road: str, text: str, first: int
) -> None:
    assert first_marked_round(text, road) == first


def test_ties_never_add_marks() -> None:
    assert roads_of("B P B").to_data()["big_eye_road"] == roads_of("B T P T T B T").to_data()["big_eye_road"]


def marks(text: str, road: str = "big_eye_road") -> str:
    return "".join(m[0] for m in roads_of(text).to_data()[road]["marks"])


def test_a_new_column_compares_the_depths_of_the_two_columns_before_it() -> None:
    assert marks("BB PP B") == "rr"  # 2nd P: rule 2, red; B: columns of 2 and 2, red
    assert marks("BB P B") == "b"  # B: columns of 1 and 2, blue


def test_a_continuing_entry_compares_the_cell_left_of_it_with_the_cell_above_that() -> None:
    # column 2: P P P beside a column of one B: row 2 (filled? no, above filled: blue), row 3 (both empty: red)
    assert marks("B PPP") == "br"


def test_the_straight_fall_gives_red_after_the_first_blue() -> None:
    # A long Player streak beside a Banker column of two: rows 2..6 of column 2
    assert marks("BB PPPPPP") == "rbrrr"


def test_small_road_skips_one_column_and_cockroach_two() -> None:
    text = "BB P BBB PP B"  # columns of 2, 1, 3, 2, 1
    # Big Eye: B(c3r1) 1 vs 2 b; c3r2 beside 1 b; c3r3 r; P(c4r1) 3 vs 1 b; c4r2 r; B(c5r1) 2 vs 3 b
    assert marks(text, "big_eye_road") == "bbrbrb"
    # Small: c3r2 beside 2 r; c3r3 b; P(c4r1) 3 vs 2 b; c4r2 beside 1 b; B(c5r1) 2 vs 1 b
    assert marks(text, "small_road") == "rbbbb"
    # Cockroach: c4r2 beside 2 r; B(c5r1) 2 vs 2 r
    assert marks(text, "cockroach_road") == "rr"


def test_derived_roads_lay_out_like_the_big_road() -> None:
    # Big Eye marks for B PPPPPPP (P beside one B): b then 6 reds -> blue column, red column with a tail
    assert marks("B PPPPPPP") == "brrrrr"
    assert derived("B PPPPPPP", "big_eye_road") == expected("""
        br
        .r
        .r
        .r
        .r
        ..
    """)


def test_a_derived_road_gets_a_dragon_tail_too() -> None:
    # B then nine Players: rows 2-9 of the P column are marked, blue then seven reds;
    # the reds run six down, then along row 6.
    assert marks("B PPPPPPPPP") == "b" + "r" * 7
    assert derived("B PPPPPPPPP", "big_eye_road") == expected("""
        br.
        .r.
        .r.
        .r.
        .r.
        .rr
    """)


# --- Why a mark is red or blue (issue 31: marks that explain themselves).


def test_a_new_column_on_the_big_eye_road_compares_the_depths_of_the_previous_two_columns() -> None:
    roads = roads_of("B B P P B")  # round 5 starts column 3; columns 2 and 1 are both 2 deep
    why = roads.comparison("big_eye_road", 4)
    assert why == Comparison(Color.RED, True, columns=(1, 0), depths=(2, 2))
    roads = roads_of("B B B P P B")  # columns 2 and 1: 2 and 3 deep
    assert roads.comparison("big_eye_road", 5) == Comparison(Color.BLUE, True, columns=(1, 0), depths=(2, 3))


def test_the_small_road_compares_the_first_and_third_columns_to_the_left_and_the_cockroach_the_fourth() -> None:
    roads = roads_of("B P B P B")
    assert roads.comparison("small_road", 4).columns == (3, 1)
    roads = roads_of("B P B P B P")
    assert roads.comparison("cockroach_road", 5).columns == (4, 1)


def test_the_same_outcome_again_compares_the_cell_left_of_the_new_entry_with_the_one_above_it() -> None:
    roads = roads_of("B P P")  # round 3 under round 2; left of it (column 1, row 2) blank, above it filled
    assert roads.comparison("big_eye_road", 2) == Comparison(
        Color.BLUE, False, columns=(0,), depths=(1,), rows=(1, 0), filled=(False, True)
    )
    roads = roads_of("B B P P")  # both filled: red
    assert roads.comparison("big_eye_road", 3).filled == (True, True)
    roads = roads_of("B P P P")  # both blank: red
    assert roads.comparison("big_eye_road", 3) == Comparison(
        Color.RED, False, columns=(0,), depths=(1,), rows=(2, 1), filled=(False, False)
    )


def test_a_round_that_made_no_mark_has_nothing_to_explain() -> None:
    roads = roads_of("B P T")
    assert roads.comparison("big_eye_road", 0) is None and roads.comparison("big_eye_road", 2) is None


@pytest.mark.parametrize("seed", range(20))
def test_every_explained_mark_has_the_colour_the_road_drew(seed: int) -> None:
    rng = random.Random(seed)
    roads = roads_of(" ".join(rng.choice("BBBPPPT") for _ in range(80)))
    for name, road in roads.derived.items():
        for cell in road.cells:
            why = roads.comparison(name, cell.index)
            assert why is not None and why.color is cell.color, (name, cell)
            for column in why.columns:  # every column it compared is on the Big Road
                assert roads.big_road_cell(column, 0) is not None
