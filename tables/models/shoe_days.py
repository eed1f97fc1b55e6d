"""Shoe days: the reviewer statistics of a shoe's played rounds on one day, kept as the
rounds are recorded and voided, so a review sums these rows instead of reading rounds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.db import models

from ..game.outcome import Winner
from ..game.review import EVENTS, Tally, full_shoe_rates
from ..game.summaries import Run, Runs, Summary
from .shoes import Shoe


def count_field(name: str) -> models.PositiveIntegerField[int, int]:
    return models.PositiveIntegerField(name.replace("_", " "), default=0)


class DaySums(models.Model):
    """What a day's played rounds add up to, as a shoe's day and a table's day both keep
    it: the counts the chi-square tests take (:data:`EVENTS`) and what one unit on each
    bet paid. Not in admin nor in any page: no words to translate."""

    day = models.DateField(help_text="In the server's time zone (TIME_ZONE).")
    rounds = count_field("rounds")
    banker = count_field("banker")
    player = count_field("player")
    tie = count_field("tie")
    player_pair = count_field("player_pair")
    banker_pair = count_field("banker_pair")
    natural = count_field("natural")
    pays = models.JSONField(default=dict, help_text="Units one unit on each bet won or lost.")

    class Meta:
        abstract = True


class ShoeDay(DaySums):
    shoe = models.ForeignKey(Shoe, on_delete=models.CASCADE, related_name="shoe_days")
    first_winner = models.CharField(max_length=1, blank=True)
    first_length = models.PositiveIntegerField(default=0)
    last_winner = models.CharField(max_length=1, blank=True)
    last_length = models.PositiveIntegerField(default=0)
    ended = models.JSONField(default=dict, help_text="Runs that ended, by length.")
    lowest_p = models.FloatField(
        null=True, blank=True, help_text="The lowest p-value of this day's rounds alone: the shoe's flag."
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["shoe", "day"], name="shoe_day_unique")]
        indexes = [models.Index(fields=["day", "shoe"], name="shoe_day_by_day")]  # a date range's rows

    def __str__(self) -> str:
        return f"{self.shoe} · {self.day.isoformat()}"

    def summary(self) -> Summary:
        return summary_of([getattr(self, name) for name in STORED])

    def keep(self, summary: Summary, decks: int) -> None:
        """Hold ``summary`` (of a shoe of ``decks``) in this row's fields; saving is the caller's."""
        for name, value in stored_fields(summary, decks).items():
            setattr(self, name, value)


# The fields a summary is stored in, in the order summary_of reads them.
STORED = (*EVENTS, "rounds", "first_winner", "first_length", "last_winner", "last_length", "ended", "pays")


def _run(winner: str, length: int) -> Run | None:
    return (Winner(winner), length) if winner else None


def summary_of(values: Sequence[Any]) -> Summary:
    """A stored summary from its :data:`STORED` values, as ``values_list`` reads them."""
    *counts, rounds, first_winner, first_length, last_winner, last_length, ended, pays = values
    tally = Tally(rounds, dict(zip(EVENTS, counts, strict=True)))
    runs = Runs(
        _run(first_winner, first_length),
        _run(last_winner, last_length),
        Counter({int(length): n for length, n in ended.items()}),
    )
    return Summary(tally, runs, dict(pays))


def stored_fields(summary: Summary, decks: int) -> dict[str, Any]:
    """A summary as the fields of its row (and the lowest p-value of its rounds alone)."""
    tally, runs = summary.tally, summary.runs
    first, last = runs.first, runs.last
    return {
        **{event: tally.counts[event] for event in EVENTS},
        "rounds": tally.rounds,
        "first_winner": first[0].value if first else "",
        "first_length": first[1] if first else 0,
        "last_winner": last[0].value if last else "",
        "last_length": last[1] if last else 0,
        "ended": {str(length): n for length, n in sorted(runs.ended.items()) if n},
        "pays": {bet: round(total, 6) for bet, total in summary.pays.items()},
        "lowest_p": tally.frequencies(full_shoe_rates(decks)).lowest_p if tally.rounds else None,
    }
