"""A round recorded card by card and one posted whole are the same rows: the round, its
bets, its shoe's tally and its shoe day (one service records both)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables import services
from tables.game.dealing import deal_of
from tables.game.shoe import DealingShoe
from tables.models import Round, Shoe, ShoeDay, Table

ROUND_FIELDS = [f.name for f in Round._meta.fields if f.name not in {"id", "round_id", "shoe", "table", "created_at"}]
DAY_FIELDS = [f.name for f in ShoeDay._meta.fields if f.name not in {"id", "shoe"}]


def rows(table: Table) -> tuple[Any, ...]:
    shoe = Shoe.objects.get(table=table)
    return (
        list(Round.objects.filter(shoe=shoe).order_by("number").values(*ROUND_FIELDS)),
        list(ShoeDay.objects.filter(shoe=shoe).values(*DAY_FIELDS)),
        (shoe.dealt, shoe.last_number),
    )


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 12))
def test_a_shoe_dealt_card_by_card_and_posted_whole_makes_the_same_rows(db: None, seed: int, count: int) -> None:
    whole, _ = services.table_create(slug=f"whole-{seed}-{count}", name="Whole", dealer_name="Anna")
    by_card, _ = services.table_create(slug=f"cards-{seed}-{count}", name="Cards", dealer_name="Anna")
    for table in (whole, by_card):
        services.shoe_start(table=table)
    dealing = DealingShoe.shuffled(rng=random.Random(seed))
    for _ in range(count):
        outcome = dealing.deal()
        services.round_record(
            table=whole,
            player=[c.code for c in outcome.player_cards],
            banker=[c.code for c in outcome.banker_cards],
        )
        for card in deal_of(outcome).cards:
            dealt = services.card_deal(table=by_card, card=card.code)
        assert dealt.round is not None
    assert rows(by_card) == rows(whole)
