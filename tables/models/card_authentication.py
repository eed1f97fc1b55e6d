"""Card authentication's records: each committed card of a shoe, and the plaintexts refused."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .rounds import AppendOnly, Round
from .shoes import Shoe


class ShoeCard(models.Model):
    """One committed card of an authenticated shoe: its number (place in the dealing
    order), its Public Hash Value from the start, and its plaintext once revealed (the
    plaintext is stored only when revealed, verified against the hash, so no page can
    show it early). A shoe's cards are written in one bulk insert and read in one query."""

    class State(models.TextChoices):
        BURN_CARD = "burn_card", gettext_lazy("Burn card")
        BURNED = "burned", gettext_lazy("Burned")
        DEALT = "dealt", gettext_lazy("Dealt")
        UNUSED = "unused", gettext_lazy("Unused")

    shoe = models.ForeignKey(
        Shoe, verbose_name=gettext_lazy("shoe"), on_delete=models.CASCADE, related_name="card_rows"
    )
    number = models.PositiveSmallIntegerField(gettext_lazy("number"))
    hash = models.CharField(gettext_lazy("hash"), max_length=128)
    plaintext = models.CharField(gettext_lazy("plaintext"), max_length=256, blank=True, default="")
    state = models.CharField(gettext_lazy("state"), max_length=9, choices=State.choices, default=State.UNUSED)
    round = models.ForeignKey(
        Round,
        verbose_name=gettext_lazy("round"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="shoe_cards",
    )

    class Meta:
        ordering = ["shoe", "number"]
        constraints = [models.UniqueConstraint(fields=["shoe", "number"], name="card_number_unique_per_shoe")]
        # A new shoe's hashes looked up among every shoe's (a commitment is never reused).
        indexes = [models.Index(fields=["hash"], name="shoe_card_by_hash")]
        verbose_name = gettext_lazy("shoe card")
        verbose_name_plural = gettext_lazy("shoe cards")

    def __str__(self) -> str:
        return _("%(shoe)s · card %(number)s") % {"shoe": self.shoe, "number": self.number}


class PlaintextRefusal(AppendOnly):
    """A card plaintext a dealer system sent and the server refused (a round's, the
    burn's or a reveal's), kept for reviewers, append-only. The refused text itself is
    never kept nor shown (it may be another card's plaintext, not yet revealed): only
    where it was sent, why it was refused, and its SHA-512, which a reviewer can match
    against the public hashes."""

    shoe = models.ForeignKey(
        Shoe, verbose_name=gettext_lazy("shoe"), on_delete=models.PROTECT, related_name="plaintext_refusals"
    )
    at = models.DateTimeField(gettext_lazy("time"), default=timezone.now, db_index=True)
    field = models.CharField(
        gettext_lazy("field"),
        max_length=40,
        help_text=gettext_lazy("Where it was sent, e.g. plaintexts[2] or plaintext."),
    )
    round_number = models.PositiveIntegerField(
        gettext_lazy("round number"), null=True, blank=True, help_text=gettext_lazy("The round it came with, if any.")
    )
    card_number = models.PositiveSmallIntegerField(
        gettext_lazy("card number"), null=True, blank=True, help_text=gettext_lazy("The card it was checked against.")
    )
    reason = models.CharField(gettext_lazy("reason"), max_length=300)
    digest = models.CharField(
        gettext_lazy("digest"), max_length=128, blank=True, help_text=gettext_lazy("SHA-512 of the refused text.")
    )

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = gettext_lazy("plaintext refusal")
        verbose_name_plural = gettext_lazy("plaintext refusals")

    def __str__(self) -> str:
        return _("%(shoe)s · %(field)s refused at %(at)s") % {
            "shoe": self.shoe,
            "field": self.field,
            "at": date_format(timezone.localtime(self.at), "DATETIME_FORMAT"),
        }
