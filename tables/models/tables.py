"""Tables: a table's game (variant, decks, paytable, cut-card rule), limits, dealer, and its ingest token's hash."""

from __future__ import annotations

import hashlib
import hmac

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from ..game.audience import Audience, sight
from ..game.bets import Paytable
from ..game.shoe import CutCardRule
from ..game.validation import IllegalRoundError, check_name


class Variant(models.TextChoices):
    STANDARD = "standard", gettext_lazy("Standard")
    NO_COMMISSION = "no_commission", gettext_lazy("No Commission")


# The game's cut-card rules (seeds 000 and 001 disagree: per table), as reviewers read them.
CUT_CARD_RULE_CHOICES = [
    (CutCardRule.PLAY_ONE_MORE.value, gettext_lazy("Finish the hand, play one more")),
    (CutCardRule.LAST_ROUND.value, gettext_lazy("The current round is the last")),
]


# Who may see what of the shoe that is left (tables/game/audience.py), as owners read it.
AUDIENCE_CHOICES = [
    (Audience.FULL_SHOE.value, gettext_lazy("Full-shoe returns only")),
    (Audience.MAIN_BETS.value, gettext_lazy("Banker, Player and Tie remaining-shoe odds public")),
    (Audience.EVERYTHING.value, gettext_lazy("Everything public: a training or free-play room")),
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
    audience = models.CharField(
        gettext_lazy("public screens show"),
        max_length=12,
        choices=AUDIENCE_CHOICES,
        default=Audience.FULL_SHOE.value,
        help_text=gettext_lazy(
            "What players, the table's display, the lobby wall, the public API and every push see of the shoe "
            "that is left. Full-shoe returns only is the safe default: a bet's return on the cards left "
            "(pairs and Lucky Six above all) tells players when a side bet favours them. Showing Banker, Player "
            "and Tie remaining-shoe odds is your explicit choice; everything public is for a training or "
            "free-play room, and its pages say so. The desk always sees everything. Each change is kept with "
            "who made it and when."
        ),
    )
    token_hash = models.CharField(gettext_lazy("token hash"), max_length=64, blank=True, editable=False)
    created_at = models.DateTimeField(gettext_lazy("created at"), default=timezone.now)

    class Meta:
        ordering = ["name"]
        verbose_name = gettext_lazy("table")
        verbose_name_plural = gettext_lazy("tables")
        # Whoever rotates a table's token holds the new one, and with it the table's
        # dealer system: owners only (superusers), never the reviewer group's view_table.
        # What the public sees is the casino's call: owners only, like the token.
        permissions = [
            ("rotate_token", gettext_lazy("Can rotate a table's ingest token")),
            ("set_audience", gettext_lazy("Can choose what a table's public screens show")),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """The paytable applies; the name and the dealer's name pass the one name check
        a dealer system's names pass (:func:`~tables.game.validation.check_name`)."""
        errors: dict[str, str] = {}
        try:
            self.get_paytable()
        except (TypeError, ValueError) as error:
            errors["paytable"] = str(error)
        for field in ("name", "dealer_name"):
            try:
                check_name(field, getattr(self, field))
            except IllegalRoundError as refused:
                errors[field] = refused.errors[0].message
        if errors:
            raise ValidationError(errors)

    @property
    def training_room(self) -> bool:
        """Everything is public here (a training or free-play room): its pages say so."""
        return sight(self.audience).training

    def get_paytable(self) -> Paytable:
        return Paytable.for_variant(self.variant).updated(self.paytable or {})

    def check_token(self, token: str) -> bool:
        return bool(self.token_hash) and hmac.compare_digest(self.token_hash, token_digest(token))
