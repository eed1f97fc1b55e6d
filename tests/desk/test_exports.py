"""Exports at the database's speed (issue 33): on PostgreSQL the database writes the CSV
(COPY) and builds each round's JSON object; the rows read back are exactly those written
from the rounds' values, free text that needs quoting, neutralising or escaping included."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from unittest import mock

from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from tables import services
from tables.desk import exports, review
from tables.models import Round, Table
from tests.rounds import SEED

AWKWARD = ['Anna, "Ann"\nB', "=cmd|' /C calc'!A0", "", "Ngọc 阮", "tab\there", "-2+3", "back\\slash \\."]


def text(chunks: Iterator[str | bytes]) -> str:
    return "".join(chunk.decode() if isinstance(chunk, bytes) else chunk for chunk in chunks)


def rounds_with_awkward_text(table: Table, reviewer: User) -> None:
    services.shoe_start(table=table)
    for n, name in enumerate(AWKWARD):
        at = datetime(2026, 11, 24, 21, 5, 9, 0 if n % 2 else 123456, tzinfo=UTC)  # whole seconds, and not
        with mock.patch("django.utils.timezone.now", return_value=at):
            recorded = services.round_record(table=table, **SEED).round
        # As stored (names from before the API refused control characters, too).
        Round.objects.filter(pk=recorded.pk).update(dealer_name=name)
    for number, reason in [(1, 'misread,\r\n"twice"'), (2, "@SUM(1,1)"), (4, "顺序错误")]:
        services.round_void(round_=Round.objects.get(number=number), reason=reason, user=reviewer)


def test_the_database_writes_the_csv_the_rounds_give(baccarat_1, staff_reviewer: User) -> None:
    table, _ = baccarat_1
    rounds_with_awkward_text(table, staff_reviewer)
    selection = review.Selection(table, None, None, 0.01)
    written = list(csv.reader(io.StringIO(text(exports.csv_written(selection)))))
    assert len(written) == 1 + len(AWKWARD) and written[0] == exports.EXPORT_FIELDS
    assert [row[5] for row in written[1:4]] == ['Anna, "Ann"\nB', "'=cmd|' /C calc'!A0", ""]
    if connection.vendor != "postgresql":
        assert exports.export_csv_lines(selection).__name__ == "csv_written"  # type: ignore[attr-defined]
        return
    assert exports.export_csv_lines(selection).__name__ == "csv_copied"  # type: ignore[attr-defined]
    copied = list(csv.reader(io.StringIO(text(exports.csv_copied(selection)))))
    assert copied == written


def test_the_database_builds_the_json_the_rounds_give(baccarat_1, staff_reviewer: User) -> None:
    table, _ = baccarat_1
    rounds_with_awkward_text(table, staff_reviewer)
    selection = review.Selection(None, None, None, 0.01)
    written = json.loads(text(exports.json_written(selection)))
    assert [r["dealer"] for r in written[:2]] == ['Anna, "Ann"\nB', "=cmd|' /C calc'!A0"]  # JSON is no spreadsheet
    assert [e["reason"] for e in written[0]["audit"]] == ['misread,\r\n"twice"']
    if connection.vendor != "postgresql":
        assert exports.export_json_chunks(selection).__name__ == "json_written"  # type: ignore[attr-defined]
        return
    assert exports.export_json_chunks(selection).__name__ == "json_built"  # type: ignore[attr-defined]
    assert json.loads(text(exports.json_built(selection))) == written
    assert json.loads(text(exports.json_built(review.Selection(table, None, datetime(2020, 1, 1).date(), 0.01)))) == []


def test_an_export_over_the_limit_asks_for_a_shorter_date_range_and_streams_nothing(
    client: Client, baccarat_1, staff_reviewer: User, settings
) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    for _ in range(3):
        services.round_record(table=table, **SEED)
    client.force_login(staff_reviewer)
    settings.EXPORT_MAX_ROUNDS = 2
    for path in ("/review/rounds.csv", "/review/rounds.json"):
        refused = client.get(path)
        assert refused.status_code == 400 and not refused.streaming
        [error] = refused.json()["errors"]
        assert error["field"] == "start" and "holds 3 rounds, more than one download takes (2)" in error["message"]
        assert client.get(path, {"start": "2026-01-01"}).json()["errors"][0]["field"] == "end"
    settings.EXPORT_MAX_ROUNDS = 3
    assert client.get("/review/rounds.csv").status_code == 200


def test_the_database_builds_the_json_in_the_rounds_order_for_any_table_and_date_range(
    baccarat_1, staff_reviewer: User
) -> None:
    """Tables by name, their shoes by number, each shoe's rounds by number: the order of
    the rounds as written, whichever tables, shoes and days a selection holds."""
    later_table, _ = baccarat_1
    first_table, _ = services.table_create(slug="aaa-first", name="First by name", dealer_name="Bo")
    days = [datetime(2026, 11, day, 11, 0, tzinfo=UTC) for day in (20, 21, 22)]
    for table in (later_table, first_table):
        for day in days:  # a shoe a day, with rounds on that day and the next
            with mock.patch("django.utils.timezone.now", return_value=day):
                services.shoe_start(table=table)
            for hours in (0, 1, 13):
                with mock.patch("django.utils.timezone.now", return_value=day + timedelta(hours=hours)):
                    services.round_record(table=table, **SEED)
            services.shoe_end(table=table)
    misdealt = Round.objects.filter(shoe__table=first_table).first()
    services.round_void(round_=misdealt, reason="misdeal", user=staff_reviewer)
    second, first = days[1].date(), days[0].date()
    selections = [
        review.Selection(table, start, end, 0.01)
        for table in (None, later_table, first_table)
        for start, end in [(None, None), (second, second), (second, None), (None, first)]
    ]
    for selection in selections:
        written = json.loads(text(exports.json_written(selection)))
        assert written, selection  # every selection above holds rounds
        if connection.vendor == "postgresql":
            assert json.loads(text(exports.json_built(selection))) == written, selection
    everything = json.loads(text(exports.json_written(selections[0])))
    assert len(everything) == 18 and everything[0]["table"] == "aaa-first"
    assert [(r["table"], r["shoe"], r["number"]) for r in everything] == sorted(
        (r["table"], r["shoe"], r["number"]) for r in everything
    )
