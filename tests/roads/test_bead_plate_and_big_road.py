"""Bead Plate and Big Road, as seed 000 describes them."""

import pytest

from roads.engine import Roads

from .pictures import big_road, expected, picture, roads_of

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer


def test_bead_plate_fills_top_to_bottom_then_left_to_right() -> None:
    bead = roads_of("BPTBBPPT").to_data()["bead_plate"]
    assert picture(bead, lambda c: c["winner"]) == expected("""
        BP
        PT
        T.
        B.
        B.
        P.
    """)


def test_bead_plate_shows_banker_and_player_pairs() -> None:
    bead = roads_of("bPp").to_data()["bead_plate"]
    assert [(c["banker_pair"], c["player_pair"]) for c in bead] == [(True, False), (False, False), (False, True)]


def test_a_new_column_each_time_the_winner_flips() -> None:
    assert big_road("BBPBBBP") == expected("""
        BPBP
        B.B.
        ..B.
        ....
        ....
        ....
    """)


def test_ties_add_to_the_last_entry_and_never_make_one() -> None:
    columns = roads_of("BBBBTT").to_data()["big_road"]["columns"]
    assert [[e["ties"] for e in column] for column in columns] == [[0, 0, 0, 2]]


def test_banker_tie_player_keeps_the_tie_on_the_banker() -> None:
    columns = roads_of("BTP").to_data()["big_road"]["columns"]
    assert [[(e["winner"], e["ties"]) for e in c] for c in columns] == [[("B", 1)], [("P", 0)]]


def test_leading_ties_and_the_first_banker_share_one_square() -> None:
    data = roads_of("TTB").to_data()["big_road"]
    assert data["columns"] == [[{"winner": "B", "ties": 2, "banker_pair": False, "player_pair": False}]]
    assert [(c["row"], c["col"]) for c in data["cells"]] == [(0, 0)]
    # "a Tie-Banker combination and a Banker-Tie combination at the beginning of a shoe
    # is undistinguishable in this roadmap"
    assert roads_of("TB").to_data()["big_road"] == roads_of("BT").to_data()["big_road"]


def test_a_shoe_of_ties_only_is_one_green_stripe_with_no_circle() -> None:
    data = roads_of("TTT").to_data()["big_road"]
    assert data["columns"] == [[{"winner": None, "ties": 3, "banker_pair": False, "player_pair": False}]]
    assert big_road("TTT").splitlines()[0] == "-"
    assert Roads.of([]).to_data()["big_road"] == {"columns": [], "cells": []}


def test_pair_dots_come_from_the_round_that_made_the_entry() -> None:
    columns = roads_of("Tbp").to_data()["big_road"]["columns"]
    assert [(e["banker_pair"], e["player_pair"]) for c in columns for e in c] == [(True, False), (False, True)]


def test_a_streak_past_row_6_turns_right_into_a_dragon_tail() -> None:
    assert big_road("BBBBBBBB") == expected("""
        B..
        B..
        B..
        B..
        B..
        BBB
    """)


def test_a_tail_blocked_by_an_earlier_tail_turns_one_row_higher() -> None:
    assert big_road("BBBBBBBB PPPPPPP BB") == expected("""
        BPB.
        BPB.
        BP..
        BP..
        BPPP
        BBB.
    """)


def test_a_tail_in_the_top_row_pushes_the_next_streak_to_the_first_free_top_cell() -> None:
    assert big_road("BBBBBBB PPPPPP BBBBB PPPP BBB PPP B") == expected("""
        BPBPBPPPB
        BPBPBB...
        BPBPP....
        BPBB.....
        BPP......
        BB.......
    """)


def test_the_tail_never_drops_back_down() -> None:
    # After turning, the streak runs along its row even where cells below are free.
    assert big_road("BBBBBBB PPPPPPPP") == expected("""
        BP...
        BP...
        BP...
        BP...
        BPPPP
        BB...
    """)
