"""Rounds as recorded, and their append-only audit trail."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..game.cards import Card, unpack_cards
from ..game.outcome import RoundOutcome, Winner
from ..labels import WINNER_NAMES
from .shoes import Shoe
from .tables import Table


class Round(models.Model):
    round_id = models.CharField(
        gettext_lazy("round ID"),
        max_length=20,
        unique=True,
        help_text=gettext_lazy("The Transaction ID shown to users."),
    )
    shoe = models.ForeignKey(Shoe, verbose_name=gettext_lazy("shoe"), on_delete=models.CASCADE, related_name="rounds")
    # The shoe's table, kept on the round (written with it by the recording service, never
    # changed: a shoe stays at its table) so that one table's rounds, newest first, are
    # read from an index of their own: a year of a busy venue is a million rounds.
    table = models.ForeignKey(
        Table, verbose_name=gettext_lazy("table"), on_delete=models.CASCADE, related_name="+", db_index=False
    )
    number = models.PositiveSmallIntegerField(
        gettext_lazy("number"), help_text=gettext_lazy("Number of the round in its shoe.")
    )
    player_cards = models.CharField(
        gettext_lazy("player cards"),
        max_length=6,
        help_text=gettext_lazy("Packed codes in dealing order, e.g. AH5SKD."),
    )
    banker_cards = models.CharField(gettext_lazy("banker cards"), max_length=6)
    winner = models.CharField(
        gettext_lazy("winner"), max_length=1, choices=[(w.value, WINNER_NAMES[w]) for w in Winner]
    )
    player_score = models.PositiveSmallIntegerField(gettext_lazy("player score"))
    banker_score = models.PositiveSmallIntegerField(gettext_lazy("banker score"))
    player_card_count = models.PositiveSmallIntegerField(gettext_lazy("player card count"))
    banker_card_count = models.PositiveSmallIntegerField(gettext_lazy("banker card count"))
    player_natural = models.BooleanField(gettext_lazy("player natural"))
    banker_natural = models.BooleanField(gettext_lazy("banker natural"))
    player_pair = models.BooleanField(gettext_lazy("player pair"))
    banker_pair = models.BooleanField(gettext_lazy("banker pair"))
    player_perfect_pair = models.BooleanField(gettext_lazy("player perfect pair"))
    banker_perfect_pair = models.BooleanField(gettext_lazy("banker perfect pair"))
    banker_wins_with_six = models.BooleanField(gettext_lazy("banker wins with six"))
    margin = models.PositiveSmallIntegerField(gettext_lazy("margin"))
    bets = models.JSONField(
        gettext_lazy("bets"), help_text=gettext_lazy("Every bet's result under the paytable in force.")
    )
    odds = models.JSONField(
        gettext_lazy("odds"),
        null=True,
        blank=True,
        help_text=gettext_lazy(
            "Expected return of every bet on the shoe left after this round; computed in the background."
        ),
    )
    dealer_name = models.CharField(gettext_lazy("dealer name"), max_length=80, blank=True)
    created_at = models.DateTimeField(gettext_lazy("created at"), default=timezone.now, db_index=True)
    voided = models.BooleanField(gettext_lazy("voided"), default=False)
    void_reason = models.TextField(gettext_lazy("void reason"), blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=gettext_lazy("voided by"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
    )
    voided_at = models.DateTimeField(gettext_lazy("voided at"), null=True, blank=True)

    class Meta:
        ordering = ["shoe", "number"]
        constraints = [
            models.UniqueConstraint(fields=["shoe", "number"], name="round_number_unique_per_shoe"),
        ]
        # Admin's round list filtered on a table, newest first: its count (an index-only
        # scan) and its pages (deep ones once the database is told it is on an SSD:
        # docs/production.md).
        indexes = [
            models.Index(fields=["table", "-created_at", "-id"], name="round_table_newest"),
            # The rounds still without odds (a few, or a bulk-loaded history): the sweep's
            # lookup and the backlog's count read these alone.
            models.Index(fields=["shoe", "id"], condition=Q(odds__isnull=True), name="round_without_odds"),
        ]
        permissions = [("void_round", gettext_lazy("Can void a round"))]
        verbose_name = gettext_lazy("round")
        verbose_name_plural = gettext_lazy("rounds")

    def __str__(self) -> str:
        return _("%(round_id)s (%(shoe)s · round %(number)s)") % {
            "round_id": self.round_id,
            "shoe": self.shoe,
            "number": self.number,
        }

    @property
    def player_hand(self) -> tuple[Card, ...]:
        return unpack_cards(self.player_cards)

    @property
    def banker_hand(self) -> tuple[Card, ...]:
        return unpack_cards(self.banker_cards)

    def outcome(self) -> RoundOutcome:
        return RoundOutcome.of(self.player_hand, self.banker_hand)

    @property
    def perfect_pair(self) -> bool:
        return self.player_perfect_pair or self.banker_perfect_pair


class AppendOnlyError(Exception):
    """An audit event was to be changed or deleted: the trail is append-only."""


class AppendOnly(models.Model):
    """An audit trail's row: written once, never changed or deleted through the ORM's
    instances (admin refuses both as well)."""

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise AppendOnlyError("an audit event is never changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("an audit event is never deleted")


class RoundAudit(AppendOnly):
    """One thing a reviewer did to a round (today: voided it), kept for good: who, when,
    what, why. Written only by the services; never changed or deleted, so a dispute about
    a round ("indicate the round ID") can be answered from its whole history."""

    class Action(models.TextChoices):
        VOID = "void", gettext_lazy("Voided")

    round = models.ForeignKey(
        Round, verbose_name=gettext_lazy("round"), on_delete=models.PROTECT, related_name="audit_events"
    )
    action = models.CharField(gettext_lazy("action"), max_length=16, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=gettext_lazy("user"),
        null=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    username = models.CharField(
        gettext_lazy("username"), max_length=150, help_text=gettext_lazy("Who, as named when it happened.")
    )
    at = models.DateTimeField(gettext_lazy("time"), default=timezone.now, db_index=True)
    reason = models.TextField(gettext_lazy("reason"))

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = gettext_lazy("round audit event")
        verbose_name_plural = gettext_lazy("round audit events")

    def __str__(self) -> str:
        return _("%(action)s %(round_id)s by %(username)s at %(at)s") % {
            "action": self.get_action_display(),
            "round_id": self.round.round_id,
            "username": self.username,
            "at": date_format(timezone.localtime(self.at), "DATETIME_FORMAT"),
        }
