"""Raising an alarm, and a reviewer's note on one: the one place either is written."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from .. import live
from ..game.alarms import Finding
from ..models import Alarm, AlarmNote, Shoe, Table
from ..operations.metrics import ALARMS_RAISED
from . import webhooks

NOTE_STATES = {
    AlarmNote.Action.ACKNOWLEDGE: Alarm.State.ACKNOWLEDGED,
    AlarmNote.Action.RESOLVE: Alarm.State.RESOLVED,
}


class AlarmNoteError(ValueError):
    """A note that cannot be taken (no text, or an alarm already resolved)."""


def alarm_raise(finding: Finding, *, table: Table, shoe: Shoe | None = None, dealer: str = "") -> Alarm | None:
    """Store ``finding`` as an alarm unless one of its kind and key exists (the same
    finding found again, by a check run again or twice at once): returns the new alarm,
    or ``None``. After commit it goes to the desk and the webhooks."""
    try:
        with transaction.atomic():
            alarm = Alarm.objects.create(
                table=table,
                shoe=shoe,
                kind=finding.kind.value,
                severity=finding.severity.value,
                key=finding.key,
                round_number=finding.round_number,
                dealer_name=dealer,
                evidence=dict(finding.evidence),
                raised_at=timezone.now(),
            )
    except IntegrityError:
        return None
    transaction.on_commit(lambda: ALARMS_RAISED.labels(alarm.kind, alarm.severity).inc())
    transaction.on_commit(lambda: alarm_raised(alarm))
    return alarm


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
    alarm.state = locked.state
    return written
