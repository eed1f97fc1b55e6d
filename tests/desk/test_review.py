"""Reviewer statistics and exports: staff only; observed frequencies against exact
expectations per shoe and overall, with lopsided shoes flagged for review."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from tables import services
from tables.models import Round, Table
from tests.html import find, find_all
from tests.rounds import SEED


def banker_naturals(n: int) -> list[dict[str, list[str]]]:
    """n different banker-natural-9 rounds (no card more than 8 times in a shoe)."""
    return [
        {"player": [f"2{s}", f"3{s}"], "banker": [f"9{s}", f"{'TJQK'[i // 4 % 4]}{s}"]}
        for i, s in enumerate("SHDC" * (n // 4 + 1))
    ][:n]


@pytest.fixture
def reviewer(client: Client, staff_reviewer: User) -> Client:
    client.force_login(staff_reviewer)
    return client


def body(response) -> str:
    return b"".join(response.streaming_content).decode() if response.streaming else response.content.decode()


@pytest.mark.parametrize("path", ["/review/", "/review/rounds.csv", "/review/rounds.json"])
def test_the_reviewer_pages_are_refused_to_visitors_and_non_staff_users(client: Client, db, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    client.force_login(User.objects.create_user("player", password="pw-player-1"))
    assert client.get(path).status_code == 302


def test_a_shoe_of_twenty_banker_wins_in_a_row_is_flagged_and_a_usual_one_is_not(reviewer: Client, baccarat_1):
    table, _ = baccarat_1
    services.shoe_start(table=table)
    for cards in banker_naturals(20):
        services.round_record(table=table, **cards)
    services.shoe_start(table=table)
    for cards in [*banker_naturals(3), SEED, SEED]:
        services.round_record(table=table, **cards)
    page = body(reviewer.get("/review/", {"table": "baccarat-1"}))
    assert "25 rounds" in page and "1 flagged (p below 0.01)" in page
    assert [tag.text for tag in find_all(page, "span", class_="tag tag-flag")].count("review") == 1
    shoes = find(page, "section", id="shoes").html
    listed = [
        (link.attrs["href"], "flagged" in row.classes)
        for row in find_all(shoes, "tr")
        for link in find_all(row.html, "a")
    ]
    assert listed == [("/tables/baccarat-1/?shoe=1", True), ("/tables/baccarat-1/?shoe=2", False)]
    for chart in ("chart-streaks", "chart-flat-bets"):
        assert find_all(page, "div", cls="chart", data_chart=chart) and find_all(page, "script", id=chart), chart


def test_the_flat_bet_chart_counts_one_unit_on_every_round(reviewer: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    for cards in banker_naturals(4):
        services.round_record(table=table, **cards)
    page = body(reviewer.get("/review/"))
    figure = json.loads(find(page, "script", id="chart-flat-bets", type="application/json").text)
    lines = {line["name"]: line["y"] for line in figure["data"]}
    assert lines["Banker"] == [0.95, 1.9, 2.85, 3.8] and lines["Player"] == [-1, -2, -3, -4]
    assert lines["Banker Natural"][-1] == 14  # 7:2 four times


def test_the_date_range_picks_the_rounds_of_those_days(reviewer: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    first, second = banker_naturals(2)
    with mock.patch("django.utils.timezone.now", return_value=timezone.now() - timedelta(days=10)):
        services.round_record(table=table, **first)
    new = services.round_record(table=table, **second).round
    today = timezone.localdate().isoformat()
    page = body(reviewer.get("/review/", {"start": today, "end": today}))
    assert "1 round ·" in page  # one round, in the singular
    exported = json.loads(body(reviewer.get("/review/rounds.json", {"start": today})))
    assert [r["id"] for r in exported] == [new.round_id]


def test_a_range_without_rounds_reads_as_none_not_as_an_error(reviewer: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    services.round_record(table=table, **banker_naturals(1)[0])
    for query in ({}, {"start": "2020-01-01", "end": "2020-01-02"}):
        response = reviewer.get("/review/", query)
        assert response.status_code == 200


def test_an_end_before_the_start_is_a_form_error_and_a_400_for_exports(reviewer: Client, db) -> None:
    response = reviewer.get("/review/", {"start": "2026-05-02", "end": "2026-05-01"})
    assert response.status_code == 400 and "The end date is before the start date." in body(response)
    response = reviewer.get("/review/rounds.csv", {"start": "2026-13-01"})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "start"


def test_rounds_export_as_csv_with_voided_rounds_marked(reviewer: Client, baccarat_1, staff_reviewer) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    first = services.round_record(table=table, **SEED).round
    services.round_record(table=table, **banker_naturals(1)[0])
    services.round_void(round_=first, reason="card misread", user=staff_reviewer)
    response = reviewer.get("/review/rounds.csv", {"table": "baccarat-1"})
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(body(response))))
    assert [r["number"] for r in rows] == ["1", "2"]
    assert rows[0]["player_cards"] == "AH 3S 5D" and rows[0]["winner"] == "P"
    assert rows[0]["voided"] == "True" and rows[0]["void_reason"] == "card misread"
    assert "banker=win:0.95" in rows[1]["bets"] and rows[1]["table"] == "baccarat-1"


@pytest.mark.parametrize("text", ["=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(1,1)", "\tx", "\rx"])
def test_text_a_spreadsheet_would_run_as_a_formula_is_exported_as_text(reviewer: Client, baccarat_1, text: str) -> None:
    """The probe's dealer name came out verbatim in the CSV (OWASP: CSV injection)."""
    table, _ = baccarat_1
    services.shoe_start(table=table)
    round_ = services.round_record(table=table, **SEED, dealer="Anna").round
    Table.objects.filter(pk=table.pk).update(dealer_name=text)
    Round.objects.filter(pk=round_.pk).update(dealer_name=text, voided=True, void_reason=text)
    [row] = csv.DictReader(io.StringIO(body(reviewer.get("/review/rounds.csv"))))
    assert row["dealer"] == row["void_reason"] == "'" + text
    assert row["player_cards"] == "AH 3S 5D"
    [exported] = json.loads(body(reviewer.get("/review/rounds.json")))
    assert exported["dealer"] == text  # JSON is no spreadsheet: kept as it is
