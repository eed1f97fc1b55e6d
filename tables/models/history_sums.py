"""Sums over all history: each table's days and each shoe as a whole, kept as rounds are
recorded and voided (with the shoe days), so the review over everything reads a row a
table and day and a row a listed shoe, however many rounds a year holds."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from .shoe_days import DaySums, count_field
from .shoes import Shoe
from .tables import Table


class TableDay(DaySums):
    """A table's shoe days of one day (of shoes of ``decks``), summed; its ``ended`` and
    ``shoes`` are the shares of :func:`tables.game.summaries.shares`: summed over every
    day, each shoe's runs joined whole and each shoe once."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="table_days")
    decks = models.PositiveSmallIntegerField()
    ended = models.JSONField(default=dict, help_text="Runs ended, by length, as the day joined each shoe's runs.")
    shoes = count_field("shoes")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "day", "decks"], name="table_day_unique")]

    def __str__(self) -> str:
        return f"{self.table} · {self.day.isoformat()}"


class ShoeTotal(models.Model):
    """A shoe's played rounds as a whole: what the review over everything lists (a
    table's shoes by number) and flags (its lowest p-value), without reading its days."""

    shoe = models.OneToOneField(Shoe, on_delete=models.CASCADE, primary_key=True, related_name="total")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    number = models.PositiveIntegerField()
    played = count_field("played")
    lowest_p = models.FloatField(null=True, blank=True, help_text="Of the chi-square tests on the whole shoe.")

    class Meta:
        indexes = [
            models.Index(fields=["table", "number"], condition=Q(played__gt=0), name="shoe_total_listed"),
            models.Index(fields=["lowest_p"], condition=Q(played__gt=0), name="shoe_total_flagged"),
        ]

    def __str__(self) -> str:
        return str(self.shoe_id)
