"""The simulator and the demo deal card by card, at a dealer's rhythm (about a second
between cards, a pause between rounds), on a clock the test moves: no test sleeps."""

from __future__ import annotations

import asyncio
import itertools
import random
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from tables import services
from tables.demo.simulator import (
    DEALERS,
    LEFTOVER_REASON,
    CardByCard,
    Rhythm,
    Simulation,
    TableDealer,
    deal_forever,
)
from tables.demo.venue import demo_tables_ensure
from tables.game.dealing import deal_of
from tables.management.commands import simulate
from tables.models import Round, RoundCancel, RoundInProgress, Shoe, ShoeCard, Table
from tests.fake_time import FakeTime

RHYTHM = Rhythm(card=1.0, pause=4.0)


def table(slug: str, *, decks: int = 8) -> Table:
    created, _ = services.table_create(slug=slug, name=slug, decks=decks, simulated=True)
    return created


def test_a_dealer_s_rhythm_is_a_second_a_card_and_the_interval_between_rounds() -> None:
    assert Rhythm.of(4.0) == Rhythm(card=1.0, pause=4.0)  # the demo: a round takes about 8 s
    assert Rhythm.of(0.3) == Rhythm(card=0.3, pause=0.3)  # a short interval shortens the cards too
    assert Rhythm.of(0) == Rhythm(card=0, pause=0)  # as fast as it goes
    assert Rhythm.of(3.0, 0.5) == Rhythm(card=0.5, pause=3.0)
    assert Rhythm.of(4.0).round_seconds == 8.0


def test_a_table_deals_each_round_card_by_card_a_second_apart_and_pauses_between_rounds(db) -> None:
    dealer = TableDealer(table("rhythm").pk, random.Random(3))
    clock = FakeTime()
    dealing = CardByCard.start([dealer], RHYTHM, now=clock.monotonic(), rounds=4)
    cards: list[tuple[float, int, int, bool]] = []  # (when, round, cards so far, complete)

    def dealt(answer: services.CardDealt) -> None:
        cards.append((clock.monotonic(), answer.number, len(answer.deal.cards), answer.round is not None))
        progress = RoundInProgress.objects.filter(shoe=answer.shoe).first()
        if answer.round is None:  # the round in progress is public state, card by card
            assert progress is not None and len(progress.deal.cards) == len(answer.deal.cards)
        else:
            assert progress is None

    dealing.run(clock=clock.monotonic, sleep=clock.advance, dealt=dealt)

    rounds = list(Round.objects.order_by("number"))
    assert [r.number for r in rounds] == [1, 2, 3, 4]
    assert not RoundInProgress.objects.exists()  # the last round was dealt to its end
    for round_ in rounds:
        mine = [c for c in cards if c[1] == round_.number]
        assert [c[2] for c in mine] == list(range(1, len(deal_of(round_.outcome()).cards) + 1))
        assert [c[3] for c in mine] == [False] * (len(mine) - 1) + [True]
        times = [c[0] for c in mine]
        assert [b - a for a, b in itertools.pairwise(times)] == [1.0] * (len(mine) - 1)
    starts = [next(c[0] for c in cards if c[1] == n) for n in (2, 3, 4)]
    ends = [[c[0] for c in cards if c[1] == n][-1] for n in (1, 2, 3)]
    assert [start - end for start, end in zip(starts, ends, strict=True)] == [4.0, 4.0, 4.0]
    assert cards[0][0] == 0.0 and clock.now == cards[-1][0]


def test_the_tables_start_a_share_of_a_round_apart_and_their_cards_interleave(db) -> None:
    tables = [table(f"venue-{n}") for n in range(3)]
    dealers = [TableDealer(t.pk, random.Random(n)) for n, t in enumerate(tables)]
    clock = FakeTime()
    dealing = CardByCard.start(dealers, RHYTHM, now=clock.monotonic())
    firsts: dict[int, float] = {}
    while len(firsts) < 3:
        clock.advance(dealing.wait(clock.monotonic()) or 0)
        answer = dealing.deal(clock.monotonic())
        assert answer is not None
        firsts.setdefault(answer.shoe.table_id, clock.monotonic())
    assert [firsts[t.pk] for t in tables] == pytest.approx([0.0, 8 / 3, 16 / 3])
    assert RoundInProgress.objects.count() >= 2  # rounds unfolding at once on several tables


def test_a_number_of_rounds_stops_with_none_left_half_dealt(db) -> None:
    dealers = [TableDealer(table(f"limit-{n}").pk, random.Random(n)) for n in range(2)]
    clock = FakeTime()
    dealing = CardByCard.start(dealers, Rhythm(card=0, pause=0), now=clock.monotonic(), rounds=7)
    dealing.run(clock=clock.monotonic, sleep=clock.advance)
    assert Round.objects.count() == 7 and not RoundInProgress.objects.exists()
    assert dealing.wait(clock.monotonic()) is None and dealing.deal(clock.monotonic()) is None


def round_rows(table: Table) -> list[dict[str, Any]]:
    fields = [
        f.name
        for f in Round._meta.fields
        if f.name not in {"id", "round_id", "shoe", "table", "created_at", "dealer_name"}
    ]
    return list(Round.objects.filter(shoe__table=table).order_by("shoe__number", "number").values(*fields))


def card_rows(table: Table) -> list[tuple[Any, ...]]:
    cards = ShoeCard.objects.filter(shoe__table=table).order_by("shoe__number", "number")
    return [(c.shoe.number, c.number, c.state, c.round.number if c.round else None) for c in cards]


@pytest.mark.parametrize("authenticated", [True, False])
@pytest.mark.parametrize("seed", [5, 8])
def test_a_shoe_dealt_card_by_card_makes_the_rows_of_the_same_shoe_dealt_whole(
    db, seed: int, authenticated: bool
) -> None:
    whole_table, cards_table = table(f"whole-{seed}", decks=1), table(f"cards-{seed}", decks=1)
    whole = TableDealer(whole_table.pk, random.Random(seed), authenticated=authenticated)
    by_card = TableDealer(cards_table.pk, random.Random(seed), authenticated=authenticated)
    whole.step()
    while not whole.shoe.finished:
        whole.step()
    by_card.deal_card()
    while by_card.mid_round or not by_card.shoe.finished:
        by_card.deal_card()

    assert round_rows(cards_table) == round_rows(whole_table) and len(round_rows(whole_table)) > 5
    for each in (whole_table, cards_table):
        names = list(Round.objects.filter(shoe__table=each).order_by("number").values_list("dealer_name", flat=True))
        assert names == [DEALERS[(each.pk + n // 30) % len(DEALERS)] for n in range(1, len(names) + 1)]
    assert card_rows(cards_table) == card_rows(whole_table)
    shoes = [Shoe.objects.get(table=t) for t in (whole_table, cards_table)]
    assert [(s.state, s.dealt, s.last_number, s.revealed, s.authenticated) for s in shoes[1:]] == [
        (s.state, s.dealt, s.last_number, s.revealed, s.authenticated) for s in shoes[:1]
    ]
    if authenticated:  # every card revealed: the shoe verified to its end, card by card as whole
        assert shoes[1].state == Shoe.State.CLOSED and shoes[1].revealed == shoes[1].card_count


def test_a_round_a_previous_run_left_half_dealt_is_cancelled_and_a_new_shoe_started(db) -> None:
    tables = table("restart")
    first = TableDealer(tables.pk, random.Random(1))
    first.deal_card()
    first.deal_card()  # the process stops here
    again = TableDealer(tables.pk, random.Random(2))
    answer = again.deal_card()
    cancel = RoundCancel.objects.get()
    assert (cancel.shoe.number, cancel.number, len(cancel.cards), cancel.reason) == (1, 1, 4, LEFTOVER_REASON)
    assert (answer.shoe.number, answer.number, len(answer.deal.cards)) == (2, 1, 1)


def test_a_failed_card_starts_that_table_over_after_a_pause(db) -> None:
    dealer = TableDealer(table("fails").pk, random.Random(4))
    clock = FakeTime()
    dealing = CardByCard.start([dealer], RHYTHM, now=clock.monotonic())
    dealing.deal(clock.monotonic())
    Shoe.objects.update(state=Shoe.State.CLOSED)  # someone closed the shoe mid-round
    clock.advance(1.0)
    with pytest.raises(services.NoOpenShoeError):
        dealing.deal(clock.monotonic())
    dealing.recover()
    assert dealing.wait(clock.monotonic()) == 4.0
    clock.advance(4.0)
    answer = dealing.deal(clock.monotonic())
    assert answer is not None and (answer.shoe.number, answer.number, len(answer.deal.cards)) == (2, 1, 1)


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    clock = FakeTime()
    monkeypatch.setattr(simulate.Command, "clock", staticmethod(clock.monotonic))
    monkeypatch.setattr(simulate.Command, "sleep", staticmethod(clock.advance))
    return clock


def test_simulate_deals_card_by_card_at_a_dealer_s_rhythm(db, fake_clock: FakeTime) -> None:
    out, err = StringIO(), StringIO()
    call_command("simulate", "--tables", "2", "--rounds", "6", "--interval", "3", stdout=out, stderr=err, verbosity=2)
    assert Round.objects.count() == 6 and not RoundInProgress.objects.exists()
    assert err.getvalue().splitlines() == ["Dealing 2 tables; Ctrl+C stops.", "Dealt 6 rounds."]
    assert len(out.getvalue().splitlines()) == 6
    cards = sum(len(deal_of(r.outcome()).cards) for r in Round.objects.all())
    # Both tables deal at once, a second a card and 3 s between rounds: about half the time alone.
    assert (cards - 6) * 1.0 / 2 + 2 * 3 <= fake_clock.now <= cards * 1.0 + 6 * 3


def test_simulate_whole_rounds_records_whole_rounds_without_a_card_or_a_wait(
    db, fake_clock: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_cards(**kwargs: object) -> None:
        raise AssertionError("--whole-rounds deals no card alone")

    monkeypatch.setattr(services, "card_deal", no_cards)
    call_command("simulate", "--tables", "2", "--rounds", "6", "--interval", "0", "--whole-rounds", stderr=StringIO())
    assert Round.objects.count() == 6 and not RoundInProgress.objects.exists()
    assert fake_clock.now == 0  # the whole-round loop keeps its own sleep, as before
    for each in Table.objects.all():
        assert list(Round.objects.filter(shoe__table=each).values_list("number", flat=True)) == [1, 2, 3]


def test_whole_rounds_and_the_beat_keep_dealing_whole_rounds(db) -> None:
    tables = demo_tables_ensure(count=2)
    simulation = Simulation.for_tables(tables)
    for _ in range(4):
        assert isinstance(simulation.step(), Round)
    assert not RoundInProgress.objects.exists()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_demo_server_deals_its_tables_card_by_card() -> None:
    from asgiref.sync import sync_to_async
    from django.db import connections

    await sync_to_async(demo_tables_ensure)(count=2)
    clock = FakeTime()
    slept: list[float] = []
    dealing: list[int] = []  # rounds being dealt at each wait

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        dealing.append(await sync_to_async(RoundInProgress.objects.count)())
        clock.advance(seconds)
        if len(slept) == 30:
            raise asyncio.CancelledError  # the server stops

    try:
        with pytest.raises(asyncio.CancelledError):
            await deal_forever(4.0, clock=clock.monotonic, sleep=sleep)
        rounds = await sync_to_async(Round.objects.filter(shoe__table__slug="baccarat-1").count)()
    finally:
        await sync_to_async(connections.close_all)()  # the dealing thread's connection
    assert rounds >= 2 and max(dealing) >= 1  # rounds recorded by their last card, rounds seen half dealt
    assert set(slept) <= {0.0, 1.0, 2.0, 3.0, 4.0} and 1.0 in slept  # a second between two cards
