"""Who chose what a table's public screens show, and when: kept for good."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from .rounds import AppendOnly
from .tables import AUDIENCE_CHOICES, Table


class AudienceChange(AppendOnly):
    """A table's audience profile changed (``Table.audience``): from what, to what, by
    whom and when. Written by :func:`tables.services.tables.table_audience_set`, never
    changed or deleted: a regulator asking since when a table showed remaining-shoe odds
    gets the answer from here."""

    table = models.ForeignKey(
        Table, verbose_name=gettext_lazy("table"), on_delete=models.PROTECT, related_name="audience_changes"
    )
    previous = models.CharField(gettext_lazy("was"), max_length=12, choices=AUDIENCE_CHOICES, blank=True)
    audience = models.CharField(gettext_lazy("now"), max_length=12, choices=AUDIENCE_CHOICES)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=gettext_lazy("user"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    username = models.CharField(
        gettext_lazy("username"), max_length=150, blank=True, help_text=gettext_lazy("Who, as named when it happened.")
    )
    at = models.DateTimeField(gettext_lazy("time"), default=timezone.now)

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["table", "-at"], name="audience_change_by_table")]
        verbose_name = gettext_lazy("audience change")
        verbose_name_plural = gettext_lazy("audience changes")

    def __str__(self) -> str:
        return f"{self.table} · {self.get_previous_display()} → {self.get_audience_display()}"
