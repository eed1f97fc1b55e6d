"""Dealer days kept, and the operations signals read from them.

Each event is counted where it happens: a round as it is recorded, a void and a cancel
in their transactions (:func:`tables.models.dealer_day_add`, one upsert), a refused
plaintext with its refusal (:func:`tables.authentication.services.record_refusals`), a
refused post in a short transaction of its own (:func:`dealer_day_refused`). After an
event that can raise a rate (a void, a cancel, a refusal: a round dealt only lowers
them), :func:`operations_check_soon` reads the day's counts once committed and raises
an alarm past the configured rates, never failing the write that counted.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable
from datetime import date
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from ..authentication import services as authentication
from ..game.alarms import AlarmKind
from ..game.operations_signals import DayCounts, operations_findings
from ..models import Alarm, DealerDay, PlaintextRefusal, Round, RoundCancel, Table, dealer_day_add
from ..surveillance.alarms import alarm_raise, findings_known
from .shoe_days import day_of

log = logging.getLogger(__name__)

SIGNAL_COUNTS = ("rounds", "voids", "cancels", "refusals", "auth_refusals")


def dealer_day_refused(*, table: Table, reason: str) -> None:
    """Count a round or card post the API refused (``reason`` as ``/metrics`` names it)
    on the day of the table's current dealer, in a short transaction of its own, then
    check the day's signals. A refusal is answered whatever happens here: a failure is
    logged, never raised."""
    try:
        dealer, day = table.dealer_name, day_of(timezone.now())
        with transaction.atomic():
            dealer_day_add(table_id=table.pk, dealer_name=dealer, day=day, refusals=1)
            row = DealerDay.objects.select_for_update().get(table_id=table.pk, dealer_name=dealer, day=day)
            row.refused[reason] = int(row.refused.get(reason, 0)) + 1
            row.save(update_fields=["refused"])
        operations_check_soon(table_id=table.pk, dealer=dealer, day=day)
    except Exception:
        log.warning("a refused post of table %s was not counted", table.slug, exc_info=True)


def refusals_record(refused: authentication.PlaintextRefusedError) -> None:
    """Keep and count the plaintexts a write refused (its transaction rolled back), then
    check the day's signals."""
    counted = authentication.record_refusals(refused)
    operations_check_soon(table_id=counted.table_id, dealer=counted.dealer, day=counted.day)


def operations_check_soon(*, table_id: int, dealer: str, day: date) -> None:
    """Check the day's signals once the caller's transaction commits (at once outside
    one): an alarm is raised after the event's commit, and a failure is only logged."""
    transaction.on_commit(partial(_check_logged, table_id, dealer, day))


def _check_logged(table_id: int, dealer: str, day: date) -> None:
    try:
        operations_check(table_id=table_id, dealer=dealer, day=day)
    except Exception:
        log.warning("operations signals of table %s on %s not checked", table_id, day, exc_info=True)


def operations_check(*, table_id: int, dealer: str, day: date) -> list[Alarm]:
    """Raise an alarm for each of the dealer's and the table's signals of ``day`` past the
    configured rates (:data:`settings.OPERATIONS_RATES`); an alarm already raised is not
    raised again. Returns the alarms raised now. Reads the dealer's row and the table's
    day (a row a dealer)."""
    rows = DealerDay.objects.filter(table_id=table_id, day=day)
    table_day = rows.aggregate(**{name: Sum(name) for name in SIGNAL_COUNTS})
    if table_day["rounds"] is None:
        return []  # nothing counted that day
    own = rows.filter(dealer_name=dealer).values(*SIGNAL_COUNTS).first() if dealer else None
    table = Table.objects.only("pk", "slug").get(pk=table_id)
    rates = settings.OPERATIONS_RATES
    findings = [
        (finding, "")
        for finding in operations_findings(_counts(table_day), rates, table_slug=table.slug, day=day, dealer=None)
    ]
    if own is not None:
        findings += [
            (finding, dealer)
            for finding in operations_findings(_counts(own), rates, table_slug=table.slug, day=day, dealer=dealer)
        ]
    if not findings:
        return []
    # Past a rate, every later event of the day finds it again: one read skips those
    # (alarm_raise would refuse them too, each at the cost of a failed insert).
    known = findings_known(AlarmKind.OPERATIONS, [f.key for f, _ in findings])
    raised = [alarm_raise(finding, table=table, dealer=name) for finding, name in findings if finding.key not in known]
    return [alarm for alarm in raised if alarm is not None]


def _counts(values: dict[str, Any]) -> DayCounts:
    return DayCounts(**{name: values[name] or 0 for name in SIGNAL_COUNTS})


# --- The replay: dealer days counted from the records kept (a migration's data step) ---


def dealer_days_rebuild(
    tables: Any = Table,
    rounds: Any = Round,
    cancels: Any = RoundCancel,
    refusals: Any = PlaintextRefusal,
    dealer_days: Any = DealerDay,
) -> int:
    """Every dealer day counted again from the rounds (dealt, voided, first of a shoe),
    the cancelled rounds and the refused plaintexts kept; returns how many rows were
    kept. Refused posts are kept only as counted here: the rows' counts of them are
    carried over (none before these rows existed). A plaintext refusal counts for its
    table's dealer as named now (the refusal does not name one). A migration passes its
    historical models."""
    counts: dict[tuple[int, str, date], Counter[str]] = {}
    refused: dict[tuple[int, str, date], dict[str, int]] = {}
    kept = dealer_days.objects.filter(refusals__gt=0)
    for table_id, dealer, day, n, reasons in kept.values_list("table_id", "dealer_name", "day", "refusals", "refused"):
        counts[table_id, dealer, day] = Counter(refusals=n)
        refused[table_id, dealer, day] = reasons

    def add(table_id: int, dealer: str, at: Any, **events: int) -> None:
        counts.setdefault((table_id, dealer, day_of(at)), Counter()).update(events)

    played = rounds.objects.values_list("shoe__table_id", "dealer_name", "created_at", "number", "voided")
    for table_id, dealer, at, number, voided in played.iterator(chunk_size=2000):
        add(table_id, dealer, at, rounds=1, voids=int(voided), shoes=int(number == 1))
    for table_id, dealer, at in cancels.objects.values_list("shoe__table_id", "dealer_name", "at").iterator():
        add(table_id, dealer, at, cancels=1)
    dealers = dict(tables.objects.values_list("pk", "dealer_name"))
    for table_id, at in refusals.objects.values_list("shoe__table_id", "at").iterator():
        add(table_id, dealers.get(table_id, ""), at, auth_refusals=1)
    with transaction.atomic():
        dealer_days.objects.all().delete()
        dealer_days.objects.bulk_create(_rows(dealer_days, counts.items(), refused), batch_size=1000)
    return len(counts)


def _rows(
    model: Any, counted: Iterable[tuple[tuple[int, str, date], Counter[str]]], refused: dict[Any, dict[str, int]]
) -> Iterable[Any]:
    for (table_id, dealer, day), events in counted:
        yield model(
            table_id=table_id, dealer_name=dealer, day=day, refused=refused.get((table_id, dealer, day), {}), **events
        )
