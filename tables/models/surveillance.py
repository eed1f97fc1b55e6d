"""Shoe surveillance's records: the alarms raised from the cards and the tables' signals,
and what reviewers did about each (append-only, like voids)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..game.alarms import AlarmKind, Severity
from .rounds import AppendOnly
from .shoes import Shoe
from .tables import Table

KIND_LABELS = {
    AlarmKind.CARD_OVERDEALT: gettext_lazy("Card dealt too often"),
    AlarmKind.CARDS_UNACCOUNTED: gettext_lazy("Cards not accounted for"),
    AlarmKind.PLAINTEXT_MISMATCH: gettext_lazy("Plaintext names another card"),
    AlarmKind.COMMITMENTS_REUSED: gettext_lazy("Committed cards reused"),
    AlarmKind.SHORT_SHOE: gettext_lazy("Short shoe"),
    AlarmKind.DECK_ORDER: gettext_lazy("Cards in new-deck order"),
    AlarmKind.CARD_REPEATS: gettext_lazy("Too many repeated ranks or suits"),
    AlarmKind.REPEATED_CARDS: gettext_lazy("Cards repeat an earlier shoe"),
    AlarmKind.REPEATED_RESULTS: gettext_lazy("Results repeat an earlier shoe"),
    AlarmKind.REPEATED_IN_SHOE: gettext_lazy("Cards repeat within the shoe"),
    AlarmKind.OUTCOMES: gettext_lazy("Outcomes off their odds"),
    AlarmKind.STREAK: gettext_lazy("Unlikely streak"),
    AlarmKind.OPERATIONS: gettext_lazy("Dealer or table signals"),
    AlarmKind.ADVANTAGE_WINDOW: gettext_lazy("Advantage window"),
}
SEVERITY_LABELS = {Severity.WARNING: gettext_lazy("Warning"), Severity.CRITICAL: gettext_lazy("Critical")}


class Alarm(models.Model):
    """An episode of one kind on one table and shoe (or a table's days): raised by its
    first finding, it gathers the later findings of its kind there while it is not
    resolved (each an :class:`AlarmFinding`, counted in ``count``), escalating to
    critical when one is, instead of a new alarm a finding. Its state changes only with
    an :class:`AlarmNote`, written by the same service call."""

    class State(models.TextChoices):
        OPEN = "open", gettext_lazy("Open")
        ACKNOWLEDGED = "acknowledged", gettext_lazy("Acknowledged")
        RESOLVED = "resolved", gettext_lazy("Resolved")

    table = models.ForeignKey(
        Table, verbose_name=gettext_lazy("table"), on_delete=models.PROTECT, related_name="alarms"
    )
    shoe = models.ForeignKey(
        Shoe,
        verbose_name=gettext_lazy("shoe"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="alarms",
        help_text=gettext_lazy("The shoe it was found on (none for a table's or a dealer's day)."),
    )
    kind = models.CharField(
        gettext_lazy("kind"), max_length=24, choices=[(kind.value, label) for kind, label in KIND_LABELS.items()]
    )
    severity = models.CharField(
        gettext_lazy("severity"),
        max_length=8,
        choices=[(severity.value, label) for severity, label in SEVERITY_LABELS.items()],
    )
    key = models.CharField(
        gettext_lazy("key"), max_length=120, help_text=gettext_lazy("What makes two findings of a kind one alarm.")
    )
    subject = models.CharField(
        gettext_lazy("subject"),
        max_length=40,
        blank=True,
        help_text=gettext_lazy("What within its kind and shoe is an episode of its own (an advantage window's bet)."),
    )
    round_number = models.PositiveIntegerField(
        gettext_lazy("round number"),
        null=True,
        blank=True,
        help_text=gettext_lazy("The shoe's round at which it was found."),
    )
    dealer_name = models.CharField(gettext_lazy("dealer name"), max_length=80, blank=True)
    evidence = models.JSONField(gettext_lazy("evidence"), default=dict, blank=True)
    state = models.CharField(gettext_lazy("state"), max_length=12, choices=State.choices, default=State.OPEN)
    raised_at = models.DateTimeField(gettext_lazy("raised at"), default=timezone.now)
    count = models.PositiveIntegerField(
        gettext_lazy("findings"),
        default=1,
        help_text=gettext_lazy("Findings gathered by this alarm, its first included."),
    )
    last_found_at = models.DateTimeField(gettext_lazy("last found at"), null=True, blank=True)
    escalated_at = models.DateTimeField(
        gettext_lazy("escalated at"), null=True, blank=True, help_text=gettext_lazy("When a warning became critical.")
    )

    class Meta:
        ordering = ["-raised_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["kind", "key"], name="one_alarm_per_finding")]
        indexes = [
            models.Index(fields=["state", "-raised_at"], name="alarm_by_state"),  # the desk's open alarms
            models.Index(fields=["table", "-raised_at"], name="alarm_by_table"),
        ]
        verbose_name = gettext_lazy("alarm")
        verbose_name_plural = gettext_lazy("alarms")
        permissions = [("handle_alarm", "Can acknowledge and resolve an alarm")]

    def __str__(self) -> str:
        return _("%(kind)s · %(where)s") % {"kind": self.kind_label, "where": self.shoe or self.table}

    @property
    def kind_label(self) -> str:
        return str(KIND_LABELS.get(AlarmKind(self.kind), self.kind))

    @property
    def severity_label(self) -> str:
        return str(SEVERITY_LABELS.get(Severity(self.severity), self.severity))


class AlarmFinding(AppendOnly):
    """One finding of surveillance, kept once (``kind`` and ``key`` are unique together:
    the same finding found again, round after round, is not counted again), under the
    alarm whose episode it belongs to."""

    alarm = models.ForeignKey(
        Alarm, verbose_name=gettext_lazy("alarm"), on_delete=models.PROTECT, related_name="findings"
    )
    kind = models.CharField(gettext_lazy("kind"), max_length=24)
    key = models.CharField(gettext_lazy("key"), max_length=120)
    severity = models.CharField(gettext_lazy("severity"), max_length=8)
    round_number = models.PositiveIntegerField(gettext_lazy("round number"), null=True, blank=True)
    dealer_name = models.CharField(gettext_lazy("dealer name"), max_length=80, blank=True)
    evidence = models.JSONField(gettext_lazy("evidence"), default=dict, blank=True)
    found_at = models.DateTimeField(gettext_lazy("found at"), default=timezone.now)

    class Meta:
        ordering = ["alarm", "pk"]
        constraints = [models.UniqueConstraint(fields=["kind", "key"], name="one_finding_per_key")]
        verbose_name = gettext_lazy("alarm finding")
        verbose_name_plural = gettext_lazy("alarm findings")

    def __str__(self) -> str:
        return f"{self.kind} {self.key}"


class AlarmNote(AppendOnly):
    """A reviewer acknowledged or resolved an alarm: who, when, why. Kept for good."""

    class Action(models.TextChoices):
        ACKNOWLEDGE = "acknowledge", gettext_lazy("Acknowledged")
        RESOLVE = "resolve", gettext_lazy("Resolved")

    alarm = models.ForeignKey(Alarm, verbose_name=gettext_lazy("alarm"), on_delete=models.PROTECT, related_name="notes")
    action = models.CharField(gettext_lazy("action"), max_length=12, choices=Action.choices)
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
    at = models.DateTimeField(gettext_lazy("time"), default=timezone.now, db_index=True)
    note = models.TextField(gettext_lazy("note"))

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = gettext_lazy("alarm note")
        verbose_name_plural = gettext_lazy("alarm notes")

    def __str__(self) -> str:
        return _("%(alarm)s · %(action)s at %(at)s") % {
            "alarm": self.alarm,
            "action": self.get_action_display(),
            "at": date_format(timezone.localtime(self.at), "DATETIME_FORMAT"),
        }


class AdvantageWindow(models.Model):
    """A bet returned more than its threshold on the cards left (the player's edge, by
    default) from one round of a shoe to a later one (:mod:`tables.game.advantage`):
    kept as the odds after each round are stored, closed when the return falls back or
    the shoe ends, and raised once as an alarm. The shoe's desk page lists them, the
    dealers and tables report counts them."""

    table = models.ForeignKey(
        Table, verbose_name=gettext_lazy("table"), on_delete=models.PROTECT, related_name="advantage_windows"
    )
    shoe = models.ForeignKey(
        Shoe, verbose_name=gettext_lazy("shoe"), on_delete=models.PROTECT, related_name="advantage_windows"
    )
    bet = models.CharField(gettext_lazy("bet"), max_length=24)
    dealer_name = models.CharField(gettext_lazy("dealer name"), max_length=80, blank=True)
    opened_after = models.PositiveSmallIntegerField(
        gettext_lazy("opened after round"), help_text=gettext_lazy("The round after which the return rose above it.")
    )
    opening_return = models.FloatField(gettext_lazy("return then"))
    cards_left = models.PositiveSmallIntegerField(gettext_lazy("cards left then"))
    best_return = models.FloatField(gettext_lazy("best return"))
    best_after = models.PositiveSmallIntegerField(gettext_lazy("best after round"))
    closed_after = models.PositiveSmallIntegerField(
        gettext_lazy("closed after round"),
        null=True,
        blank=True,
        help_text=gettext_lazy("The round after which it fell back, or the shoe's last (none while open)."),
    )
    rounds_open = models.PositiveSmallIntegerField(gettext_lazy("rounds open"), null=True, blank=True)
    opened_at = models.DateTimeField(gettext_lazy("opened at"), default=timezone.now)
    closed_at = models.DateTimeField(gettext_lazy("closed at"), null=True, blank=True)
    alarm = models.ForeignKey(
        Alarm, verbose_name=gettext_lazy("alarm"), null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["shoe", "opened_after", "bet"]
        constraints = [
            models.UniqueConstraint(fields=["shoe", "bet", "opened_after"], name="one_window_per_opening"),
        ]
        indexes = [models.Index(fields=["opened_at", "table"], name="window_by_day")]  # the dealer report's range
        verbose_name = gettext_lazy("advantage window")
        verbose_name_plural = gettext_lazy("advantage windows")

    def __str__(self) -> str:
        return f"{self.shoe} · {self.bet} · {self.opened_after}"


class ShoeStretch(models.Model):
    """The fingerprint of a stretch of a shoe's dealt cards (or of its rounds' results),
    kept so a later shoe of any table that repeats it is found by index, not by reading
    history: a reused shoe, or a "preset" one. Written by the checks after each round,
    only for the stretches that round completed."""

    class Kind(models.TextChoices):
        CARDS = "cards", gettext_lazy("Cards")
        RESULTS = "results", gettext_lazy("Results")

    shoe = models.ForeignKey(Shoe, verbose_name=gettext_lazy("shoe"), on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(gettext_lazy("kind"), max_length=7, choices=Kind.choices)
    position = models.PositiveSmallIntegerField(
        gettext_lazy("position"), help_text=gettext_lazy("Where it starts: a card's (or a round's) place in the shoe.")
    )
    fingerprint = models.BigIntegerField(gettext_lazy("fingerprint"))

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["shoe", "kind", "position"], name="one_stretch_per_place"),
        ]
        indexes = [models.Index(fields=["kind", "fingerprint"], name="stretch_by_fingerprint")]
        verbose_name = gettext_lazy("shoe stretch")
        verbose_name_plural = gettext_lazy("shoe stretches")

    def __str__(self) -> str:
        return f"{self.shoe_id}:{self.kind}:{self.position}"
