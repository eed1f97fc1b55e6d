"""Shoes: a table's shoe, its tally of what was dealt, and its card authentication."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from .tables import Table


class Shoe(models.Model):
    class State(models.TextChoices):
        OPEN = "open", pgettext_lazy("state of a shoe", "Open")
        CLOSED = "closed", pgettext_lazy("state of a shoe", "Closed")

    table = models.ForeignKey(Table, verbose_name=gettext_lazy("table"), on_delete=models.CASCADE, related_name="shoes")
    number = models.PositiveIntegerField(gettext_lazy("number"))
    decks = models.PositiveSmallIntegerField(gettext_lazy("decks"))
    state = models.CharField(gettext_lazy("state"), max_length=8, choices=State.choices, default=State.OPEN)
    started_at = models.DateTimeField(gettext_lazy("started at"), default=timezone.now)
    ended_at = models.DateTimeField(gettext_lazy("ended at"), null=True, blank=True)
    # Kept by services.round_record under the shoe's row lock, so recording a round
    # reads one row, not every round of the shoe.
    last_number = models.PositiveSmallIntegerField(
        gettext_lazy("last number"),
        default=0,
        help_text=gettext_lazy("Number of the last round recorded; 0 before the first."),
    )
    dealt = models.TextField(
        gettext_lazy("dealt"),
        blank=True,
        default="",
        help_text=gettext_lazy(
            "Packed codes of every card dealt from the shoe so far, in dealing order (voided rounds included)."
        ),
    )
    deal_steps = models.PositiveIntegerField(
        gettext_lazy("deal steps"),
        default=0,
        help_text=gettext_lazy(
            "Cards dealt into rounds in progress, and rounds cancelled: a count that only grows (pages' versions)."
        ),
    )
    start_key = models.CharField(
        gettext_lazy("start key"),
        max_length=64,
        blank=True,
        default="",
        help_text=gettext_lazy("The Idempotency-Key the dealer system started it with: a retry answers this shoe."),
    )
    # Card authentication (seed 001). An authenticated shoe was committed card by card
    # (its ShoeCard rows) before play; a plain one has no card rows.
    authenticated = models.BooleanField(
        gettext_lazy("authenticated"),
        default=False,
        help_text=gettext_lazy("Every card committed by its SHA-512 before play."),
    )
    commitment = models.CharField(
        gettext_lazy("commitment"),
        max_length=128,
        blank=True,
        help_text=gettext_lazy("SHA-512 of the card hashes joined in card-number order (no separator)."),
    )
    card_count = models.PositiveSmallIntegerField(
        gettext_lazy("card count"), default=0, help_text=gettext_lazy("Cards committed; 0 for a plain shoe.")
    )
    burn_card = models.CharField(
        gettext_lazy("burn card"),
        max_length=2,
        blank=True,
        help_text=gettext_lazy("Card 1, turned over at the start: its code."),
    )
    burned = models.PositiveSmallIntegerField(
        gettext_lazy("burned"), null=True, blank=True, help_text=gettext_lazy("Cards burned after card 1.")
    )
    next_card = models.PositiveSmallIntegerField(
        gettext_lazy("next card"),
        default=1,
        help_text=gettext_lazy("Number of the next committed card to leave the shoe."),
    )
    revealed = models.PositiveSmallIntegerField(
        gettext_lazy("revealed"), default=0, help_text=gettext_lazy("Committed cards whose plaintext is out.")
    )

    class Meta:
        ordering = ["table", "-number"]
        verbose_name = gettext_lazy("shoe")
        verbose_name_plural = gettext_lazy("shoes")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="shoe_number_unique_per_table"),
            models.UniqueConstraint(fields=["table"], condition=Q(state="open"), name="one_open_shoe_per_table"),
            models.UniqueConstraint(
                fields=["table", "start_key"], condition=~Q(start_key=""), name="one_shoe_per_start_key"
            ),
        ]
        # The newest shoes first: the admin's shoe filter and the desk's flagged shoes read
        # the latest few of a year's thousands (a sort of every shoe without it).
        indexes = [models.Index(fields=["-started_at", "-id"], name="shoe_newest_first")]

    def __str__(self) -> str:
        return _("%(table)s · shoe %(number)s") % {"table": self.table, "number": self.number}

    @property
    def cards(self) -> int:
        """Cards in the shoe: committed ones, or 52 a deck for a plain shoe."""
        return self.card_count or 52 * self.decks

    @property
    def fully_verified(self) -> bool:
        """Every card of an authenticated shoe is revealed, and each plaintext was
        checked against its public hash when it was stored."""
        return self.authenticated and self.revealed == self.card_count
