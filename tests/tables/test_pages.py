"""The lobby and table pages of the foundation."""

from __future__ import annotations

from django.test import Client

from tables import services

SEED = {"player": ["AH", "3S", "5D"], "banker": ["JC", "2H", "AD"]}


def test_the_lobby_lists_tables_with_their_latest_rounds(client: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    services.table_create(slug="baccarat-2", name="Baccarat 2")
    services.shoe_start(table=table)
    services.round_record(table=table, **SEED)
    services.round_record(table=table, player=["9H", "KS"], banker=["2C", "4C"])
    page = client.get("/").content.decode()
    assert "Baccarat 1" in page and "Baccarat 2" in page
    assert page.count('class="result result-P') == 2
    assert "Anna" in page


def test_the_table_page_shows_game_info_last_round_and_history(client: Client, baccarat_1, staff_reviewer) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    first = services.round_record(table=table, **SEED).round
    last = services.round_record(table=table, player=["9H", "KS"], banker=["2C", "4C"]).round
    services.round_void(round_=first, reason="scanner fault", user=staff_reviewer)
    page = client.get("/tables/baccarat-1/").content.decode()
    assert last.round_id in page and first.round_id in page
    assert "Player wins" in page
    assert "voided: scanner fault" in page
    assert client.get("/tables/nowhere/").status_code == 404


def test_earlier_shoes_are_browsable(client: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    old = services.round_record(table=table, **SEED).round
    services.shoe_start(table=table)
    assert old.round_id not in client.get("/tables/baccarat-1/").content.decode()
    assert old.round_id in client.get("/tables/baccarat-1/?shoe=1").content.decode()
