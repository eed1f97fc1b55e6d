"""The dealer and table report (issue 35): per dealer and per table over a date range,
rounds dealt, voids, cancels, refusals, alarms and shoes' lengths, summed from the dealer
days; its CSV the same figures. Reviewers only."""

from __future__ import annotations

import csv
import io
from datetime import datetime, timedelta
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from tables import services
from tables.game.alarms import AlarmKind, Finding, Severity
from tables.models import Table
from tables.surveillance.alarms import alarm_raise
from tests.dealers import Dealer
from tests.html import find, find_all

ZONE = timezone.get_default_timezone()
TODAY = timezone.localdate(timezone.now(), ZONE)
DAY_1 = TODAY - timedelta(days=10)


def at(hour: int, minute: int = 0) -> mock._patch:  # type: ignore[type-arg]
    """The clock at ``hour:minute`` of day 1."""
    when = datetime.combine(DAY_1, datetime.min.time(), tzinfo=ZONE) + timedelta(hours=hour, minutes=minute)
    return mock.patch("django.utils.timezone.now", return_value=when)


def rounds(table: Table, dealer: str, n: int, first: int = 0) -> list:
    """n natural rounds dealt by ``dealer`` (different cards each, none dealt too often)."""
    made = []
    for i in range(first, first + n):
        s = "SHDC"[i % 4]
        made.append(
            services.round_record(
                table=table, player=[f"2{s}", f"3{s}"], banker=[f"9{s}", f"{'TJQK'[i // 4 % 4]}{s}"], dealer=dealer
            ).round
        )
    return made


@pytest.fixture
def history(baccarat_1, desk_reviewer, client: Client) -> tuple[Table, Table]:
    """Day 1 (ten days ago): at Baccarat 1 Anna deals 3 rounds of a shoe of an hour, Bea 2,
    then Bea a shoe of half an hour; one of Anna's rounds is voided, a round post is
    refused (Bea is the dealer by then). At Baccarat 2, Bea deals 2 rounds of a two-hour
    shoe. Today: Anna deals a round at Baccarat 1 and a round of hers is cancelled; a post
    at Baccarat 2 is refused; an alarm is raised on Anna."""
    one, one_token = baccarat_1
    two, two_token = services.table_create(slug="baccarat-2", name="Baccarat 2", dealer_name="Bea")
    with at(10):
        services.shoe_start(table=one)
    with at(10, 10):
        annas = rounds(one, "Anna", 3)
        rounds(one, "Bea", 2, first=3)
    with at(11):
        services.shoe_start(table=one)  # the first shoe ends: an hour
    with at(11, 10):
        rounds(one, "Bea", 1)
        services.round_void(round_=annas[1], reason="card exposed", user=desk_reviewer)
        assert Dealer(client, one, one_token).round(["2S", "3S"], ["9S", "TS"], round=9).status_code == 409
    with at(11, 30):
        services.shoe_end(table=one)
    with at(12):
        services.shoe_start(table=two)
    with at(12, 5):
        rounds(two, "Bea", 2)
    with at(14):
        services.shoe_end(table=two)
    services.shoe_start(table=one)
    rounds(one, "Anna", 1)
    services.card_deal(table=one, card="9H")
    services.round_cancel(table=one, reason="misdeal", user=desk_reviewer)
    assert Dealer(client, two, two_token).round(["9H", "KS", "2C"], ["8C", "QD"]).status_code == 422
    finding = Finding(AlarmKind.OPERATIONS, Severity.WARNING, "test:anna")
    alarm_raise(finding, table=one, dealer="Anna")
    client.logout()
    return one, two


@pytest.fixture
def reviewer(client: Client, desk_reviewer: User) -> Client:
    client.force_login(desk_reviewer)
    return client


def rows(client: Client, **query: object) -> list[list[str]]:
    response = client.get("/review/dealers.csv", query)
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.reader(io.StringIO(response.content.decode())))


HEADER = [
    "scope", "table", "dealer", "rounds", "voids", "cancels", "refused_posts", "refused_by_reason",
    "auth_refusals", "alarms", "advantage_windows", "shoes", "ended_shoes", "median_shoe_seconds",
    "longest_shoe_seconds",
]  # fmt: skip


def test_the_report_sums_each_dealer_and_each_table_over_the_whole_history(history, reviewer: Client) -> None:
    assert rows(reviewer) == [
        HEADER,
        ["dealer", "", "Anna", "4", "1", "1", "0", "", "0", "1", "0", "2", "", "", ""],
        ["dealer", "", "Bea", "5", "0", "0", "2", "illegal=1;round_conflict=1", "0", "0", "0", "2", "", "", ""],
        ["table", "baccarat-1", "", "7", "1", "1", "1", "round_conflict=1", "0", "1", "0", "3", "2", "2700", "3600"],
        ["table", "baccarat-2", "", "2", "0", "0", "1", "illegal=1", "0", "0", "0", "1", "1", "7200", "7200"],
    ]


def test_a_date_range_bounds_every_figure(history, reviewer: Client) -> None:
    day_1 = {"start": DAY_1.isoformat(), "end": DAY_1.isoformat()}
    assert rows(reviewer, **day_1)[1:] == [
        ["dealer", "", "Anna", "3", "1", "0", "0", "", "0", "0", "0", "1", "", "", ""],
        ["dealer", "", "Bea", "5", "0", "0", "1", "round_conflict=1", "0", "0", "0", "2", "", "", ""],
        ["table", "baccarat-1", "", "6", "1", "0", "1", "round_conflict=1", "0", "0", "0", "2", "2", "2700", "3600"],
        ["table", "baccarat-2", "", "2", "0", "0", "0", "", "0", "0", "0", "1", "1", "7200", "7200"],
    ]
    assert rows(reviewer, start=TODAY.isoformat())[1:] == [
        ["dealer", "", "Anna", "1", "0", "1", "0", "", "0", "1", "0", "1", "", "", ""],
        ["dealer", "", "Bea", "0", "0", "0", "1", "illegal=1", "0", "0", "0", "0", "", "", ""],
        ["table", "baccarat-1", "", "1", "0", "1", "0", "", "0", "1", "0", "1", "", "", ""],
        ["table", "baccarat-2", "", "0", "0", "0", "1", "illegal=1", "0", "0", "0", "0", "", "", ""],
    ]
    between = {"start": (DAY_1 + timedelta(days=1)).isoformat(), "end": (TODAY - timedelta(days=1)).isoformat()}
    assert rows(reviewer, **between) == [HEADER]


def test_one_table_and_a_sort_by_figures(history, reviewer: Client) -> None:
    assert [r[:4] for r in rows(reviewer, table="baccarat-2")[1:]] == [
        ["dealer", "", "Bea", "2"],
        ["table", "baccarat-2", "", "2"],
    ]
    by_refusals = rows(reviewer, sort="refusals")
    assert [r[2] for r in by_refusals if r[0] == "dealer"] == ["Bea", "Anna"]
    assert [r[1] for r in rows(reviewer, sort="rounds") if r[0] == "table"] == ["baccarat-1", "baccarat-2"]


def test_the_page_shows_the_csv_s_figures(history, reviewer: Client) -> None:
    response = reviewer.get("/review/dealers/", {"end": TODAY.isoformat()})
    assert response.status_code == 200
    page = response.content.decode()
    dealers = find(page, "section", id="dealers").html
    cells = [[cell.text.strip() for cell in find_all(row.html, "td")] for row in find_all(dealers, "tr")[1:]]
    assert cells == [
        ["Anna", "4", "1", "1", "0", "–", "0", "1", "0", "2"],
        ["Bea", "5", "0", "0", "2", "illegal 1 · round_conflict 1", "0", "0", "0", "2"],
    ]
    tables = find(page, "section", id="tables").html
    cells = [[cell.text.strip() for cell in find_all(row.html, "td")] for row in find_all(tables, "tr")[1:]]
    assert cells == [
        ["Baccarat 1", "7", "1", "1", "1", "round_conflict 1", "0", "1", "0", "3", "2", "0:45", "1:00"],
        ["Baccarat 2", "2", "0", "0", "1", "illegal 1", "0", "0", "0", "1", "1", "2:00", "2:00"],
    ]
    assert 'href="/review/dealers.csv?end=' in page


@pytest.mark.parametrize(
    ("query", "field"),
    [({"start": "2026-13-01"}, "start"), ({"start": "2026-11-02", "end": "2026-11-01"}, "end"),
     ({"table": "nowhere"}, "table"), ({"sort": "dealer_name"}, "sort")],
)  # fmt: skip
def test_a_bad_query_is_400_naming_its_field(reviewer: Client, db, query: dict[str, str], field: str) -> None:
    page = reviewer.get("/review/dealers/", query)
    assert page.status_code == 400 and "form-error" in page.content.decode()
    exported = reviewer.get("/review/dealers.csv", query)
    assert exported.status_code == 400 and [e["field"] for e in exported.json()["errors"]] == [field]


@pytest.mark.parametrize("path", ["/review/dealers/", "/review/dealers.csv"])
def test_the_report_is_the_reviewers_alone(client: Client, outsider: User, desk_reviewer: User, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    client.force_login(outsider)
    assert client.get(path).status_code == 302
    staff = User.objects.create_user("staff-only", password="pw-staff-1", is_staff=True)  # staff, not a reviewer
    client.force_login(staff)
    assert client.get(path).status_code == 403
    client.force_login(desk_reviewer)
    assert client.get(path).status_code == 200


def test_the_review_page_and_the_desk_link_to_the_report(history, reviewer: Client) -> None:
    assert (
        find(reviewer.get("/review/").content.decode(), "a", id="dealer-report-link").attrs["href"]
        == "/review/dealers/"
    )
    desk = find(reviewer.get("/admin/").content.decode(), "p", id="desk-reports").html
    assert 'href="/review/dealers/"' in desk


def test_an_empty_history_says_so(reviewer: Client, db) -> None:
    page = reviewer.get("/review/dealers/").content.decode()
    assert page.count("Nothing was dealt in this range.") == 2
    assert rows(reviewer) == [HEADER]


def test_dealer_names_a_spreadsheet_would_run_are_text_in_the_csv(baccarat_1, reviewer: Client) -> None:
    """Issue 49, item 8: names sent by a dealer system that start like a formula come out
    behind an apostrophe, as in the rounds' export; the counts stay numbers."""
    table, _ = baccarat_1
    services.shoe_start(table=table)
    names = ["=1+2", "@SUM(A1)", "+cmd|x", "-2+3"]
    for n, name in enumerate(names):
        rounds(table, name, 1, first=n)
    exported = {row[2]: row for row in rows(reviewer) if row[0] == "dealer"}
    assert sorted(exported) == sorted("'" + name for name in names)
    assert all(row[3] == "1" for row in exported.values())
