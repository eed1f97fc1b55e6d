"""The operations signals' decision (issue 35): a day's counts against the configured
rates, exact findings, nothing under a minimum."""

from __future__ import annotations

from datetime import date

import pytest

from tables.game.alarms import AlarmKind, Severity
from tables.game.operations_signals import (
    DayCounts,
    OperationsRateError,
    OperationsRates,
    Rate,
    Signal,
    operations_findings,
    operations_key,
)

RATES = OperationsRates(
    voids=Rate(2, 3), cancels=Rate(3, 3), refusals=Rate(10, 10), auth_refusals=Rate(5), critical_factor=3
)
DAY = date(2026, 11, 27)


def found(counts: DayCounts, dealer: str | None = "Anna") -> list[tuple[str, str, float]]:
    findings = operations_findings(counts, RATES, table_slug="baccarat-1", day=DAY, dealer=dealer)
    assert all(f.kind is AlarmKind.OPERATIONS for f in findings)
    return [(f.key, f.severity.value, f.evidence["rate"]) for f in findings]  # type: ignore[misc]


def test_a_quiet_day_finds_nothing() -> None:
    assert found(DayCounts(rounds=300, voids=6, cancels=9, refusals=33, auth_refusals=5)) == []


def test_one_void_in_three_rounds_is_under_the_minimum() -> None:
    assert found(DayCounts(rounds=3, voids=1)) == [] and found(DayCounts(rounds=3, voids=2)) == []


def test_voids_past_the_rate_warn_and_past_three_times_it_are_critical() -> None:
    assert found(DayCounts(rounds=100, voids=3)) == [("ops:baccarat-1:2026-11-27:Anna:voids", "warning", 3.0)]
    assert found(DayCounts(rounds=100, voids=6)) == [("ops:baccarat-1:2026-11-27:Anna:voids", "warning", 6.0)]
    assert found(DayCounts(rounds=100, voids=7)) == [("ops:baccarat-1:2026-11-27:Anna:voids:critical", "critical", 7.0)]


def test_cancels_are_per_round_begun_and_refusals_per_post() -> None:
    # 4 cancels in 96 rounds dealt: 4 of 100 begun; 12 refusals and 88 rounds: 12 of 100 posts.
    assert found(DayCounts(rounds=96, cancels=4), dealer=None) == [
        ("ops:baccarat-1:2026-11-27:cancels", "warning", 4.0)
    ]
    assert found(DayCounts(rounds=88, refusals=12)) == [("ops:baccarat-1:2026-11-27:Anna:refusals", "warning", 12.0)]
    assert found(DayCounts(rounds=0, refusals=10)) == [
        ("ops:baccarat-1:2026-11-27:Anna:refusals:critical", "critical", 100.0)
    ]


def test_authentication_refusals_are_counted_a_day() -> None:
    assert found(DayCounts(auth_refusals=5)) == []
    assert found(DayCounts(auth_refusals=6)) == [("ops:baccarat-1:2026-11-27:Anna:auth_refusals", "warning", 6)]
    assert found(DayCounts(auth_refusals=16))[0][1] == "critical"


def test_the_evidence_names_the_figures() -> None:
    [finding] = operations_findings(DayCounts(rounds=60, voids=3), RATES, table_slug="t", day=DAY, dealer="Bea")
    assert finding.severity is Severity.WARNING
    assert dict(finding.evidence) == {
        "test": "rate", "signal": "voids", "count": 3, "rounds": 60, "rate": 5.0, "configured_rate": 2,
        "minimum": 3, "per": 100, "out_of": 60, "day": "2026-11-27", "dealer": "Bea", "scope": "dealer",
    }  # fmt: skip


def test_a_long_dealer_name_keeps_the_key_within_its_column_and_one_per_dealer() -> None:
    one, other = "A" * 80, "A" * 79 + "B"
    keys = {operations_key("t" * 40, DAY, name, Signal.AUTH_REFUSALS, Severity.CRITICAL) for name in (one, other)}
    assert len(keys) == 2 and all(len(key) <= 120 for key in keys)


@pytest.mark.parametrize(("per_100", "minimum"), [(0, 1), (-1, 1), (2, 0)])
def test_a_rate_that_cannot_be_used_is_refused(per_100: float, minimum: int) -> None:
    with pytest.raises(OperationsRateError):
        Rate(per_100, minimum)


def test_a_critical_factor_under_one_is_refused() -> None:
    with pytest.raises(OperationsRateError, match="critical factor"):
        OperationsRates(voids=Rate(1), cancels=Rate(1), refusals=Rate(1), auth_refusals=Rate(1), critical_factor=0.5)
