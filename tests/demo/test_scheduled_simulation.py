"""Beat's demo venue: each call deals one round on every simulated table, any worker
carrying on the shoe the previous one left in the shared cache."""

from __future__ import annotations

import pickle

import pytest
from django.core.cache import cache

from tables.demo.simulator import Simulation, TableDealer, deal_scheduled
from tables.demo.venue import demo_tables_ensure
from tables.models import Round, Shoe


@pytest.fixture(autouse=True)
def clean_cache():
    cache.clear()
    yield
    cache.clear()


def test_each_beat_deals_one_round_on_every_simulated_table_in_the_same_shoe(db) -> None:
    tables = demo_tables_ensure(count=3)
    assert deal_scheduled() == 3
    assert deal_scheduled() == 3
    for table in tables:
        shoe = Shoe.objects.get(table=table, state=Shoe.State.OPEN)
        assert list(shoe.rounds.values_list("number", flat=True)) == [1, 2]
    dealer = cache.get(f"simulate:{tables[0].pk}")
    assert isinstance(dealer, TableDealer) and dealer.rounds_dealt == 2
    assert pickle.loads(pickle.dumps(dealer)).shoe.position == dealer.shoe.position


def test_a_table_another_worker_is_dealing_is_left_alone(db) -> None:
    [table] = demo_tables_ensure(count=1)
    cache.add(f"simulate-lock:{table.pk}", 1)
    assert deal_scheduled() == 0 and not Round.objects.exists()


def test_a_failed_round_starts_a_new_shoe_next_time(db) -> None:
    [table] = demo_tables_ensure(count=1)
    deal_scheduled()
    Shoe.objects.filter(table=table).update(state=Shoe.State.CLOSED)  # someone closed the shoe
    assert deal_scheduled() == 0 and cache.get(f"simulate:{table.pk}") is None
    assert deal_scheduled() == 1
    assert Shoe.objects.get(table=table, state=Shoe.State.OPEN).number == 2


def test_the_demo_venues_tables_start_at_different_points_of_their_shoes(db) -> None:
    tables = demo_tables_ensure(count=6)
    simulation = Simulation.for_tables(tables, stagger=True)  # as the demo server deals them
    for _ in tables:
        simulation.step()  # each table's first round
    dealt = [Shoe.objects.get(table=table, state=Shoe.State.OPEN).last_number for table in tables]
    assert dealt == [1, 13, 25, 37, 49, 61]  # a sixth of a shoe apart: their shoes end one after another
