"""Streaks and chops: the exact chance of a run this long, and the STREAK finding."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.game.alarms import AlarmKind, Severity
from tables.game.outcome import Winner
from tables.game.streaks import critical_length, full_shoe_rounds, longest_run, run_chance, streak_findings
from tables.game.thresholds import DEFAULT_THRESHOLDS

from .shoes_seen import results_only

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer


def enumerated(length: int, rounds: int, odds: tuple[float, float, float], *, alternating: bool) -> float:
    """The chance by listing every sequence of results (ties skipped, as the Big Road)."""
    total = 0.0
    for results in itertools.product("BPT", repeat=rounds):
        chance = 1.0
        for r in results:
            chance *= odds["BPT".index(r)]
        sides = [r for r in results if r != "T"]
        run = best = 0
        for i, side in enumerate(sides):
            run = run + 1 if i and (side != sides[i - 1]) == alternating else 1
            best = max(best, run)
        total += chance * (best >= length)
    return total


def enumerated_in_a_row(length: int, rounds: int, odds: tuple[float, float, float]) -> float:
    """The chance by listing every sequence of results that one side wins ``length``
    rounds in a row, a tie ending the run."""
    total = 0.0
    for results in itertools.product("BPT", repeat=rounds):
        chance, run, best = 1.0, 0, 0
        for i, r in enumerate(results):
            chance *= odds["BPT".index(r)]
            run = 0 if r == "T" else run + 1 if i and results[i - 1] == r else 1
            best = max(best, run)
        total += chance * (best >= length)
    return total


@pytest.mark.parametrize(("length", "rounds"), [(2, 3), (3, 5), (4, 7), (3, 8)])
def test_the_chance_of_a_run_in_a_row_is_the_enumerated_one(length: int, rounds: int) -> None:
    odds = (0.4586, 0.4462, 0.0952)
    exact = enumerated_in_a_row(length, rounds, odds)
    assert run_chance(length, [odds] * rounds, ties_break=True) == pytest.approx(exact, rel=1e-12)
    assert exact < enumerated(length, rounds, odds, alternating=False)  # a tie inside no longer counts


def test_two_rounds_of_a_fair_coin_hold_a_run_of_two_half_the_time() -> None:
    assert run_chance(2, [(0.5, 0.5, 0.0)] * 2) == 0.5
    assert run_chance(2, [(0.5, 0.5, 0.0)] * 2, alternating=True) == 0.5


@pytest.mark.parametrize("alternating", [False, True])
@pytest.mark.parametrize(("length", "rounds"), [(2, 3), (3, 5), (4, 7), (3, 8)])
def test_the_run_chance_is_the_enumerated_one_with_ties(length: int, rounds: int, alternating: bool) -> None:
    odds = (0.4586, 0.4462, 0.0952)
    exact = enumerated(length, rounds, odds, alternating=alternating)
    assert run_chance(length, [odds] * rounds, alternating=alternating) == pytest.approx(exact, rel=1e-12)


def test_ties_neither_break_nor_extend_a_run() -> None:
    run = longest_run(results_only("PBTBBTP"))
    assert run is not None and (run.side, run.length, run.rounds) == (Winner.BANKER, 3, (2, 3, 4, 5))
    chop = longest_run(results_only("BBPBTPBB"), alternating=True)
    assert chop is not None and (chop.side, chop.length, chop.rounds) == (Winner.BANKER, 5, (2, 3, 4, 5, 6, 7))


def test_the_critical_length_is_where_the_chance_falls_under_the_threshold() -> None:
    length = critical_length(8, full_shoe_rounds(8), 1e-5)
    odds = [(0.4586, 0.4462, 0.0952)] * full_shoe_rounds(8)
    assert run_chance(length, odds) < 1e-5 <= run_chance(length - 1, odds)
    assert full_shoe_rounds(8) == 72


def test_a_long_banker_streak_raises_a_streak_naming_its_rounds() -> None:
    length = critical_length(8, full_shoe_rounds(8), DEFAULT_THRESHOLDS.streak)
    # A tie inside it: a Big Road run, not one in a row.
    shoe = results_only("BBPPT" * 4 + "P" + "B" * 12 + "T" + "B" * (length - 12))
    findings = streak_findings(shoe, DEFAULT_THRESHOLDS)
    first = 22
    assert [(f.kind, f.severity, f.key) for f in findings] == [
        (AlarmKind.STREAK, Severity.WARNING, f"shoe:1:streak:banker:{first}:{length}")
    ]
    evidence = findings[0].evidence
    assert evidence["rounds"] == list(range(first, first + length + 1)) and evidence["side"] == "B"
    assert isinstance(evidence["p_value"], float) and evidence["p_value"] < DEFAULT_THRESHOLDS.streak


def test_a_streak_one_shorter_is_silent() -> None:
    length = critical_length(8, full_shoe_rounds(8), DEFAULT_THRESHOLDS.streak)
    shoe = results_only("BBPPT" * 4 + "P" + "B" * 12 + "T" + "B" * (length - 13))
    assert streak_findings(shoe, DEFAULT_THRESHOLDS) == []


def test_banker_20_in_a_row_raises_at_its_20th_round_and_19_does_not() -> None:
    # Issue 51: 20 Bankers in a row alarmed only from 23 (judged as a Big Road run, ties
    # skipped: 20 of them somewhere in a shoe is a 5e-5 chance). In a row, no tie between:
    # 7.9e-6 in a whole shoe, under the 1e-5 threshold.
    assert critical_length(8, full_shoe_rounds(8), DEFAULT_THRESHOLDS.streak, ties_break=True) == 20
    before = "PBTPPBT"
    [finding] = streak_findings(results_only(before + "B" * 20), DEFAULT_THRESHOLDS)
    assert finding.evidence["test"] == "strict_streak_length" and finding.evidence["statistic"] == 20
    assert finding.key == "shoe:1:streak:strict-banker:8:20" and finding.evidence["p_value"] < 1e-5
    assert streak_findings(results_only(before + "B" * 19), DEFAULT_THRESHOLDS) == []


def test_a_long_chop_raises_a_streak_too() -> None:
    length = critical_length(8, full_shoe_rounds(8), DEFAULT_THRESHOLDS.streak, alternating=True)
    findings = streak_findings(results_only("BB" + "PB" * length), DEFAULT_THRESHOLDS)
    assert [f.evidence["test"] for f in findings] == ["chop_length"]
    assert findings[0].key == f"shoe:1:streak:chop:2:{2 * length + 1}"


@given(
    st.integers(1, 8),
    st.lists(st.tuples(st.floats(0.05, 0.9), st.floats(0.05, 0.9)), min_size=1, max_size=30),
    st.booleans(),
)
def test_a_longer_run_is_never_likelier(length: int, chances: list[tuple[float, float]], alternating: bool) -> None:
    odds = [(b / (b + p + 0.1), p / (b + p + 0.1), 0.1 / (b + p + 0.1)) for b, p in chances]
    shorter, longer = (
        run_chance(length, odds, alternating=alternating),
        run_chance(length + 1, odds, alternating=alternating),
    )
    assert 0.0 <= longer <= shorter + 1e-12 <= 1.0 + 1e-12
