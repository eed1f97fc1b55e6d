"""A round being dealt card by card from a card-reading shoe, and the rounds cancelled
before they were complete (a misdeal)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..game.cards import Card, unpack_cards
from ..game.dealing import Deal
from .rounds import AppendOnly
from .shoes import Shoe


class RoundInProgress(models.Model):
    """The round a shoe is dealing now, as far as it has gone: one at most a shoe. It is
    in the database, not in a process, so a server restart mid-round loses nothing; it
    becomes a :class:`~tables.models.Round` when its last card comes (and is deleted in
    the same transaction), or goes when it is cancelled."""

    shoe = models.OneToOneField(
        Shoe,
        verbose_name=gettext_lazy("shoe"),
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="round_in_progress",
    )
    number = models.PositiveSmallIntegerField(
        gettext_lazy("number"), help_text=gettext_lazy("Number the round will have in its shoe.")
    )
    cards = models.CharField(
        gettext_lazy("cards"),
        max_length=12,
        help_text=gettext_lazy("Packed codes of the cards dealt so far, in dealing order (P1, B1, P2, B2, ...)."),
    )
    plaintexts = models.JSONField(
        gettext_lazy("plaintexts"),
        default=list,
        blank=True,
        help_text=gettext_lazy("On an authenticated shoe: each card's plaintext, checked as it came."),
    )
    dealer_name = models.CharField(gettext_lazy("dealer name"), max_length=80, blank=True)
    started_at = models.DateTimeField(gettext_lazy("started at"), default=timezone.now)
    updated_at = models.DateTimeField(gettext_lazy("last card at"), default=timezone.now)

    class Meta:
        verbose_name = gettext_lazy("round in progress")
        verbose_name_plural = gettext_lazy("rounds in progress")

    def __str__(self) -> str:
        return _("%(shoe)s · round %(number)s (dealing)") % {"shoe": self.shoe, "number": self.number}

    @property
    def deal(self) -> Deal:
        return Deal(unpack_cards(self.cards))

    @property
    def dealt(self) -> tuple[Card, ...]:
        return unpack_cards(self.cards)


class RoundCancel(AppendOnly):
    """A round cancelled before it was complete (a misdeal), kept for good: its cards so
    far, who cancelled it (a reviewer in admin, or the table's dealer system), when and
    why. Nothing of it was recorded as a round: its cards count as not dealt."""

    class Source(models.TextChoices):
        API = "api", gettext_lazy("Dealer system")
        ADMIN = "admin", gettext_lazy("Reviewer")

    shoe = models.ForeignKey(
        Shoe, verbose_name=gettext_lazy("shoe"), on_delete=models.PROTECT, related_name="round_cancels"
    )
    number = models.PositiveSmallIntegerField(
        gettext_lazy("number"), help_text=gettext_lazy("Number the round would have had in its shoe.")
    )
    cards = models.CharField(
        gettext_lazy("cards"),
        max_length=12,
        help_text=gettext_lazy("Packed codes of the cards it had, in dealing order."),
    )
    dealer_name = models.CharField(gettext_lazy("dealer name"), max_length=80, blank=True)
    source = models.CharField(gettext_lazy("cancelled by"), max_length=8, choices=Source.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=gettext_lazy("user"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    username = models.CharField(
        gettext_lazy("username"),
        max_length=150,
        blank=True,
        help_text=gettext_lazy("Who, as named when it happened (empty: the dealer system)."),
    )
    at = models.DateTimeField(gettext_lazy("time"), default=timezone.now, db_index=True)
    reason = models.TextField(gettext_lazy("reason"))

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = gettext_lazy("cancelled round")
        verbose_name_plural = gettext_lazy("cancelled rounds")
        # A reviewer cancels a round in progress in admin (a misdeal); the "reviewer" group
        # holds it (migration 0012).
        permissions = [("cancel_round", "Can cancel a round in progress")]

    def __str__(self) -> str:
        return _("%(shoe)s · round %(number)s cancelled at %(at)s") % {
            "shoe": self.shoe,
            "number": self.number,
            "at": date_format(timezone.localtime(self.at), "DATETIME_FORMAT"),
        }

    @property
    def dealt(self) -> tuple[Card, ...]:
        return unpack_cards(self.cards)
