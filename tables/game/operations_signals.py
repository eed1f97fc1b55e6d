"""Dealer and operations signals: a dealer's (or a table's) day of voids, cancelled
rounds, refused posts and card-authentication refusals against the rates the casino
configured, as :class:`~tables.game.alarms.Finding` values.

A rate is per 100 of what the count can happen to: voids per 100 rounds dealt, cancels
per 100 rounds begun (dealt or cancelled), refused posts per 100 posts (rounds dealt and
posts refused). Card-authentication refusals are counted a day. Each rate has a minimum
count under which it never alarms: one void in the day's first three rounds is a
third of them, and nothing to wake anyone for. Past ``critical_factor`` times the rate
the finding is critical, and gets its own key: a worse finding is a new alarm, the same
one found again is not.
"""

from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass
from datetime import date

from .alarms import AlarmKind, Finding, Severity

KEY_LENGTH = 120  # an alarm's key column


class Signal(enum.StrEnum):
    """What is counted, as alarms' keys and evidence name it (never renamed once shipped)."""

    VOIDS = "voids"
    CANCELS = "cancels"
    REFUSALS = "refusals"
    AUTH_REFUSALS = "auth_refusals"


class OperationsRateError(ValueError):
    """A configured rate that cannot be used (not above zero, or a minimum under one)."""


@dataclass(frozen=True)
class Rate:
    """Alarm past ``per_100`` per 100 (or, for a count a day, past ``per_100`` a day),
    once the count reaches ``minimum``."""

    per_100: float
    minimum: int = 1

    def __post_init__(self) -> None:
        if not self.per_100 > 0:
            raise OperationsRateError(f"a rate must be above 0, not {self.per_100}")
        if self.minimum < 1:
            raise OperationsRateError(f"a rate's minimum count must be at least 1, not {self.minimum}")


@dataclass(frozen=True)
class OperationsRates:
    """The rates a day is held to (``settings.OPERATIONS_RATES``), and how far past one a
    finding is critical."""

    voids: Rate
    cancels: Rate
    refusals: Rate
    auth_refusals: Rate  # a count a day: ``per_100`` is the refusals a day allowed
    critical_factor: float = 3.0

    def __post_init__(self) -> None:
        if self.critical_factor < 1:
            raise OperationsRateError(f"the critical factor must be at least 1, not {self.critical_factor}")


@dataclass(frozen=True)
class DayCounts:
    """One dealer's (or one table's) counts of one day."""

    rounds: int = 0
    voids: int = 0
    cancels: int = 0
    refusals: int = 0
    auth_refusals: int = 0


def operations_findings(
    counts: DayCounts, rates: OperationsRates, *, table_slug: str, day: date, dealer: str | None
) -> list[Finding]:
    """The signals of a day past their configured rates, one finding each. ``dealer`` is
    the dealer whose day it is, or ``None`` for the whole table's day."""
    measured = (
        (Signal.VOIDS, counts.voids, counts.rounds, rates.voids),
        (Signal.CANCELS, counts.cancels, counts.rounds + counts.cancels, rates.cancels),
        (Signal.REFUSALS, counts.refusals, counts.rounds + counts.refusals, rates.refusals),
    )
    findings = []
    for signal, count, out_of, rate in measured:
        if count < rate.minimum or out_of <= 0:
            continue
        value = 100 * count / out_of
        if value > rate.per_100:
            critical = value > rate.per_100 * rates.critical_factor
            findings.append(
                _finding(signal, critical, table_slug, day, dealer, count, counts.rounds, value, rate, out_of)
            )
    auth = rates.auth_refusals
    if counts.auth_refusals >= auth.minimum and counts.auth_refusals > auth.per_100:
        critical = counts.auth_refusals > auth.per_100 * rates.critical_factor
        findings.append(
            _finding(
                Signal.AUTH_REFUSALS,
                critical,
                table_slug,
                day,
                dealer,
                counts.auth_refusals,
                counts.rounds,
                counts.auth_refusals,
                auth,
                None,
            )
        )
    return findings


def _finding(
    signal: Signal,
    critical: bool,
    table_slug: str,
    day: date,
    dealer: str | None,
    count: int,
    rounds: int,
    value: float,
    rate: Rate,
    out_of: int | None,
) -> Finding:
    severity = Severity.CRITICAL if critical else Severity.WARNING
    evidence: dict[str, object] = {
        "test": "rate",
        "signal": signal.value,
        "count": count,
        "rounds": rounds,
        "rate": round(value, 2),
        "configured_rate": rate.per_100,
        "minimum": rate.minimum,
        "per": "day" if out_of is None else 100,
        "out_of": out_of,
        "day": day.isoformat(),
        "dealer": dealer,
        "scope": "table" if dealer is None else "dealer",
    }
    return Finding(
        AlarmKind.OPERATIONS, severity, operations_key(table_slug, day, dealer, signal, severity), evidence=evidence
    )


def operations_key(table_slug: str, day: date, dealer: str | None, signal: Signal, severity: Severity) -> str:
    """``ops:<table>:<day>:<dealer>:<signal>`` (no dealer part for a table's day), with
    ``:critical`` for the worse finding. A dealer's name too long for the key column is
    replaced by a digest of it: the key stays one per dealer."""
    suffix = ":critical" if severity is Severity.CRITICAL else ""
    if dealer is None:
        return f"ops:{table_slug}:{day.isoformat()}:{signal.value}{suffix}"
    key = f"ops:{table_slug}:{day.isoformat()}:{dealer}:{signal.value}{suffix}"
    if len(key) > KEY_LENGTH:
        digest = "#" + hashlib.sha256(dealer.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        key = f"ops:{table_slug}:{day.isoformat()}:{digest}:{signal.value}{suffix}"
    return key
