"""The alarms on the reviewer's desk: their list, and an alarm's page with its evidence,
its notes and the form that acknowledges or resolves it (``handle_alarm``). Nothing of
an alarm is edited or deleted: it changes only through a note."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..access.desk_sockets import desk_ticket
from ..models import Alarm, AlarmNote
from . import alarms
from .panel import panel_html
from .words import alarm_facts

HANDLE_PERMISSION = "tables.handle_alarm"
FINDINGS_LISTED = 20  # an alarm's page lists its newest findings, and says how many earlier it leaves out


class AlarmNoteForm(forms.Form):
    action = forms.ChoiceField(label=gettext_lazy("Action"), choices=AlarmNote.Action.choices)
    note = forms.CharField(
        label=gettext_lazy("Note"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("What was checked or done, e.g. the shoe was pulled and the cards counted."),
    )


class AlarmAdmin(admin.ModelAdmin):
    class Media:
        css = {"all": ["css/desk.css"]}  # the severity chips

    list_display = ["raised", "severity_chip", "kind_name", "where", "round_number", "dealer_name", "count", "state"]
    list_display_links = ["raised", "kind_name"]
    list_filter = ["state", "severity", "kind", "table", ("raised_at", admin.DateFieldListFilter)]
    list_select_related = ["table", "shoe__table"]
    search_fields = ["dealer_name", "key"]
    show_facets = admin.ShowFacets.NEVER
    list_per_page = 50
    ordering = ["-raised_at", "-pk"]

    @admin.display(ordering="raised_at", description=gettext_lazy("raised at"))
    def raised(self, obj: Alarm) -> str:
        return date_format(timezone.localtime(obj.raised_at), "DATETIME_FORMAT")

    @admin.display(ordering="severity", description=gettext_lazy("severity"))
    def severity_chip(self, obj: Alarm) -> str:
        chip = '<span class="desk-alarm-severity desk-alarm-{}">{}</span>'
        return format_html(chip, obj.severity, obj.severity_label)

    @admin.display(ordering="kind", description=gettext_lazy("kind"))
    def kind_name(self, obj: Alarm) -> str:
        return obj.kind_label

    @admin.display(description=gettext_lazy("where"))
    def where(self, obj: Alarm) -> str:
        return str(obj.shoe or obj.table)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # raised only by surveillance

    def has_change_permission(self, request: HttpRequest, obj: Alarm | None = None) -> bool:
        return False  # it changes only through a note

    def has_delete_permission(self, request: HttpRequest, obj: Alarm | None = None) -> bool:
        return False  # kept for good, like voids

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [path("<path:object_id>/note/", view(self.note_view), name="tables_alarm_note"), *super().get_urls()]

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """An alarm's page: its evidence in words and figures, its notes, and (for those who
        may handle alarms) the form that acknowledges or resolves it."""
        alarm = get_object_or_404(Alarm.objects.select_related("table", "shoe__table"), pk=object_id)
        if not self.has_view_permission(request, alarm):
            raise PermissionDenied
        return self._page(request, alarm, AlarmNoteForm(initial={"action": _next_action(alarm)}))

    def note_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The form's post: the note is written with the alarm's new state, or the page
        comes back with the form's errors."""
        alarm = get_object_or_404(Alarm.objects.select_related("table", "shoe__table"), pk=object_id)
        if not request.user.has_perm(HANDLE_PERMISSION):
            raise PermissionDenied
        if request.method != "POST":
            return HttpResponseRedirect(reverse("admin:tables_alarm_change", args=[alarm.pk]))
        form = AlarmNoteForm(request.POST)
        if not form.is_valid():
            return self._page(request, alarm, form, status=400)
        try:
            alarms.alarm_note(
                alarm=alarm,
                action=AlarmNote.Action(form.cleaned_data["action"]),
                note=form.cleaned_data["note"],
                user=request.user,
            )
        except alarms.AlarmNoteError as refused:
            form.add_error(None, str(refused))
            return self._page(request, alarm, form, status=409)
        done = _("The alarm is %(state)s.") % {"state": alarm.get_state_display().lower()}
        self.message_user(request, done, messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:tables_alarm_change", args=[alarm.pk]))

    def _page(self, request: HttpRequest, alarm: Alarm, form: AlarmNoteForm, status: int = 200) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "title": str(alarm),
            "opts": self.opts,
            "alarm": alarm,
            "facts": alarm_facts(alarm),
            "notes": list(alarm.notes.order_by("at", "pk")),
            "findings": list(alarm.findings.order_by("-pk")[:FINDINGS_LISTED]) if alarm.count > 1 else [],
            "findings_left_out": max(0, alarm.count - FINDINGS_LISTED),
            "form": form if alarm.state != Alarm.State.RESOLVED else None,
            "can_handle": request.user.has_perm(HANDLE_PERMISSION),
        }
        return TemplateResponse(request, "admin/tables/alarm/desk.html", context, status=status)


def _next_action(alarm: Alarm) -> str:
    return AlarmNote.Action.ACKNOWLEDGE if alarm.state == Alarm.State.OPEN else AlarmNote.Action.RESOLVE


class AlarmNoteAdmin(admin.ModelAdmin):
    """The notes, read-only (append-only: written with the alarm's state, by its page)."""

    list_display = ["at", "alarm", "action", "username", "note"]
    list_filter = ["action", ("at", admin.DateFieldListFilter)]
    list_select_related = ["alarm__table", "alarm__shoe__table"]
    show_facets = admin.ShowFacets.NEVER
    ordering = ["-at", "-pk"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: AlarmNote | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: AlarmNote | None = None) -> bool:
        return False


def desk_alarms(request: HttpRequest, shoe_id: int | None = None) -> dict[str, str] | None:
    """What a desk page (admin's index, a shoe's page) shows of the alarms, for a
    reviewer who may see them: the panel as it is now, and the ticket its socket opens
    with to get it pushed live."""
    user = request.user
    if user.pk is None or not user.has_perm("tables.view_alarm"):
        return None
    return {"panel": panel_html(shoe_id), "ticket": desk_ticket(user.pk), "shoe_id": str(shoe_id or "")}
