"""A venue's database made before this arc's moves (migration 0007: tables, shoes,
rounds, audits, authenticated shoes) migrates forward and reads back whole."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tables.game.authentication import card_hash, new_plaintext
from tables.game.cards import Card
from tables.models import (
    Alarm,
    AlarmFinding,
    PlaintextRefusal,
    Round,
    RoundAudit,
    Shoe,
    ShoeCard,
    ShoeDay,
    ShoeTotal,
    Table,
    TableDay,
)

BEFORE = [("tables", "0007_translatable_labels")]


def migrate(targets: list[tuple[str, str]] | None = None) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets or executor.loader.graph.leaf_nodes())
    return executor


@pytest.mark.django_db(transaction=True)
def test_a_database_made_before_the_rooms_migrates_without_loss() -> None:
    old = migrate(BEFORE).loader.project_state(BEFORE).apps
    table = old.get_model("tables", "Table").objects.create(slug="t1", name="Baccarat 1", token_hash="a" * 64)
    shoe = old.get_model("tables", "Shoe").objects.create(
        table=table, number=1, decks=8, authenticated=True, card_count=2, burn_card="9H", burned=9, revealed=1
    )
    plaintext = new_plaintext(Card.parse("9H"))
    old.get_model("tables", "ShoeCard").objects.create(
        shoe=shoe, number=1, hash=card_hash(plaintext), plaintext=plaintext, state="burn_card"
    )
    round_ = old.get_model("tables", "Round").objects.create(
        round_id="01JC8Z4T7M2Q9XKA", shoe=shoe, number=1, player_cards="AH3S5D", banker_cards="JC2HAD",
        winner="P", player_score=9, banker_score=3, player_card_count=3, banker_card_count=3, margin=6,
        bets={"player": {"result": "win", "pays": 1.0}}, voided=True, void_reason="misread",
        player_natural=False, banker_natural=False, player_pair=False, banker_pair=False,
        player_perfect_pair=False, banker_perfect_pair=False, banker_wins_with_six=False,
    )  # fmt: skip
    old.get_model("tables", "RoundAudit").objects.create(round=round_, action="void", username="anna", reason="misread")
    old.get_model("tables", "Round").objects.create(
        round_id="01JC8Z4T7M2Q9XKB", shoe=shoe, number=2, player_cards="9S9D", banker_cards="2C3C",
        winner="P", player_score=8, banker_score=5, player_card_count=2, banker_card_count=2, margin=3,
        bets={"player": {"result": "win", "pays": 1.0}}, player_natural=True, banker_natural=False,
        player_pair=True, banker_pair=False, player_perfect_pair=False, banker_perfect_pair=False,
        banker_wins_with_six=False,
    )  # fmt: skip
    old.get_model("tables", "PlaintextRefusal").objects.create(shoe=shoe, field="plaintext", reason="no card")

    migrate()

    table = Table.objects.get(slug="t1")
    assert table.shoes.get().authenticated and Shoe.objects.get().burn_card == "9H"
    stored = Round.objects.get(round_id="01JC8Z4T7M2Q9XKA")
    assert [c.code for c in stored.player_hand] == ["AH", "3S", "5D"] and stored.bets["player"]["result"] == "win"
    assert (stored.voided, RoundAudit.objects.get().username) == (True, "anna")
    assert ShoeCard.objects.get().plaintext == plaintext and PlaintextRefusal.objects.get().reason == "no card"
    assert Permission.objects.filter(codename="rotate_token").exists()  # 0008 made the new permission
    [day] = ShoeDay.objects.all()  # 0009 counted the rounds so far: the played one
    assert (day.rounds, day.player, day.player_pair, day.natural, day.pays) == (1, 1, 1, 1, {"player": 1.0})
    assert {r.table_id for r in Round.objects.all()} == {table.pk}, "0017 gave every round its shoe's table"
    [table_day] = TableDay.objects.all()  # 0024 summed the shoe days so far
    assert (table_day.table_id, table_day.day, table_day.rounds, table_day.shoes) == (table.pk, day.day, 1, 1)
    assert ShoeTotal.objects.get(shoe=shoe.pk).played == 1


@pytest.mark.django_db(transaction=True)
def test_alarms_raised_before_episodes_each_keep_their_finding() -> None:
    """0020: every alarm made before one alarm an episode is its own first finding, so
    that finding found again is still not raised again."""
    before = [("tables", "0019_commitments_reused")]
    old = migrate(before).loader.project_state(before).apps
    table = old.get_model("tables", "Table").objects.create(slug="t1", name="Baccarat 1", token_hash="a" * 64)
    alarm = old.get_model("tables", "Alarm").objects.create(
        table=table, kind="streak", severity="warning", key="shoe:1:streak:13", round_number=37,
        dealer_name="Anna", evidence={"statistic": 13},
    )  # fmt: skip

    migrate()

    [finding] = AlarmFinding.objects.all()
    assert (finding.alarm_id, finding.kind, finding.key, finding.round_number) == (
        alarm.pk, "streak", "shoe:1:streak:13", 37,
    )  # fmt: skip
    assert Alarm.objects.get().count == 1
