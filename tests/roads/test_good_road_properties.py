"""Issue 21's four good roads over random shoes (hypothesis): after every round, a pattern
is reported exactly when a plain reading of its words holds on the Big Road's columns
after that round (ties ignored, the newest column at its current length)."""

from __future__ import annotations

import re
from itertools import groupby, repeat

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roads.engine import Roads
from roads.entries import RoadRound, Winner

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer

# Short columns, often single, with ties between: jumps, double jumps and slopes come up often.
columns = st.lists(st.tuples(st.integers(1, 5), st.integers(0, 2)), max_size=14)
first_side = st.sampled_from([Winner.BANKER, Winner.PLAYER])
NEW = {"double_jump", "banker_always_jumps", "player_always_jumps", "slope_road"}


def shoe_of(first: Winner, runs: list[tuple[int, int]]) -> list[RoadRound]:
    """Columns of the given lengths, alternating from ``first``, each followed by some ties."""
    other = {Winner.BANKER: Winner.PLAYER, Winner.PLAYER: Winner.BANKER}
    winners, side = [], first
    for length, ties in runs:
        winners += [*repeat(side, length), *repeat(Winner.TIE, ties)]
        side = other[side]
    return [RoadRound(w, index=i) for i, w in enumerate(winners)]


def column_text(rounds: list[RoadRound]) -> tuple[str, list[int]]:
    """The Big Road's columns as ``"B1 P2 B1"``, and their lengths, read straight off the
    results: a run of one side's wins, ties left out."""
    runs = [(w.value, len(list(group))) for w, group in groupby(r.winner for r in rounds if r.winner is not Winner.TIE)]
    return " ".join(f"{side}{length}" for side, length in runs), [length for _, length in runs]


def plain_reading(rounds: list[RoadRound]) -> set[str]:
    text, lengths = column_text(rounds)
    newest_four = lengths[-4:]
    holds = {
        # the newest four columns hold exactly 2 entries each
        "double_jump": len(newest_four) == 4 and newest_four == [2, 2, 2, 2],
        # B1 P>=1 B1 P>=1 B1, ending at the newest column
        "banker_always_jumps": re.search(r"(^| )B1 P\d+ B1 P\d+ B1$", text) is not None,
        "player_always_jumps": re.search(r"(^| )P1 B\d+ P1 B\d+ P1$", text) is not None,
        # n, n+1, n+2, n+3
        "slope_road": len(newest_four) == 4 and newest_four == list(range(newest_four[0], newest_four[0] + 4)),
    }
    return {name for name, held in holds.items() if held}


@settings(max_examples=300, deadline=None)
@given(first_side, columns)
def test_a_new_pattern_reported_after_round_k_holds_on_the_columns_after_round_k(
    first: Winner, runs: list[tuple[int, int]]
) -> None:
    rounds = shoe_of(first, runs)
    roads = Roads()
    for k, round_ in enumerate(rounds, start=1):
        roads.append(round_)
        reported = set(roads.good_roads()) & NEW
        assert reported == plain_reading(rounds[:k]), f"after round {k}: {column_text(rounds[:k])[0]}"


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(list(Winner)), max_size=60))
def test_the_same_holds_on_shoes_of_any_results_ties_first_or_between(winners: list[Winner]) -> None:
    rounds = [RoadRound(w, index=i) for i, w in enumerate(winners)]
    for k in range(len(rounds) + 1):
        reported = set(Roads.of(rounds[:k]).good_roads()) & NEW
        assert reported == plain_reading(rounds[:k]), f"after round {k}: {column_text(rounds[:k])[0]}"


def test_the_plain_reading_reads_the_issue_s_examples() -> None:
    from .pictures import shoe

    assert plain_reading(shoe("BB PP BB PP")) == {"double_jump"}
    assert plain_reading(shoe("B PP B P B")) == {"banker_always_jumps"}
    assert plain_reading(shoe("P B P B P")) == {"player_always_jumps"}
    assert plain_reading(shoe("B PP BBB PPPP")) == {"slope_road"}
    assert plain_reading(shoe("TT")) == plain_reading(shoe("B PP BBB PPP")) == set()
