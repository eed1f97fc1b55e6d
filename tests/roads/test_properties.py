"""Invariants over random shoes (hypothesis)."""

import ast
from itertools import chain, repeat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roads.derived import CYCLES
from roads.engine import Roads
from roads.entries import RoadRound, Winner

from . import reference

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer

results = st.lists(
    st.tuples(st.sampled_from([Winner.BANKER, Winner.PLAYER, Winner.TIE]), st.booleans(), st.booleans()),
    max_size=100,
)
# Long streaks, so dragon tails (and tails blocked by older tails) come up often.
streaky = st.lists(st.tuples(st.sampled_from(list(Winner)), st.integers(1, 13), st.booleans()), max_size=12).map(
    lambda runs: list(chain.from_iterable(repeat((w, pair, not pair), n) for w, n, pair in runs))
)

shoes = st.one_of(results, streaky)


def to_rounds(items: list[tuple[Winner, bool, bool]]) -> list[RoadRound]:
    return [RoadRound(w, bp, pp, i) for i, (w, bp, pp) in enumerate(items)]


@settings(max_examples=300, deadline=None)
@given(shoes)
def test_after_every_round_the_engine_shows_what_a_plain_reading_of_the_seed_gives(
    items: list[tuple[Winner, bool, bool]],
) -> None:
    rounds = to_rounds(items)
    roads = Roads()
    assert roads.to_data() == reference.roads_data([])
    for n, round_ in enumerate(rounds, start=1):
        roads.append(round_)
        assert roads.to_data() == reference.roads_data(rounds[:n]), f"after round {n}"


@settings(max_examples=300)
@given(shoes)
def test_each_ask_preview_is_the_mark_that_appears_after_that_result(items: list[tuple[Winner, bool, bool]]) -> None:
    rounds = to_rounds(items)
    before = Roads.of(rounds)
    for winner in (Winner.BANKER, Winner.PLAYER):
        asked = before.ask(winner)
        peeks = {name: before.derived[name].peek(mark) for name, mark in asked.items() if mark is not None}
        after = Roads.of([*rounds, RoadRound(winner, index=len(rounds))])
        for name, road in after.derived.items():
            grown = road.marks[len(before.derived[name].marks) :]
            if asked[name] is None:
                assert grown == []
            else:
                assert grown == [asked[name]]
                placed = road.cells[-1]
                assert (placed.row, placed.col, placed.color) == (peeks[name].row, peeks[name].col, peeks[name].color)


@settings(max_examples=300)
@given(shoes)
def test_every_derived_mark_count_is_the_non_tie_rounds_after_its_start_entry(
    items: list[tuple[Winner, bool, bool]],
) -> None:
    roads = Roads.of(to_rounds(items))
    columns = roads.columns if roads.columns and roads.columns[0][0].winner else []
    for name, cycle in CYCLES.items():
        # The start entry is the first of column cycle + 1; every B/P after it is marked.
        if len(columns) <= cycle:
            expected = 0
        else:
            up_to_start = sum(len(c) for c in columns[:cycle]) + 1
            expected = sum(len(c) for c in columns) - up_to_start
        assert len(roads.derived[name].marks) == expected


@given(shoes)
def test_big_road_cells_never_overlap_and_stay_in_six_rows(items: list[tuple[Winner, bool, bool]]) -> None:
    data = Roads.of(to_rounds(items)).to_data()
    for cells in (data["big_road"]["cells"], *(data[name]["cells"] for name in CYCLES)):
        positions = [(c["row"], c["col"]) for c in cells]
        assert len(set(positions)) == len(positions)
        assert all(0 <= row < 6 for row, _ in positions)


def test_the_reference_is_written_apart_from_the_engine() -> None:
    tree = ast.parse(Path(reference.__file__).read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert not any(m and m.startswith(("roads.engine", "roads.grid", "roads.derived")) for m in imported)
