"""The admin's lists at any size (issue 33): a page of the rounds or the shoes list costs
the same queries however many shoes a year of history holds; the shoe filter offers the
recent shoes; a large unfiltered list on PostgreSQL is not counted row by row."""

from __future__ import annotations

import html
from unittest import mock

from django.contrib import admin
from django.contrib.admin import site
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from tables import services
from tables.admin import RoundAdmin, ShoeAdmin
from tables.desk import lists
from tables.models import Round, Shoe
from tests.html import find_all
from tests.rounds import SEED


def shoes_with_a_round(table, count: int) -> list[Shoe]:
    shoes = []
    for _ in range(count):
        started = services.shoe_start(table=table).shoe
        services.round_record(table=table, **SEED)
        services.round_record(table=table, **SEED)
        services.shoe_end(table=table)
        shoes.append(started)
    return shoes


def queries(client: Client, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


def test_a_page_of_the_rounds_or_shoes_list_costs_the_same_queries_with_3_shoes_or_15(
    client: Client, baccarat_1, staff_reviewer
) -> None:
    table, _ = baccarat_1
    client.force_login(staff_reviewer)
    shoes_with_a_round(table, 3)
    few = {path: queries(client, path) for path in ("/admin/tables/round/", "/admin/tables/shoe/")}
    shoes_with_a_round(table, 12)
    many = {path: queries(client, path) for path in ("/admin/tables/round/", "/admin/tables/shoe/")}
    assert many == few, "a shoe more costs no query more (each shoe read its table: one query a shoe)"


def test_the_shoe_filter_offers_the_recent_shoes_and_keeps_an_older_one_chosen(
    client: Client, baccarat_1, staff_reviewer
) -> None:
    table, _ = baccarat_1
    client.force_login(staff_reviewer)
    oldest, *_, newest = shoes_with_a_round(table, 4)
    with mock.patch.object(lists, "RECENT_SHOES", 2):
        offered = client.get("/admin/tables/round/").content.decode()
        chosen = client.get("/admin/tables/round/", {"shoe__id__exact": oldest.pk}).content.decode()
    assert f"?shoe__id__exact={newest.pk}" in offered and f"?shoe__id__exact={oldest.pk}" not in offered
    assert f"?shoe__id__exact={oldest.pk}" in chosen, "an older shoe chosen stays in the filter"
    assert all(r.round_id in chosen for r in Round.objects.filter(shoe=oldest)), "its rounds listed"
    assert not any(r.round_id in chosen for r in Round.objects.filter(shoe=newest)), "and no other shoe's"


def test_a_large_list_on_postgresql_takes_the_planners_estimate_filtered_or_not(baccarat_1, staff_reviewer) -> None:
    table, _ = baccarat_1
    shoes_with_a_round(table, 2)
    rounds = Round.objects.all()
    with mock.patch.object(lists, "ESTIMATE_FROM", 0), CaptureQueriesContext(connection) as captured:
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f"ANALYZE {Round._meta.db_table}")
        count = lists.EstimatedCountPaginator(rounds, 100).count
        filtered = lists.EstimatedCountPaginator(rounds.filter(winner="B").select_related("shoe"), 100).count
    counted = [q["sql"] for q in captured if "COUNT(" in q["sql"].upper()]
    if connection.vendor == "postgresql":
        assert count == 4 and counted == [], "neither list counted row by row"
        [explained] = [q["sql"] for q in captured if q["sql"].startswith("EXPLAIN")]
        assert "JOIN" not in explained and "ORDER BY" not in explained, "the filtered one asked the planner, keys only"
    else:
        assert (count, filtered) == (4, Round.objects.filter(winner="B").count())
        assert len(counted) == 2, "SQLite has no estimate: both counted"
    small = lists.EstimatedCountPaginator(rounds.filter(winner="B"), 100).count  # under ESTIMATE_FROM
    assert small == Round.objects.filter(winner="B").count(), "a small list is counted exactly"


def test_the_rounds_list_picks_days_from_fixed_choices_not_from_every_round(
    client: Client, baccarat_1, staff_reviewer
) -> None:
    table, _ = baccarat_1
    client.force_login(staff_reviewer)
    shoes_with_a_round(table, 2)
    with CaptureQueriesContext(connection) as captured:
        page = client.get("/admin/tables/round/").content.decode()
    scans = [q["sql"] for q in captured if "DISTINCT" in q["sql"].upper() and "tables_round" in q["sql"]]
    assert scans == [], "the days of every round were read for a date hierarchy"
    assert "Today" in page and "Past 7 days" in page
    [today] = [a.attrs["href"] for a in find_all(page, "a") if a.text.strip() == "Today"]
    listed = client.get("/admin/tables/round/" + html.unescape(today)).content.decode()
    assert all(r.round_id in listed for r in Round.objects.all())


def test_the_rounds_list_offers_no_counts_of_every_round_for_each_filter_choice(
    client: Client, baccarat_1, staff_reviewer
) -> None:
    table, _ = baccarat_1
    client.force_login(staff_reviewer)
    shoes_with_a_round(table, 1)
    page = client.get("/admin/tables/round/").content.decode()
    assert "Show counts" not in page
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/admin/tables/round/", {"_facets": "True"}).status_code == 200
    counted = [q["sql"] for q in captured if "COUNT(" in q["sql"].upper()]
    assert len(counted) <= 1, counted  # the page's own count at most, none a filter choice


def test_every_round_keeps_its_shoes_table_and_one_tables_list_reads_it_without_the_shoes(
    client: Client, baccarat_1, staff_reviewer
) -> None:
    client.force_login(staff_reviewer)
    mine, _ = baccarat_1
    other, _ = services.table_create(slug="baccarat-2", name="Baccarat 2")
    shoes_with_a_round(mine, 2)
    shoes_with_a_round(other, 1)
    assert all(r.table_id == r.shoe.table_id for r in Round.objects.select_related("shoe"))
    with CaptureQueriesContext(connection) as captured:
        page = client.get("/admin/tables/round/", {"table__id__exact": mine.pk}).content.decode()
    assert all(r.round_id in page for r in Round.objects.filter(shoe__table=mine))
    assert not any(r.round_id in page for r in Round.objects.filter(shoe__table=other))
    listed = [q["sql"] for q in captured if q["sql"].startswith("SELECT") and 'FROM "tables_round"' in q["sql"]]
    assert listed and all(f'"tables_round"."table_id" = {mine.pk}' in sql for sql in listed)
    assert all(f'"tables_shoe"."table_id" = {mine.pk}' not in sql for sql in listed), "filtered through the shoes"


def test_one_tables_rounds_are_counted_from_their_own_index_on_postgresql(baccarat_1) -> None:
    table, _ = baccarat_1
    shoes_with_a_round(table, 2)
    with CaptureQueriesContext(connection) as captured:
        assert Round.objects.filter(table=table).count() == 4
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")  # 4 rows: the planner would read the table whole
            cursor.execute("EXPLAIN " + captured[-1]["sql"])
            plan = "\n".join(row[0] for row in cursor.fetchall())
        assert "round_table_newest" in plan and "tables_shoe" not in plan, plan


def test_the_lists_checkboxes_are_admins_own_markup_written_directly(baccarat_1) -> None:
    table, _ = baccarat_1
    shoes_with_a_round(table, 1)
    round_ = Round.objects.select_related("shoe__table").first()
    for model, plain in ((Round, RoundAdmin(Round, site)), (Shoe, ShoeAdmin(Shoe, site))):
        obj = round_ if model is Round else round_.shoe
        with translation.override("zh-hant"):
            assert plain.action_checkbox(obj) == admin.ModelAdmin.action_checkbox(plain, obj)


def test_the_rounds_list_shows_each_card_of_a_hand_in_its_colour(baccarat_1) -> None:
    table, _token = baccarat_1
    services.shoe_start(table=table)
    recorded = services.round_record(table=table, player=["AH", "10S"], banker=["KD", "9C"]).round
    cell = str(RoundAdmin(Round, site).hands(recorded))
    red, black = "<span class='suit-red'>{}</span>", "<span class='suit-black'>{}</span>"
    player = f"{red.format('A♥')} {black.format('10♠')} <b>1</b>"
    banker = f"{red.format('K♦')} {black.format('9♣')} <b>9</b>"
    assert cell == f'<span class="desk-nowrap">{player}</span> · <span class="desk-nowrap">{banker}</span>'
