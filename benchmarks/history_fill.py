"""A year of history, written fast: whole shoes dealt by the game core and stored as the
recording service stores them (its own :func:`~tables.services.rounds.round_row` fills
each round; each shoe day is summed by the same core and kept in the same fields), in
bulk, without a push or an odds job a round.

Run inside the project (``manage.py shell -c``); :func:`check` first proves the bulk rows
equal the service's for the same cards.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from tables import services
from tables.game.outcome import RoundOutcome
from tables.game.shoe import DealingShoe
from tables.game.summaries import Summary
from tables.models import Round, Shoe, ShoeDay, ShoeTotal, Table
from tables.models.shoe_days import stored_fields
from tables.selectors import played_round
from tables.services.rounds import round_row
from tables.services.shoe_days import day_of, history_sums_rebuild

ROUNDS_A_DAY = 35_000  # 24 tables (issue 33): a million rounds a month
BATCH = 5_000  # rows a bulk insert


def shoes(seed: int) -> Iterator[list[RoundOutcome]]:
    """Whole 8-deck shoes, each its rounds dealt to the cut card, from ``seed`` on."""
    rng = random.Random(seed)
    while True:
        dealing, dealt = DealingShoe.shuffled(rng=rng), []
        while not dealing.finished:
            dealt.append(dealing.deal())
        yield dealt


def _shoe(
    table: Table, number: int, dealt: list[RoundOutcome], at: datetime, step: timedelta
) -> tuple[Shoe, list[Round]]:
    shoe = Shoe(table=table, number=number, decks=table.decks, state=Shoe.State.CLOSED, started_at=at)
    rounds = []
    for n, outcome in enumerate(dealt, start=1):
        round_ = round_row(shoe=shoe, number=n, outcome=outcome, table=table, dealer=None)
        round_.created_at = at + step * (n - 1)
        rounds.append(round_)
    shoe.last_number = len(rounds)
    shoe.dealt = "".join(r.player_cards + r.banker_cards for r in rounds)
    shoe.ended_at = rounds[-1].created_at
    return shoe, rounds


def _days(shoe: Shoe, rounds: list[Round]) -> list[ShoeDay]:
    days: dict[Any, Summary] = {}
    for r in rounds:
        summary = days.setdefault(day_of(r.created_at), Summary())
        summary.add(played_round(r), {bet: result["pays"] for bet, result in r.bets.items()})
    return [ShoeDay(shoe=shoe, day=day, **stored_fields(summary, shoe.decks)) for day, summary in days.items()]


def fill(rounds: int, seed: int = 0, end: datetime | None = None) -> int:
    """About ``rounds`` more rounds (whole shoes) over every table, in turn, dealt at
    ROUNDS_A_DAY up to ``end`` (now); returns the rounds stored in all."""
    tables = list(Table.objects.order_by("pk"))
    step = timedelta(days=1) / ROUNDS_A_DAY * len(tables)  # each table deals its share of the day
    numbers = {t.pk: (t.shoes.order_by("-number").values_list("number", flat=True).first() or 0) for t in tables}
    at = (end or timezone.now()) - step * rounds / len(tables)
    written, pending_rounds, pending_days = 0, [], []
    dealt_shoes = shoes(seed)
    k = 0
    while written < rounds:
        table = tables[k % len(tables)]
        numbers[table.pk] += 1
        shoe, shoe_rounds = _shoe(table, numbers[table.pk], next(dealt_shoes), at, step)
        shoe.save(force_insert=True)
        pending_rounds += shoe_rounds
        pending_days += _days(shoe, shoe_rounds)
        written += len(shoe_rounds)
        k += 1
        if k % len(tables) == 0:
            at += step * len(shoe_rounds)
        if len(pending_rounds) >= BATCH:
            _write(pending_rounds, pending_days)
            pending_rounds, pending_days = [], []
    _write(pending_rounds, pending_days)
    history_sums_rebuild()  # the tables' days and shoe totals of all the shoe days
    return Round.objects.count()


def _write(rounds: list[Round], days: list[ShoeDay]) -> None:
    with transaction.atomic():
        Round.objects.bulk_create(rounds, batch_size=1000)
        ShoeDay.objects.bulk_create(days, batch_size=1000)


def _rows(queryset: Any, leave: set[str]) -> list[dict[str, Any]]:
    fields = [f.attname for f in queryset.model._meta.concrete_fields if f.attname not in leave]
    return list(queryset.values(*fields))


def check() -> None:
    """The same shoe recorded round by round through the service, and written by the
    bulk path: the same rounds, shoe days, shoe and shoe total, field for field (but for
    the IDs, times and the state of a shoe the service leaves open)."""
    [dealt] = [next(shoes(seed=12345))]
    table = Table.objects.order_by("pk").first()
    assert table is not None
    with transaction.atomic():
        services.shoe_start(table=table)
        for outcome in dealt:
            services.round_record(
                table=table,
                player=[c.code for c in outcome.player_cards],
                banker=[c.code for c in outcome.banker_cards],
            )
        recorded = table.shoes.get(state=Shoe.State.OPEN)
        bulk, rounds = _shoe(table, recorded.number + 1, dealt, timezone.now(), timedelta(seconds=1))
        bulk.save(force_insert=True)
        _write(rounds, _days(bulk, rounds))
        leave = {"id", "round_id", "shoe_id", "created_at", "odds"}
        same = _rows(Round.objects.filter(shoe=recorded), leave) == _rows(Round.objects.filter(shoe=bulk), leave)
        same &= _rows(ShoeDay.objects.filter(shoe=recorded), {"id", "shoe_id", "day"}) == _rows(
            ShoeDay.objects.filter(shoe=bulk), {"id", "shoe_id", "day"}
        )
        leave = {"id", "number", "state", "started_at", "ended_at"}
        same &= _rows(Shoe.objects.filter(pk=recorded.pk), leave) == _rows(Shoe.objects.filter(pk=bulk.pk), leave)
        kept = _rows(ShoeTotal.objects.filter(shoe=recorded), {"shoe_id", "number"})
        history_sums_rebuild()
        same &= kept == _rows(ShoeTotal.objects.filter(shoe=bulk), {"shoe_id", "number"})
        transaction.set_rollback(True)  # a check, not history
    if not same:
        raise AssertionError("the bulk path does not write what the recording service writes")
