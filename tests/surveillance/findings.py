"""Findings as the checks make them: a streak on "Baccarat 1"'s shoe (a warning) and its
outcomes off their odds (critical)."""

from __future__ import annotations

from tables.game.alarms import AlarmKind, Finding, Severity

STREAK = Finding(
    kind=AlarmKind.STREAK,
    severity=Severity.WARNING,
    key="banker-run-13",
    round_number=37,
    evidence={"test": "longest run", "statistic": 13, "p_value": 0.0004, "rounds": [25, 37]},
)
OUTCOMES = Finding(kind=AlarmKind.OUTCOMES, severity=Severity.CRITICAL, key="chi-square", round_number=60)
