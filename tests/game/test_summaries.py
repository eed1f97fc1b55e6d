"""Reviewer statistics kept as sums: stretches of a shoe summed as they arrive join into
exactly what counting the shoe round by round gives."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from tables.game.outcome import PlayedRound, Winner
from tables.game.review import Tally, streak_lengths
from tables.game.summaries import Runs, Summary, shares, whole

played_rounds = st.builds(
    PlayedRound,
    winner=st.sampled_from(list(Winner)),
    banker_pair=st.booleans(),
    player_pair=st.booleans(),
    natural=st.booleans(),
)
pays = st.fixed_dictionaries({"banker": st.sampled_from([0.95, -1.0, 0.0]), "lucky_six": st.sampled_from([None, 12.0])})


def runs_of(winners: list[Winner]) -> Runs:
    runs = Runs()
    for winner in winners:
        runs.add(winner)
    return runs


def test_runs_count_each_run_that_ended_and_keep_the_last_open() -> None:
    runs = runs_of([Winner(code) for code in "BBTBPPTPBP"])
    assert runs.ended == Counter({3: 2, 1: 1}) and runs.last == (Winner.PLAYER, 1)
    assert runs.first == (Winner.BANKER, 3)


def test_two_stretches_that_meet_inside_a_run_make_it_one_run() -> None:
    before, after = runs_of([Winner(c) for c in "PBB"]), runs_of([Winner(c) for c in "TBBP"])
    joined = before.then(after)
    assert joined.ended == Counter({1: 1, 4: 1}) and joined.last == (Winner.PLAYER, 1)
    assert joined.first == (Winner.PLAYER, 1)


@given(st.lists(st.sampled_from(list(Winner)), max_size=90), st.lists(st.integers(0, 90), max_size=5))
def test_runs_of_stretches_joined_are_the_runs_of_the_whole_shoe(winners: list[Winner], cuts: list[int]) -> None:
    bounds = [0, *sorted(min(c, len(winners)) for c in cuts), len(winners)]
    joined = Runs()
    for start, end in itertools.pairwise(bounds):
        joined = joined.then(runs_of(winners[start:end]))
    whole = runs_of(winners)
    assert joined == whole
    assert +joined.ended == Counter(streak_lengths(winners))  # what the review's streak chart counts


def summaries_of(winners: list[Winner]) -> Summary:
    summary = Summary()
    for winner in winners:
        summary.add(PlayedRound(winner=winner), {})
    return summary


@given(st.lists(st.sampled_from(list(Winner)), max_size=90), st.lists(st.integers(0, 90), max_size=5))
def test_the_shares_of_a_shoes_days_add_up_to_its_runs_joined_and_the_shoe_once(
    winners: list[Winner], cuts: list[int]
) -> None:
    bounds = [0, *sorted(min(c, len(winners)) for c in cuts), len(winners)]
    stretches = [summaries_of(winners[start:end]) for start, end in itertools.pairwise(bounds)]
    kept = shares(stretches)
    assert sum((share.ended for share in kept), Counter()) == Counter(streak_lengths(winners))
    assert sum(share.shoes for share in kept) == (1 if winners else 0)
    assert [share.summary for share in kept] == stretches  # each day's own counts and pays
    assert whole(stretches).runs == runs_of(winners)


@given(st.lists(st.tuples(played_rounds, pays), max_size=60), st.integers(0, 60))
def test_a_summary_of_two_stretches_is_the_summary_of_their_rounds(
    played: list[tuple[PlayedRound, dict[str, float | None]]], cut: int
) -> None:
    whole, before, after = Summary(), Summary(), Summary()
    for i, (round_, paid) in enumerate(played):
        whole.add(round_, paid)
        (before if i < cut else after).add(round_, paid)
    joined = before.then(after)
    assert joined.tally.rounds == whole.tally.rounds and +joined.tally.counts == +whole.tally.counts
    assert joined.runs == whole.runs
    assert joined.pays.keys() == whole.pays.keys()
    assert all(abs(joined.pays[bet] - whole.pays[bet]) < 1e-9 for bet in whole.pays)


def test_a_bet_not_open_on_a_round_adds_nothing_to_its_pays() -> None:
    summary = Summary()
    summary.add(PlayedRound(winner=Winner.BANKER), {"banker": 0.95, "lucky_six": None})
    assert summary.pays == {"banker": 0.95}


def test_tallies_add_up() -> None:
    a, b = Tally(2, {"banker": 2, "natural": 1}), Tally(1, {"tie": 1})
    assert a.then(b).rounds == 3 and a.then(b).counts == Counter(banker=2, natural=1, tie=1)
