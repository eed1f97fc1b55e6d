"""A bet's advantage window opens after the first round its return on the cards left
rises above its threshold, and closes after the first round it falls back."""

from __future__ import annotations

import pytest

from tables.game.advantage import AfterRound, ThresholdError, Window, advantage_windows, thresholds_parse
from tables.game.alarms import AlarmKind
from tables.game.bets import BetType

ZERO = dict.fromkeys(BetType, 0.0)
LUCKY = BetType.LUCKY_SIX


def rounds(*lucky_six: float | None, first: int = 1) -> list[AfterRound]:
    """Rounds whose Lucky Six returns ``lucky_six`` (None: too few cards for another round)
    and every other bet loses."""
    after = []
    for number, share in enumerate(lucky_six, start=first):
        returns = {} if share is None else {bet.value: -0.05 for bet in BetType} | {LUCKY.value: share}
        after.append(AfterRound(number, returns, 100 - number))
    return after


def test_a_window_opens_after_the_round_the_return_rises_above_zero_and_closes_after_it_falls_back() -> None:
    [window] = advantage_windows(rounds(-0.1, 0.02, 0.05, 0.01, -0.01, -0.02), ZERO)
    assert window == Window(LUCKY, opened_after=2, opening_return=0.02, cards_left=98, best_return=0.05, best_after=3,
                            closed_after=5)  # fmt: skip
    assert window.rounds_open == 3


def test_a_return_of_exactly_the_threshold_is_no_edge() -> None:
    assert advantage_windows(rounds(0.0, 0.0, -0.01), ZERO) == []


def test_each_bet_has_its_own_threshold() -> None:
    assert advantage_windows(rounds(0.01, 0.015), ZERO | {LUCKY: 0.02}) == []
    [window] = advantage_windows(rounds(0.01, 0.025), ZERO | {LUCKY: 0.02})
    assert window.opened_after == 2


def test_a_window_still_open_has_no_close_until_the_shoe_ends() -> None:
    [open_window] = advantage_windows(rounds(-0.1, 0.03, 0.04), ZERO)
    assert open_window.closed_after is None and open_window.rounds_open is None
    [ended] = advantage_windows(rounds(-0.1, 0.03, 0.04), ZERO, ended=True)
    assert ended.closed_after == 3 and ended.rounds_open == 1


def test_too_few_cards_for_another_round_closes_every_window() -> None:
    [window] = advantage_windows(rounds(0.03, 0.04, None), ZERO)
    assert (window.opened_after, window.closed_after) == (1, 3)


def test_a_bet_that_rises_again_opens_a_second_window() -> None:
    first, second = advantage_windows(rounds(0.01, -0.01, -0.02, 0.02), ZERO)
    assert (first.opened_after, first.closed_after, second.opened_after, second.closed_after) == (1, 2, 4, None)


def test_a_window_raises_one_finding_named_by_its_shoe_bet_and_opening_round() -> None:
    [window] = advantage_windows(rounds(-0.1, 0.02), ZERO)
    finding = window.finding(shoe_id=7)
    assert (finding.kind, finding.key, finding.subject, finding.round_number) == (
        AlarmKind.ADVANTAGE_WINDOW, "7:lucky_six:2", "lucky_six", 2
    )  # fmt: skip
    assert finding.evidence["return"] == 0.02 and finding.evidence["cards_left"] == 98


def test_the_setting_names_one_threshold_for_every_bet_then_bets_of_their_own() -> None:
    assert thresholds_parse("0") == ZERO
    assert thresholds_parse("0.01") == dict.fromkeys(BetType, 0.01)
    assert thresholds_parse("perfect_pair=0.05, 0.01") == dict.fromkeys(BetType, 0.01) | {BetType.PERFECT_PAIR: 0.05}


@pytest.mark.parametrize("setting", ["lucky_seven=0.01", "lucky_six=lots", "two percent"])
def test_a_setting_that_names_no_bet_or_no_number_is_refused(setting: str) -> None:
    with pytest.raises(ThresholdError):
        thresholds_parse(setting)
