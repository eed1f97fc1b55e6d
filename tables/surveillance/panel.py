"""The alarms as the reviewer's desk shows them: on admin's index (every alarm not yet
resolved) and on a shoe's page (all of that shoe's), rendered by one template, pushed
whole when an alarm is raised or noted (a panel is a few KiB at most: it lists
``PANEL_ALARMS``) and sent again to a page that (re)connects."""

from __future__ import annotations

from django.db.models import Max, Q
from django.template.loader import render_to_string

from ..game.alarms import Severity
from ..models import Alarm, AlarmFinding, AlarmNote
from ..page_version import PageVersion
from .words import alarm_facts

PANEL_ALARMS = 25  # the newest shown; the alarm list in admin has the rest


def panel_alarms(shoe_id: int | None = None) -> list[Alarm]:
    """The desk's alarms, newest first: a shoe's all, or every one not resolved. A warning
    that the same check has since raised as critical (its key, ``:critical`` for
    ``:warning``) is left out: the critical one stands for both."""
    found = Alarm.objects.select_related("table", "shoe__table")
    found = found.filter(shoe_id=shoe_id) if shoe_id is not None else found.exclude(state=Alarm.State.RESOLVED)
    alarms = list(found.order_by("-raised_at", "-pk")[:PANEL_ALARMS])
    critical = {(alarm.kind, alarm.key) for alarm in alarms if alarm.severity == Severity.CRITICAL}
    return [alarm for alarm in alarms if not _superseded(alarm, critical)]


def _superseded(alarm: Alarm, critical: set[tuple[str, str]]) -> bool:
    warning = alarm.severity == Severity.WARNING and alarm.key.endswith(":warning")
    return warning and (alarm.kind, alarm.key.removesuffix(":warning") + ":critical") in critical


def panel_version(shoe_id: int | None = None) -> PageVersion:
    """What the panel shows, as one value that only grows: the newest alarm, the newest
    note and the newest finding an alarm gathered in its scope (a push older than what a
    page shows is not swapped in)."""
    scope = Q(alarm__shoe_id=shoe_id) if shoe_id is not None else Q()
    alarms = Alarm.objects.filter(shoe_id=shoe_id) if shoe_id is not None else Alarm.objects.all()
    notes = AlarmNote.objects.filter(scope)
    findings = AlarmFinding.objects.filter(scope)
    return PageVersion(
        alarms.aggregate(last=Max("pk"))["last"] or 0,
        notes.aggregate(last=Max("pk"))["last"] or 0,
        findings.aggregate(last=Max("pk"))["last"] or 0,
    )


def panel_html(shoe_id: int | None = None) -> str:
    """The panel, in the active language (``hx-swap-oob``: a push replaces it by id)."""
    return render_to_string(
        "admin/tables/_alarms.html",
        {
            "alarms": [(alarm, alarm_facts(alarm, brief=True)) for alarm in panel_alarms(shoe_id)],
            "version": panel_version(shoe_id),
            "shoe_id": shoe_id,
            "limit": PANEL_ALARMS,
        },
    )
