"""Management commands: table_create, table_token, simulate, shoe_days_rebuild, shoe_deal."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from tables.models import Round, ShoeDay, Table


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


def test_simulate_whole_rounds_deals_real_shoes_through_the_service(db) -> None:
    call_command("simulate", "--tables", "2", "--interval", "0", "--rounds", "40", "--whole-rounds", stderr=StringIO())
    tables = Table.objects.filter(simulated=True)
    assert tables.count() == 2
    assert Round.objects.count() == 40
    for table in tables:
        rounds = Round.objects.filter(shoe__table=table).order_by("number")
        assert [r.number for r in rounds] == list(range(1, 21))
        assert all(r.dealer_name for r in rounds)


def test_odds_prints_the_published_8_deck_return_tables() -> None:
    out = run("odds")
    assert "Banker wins                         0.95       2,292,252,566,437,888     0.458597   0.435668" in out
    assert "RTP 98.94 %" in out and "RTP 98.76 %" in out and "RTP 85.64 %" in out and "RTP 89.64 %" in out
    assert "Banker (No Commission)" in out


def test_odds_of_a_depleted_shoe_as_json() -> None:
    data = json.loads(run("odds", "--decks", "1", "--removed", "AH,5s,10D", "--variant", "no_commission", "--json"))
    assert data["cards"] == 49
    banker = data["bets"]["banker"]
    assert banker["total"] == 49 * 48 * 47 * 46 * 45 * 44
    assert [e["event"] for e in banker["events"]] == ["Banker wins with 6", "Banker wins", "Player wins", "Tie"]


@pytest.mark.parametrize(
    ("removed", "message"),
    [("AH,ZZ", "--removed: unknown card 'ZZ'"), ("AH,AH", "AH: cannot remove 2, the shoe holds 1")],
)
def test_odds_refuses_bad_cards_and_more_copies_than_the_shoe_holds(removed: str, message: str) -> None:
    with pytest.raises(CommandError, match=message):
        run("odds", "--decks", "1", "--removed", removed)


def test_shoe_days_rebuild_counts_the_reviewer_statistics_again_from_the_rounds(db) -> None:
    call_command("simulate", "--tables", "2", "--interval", "0", "--rounds", "40", "--whole-rounds", stderr=StringIO())
    kept = list(ShoeDay.objects.order_by("pk").values("shoe", "day", "rounds", "banker", "ended", "pays"))
    Round.objects.filter(pk=Round.objects.order_by("pk").first().pk).update(voided=True)  # mended by hand
    assert run("shoe_days_rebuild") == f"{len(kept)} shoe days kept"
    again = list(ShoeDay.objects.order_by("shoe", "day").values("shoe", "day", "rounds", "banker", "ended", "pays"))
    assert sum(d["rounds"] for d in again) == sum(d["rounds"] for d in kept) - 1


def test_shoe_deal_deals_a_hard_shoe_into_a_new_shoe_through_the_service(db) -> None:
    run("table_create", "--slug", "b", "--name", "B")
    run("shoe_deal", "b", "--shoe", "choppy", "--seed", "4")
    rounds = Round.objects.filter(shoe__table__slug="b").order_by("number")
    assert "".join(rounds.values_list("winner", flat=True)) == "PB" * 40
    run("shoe_deal", "b", "--pattern", "TTB2.", "--end")
    shoe = Table.objects.get(slug="b").shoes.order_by("-number").first()
    assert shoe is not None and shoe.number == 2 and shoe.rounds.count() == 5 and shoe.state != "open"
    assert "".join(shoe.rounds.order_by("number").values_list("winner", flat=True))[:3] == "TTB"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("nowhere", "--shoe", "normal"), "table: no table"),
        (("b", "--pattern", "PBQ"), "pattern: round 3"),
        (("b", "--pattern", "P", "--rounds", "-1"), "rounds"),
    ],
)
def test_shoe_deal_refuses_what_it_cannot_deal_and_changes_nothing(db, args: tuple[str, ...], message: str) -> None:
    run("table_create", "--slug", "b", "--name", "B")
    with pytest.raises(CommandError, match=message):
        run("shoe_deal", *args)
    assert not Round.objects.exists() and not Table.objects.get(slug="b").shoes.exists()
