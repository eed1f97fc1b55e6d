"""Admin of the alarms' webhooks: the receivers (managed by superusers and whoever holds
their model permissions), and the delivery log, to read (the "reviewer" group sees it,
migration 0014). Registered by importing this module from :mod:`tables.admin`.

A webhook's signing secret is made when it is created and shown, read-only, on its page;
"rotate" makes a new one (the receiver must be given it). Deliveries and their attempts
are written by :mod:`.webhooks` alone: admin never adds, changes or deletes one.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from django import forms
from django.contrib import admin, messages
from django.core.validators import URLValidator
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ..models import Webhook, WebhookAttempt, WebhookDelivery
from ..models.surveillance import KIND_LABELS
from . import sending, webhooks


class WebhookForm(forms.ModelForm):
    url = forms.URLField(
        label=gettext_lazy("URL"),
        max_length=500,
        assume_scheme="https",  # "casino.example/alarms" means https
        validators=[URLValidator(schemes=["http", "https"], message=gettext_lazy("Enter an http or https URL."))],
        help_text=gettext_lazy("Where each alarm is POSTed as JSON (http or https)."),
    )
    kinds = forms.MultipleChoiceField(
        label=gettext_lazy("alarm kinds"),
        choices=[(kind.value, label) for kind, label in KIND_LABELS.items()],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=gettext_lazy("The kinds of alarm it is sent; none ticked: every kind."),
    )

    class Meta:
        model = Webhook
        fields = ["name", "url", "kinds", "active", "private_address_allowed"]

    def clean(self) -> dict[str, Any]:
        """A URL on a loopback or private address only when the owner allows it (the
        sending checks again at each attempt: a name may resolve elsewhere later)."""
        cleaned = super().clean() or {}
        url = cleaned.get("url")
        if url and not cleaned.get("private_address_allowed"):
            parts = urlsplit(url)
            private = sending.private_addresses(parts.hostname or "", parts.port)
            if private:
                self.add_error(
                    "url",
                    _(
                        "%(host)s is a private address (%(addresses)s): tick “private address allowed” "
                        "if the receiver is on the casino's own network."
                    )
                    % {"host": parts.hostname, "addresses": ", ".join(private)},
                )
        return cleaned


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    form = WebhookForm
    list_display = ["name", "url", "kinds_shown", "active", "receiver_brief", "created_at"]
    list_filter = ["active"]
    search_fields = ["name", "url"]
    actions = ["rotate_secret", "send_test"]

    def get_fields(self, request: HttpRequest, obj: Webhook | None = None) -> list[str]:  # type: ignore[override]
        # The secret exists once the webhook does: shown on its page, never typed in.
        base = ["name", "url", "kinds", "active", "private_address_allowed"]
        return [*base, *(["receiver_state", "secret", "created_at"] if obj else [])]

    def get_readonly_fields(self, request: HttpRequest, obj: Webhook | None = None) -> tuple[str, ...]:
        return ("receiver_state", "secret", "created_at") if obj else ()

    @admin.display(description=gettext_lazy("receiver"))
    def receiver_brief(self, webhook: Webhook) -> str:
        """The list's column: a word and a time (the webhook's page says it all)."""
        if not webhook.failures_in_row:
            return _("answering")
        if webhook.paused_until is None:
            return _("failing (%(count)d)") % {"count": webhook.failures_in_row}
        until = date_format(webhook.paused_until.astimezone(UTC), "H:i")
        return _("paused until %(time)s UTC") % {"time": until}

    @admin.display(description=gettext_lazy("receiver"))
    def receiver_state(self, webhook: Webhook) -> str:
        """Whether its receiver answers, and while it keeps failing, when it is tried next
        (its circuit breaker: tables/surveillance/breaker.py)."""
        if not webhook.failures_in_row:
            return _("answering")
        values = {
            "count": webhook.failures_in_row,
            "since": _utc(webhook.failing_since),
            "until": _utc(webhook.paused_until),
        }
        if webhook.paused_until is None:
            return (
                ngettext(
                    "failing: %(count)d attempt failed since %(since)s",
                    "failing: %(count)d attempts in a row failed since %(since)s",
                    webhook.failures_in_row,
                )
                % values
            )
        return (
            ngettext(
                "paused: %(count)d attempt failed since %(since)s; tried again at %(until)s",
                "paused: %(count)d attempts in a row failed since %(since)s; tried again at %(until)s",
                webhook.failures_in_row,
            )
            % values
        )

    @admin.display(description=gettext_lazy("alarm kinds"))
    def kinds_shown(self, webhook: Webhook) -> str:
        if not webhook.kinds:
            return _("every kind")
        labels = {kind.value: label for kind, label in KIND_LABELS.items()}
        return ", ".join(str(labels.get(kind, kind)) for kind in webhook.kinds)

    @admin.action(description=gettext_lazy("Rotate the signing secret"), permissions=["change"])
    def rotate_secret(self, request: HttpRequest, queryset: QuerySet[Webhook]) -> None:
        for webhook in queryset:
            webhooks.webhook_secret_rotate(webhook=webhook)
            self.log_change(request, webhook, "Rotated the signing secret")
        count = len(queryset)
        self.message_user(
            request,
            ngettext(
                "Rotated the signing secret of %(count)d webhook: give its receiver the new one, shown on its page.",
                "Rotated the signing secrets of %(count)d webhooks: give each receiver its new one, shown on its page.",
                count,
            )
            % {"count": count},
            messages.WARNING,
        )

    @admin.action(description=gettext_lazy("Send a test delivery (ping)"), permissions=["change"])
    def send_test(self, request: HttpRequest, queryset: QuerySet[Webhook]) -> None:
        for webhook in queryset:
            sent = webhooks.webhook_ping(webhook=webhook)
            if sent.ok:
                text, level = _("%(webhook)s answered %(status)s in %(ms)s ms."), messages.SUCCESS
            elif sent.status_code is not None:
                text, level = _("%(webhook)s answered %(status)s (%(bytes)s bytes)."), messages.ERROR
            else:
                text, level = _("%(webhook)s did not answer: %(error)s"), messages.ERROR
            values = {
                "webhook": webhook.name,
                "status": sent.status_code,
                "ms": sent.duration_ms,
                "bytes": sent.answer_bytes,
                "error": sent.error,
            }
            self.message_user(request, text % values, level)


def _utc(moment: datetime | None) -> str:
    return "" if moment is None else date_format(moment.astimezone(UTC), "DATETIME_FORMAT") + " UTC"


class WebhookAttemptInline(admin.TabularInline):
    model = WebhookAttempt
    fields = readonly_fields = ("number", "at", "status_code", "error", "duration_ms", "answer_bytes")
    ordering = ["number"]
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnly(admin.ModelAdmin):
    """Written by the sending alone, kept as it happened."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnly):
    """An alarm sent to a webhook: its state, and every attempt (the delivery log)."""

    list_display = ["alarm", "webhook", "state", "attempts", "next_attempt_at", "delivered_at", "created_at"]
    list_filter = [("webhook", admin.RelatedOnlyFieldListFilter), "state", ("created_at", admin.DateFieldListFilter)]
    list_select_related = ["webhook", "alarm__table", "alarm__shoe__table"]
    show_full_result_count = False  # "N of M" would count the whole log on every page view
    fields = readonly_fields = (
        "alarm",
        "webhook",
        "state",
        "attempts",
        "next_attempt_at",
        "delivered_at",
        "created_at",
    )
    inlines = [WebhookAttemptInline]
    ordering = ["-created_at", "-pk"]


@admin.register(WebhookAttempt)
class WebhookAttemptAdmin(ReadOnly):
    """Every POST to a receiver: when, its answer, how long it took."""

    list_display = ["when", "delivery_link", "webhook", "number", "status_code", "error", "duration_ms"]
    list_display_links = ["when"]
    list_filter = [
        ("delivery__webhook", admin.RelatedOnlyFieldListFilter),
        "delivery__state",
        ("at", admin.DateFieldListFilter),
    ]
    list_select_related = ["delivery__webhook", "delivery__alarm__table", "delivery__alarm__shoe__table"]
    show_full_result_count = False
    list_per_page = 50
    fields = readonly_fields = ("delivery", "number", "at", "status_code", "error", "duration_ms", "answer_bytes")
    ordering = ["-at", "-pk"]

    @admin.display(ordering="at", description=gettext_lazy("time"))
    def when(self, obj: WebhookAttempt) -> str:
        return date_format(timezone.localtime(obj.at), "DATETIME_FORMAT")

    @admin.display(description=gettext_lazy("delivery"))
    def delivery_link(self, obj: WebhookAttempt) -> str:
        url = reverse("admin:tables_webhookdelivery_change", args=[obj.delivery_id])
        return format_html('<a href="{}">{}</a>', url, obj.delivery.alarm)

    @admin.display(description=gettext_lazy("webhook"), ordering="delivery__webhook__name")
    def webhook(self, obj: WebhookAttempt) -> str:
        return obj.delivery.webhook.name
