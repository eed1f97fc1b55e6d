"""Tables, shoes and rounds: the database is the truth."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from .game.bets import Paytable
from .game.cards import Card, unpack_cards
from .game.outcome import RoundOutcome, Winner
from .game.shoe import CutCardRule
from .labels import WINNER_NAMES

# The winners' names people read, in the page's language (the game core spells them in English).


class Variant(models.TextChoices):
    STANDARD = "standard", gettext_lazy("Standard")
    NO_COMMISSION = "no_commission", gettext_lazy("No Commission")


# The game's cut-card rules (seeds 000 and 001 disagree: per table), as reviewers read them.
CUT_CARD_RULE_CHOICES = [
    (CutCardRule.PLAY_ONE_MORE.value, gettext_lazy("Finish the hand, play one more")),
    (CutCardRule.LAST_ROUND.value, gettext_lazy("The current round is the last")),
]


def token_digest(token: str) -> str:
    """Ingest tokens are random 256-bit strings, so a plain SHA-256 is enough."""
    return hashlib.sha256(token.encode()).hexdigest()


class Table(models.Model):
    slug = models.SlugField(gettext_lazy("slug"), max_length=40, unique=True)
    name = models.CharField(gettext_lazy("name"), max_length=80)
    variant = models.CharField(
        gettext_lazy("variant"), max_length=16, choices=Variant.choices, default=Variant.STANDARD
    )
    decks = models.PositiveSmallIntegerField(
        gettext_lazy("decks"), default=8, validators=[MinValueValidator(1), MaxValueValidator(16)]
    )
    paytable = models.JSONField(
        gettext_lazy("paytable"),
        default=dict,
        blank=True,
        help_text=gettext_lazy('Overrides of the variant\'s paytable, e.g. {"perfect_pair_both": 200}.'),
    )
    limits = models.JSONField(
        gettext_lazy("limits"),
        default=dict,
        blank=True,
        help_text=gettext_lazy('Table limits per bet for display, e.g. {"player": [10, 5000]}.'),
    )
    cut_card_rule = models.CharField(
        gettext_lazy("cut card rule"),
        max_length=16,
        choices=CUT_CARD_RULE_CHOICES,
        default=CutCardRule.PLAY_ONE_MORE.value,
    )
    dealer_name = models.CharField(gettext_lazy("dealer name"), max_length=80, blank=True)
    simulated = models.BooleanField(
        gettext_lazy("simulated"),
        default=False,
        help_text=gettext_lazy("Dealt by the built-in simulator (demo tables)."),
    )
    token_hash = models.CharField(gettext_lazy("token hash"), max_length=64, blank=True, editable=False)
    created_at = models.DateTimeField(gettext_lazy("created at"), default=timezone.now)

    class Meta:
        ordering = ["name"]
        verbose_name = gettext_lazy("table")
        verbose_name_plural = gettext_lazy("tables")
        # Whoever rotates a table's token holds the new one, and with it the table's
        # dealer system: owners only (superusers), never the reviewer group's view_table.
        permissions = [("rotate_token", gettext_lazy("Can rotate a table's ingest token"))]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        try:
            self.get_paytable()
        except (TypeError, ValueError) as error:
            raise ValidationError({"paytable": str(error)}) from error

    def get_paytable(self) -> Paytable:
        return Paytable.for_variant(self.variant).updated(self.paytable or {})

    def check_token(self, token: str) -> bool:
        return bool(self.token_hash) and hmac.compare_digest(self.token_hash, token_digest(token))


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
        ]

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


class Round(models.Model):
    round_id = models.CharField(
        gettext_lazy("round ID"),
        max_length=20,
        unique=True,
        help_text=gettext_lazy("The Transaction ID shown to users."),
    )
    shoe = models.ForeignKey(Shoe, verbose_name=gettext_lazy("shoe"), on_delete=models.CASCADE, related_name="rounds")
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
