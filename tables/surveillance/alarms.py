"""Raising an alarm, and a reviewer's note on one: the one place either is written."""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from .. import live
from ..game.alarms import AlarmKind, Finding, Severity
from ..models import Alarm, AlarmFinding, AlarmNote, Shoe, Table, WebhookDelivery
from ..operations.metrics import ALARM_FINDINGS_GATHERED, ALARMS_RAISED
from . import webhooks

NOTE_STATES = {
    AlarmNote.Action.ACKNOWLEDGE: Alarm.State.ACKNOWLEDGED,
    AlarmNote.Action.RESOLVE: Alarm.State.RESOLVED,
}


class AlarmNoteError(ValueError):
    """A note that cannot be taken (no text, or an alarm already resolved)."""


def alarm_raise(finding: Finding, *, table: Table, shoe: Shoe | None = None, dealer: str = "") -> Alarm | None:
    """Store ``finding``, once (the same finding found again, by a check run again or
    twice at once, is refused by its kind and key), in its episode: the alarm of its kind
    (and subject) on the table and shoe (or the table's days) that is not resolved yet gathers it (its
    count, its latest evidence, critical once a finding is), else it raises a new alarm.
    Returns the new alarm, or ``None`` when nothing new was raised. After commit a new
    alarm goes to the desk and the webhooks; a finding gathered updates the desk alone
    (webhooks get the episode, not every repeat), and the webhooks once more when it
    escalates the alarm."""
    now = timezone.now()
    try:
        with transaction.atomic():
            Table.objects.select_for_update().filter(pk=table.pk).first()  # one episode opened at a time
            if AlarmFinding.objects.filter(kind=finding.kind.value, key=finding.key).exists():
                return None
            episode = (
                Alarm.objects.filter(table=table, shoe=shoe, kind=finding.kind.value, subject=finding.subject)
                .exclude(state=Alarm.State.RESOLVED)
                .order_by("-pk")
                .first()
            )
            if episode is not None:
                _gather(episode, finding, dealer, now)
                return None
            alarm = Alarm.objects.create(
                table=table,
                shoe=shoe,
                kind=finding.kind.value,
                severity=finding.severity.value,
                key=finding.key,
                subject=finding.subject,
                round_number=finding.round_number,
                dealer_name=dealer,
                evidence=dict(finding.evidence),
                raised_at=now,
            )
            _finding_keep(alarm, finding, dealer, now)
    except IntegrityError:
        return None
    transaction.on_commit(lambda: ALARMS_RAISED.labels(alarm.kind, alarm.severity).inc())
    transaction.on_commit(lambda: alarm_raised(alarm))
    return alarm


def _finding_keep(alarm: Alarm, finding: Finding, dealer: str, now: datetime) -> None:
    AlarmFinding.objects.create(
        alarm=alarm,
        kind=finding.kind.value,
        key=finding.key,
        severity=finding.severity.value,
        round_number=finding.round_number,
        dealer_name=dealer,
        evidence=dict(finding.evidence),
        found_at=now,
    )


def _gather(episode: Alarm, finding: Finding, dealer: str, now: datetime) -> None:
    """A later finding of the episode: kept, counted, its evidence the alarm's latest;
    a critical one escalates a warning."""
    _finding_keep(episode, finding, dealer, now)
    escalates = finding.severity == Severity.CRITICAL and episode.severity != Severity.CRITICAL.value
    changes: dict[str, object] = {
        "count": F("count") + 1,
        "last_found_at": now,
        "evidence": dict(finding.evidence),
        "round_number": finding.round_number if finding.round_number is not None else episode.round_number,
    }
    if dealer:
        changes["dealer_name"] = dealer
    if escalates:
        # Its state stays: an acknowledged alarm that escalates is still acknowledged (the
        # reviewer took it on), and the webhooks are told it escalated, once.
        changes |= {"severity": Severity.CRITICAL.value, "escalated_at": now}
        escalated = WebhookDelivery.Event.ESCALATED.value
        transaction.on_commit(lambda: webhooks.alarm_deliveries_queue(alarm_pk=episode.pk, event=escalated))
    Alarm.objects.filter(pk=episode.pk).update(**changes)
    transaction.on_commit(lambda: ALARM_FINDINGS_GATHERED.labels(episode.kind).inc())
    transaction.on_commit(lambda: live.alarms_changed(episode.shoe_id))


def findings_known(kind: AlarmKind, keys: list[str]) -> set[str]:
    """Which of ``keys`` of ``kind`` were found already (each is kept once)."""
    return set(AlarmFinding.objects.filter(kind=kind.value, key__in=keys).values_list("key", flat=True))


def alarm_raised(alarm: Alarm) -> None:
    """After an alarm's commit: the desk's pages get it, and the webhooks that want its kind."""
    live.alarms_changed(alarm.shoe_id)
    webhooks.alarm_deliveries_queue(alarm_pk=alarm.pk)


def alarm_note(*, alarm: Alarm, action: AlarmNote.Action, note: str, user: object) -> AlarmNote:
    """A reviewer acknowledges or resolves ``alarm``, saying why: the note (append-only)
    and the alarm's new state in one transaction. A resolved alarm takes no more notes."""
    note = note.strip()
    if not note:
        raise AlarmNoteError("a note is required")
    with transaction.atomic():
        locked = Alarm.objects.select_for_update().get(pk=alarm.pk)
        if locked.state == Alarm.State.RESOLVED:
            raise AlarmNoteError("this alarm is already resolved")
        written = AlarmNote.objects.create(
            alarm=locked,
            action=action,
            user=user if getattr(user, "pk", None) else None,  # type: ignore[misc]
            username=getattr(user, "username", "") or "",
            at=timezone.now(),
            note=note,
        )
        locked.state = NOTE_STATES[action]
        locked.save(update_fields=["state"])
        transaction.on_commit(lambda: live.alarms_changed(locked.shoe_id))
        if action == AlarmNote.Action.RESOLVE:
            resolved = WebhookDelivery.Event.RESOLVED.value
            transaction.on_commit(lambda: webhooks.alarm_deliveries_queue(alarm_pk=locked.pk, event=resolved))
    alarm.state = locked.state
    return written
