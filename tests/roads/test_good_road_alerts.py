"""When a good road forms, and how long it has held (roads.alerts): an alert is raised
once, on the round a good road forms, and again only after it has ended."""

from __future__ import annotations

from roads.alerts import held_roads, newly_formed, pattern_runs
from roads.entries import RoadRound, Winner


def rounds(winners: str) -> list[RoadRound]:
    return [RoadRound(Winner(w), index=i) for i, w in enumerate(winners)]


def test_a_long_banker_forms_on_the_fourth_banker_in_a_row_and_not_on_the_third_or_fifth() -> None:
    assert "long_banker" not in newly_formed(rounds("PBBB"))
    assert "long_banker" in newly_formed(rounds("PBBBB"))
    assert "long_banker" not in newly_formed(rounds("PBBBBB")), "it holds on: no second alert"


def test_a_good_road_that_ended_forms_anew_and_is_alerted_again() -> None:
    assert "long_banker" in newly_formed(rounds("BBBBPBBBB"))


def test_a_tie_forms_nothing_and_a_good_road_holds_through_it() -> None:
    assert newly_formed(rounds("PBBBBT")) == []
    assert pattern_runs(rounds("PBBBBT"))["long_banker"] == 2


def test_no_round_forms_nothing() -> None:
    assert newly_formed([]) == []
    assert pattern_runs([]) == {}


def test_each_held_good_road_says_how_many_rounds_it_has_held() -> None:
    runs = pattern_runs(rounds("PBBBBBB"))
    assert runs["long_banker"] == 3  # formed on the fourth Banker, held on the fifth and sixth
    assert set(runs) == {"long_banker"}


def test_the_runs_carried_on_from_an_earlier_call_are_the_runs_worked_out_from_the_first_round() -> None:
    shoe = rounds("PBBBBTBPPPPBBTPPB")
    for known in range(len(shoe) + 1):
        earlier = held_roads(shoe[:known]).runs
        assert held_roads(shoe, known=(known, earlier)).runs == held_roads(shoe).runs


def test_roads_carried_on_from_an_earlier_call_are_the_roads_built_from_the_first_round() -> None:
    shoe = rounds("PBBBBTBPPPPBBTPPB")
    whole = held_roads(shoe)
    for known in range(len(shoe) + 1):
        earlier = held_roads(shoe[:known])
        carried = held_roads(shoe, known=(known, earlier.runs), built=earlier.roads)
        assert carried.runs == whole.runs and carried.roads.to_data() == whole.roads.to_data()
