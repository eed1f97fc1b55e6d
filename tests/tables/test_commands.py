"""Management commands: table_create, table_token, simulate."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from tables.models import Round, Table


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue().strip()


def posts_with(client: Client, slug: str, token: str) -> int:
    return client.post(f"/api/tables/{slug}/shoes", headers={"Authorization": f"Bearer {token}"}).status_code


def test_table_create_prints_a_token_once_and_stores_only_its_hash(db, client: Client) -> None:
    token = run("table_create", "--slug", "baccarat-9", "--name", "Baccarat 9", "--variant", "no_commission")
    table = Table.objects.get(slug="baccarat-9")
    assert table.variant == "no_commission" and table.decks == 8
    assert token not in table.token_hash and len(token) >= 40
    assert posts_with(client, "baccarat-9", token) == 201


def test_table_create_refuses_a_taken_slug(db) -> None:
    run("table_create", "--slug", "b", "--name", "B")
    with pytest.raises(CommandError, match="slug"):
        run("table_create", "--slug", "b", "--name", "B again")


def test_table_token_rotates_and_the_old_token_stops_working(db, client: Client) -> None:
    old = run("table_create", "--slug", "b", "--name", "B")
    new = run("table_token", "--slug", "b")
    assert new != old
    assert posts_with(client, "b", old) == 401
    assert posts_with(client, "b", new) == 201
    with pytest.raises(CommandError, match="no table"):
        run("table_token", "--slug", "nowhere")


def test_simulate_deals_real_shoes_through_the_service(db) -> None:
    call_command("simulate", "--tables", "2", "--interval", "0", "--rounds", "40", stderr=StringIO())
    tables = Table.objects.filter(simulated=True)
    assert tables.count() == 2
    assert Round.objects.count() == 40
    for table in tables:
        rounds = Round.objects.filter(shoe__table=table).order_by("number")
        assert [r.number for r in rounds] == list(range(1, 21))
        assert all(r.dealer_name for r in rounds)
