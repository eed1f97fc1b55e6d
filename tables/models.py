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

from .game.bets import Paytable
from .game.cards import Card, unpack_cards
from .game.outcome import RoundOutcome, Winner
from .game.shoe import CutCardRule as GameCutCardRule


class Variant(models.TextChoices):
    STANDARD = "standard", "Standard"
    NO_COMMISSION = "no_commission", "No Commission"


class CutCardRule(models.TextChoices):
    PLAY_ONE_MORE = GameCutCardRule.PLAY_ONE_MORE.value, "Finish the hand, play one more"
    LAST_ROUND = GameCutCardRule.LAST_ROUND.value, "The current round is the last"


def token_digest(token: str) -> str:
    """Ingest tokens are random 256-bit strings, so a plain SHA-256 is enough."""
    return hashlib.sha256(token.encode()).hexdigest()


class Table(models.Model):
    slug = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=80)
    variant = models.CharField(max_length=16, choices=Variant.choices, default=Variant.STANDARD)
    decks = models.PositiveSmallIntegerField(default=8, validators=[MinValueValidator(1), MaxValueValidator(16)])
    paytable = models.JSONField(
        default=dict, blank=True, help_text='Overrides of the variant\'s paytable, e.g. {"perfect_pair_both": 200}.'
    )
    limits = models.JSONField(
        default=dict, blank=True, help_text='Table limits per bet for display, e.g. {"player": [10, 5000]}.'
    )
    cut_card_rule = models.CharField(max_length=16, choices=CutCardRule.choices, default=CutCardRule.PLAY_ONE_MORE)
    dealer_name = models.CharField(max_length=80, blank=True)
    simulated = models.BooleanField(default=False, help_text="Dealt by the built-in simulator (demo tables).")
    token_hash = models.CharField(max_length=64, blank=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]

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
        OPEN = "open"
        CLOSED = "closed"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="shoes")
    number = models.PositiveIntegerField()
    decks = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=8, choices=State.choices, default=State.OPEN)
    started_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    # Kept by services.round_record under the shoe's row lock, so recording a round
    # reads one row, not every round of the shoe.
    last_number = models.PositiveSmallIntegerField(
        default=0, help_text="Number of the last round recorded; 0 before the first."
    )
    dealt = models.TextField(
        blank=True,
        default="",
        help_text="Packed codes of every card dealt from the shoe so far, in dealing order (voided rounds included).",
    )
    # Card authentication (seed 001). An authenticated shoe was committed card by card
    # (its ShoeCard rows) before play; a plain one has no card rows.
    authenticated = models.BooleanField(default=False, help_text="Every card committed by its SHA-512 before play.")
    commitment = models.CharField(
        max_length=128, blank=True, help_text="SHA-512 of the card hashes joined in card-number order (no separator)."
    )
    card_count = models.PositiveSmallIntegerField(default=0, help_text="Cards committed; 0 for a plain shoe.")
    burn_card = models.CharField(max_length=2, blank=True, help_text="Card 1, turned over at the start: its code.")
    burned = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Cards burned after card 1.")
    next_card = models.PositiveSmallIntegerField(
        default=1, help_text="Number of the next committed card to leave the shoe."
    )
    revealed = models.PositiveSmallIntegerField(default=0, help_text="Committed cards whose plaintext is out.")

    class Meta:
        ordering = ["table", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="shoe_number_unique_per_table"),
            models.UniqueConstraint(fields=["table"], condition=Q(state="open"), name="one_open_shoe_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table} · shoe {self.number}"

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
    round_id = models.CharField("round ID", max_length=20, unique=True, help_text="The Transaction ID shown to users.")
    shoe = models.ForeignKey(Shoe, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(help_text="Number of the round in its shoe.")
    player_cards = models.CharField(max_length=6, help_text="Packed codes in dealing order, e.g. AH5SKD.")
    banker_cards = models.CharField(max_length=6)
    winner = models.CharField(max_length=1, choices=[(w.value, w.label) for w in Winner])
    player_score = models.PositiveSmallIntegerField()
    banker_score = models.PositiveSmallIntegerField()
    player_card_count = models.PositiveSmallIntegerField()
    banker_card_count = models.PositiveSmallIntegerField()
    player_natural = models.BooleanField()
    banker_natural = models.BooleanField()
    player_pair = models.BooleanField()
    banker_pair = models.BooleanField()
    player_perfect_pair = models.BooleanField()
    banker_perfect_pair = models.BooleanField()
    banker_wins_with_six = models.BooleanField()
    margin = models.PositiveSmallIntegerField()
    bets = models.JSONField(help_text="Every bet's result under the paytable in force.")
    odds = models.JSONField(
        null=True,
        blank=True,
        help_text="Expected return of every bet on the shoe left after this round; computed in the background.",
    )
    dealer_name = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    voided = models.BooleanField(default=False)
    void_reason = models.TextField(blank=True)
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)
    voided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["shoe", "number"]
        constraints = [
            models.UniqueConstraint(fields=["shoe", "number"], name="round_number_unique_per_shoe"),
        ]
        permissions = [("void_round", "Can void a round")]

    def __str__(self) -> str:
        return f"{self.round_id} ({self.shoe} · round {self.number})"

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
        VOID = "void", "Voided"

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="audit_events")
    action = models.CharField(max_length=16, choices=Action.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    username = models.CharField(max_length=150, help_text="Who, as named when it happened.")
    at = models.DateTimeField(default=timezone.now, db_index=True)
    reason = models.TextField()

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = "round audit event"

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.round.round_id} by {self.username} at {self.at:%Y-%m-%d %H:%M:%S}"


class ShoeCard(models.Model):
    """One committed card of an authenticated shoe: its number (place in the dealing
    order), its Public Hash Value from the start, and its plaintext once revealed (the
    plaintext is stored only when revealed, verified against the hash, so no page can
    show it early). A shoe's cards are written in one bulk insert and read in one query."""

    class State(models.TextChoices):
        BURN_CARD = "burn_card", "Burn card"
        BURNED = "burned", "Burned"
        DEALT = "dealt", "Dealt"
        UNUSED = "unused", "Unused"

    shoe = models.ForeignKey(Shoe, on_delete=models.CASCADE, related_name="card_rows")
    number = models.PositiveSmallIntegerField()
    hash = models.CharField(max_length=128)
    plaintext = models.CharField(max_length=256, blank=True, default="")
    state = models.CharField(max_length=9, choices=State.choices, default=State.UNUSED)
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.CASCADE, related_name="shoe_cards")

    class Meta:
        ordering = ["shoe", "number"]
        constraints = [models.UniqueConstraint(fields=["shoe", "number"], name="card_number_unique_per_shoe")]

    def __str__(self) -> str:
        return f"{self.shoe} · card {self.number}"


class PlaintextRefusal(AppendOnly):
    """A card plaintext a dealer system sent and the server refused (a round's, the
    burn's or a reveal's), kept for reviewers, append-only. The refused text itself is
    never kept nor shown (it may be another card's plaintext, not yet revealed): only
    where it was sent, why it was refused, and its SHA-512, which a reviewer can match
    against the public hashes."""

    shoe = models.ForeignKey(Shoe, on_delete=models.PROTECT, related_name="plaintext_refusals")
    at = models.DateTimeField(default=timezone.now, db_index=True)
    field = models.CharField(max_length=40, help_text="Where it was sent, e.g. plaintexts[2] or plaintext.")
    round_number = models.PositiveIntegerField(null=True, blank=True, help_text="The round it came with, if any.")
    card_number = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The card it was checked against.")
    reason = models.CharField(max_length=300)
    digest = models.CharField(max_length=128, blank=True, help_text="SHA-512 of the refused text.")

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.shoe} · {self.field} refused at {self.at:%Y-%m-%d %H:%M:%S}"
