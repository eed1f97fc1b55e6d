"""Shoe days kept: each recorded round added to its shoe's day, a void recounted, and
every shoe day rebuilt from the rounds (the replay, for a database filled before they were
kept, or mended by hand). Each change to a shoe's days is carried into the sums of all
history (its table's days and the shoe's total, :mod:`tables.models.history_sums`).

A round is added in the transaction that records it, under its shoe's row lock, so a shoe
day is never behind its rounds and never written by two writers at once; a table's day,
which two shoes of the table may change at once (a round recorded, one of an older shoe
voided), is locked while it changes.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from ..game.outcome import PlayedRound
from ..game.review import EVENTS, full_shoe_rates
from ..game.summaries import Share, Summary, shares, whole
from ..models import Round, Shoe, ShoeDay, ShoeTotal, TableDay
from ..models.shoe_days import STORED, stored_fields, summary_of
from ..selectors import PLAYED_FIELDS, played_round

REBUILD_CHUNK = 2000  # rounds read at a time by the replay


def day_of(at: datetime) -> date:
    """The day a round counts on: its date in the server's time zone, as the review's
    date range reads it."""
    return timezone.localdate(at, timezone.get_default_timezone())


def _pays(bets: Mapping[str, Any]) -> dict[str, float | None]:
    return {bet: result.get("pays") for bet, result in bets.items()}


Stretches = list[tuple[date, Summary]]  # a shoe's days in order, each its summary


def _stretches(shoe: Shoe) -> Stretches:
    return [(row.day, row.summary()) for row in ShoeDay.objects.filter(shoe=shoe).order_by("day")]


def round_added(*, shoe: Shoe, at: datetime, played: PlayedRound, bets: Mapping[str, Any]) -> None:
    """Add a round just recorded (in the caller's transaction, its shoe locked)."""
    day = day_of(at)
    # The shoe's row lock keeps any other writer from its rows: no get_or_create's savepoint.
    rows = {row.day: row for row in ShoeDay.objects.filter(shoe=shoe)}
    before = sorted((d, row.summary()) for d, row in rows.items())
    row = rows.get(day) or ShoeDay(shoe=shoe, day=day)
    summary = row.summary()
    summary.add(played, _pays(bets))
    row.keep(summary, shoe.decks)
    row.save()
    after = sorted([(d, s) for d, s in before if d != day] + [(day, summary)])
    sums_changed(shoe=shoe, before=before, after=after)


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
    before = _stretches(shoe)
    row, _ = ShoeDay.objects.get_or_create(shoe=shoe, day=day)
    row.keep(summary, shoe.decks)
    row.save()
    after = sorted([(d, s) for d, s in before if d != day] + [(day, summary)])
    sums_changed(shoe=shoe, before=before, after=after)


@dataclass
class _DaySums:
    """What a table's day adds up to, or how much it changes by."""

    rounds: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    pays: dict[str, float] = field(default_factory=dict)
    ended: Counter[int] = field(default_factory=Counter)
    shoes: int = 0

    def add(self, share: Share, sign: int = 1) -> None:
        tally = share.summary.tally
        self.rounds += sign * tally.rounds
        self.counts.update({event: sign * tally.counts[event] for event in EVENTS})
        for bet, units in share.summary.pays.items():
            self.pays[bet] = self.pays.get(bet, 0.0) + sign * units
        self.ended.update({length: sign * n for length, n in share.ended.items()})
        self.shoes += sign * share.shoes

    def __bool__(self) -> bool:
        return bool(self.rounds or any(self.counts.values()) or any(self.ended.values()) or self.shoes) or any(
            round(units, 6) for units in self.pays.values()
        )

    def onto(self, row: Any) -> None:
        """Add these sums to a table day's fields (a model's or a historical model's)."""
        row.rounds += self.rounds
        for event in EVENTS:
            setattr(row, event, getattr(row, event) + self.counts[event])
        ended = Counter({int(length): n for length, n in row.ended.items()})
        ended.update(self.ended)
        row.ended = {str(length): n for length, n in sorted(ended.items()) if n}
        pays = dict(row.pays)
        for bet, units in self.pays.items():
            pays[bet] = round(pays.get(bet, 0.0) + units, 6)
        row.pays = pays
        row.shoes += self.shoes


def _shares(stretches: Stretches) -> dict[date, Share]:
    return dict(zip((day for day, _ in stretches), shares([s for _, s in stretches]), strict=True))


def _total_fields(stretches: Stretches, decks: int) -> dict[str, Any]:
    summary = whole([s for _, s in stretches])
    played = summary.tally.rounds
    lowest_p = summary.tally.frequencies(full_shoe_rates(decks)).lowest_p if played else None
    return {"played": played, "lowest_p": lowest_p}


def sums_changed(*, shoe: Shoe, before: Stretches, after: Stretches) -> None:
    """Carry a change to a shoe's days into its table's days and its total (in the
    caller's transaction, the shoe locked)."""
    changes: dict[date, _DaySums] = {}
    for stretches, sign in ((before, -1), (after, 1)):
        for day, share in _shares(stretches).items():
            changes.setdefault(day, _DaySums()).add(share, sign)
    for day, change in sorted(changes.items()):
        if change:
            locked = TableDay.objects.select_for_update()
            row, _ = locked.get_or_create(table_id=shoe.table_id, day=day, decks=shoe.decks)
            change.onto(row)
            row.save()
    total = _total_fields(after, shoe.decks)
    if not ShoeTotal.objects.filter(shoe=shoe).update(**total):  # the shoe's first round: its row is new
        ShoeTotal.objects.create(shoe=shoe, table_id=shoe.table_id, number=shoe.number, **total)


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


def history_sums_rebuild(
    shoe_days: type[ShoeDay] = ShoeDay,
    table_days: type[TableDay] = TableDay,
    shoe_totals: type[ShoeTotal] = ShoeTotal,
) -> None:
    """Every table's day and shoe total summed again from the shoe days (fields only, as
    :func:`shoe_days_rebuild`; after it): what recording and voiding keep, the same rows."""
    days: dict[tuple[int, date, int], _DaySums] = {}
    totals = []
    rows = shoe_days.objects.order_by("shoe_id", "day").values_list(
        "shoe_id", "shoe__table_id", "shoe__number", "shoe__decks", "day", *STORED
    )
    for (shoe_id, table_id, number, decks), of_shoe in itertools.groupby(
        rows.iterator(REBUILD_CHUNK), key=lambda row: row[:4]
    ):
        stretches = [(row[4], summary_of(row[5:])) for row in of_shoe]
        for day, share in _shares(stretches).items():
            days.setdefault((table_id, day, decks), _DaySums()).add(share)
        totals.append(shoe_totals(shoe_id=shoe_id, table_id=table_id, number=number, **_total_fields(stretches, decks)))
    with transaction.atomic():
        table_days.objects.all().delete()
        shoe_totals.objects.all().delete()
        shoe_totals.objects.bulk_create(totals, batch_size=REBUILD_CHUNK)
        made = []
        for (table_id, day, decks), sums in sorted(days.items()):
            row = table_days(table_id=table_id, day=day, decks=decks)
            sums.onto(row)
            made.append(row)
        table_days.objects.bulk_create(made, batch_size=REBUILD_CHUNK)
