"""Shoe days kept: each recorded round added to its shoe's day, a void recounted, and
every shoe day rebuilt from the rounds (the replay, for a database filled before they were
kept, or mended by hand).

A round is added in the transaction that records it, under its shoe's row lock, so a shoe
day is never behind its rounds and never written by two writers at once.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from ..game.outcome import PlayedRound
from ..game.summaries import Summary
from ..models import Round, Shoe, ShoeDay
from ..models.shoe_days import stored_fields
from ..selectors import PLAYED_FIELDS, played_round

REBUILD_CHUNK = 2000  # rounds read at a time by the replay


def day_of(at: datetime) -> date:
    """The day a round counts on: its date in the server's time zone, as the review's
    date range reads it."""
    return timezone.localdate(at, timezone.get_default_timezone())


def _pays(bets: Mapping[str, Any]) -> dict[str, float | None]:
    return {bet: result.get("pays") for bet, result in bets.items()}


def round_added(*, shoe: Shoe, at: datetime, played: PlayedRound, bets: Mapping[str, Any]) -> None:
    """Add a round just recorded (in the caller's transaction, its shoe locked)."""
    day = day_of(at)
    # The shoe's row lock keeps any other writer from this row: no get_or_create's savepoint.
    row = ShoeDay.objects.filter(shoe=shoe, day=day).first() or ShoeDay(shoe=shoe, day=day)
    summary = row.summary()
    summary.add(played, _pays(bets))
    row.keep(summary, shoe.decks)
    row.save()


def _summarise(rows: Iterable[Any]) -> Summary:
    summary = Summary()
    for row in rows:
        summary.add(played_round(row), _pays(row.bets))
    return summary


def day_recount(*, shoe: Shoe, day: date) -> None:
    """Count a shoe's day again from its played rounds (a round was voided): one shoe's
    rounds of one day, a hundred or so."""
    zone = timezone.get_default_timezone()
    start = datetime.combine(day, time.min, tzinfo=zone)
    end = datetime.combine(day + timedelta(days=1), time.min, tzinfo=zone)
    rounds = Round.objects.filter(shoe=shoe, voided=False, created_at__gte=start, created_at__lt=end)
    summary = _summarise(rounds.order_by("number").values_list("bets", *PLAYED_FIELDS, named=True))
    row, _ = ShoeDay.objects.get_or_create(shoe=shoe, day=day)
    row.keep(summary, shoe.decks)
    row.save()


def shoe_days_rebuild(shoes: type[Shoe] = Shoe, rounds: type[Round] = Round, shoe_days: type[ShoeDay] = ShoeDay) -> int:
    """Every shoe day counted again from the rounds, a shoe at a time; returns how many
    were kept. Replayable: the same rounds give the same rows. A migration passes its
    historical models (this reads and writes fields only, no model's methods)."""
    kept = 0
    for shoe in shoes.objects.order_by("pk").only("pk", "decks"):
        played = (
            rounds.objects.filter(shoe=shoe, voided=False)
            .order_by("number")
            .values_list("created_at", "bets", *PLAYED_FIELDS, named=True)
        )
        days: dict[date, Summary] = {}
        for day, rows in itertools.groupby(played.iterator(REBUILD_CHUNK), key=lambda r: day_of(r.created_at)):
            summary = _summarise(rows)
            days[day] = days[day].then(summary) if day in days else summary  # a clock set back
        with transaction.atomic():
            shoe_days.objects.filter(shoe=shoe).delete()
            shoe_days.objects.bulk_create(
                shoe_days(shoe=shoe, day=day, **stored_fields(summary, shoe.decks)) for day, summary in days.items()
            )
        kept += len(days)
    return kept
