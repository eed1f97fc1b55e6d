"""Alarms sent to the casino's systems: the webhooks configured in admin, an outbox row
per (webhook, alarm), and every attempt at delivering it (append-only).

The sending itself is :mod:`tables.surveillance.webhooks`; docs/webhooks.md is the
receiver's side (the payload, the signature, the retries).
"""

from __future__ import annotations

import secrets

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import models
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..game.alarms import AlarmKind
from .rounds import AppendOnly
from .surveillance import Alarm

RESPONSE_EXCERPT_CHARS = 500  # what an attempt keeps of the receiver's answer
ERROR_CHARS = 500


def webhook_secret() -> str:
    """A new signing secret: 32 random bytes, URL-safe text (the receiver pastes it)."""
    return secrets.token_urlsafe(32)


class Webhook(models.Model):
    """A receiver of the casino's: where alarms are POSTed, which kinds it wants, and the
    secret both sides sign and check each delivery's body with."""

    name = models.CharField(gettext_lazy("name"), max_length=80)
    url = models.URLField(
        gettext_lazy("URL"),
        max_length=500,
        validators=[URLValidator(schemes=["http", "https"])],
        help_text=gettext_lazy("Where each alarm is POSTed as JSON (http or https)."),
    )
    kinds = models.JSONField(
        gettext_lazy("alarm kinds"),
        default=list,
        blank=True,
        help_text=gettext_lazy("The kinds of alarm it is sent; none ticked: every kind."),
    )
    secret = models.CharField(
        gettext_lazy("signing secret"),
        max_length=100,
        default=webhook_secret,
        help_text=gettext_lazy("Each delivery is signed with it (docs/webhooks.md); the receiver checks it."),
    )
    active = models.BooleanField(
        gettext_lazy("active"),
        default=True,
        help_text=gettext_lazy("An inactive webhook is sent nothing; its pending deliveries wait until it is active."),
    )
    private_address_allowed = models.BooleanField(
        gettext_lazy("private address allowed"),
        default=False,
        help_text=gettext_lazy(
            "Send to a receiver on a loopback or private address (the casino's own network). "
            "Otherwise such a URL is refused, so no webhook can be pointed at this server or inside its network."
        ),
    )
    created_at = models.DateTimeField(gettext_lazy("created at"), default=timezone.now)
    # The circuit breaker (tables/surveillance/breaker.py): written by the sending alone.
    failures_in_row = models.PositiveIntegerField(gettext_lazy("failed attempts in a row"), default=0)
    failing_since = models.DateTimeField(gettext_lazy("failing since"), null=True, blank=True)
    paused_until = models.DateTimeField(
        gettext_lazy("paused until"),
        null=True,
        blank=True,
        help_text=gettext_lazy("While its receiver keeps failing, one attempt is made at this time; the rest wait."),
    )

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = gettext_lazy("webhook")
        verbose_name_plural = gettext_lazy("webhooks")

    def __str__(self) -> str:
        return self.name

    def wants(self, kind: str) -> bool:
        """Whether an alarm of ``kind`` is sent to it (no kinds chosen: every kind)."""
        return not self.kinds or kind in self.kinds

    def clean(self) -> None:
        """Kinds are :class:`AlarmKind` values, each once (admin's checkboxes give no other)."""
        known = {kind.value for kind in AlarmKind}
        if not isinstance(self.kinds, list) or any(kind not in known for kind in self.kinds):
            raise ValidationError({"kinds": _("Choose alarm kinds from the list.")})
        self.kinds = sorted(set(self.kinds))


class WebhookDelivery(models.Model):
    """One event of an alarm (raised, escalated, resolved) to one webhook: sent until the
    receiver answers 2xx, once (``webhook``, ``alarm`` and ``event`` are unique together),
    retried with backoff, given up after a long horizon. Its ``id`` is sent with it so a
    receiver can tell a retry it already has."""

    class State(models.TextChoices):
        PENDING = "pending", gettext_lazy("Pending")
        DELIVERED = "delivered", gettext_lazy("Delivered")
        ABANDONED = "abandoned", gettext_lazy("Abandoned")

    class Event(models.TextChoices):
        """What became of the alarm: each sent once to each webhook (docs/webhooks.md)."""

        RAISED = "alarm.raised", gettext_lazy("Raised")
        ESCALATED = "alarm.escalated", gettext_lazy("Escalated")
        RESOLVED = "alarm.resolved", gettext_lazy("Resolved")

    webhook = models.ForeignKey(
        Webhook, verbose_name=gettext_lazy("webhook"), on_delete=models.PROTECT, related_name="deliveries"
    )
    alarm = models.ForeignKey(
        Alarm, verbose_name=gettext_lazy("alarm"), on_delete=models.PROTECT, related_name="deliveries"
    )
    event = models.CharField(gettext_lazy("event"), max_length=16, choices=Event.choices, default=Event.RAISED)
    state = models.CharField(gettext_lazy("state"), max_length=10, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveIntegerField(gettext_lazy("attempts"), default=0)
    next_attempt_at = models.DateTimeField(
        gettext_lazy("next attempt at"),
        null=True,
        blank=True,
        help_text=gettext_lazy("When it is tried next (while an attempt runs: when that attempt is taken as lost)."),
    )
    created_at = models.DateTimeField(gettext_lazy("created at"), default=timezone.now)
    delivered_at = models.DateTimeField(gettext_lazy("delivered at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["webhook", "alarm", "event"], name="one_delivery_per_webhook_alarm_event")
        ]
        indexes = [
            # the sweep's lookup: pending deliveries whose attempt is due
            models.Index(fields=["state", "next_attempt_at"], name="delivery_due"),
        ]
        verbose_name = gettext_lazy("webhook delivery")
        verbose_name_plural = gettext_lazy("webhook deliveries")

    def __str__(self) -> str:
        return _("%(alarm)s → %(webhook)s") % {"alarm": self.alarm, "webhook": self.webhook}


class WebhookAttempt(AppendOnly):
    """One POST of a delivery and what came of it, kept for good: the delivery log."""

    delivery = models.ForeignKey(
        WebhookDelivery, verbose_name=gettext_lazy("delivery"), on_delete=models.PROTECT, related_name="attempt_log"
    )
    number = models.PositiveIntegerField(gettext_lazy("attempt"))
    at = models.DateTimeField(gettext_lazy("time"), default=timezone.now)
    status_code = models.PositiveIntegerField(
        gettext_lazy("status code"),
        null=True,
        blank=True,
        help_text=gettext_lazy("The receiver's HTTP status; none when no answer came."),
    )
    error = models.CharField(gettext_lazy("error"), max_length=ERROR_CHARS, blank=True)
    duration_ms = models.PositiveIntegerField(gettext_lazy("duration (ms)"))
    # Attempts before issue 49 kept the start of the answer; now only its length is kept
    # (a receiver's answer may be an internal page). The old column stays, unshown.
    response_excerpt = models.CharField(gettext_lazy("response"), max_length=RESPONSE_EXCERPT_CHARS, blank=True)
    answer_bytes = models.PositiveIntegerField(
        gettext_lazy("answer (bytes)"),
        null=True,
        blank=True,
        help_text=gettext_lazy("The length of the answer's body."),
    )

    class Meta:
        ordering = ["-at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["delivery", "number"], name="one_attempt_per_number")]
        indexes = [models.Index(fields=["-at"], name="webhook_attempt_by_time")]
        verbose_name = gettext_lazy("webhook attempt")
        verbose_name_plural = gettext_lazy("webhook attempts")

    def __str__(self) -> str:
        return _("Attempt %(number)s · %(at)s") % {
            "number": self.number,
            "at": date_format(timezone.localtime(self.at), "DATETIME_FORMAT"),
        }

    @property
    def succeeded(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300
