"""Reviewer statistics: chi-square tests against exact expectations, streaks, flat bets."""

from __future__ import annotations

import pytest

from tables.game.outcome import PlayedRound, Winner
from tables.game.review import (
    FlatBetCurves,
    Tally,
    chi2_sf,
    chi_square,
    expected_rates,
    expected_streaks,
    flat_bet_curve,
    frequencies,
    streak_lengths,
)

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer

RATES = expected_rates()


@pytest.mark.parametrize(
    ("x", "df"), [(3.841459, 1), (5.991465, 2), (7.814728, 3), (9.487729, 4), (11.070498, 5), (18.307038, 10)]
)
def test_the_chi_square_tail_at_the_textbook_5_percent_points(x: float, df: int) -> None:
    assert chi2_sf(x, df) == pytest.approx(0.05, abs=1e-6)


def test_the_chi_square_tail_at_zero_and_far_out() -> None:
    assert chi2_sf(0, 3) == 1.0 and chi2_sf(100, 2) < 1e-20


def test_expected_rates_are_the_exact_8_deck_ones() -> None:
    assert RATES["banker"] == pytest.approx(0.458597, abs=1e-6)
    assert RATES["player"] == pytest.approx(0.446247, abs=1e-6)
    assert RATES["tie"] == pytest.approx(0.095156, abs=1e-6)
    assert RATES["player_pair"] == RATES["banker_pair"] == pytest.approx(6448 / 86320)


def test_counts_right_on_expectation_pass_and_a_lopsided_shoe_is_flagged() -> None:
    assert chi_square([4586, 4462, 952], [0.4586, 0.4462, 0.0952]).p_value > 0.99
    banker, player = PlayedRound(winner=Winner.BANKER), PlayedRound(winner=Winner.PLAYER)
    lopsided = [banker] * 60 + [player] * 20
    result = frequencies(lopsided, RATES)
    assert result.split is not None and result.split.p_value < 0.001
    assert result.lowest_p is not None and result.lowest_p < 0.001
    row = next(r for r in result.rows if r.event == "banker")
    assert row.observed == 60 and row.expected == pytest.approx(80 * RATES["banker"])


def test_no_rounds_no_test() -> None:
    assert frequencies([], RATES).split is None and frequencies([], RATES).lowest_p is None


def test_streaks_ignore_ties_and_leave_out_the_run_still_going() -> None:
    assert streak_lengths(Winner(code) for code in "BBTBPPTPBP") == [3, 3, 1]


def test_expected_streaks_add_up_to_all_streaks_with_the_longest_bucket_open_ended() -> None:
    expected = expected_streaks(100, RATES, longest=8)
    assert sum(expected) == pytest.approx(100)
    # Half of all streaks end after one round, whichever side the shoe favours.
    assert expected[0] == pytest.approx(50) and expected[1] == pytest.approx(25, abs=0.01)


def test_a_flat_bet_adds_each_rounds_result_and_skips_rounds_it_was_closed() -> None:
    assert flat_bet_curve([0.95, -1, 0, None, 11]) == [0.95, -0.05, -0.05, -0.05, 10.95]


def test_a_tally_of_rounds_added_one_at_a_time_reviews_them_as_the_whole_list_does() -> None:
    rounds = [
        PlayedRound(winner=Winner.BANKER, banker_pair=True, player_pair=False, natural=True),
        PlayedRound(winner=Winner.PLAYER, banker_pair=False, player_pair=True, natural=False),
        PlayedRound(winner=Winner.TIE, banker_pair=False, player_pair=False, natural=True),
    ] * 7
    tally = Tally()
    for r in rounds:
        tally.add(r)
    rates = RATES
    assert tally.frequencies(rates) == frequencies(list(rounds), rates)


def test_flat_bet_curves_added_a_round_at_a_time_keep_every_steps_point_of_the_whole_curve() -> None:
    pays = [{"banker": 0.95, "player": -1.0}, {"banker": -1.0, "player": 1.0}, {"banker": 0.0}] * 5
    curves = FlatBetCurves(["banker", "player"], step=4)
    for paid in pays:
        curves.add(paid)
    assert curves.kept_after == [4, 8, 12]
    for bet in ("banker", "player"):
        assert curves.curves[bet] == flat_bet_curve(p.get(bet) for p in pays)[3::4]
    with pytest.raises(ValueError):
        FlatBetCurves(["banker"], step=0)
