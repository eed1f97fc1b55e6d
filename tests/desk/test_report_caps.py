"""A reviewer's parallel exports and reports never stop ingest (issue 49, items 2 and 9):
exports and reports over history are capped per reviewer and in all, a refusal is 429
with Retry-After, a slot comes back when its download ends, however it ends; under ASGI
an export streams (Django would otherwise read it whole into memory), and on PostgreSQL
with DEBUG=1 the CSV still comes whole."""

from __future__ import annotations

import csv
import io

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.core.signals import request_finished
from django.db import close_old_connections, connection
from django.http import HttpResponseBase
from django.test import AsyncClient, Client

from tables import services
from tables.desk import capacity, views
from tests.rounds import SEED

pytestmark = pytest.mark.django_db

CSV, JSON = "/review/rounds.csv", "/review/rounds.json"


@pytest.fixture
def rounds(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    for _ in range(3):
        services.round_record(table=table, **SEED)


def abandoned(response: HttpResponseBase) -> None:
    """The server closes a download its client left unread (the test keeps its database
    connection, which the end of a real request would give back)."""
    request_finished.disconnect(close_old_connections)
    try:
        response.close()
    finally:
        request_finished.connect(close_old_connections)


def reviewer_named(name: str) -> Client:
    user = User.objects.create_user(name, password=f"pw-{name}-1", is_staff=True)
    user.groups.add(Group.objects.get(name="reviewer"))
    client = Client()
    client.force_login(user)
    return client


def test_a_reviewer_runs_one_export_at_a_time_and_everyone_two(rounds, settings) -> None:
    settings.EXPORTS_PER_USER, settings.EXPORTS_AT_ONCE = 1, 2
    anna, ben, chen = reviewer_named("anna"), reviewer_named("ben"), reviewer_named("chen")
    first = anna.get(CSV)  # under way: its download not read yet
    assert first.status_code == 200

    again = anna.get(JSON)
    assert again.status_code == 429 and again["Retry-After"] == "10"
    [error] = again.json()["errors"]
    assert error == {
        "field": None,
        "message": "Too many exports are under way (at most 1 of yours and 2 in all at once): "
        "try again when one has finished.",
    }
    second = ben.get(JSON)
    assert second.status_code == 200
    assert chen.get(CSV).status_code == 429  # two in all

    # A download read to its end gives its slots back; one abandoned unread does too.
    assert len(list(csv.reader(io.StringIO(b"".join(first.streaming_content).decode())))) == 4
    third = chen.get(CSV)
    assert third.status_code == 200
    abandoned(second)
    abandoned(third)
    assert anna.get(CSV).status_code == 200


def test_a_report_over_history_is_refused_while_its_slots_are_taken_and_made_after(rounds, settings) -> None:
    settings.REPORTS_PER_USER, settings.REPORTS_AT_ONCE = 2, 2
    anna, ben = reviewer_named("anna"), reviewer_named("ben")
    caps = views._reports()
    held = [capacity.slots_take(caps, user=f"someone-{n}") for n in range(2)]  # two reports being made
    for client, path in [(anna, "/review/"), (anna, "/review/dealers/")]:
        page = client.get(path)
        assert page.status_code == 429 and page["Retry-After"] == "2"
        assert "Too many reports are being made (at most 2 of yours and 2 in all at once)" in page.content.decode()
    refused = ben.get("/review/dealers.csv")
    assert refused.status_code == 429 and refused.json()["errors"][0]["field"] is None
    for slot in held:
        assert slot is not None
        slot.release()
    assert anna.get("/review/").status_code == 200
    assert ben.get("/review/dealers.csv").status_code == 200
    assert anna.get("/review/dealers/").status_code == 200  # each report gave its slots back


def test_a_slot_taken_by_a_process_that_died_expires_with_its_lifetime(settings) -> None:
    caps = capacity.Caps("exports", per_user=1, total=1, lifetime=1)
    assert capacity.slots_take(caps, user=1) is not None  # never given back
    assert capacity.slots_take(caps, user=2) is None
    # The cache forgets the slot after its lifetime (the test's cache: this process's memory).
    for key in ["report-slots:exports:user:1:0", "report-slots:exports:all:0"]:
        cache.touch(key, 0)
    assert capacity.slots_take(caps, user=2) is not None


def test_under_asgi_an_export_streams_a_chunk_at_a_time_and_gives_its_slot_back(rounds, settings) -> None:
    settings.EXPORTS_PER_USER, settings.EXPORTS_AT_ONCE = 1, 1
    user = User.objects.create_user("anna", password="pw-anna-1", is_staff=True)
    user.groups.add(Group.objects.get(name="reviewer"))
    wsgi = Client()
    wsgi.force_login(user)
    expected = b"".join(wsgi.get(CSV).streaming_content)

    async def download() -> tuple[bool, bytes, int]:
        client = AsyncClient()
        await client.aforce_login(user)
        response = await client.get(CSV)
        # An async iterator: Django's ASGI handler sends each chunk as it comes, where it
        # reads a plain iterator whole into memory first.
        streamed = response.is_async
        body = b"".join([chunk async for chunk in response.streaming_content])  # closed at its end
        return streamed, body, (await client.get(CSV)).status_code

    streamed, body, after = async_to_sync(download)()
    assert streamed and body == expected and after == 200


def test_with_debug_the_exports_come_whole_on_either_database(rounds, settings) -> None:
    """On PostgreSQL the database writes them (COPY), which Django's debug cursor took with
    no parameters and cut the response; on SQLite they are written here, through the same
    debug cursor."""
    client = reviewer_named("anna")
    quiet = b"".join(client.get(CSV).streaming_content)
    settings.DEBUG = True
    connection.force_debug_cursor = True  # what DEBUG=1 gives a request's connection
    try:
        debugged = b"".join(client.get(CSV).streaming_content)
        copied = [q["sql"] for q in connection.queries if q["sql"].startswith("COPY")]  # a request's own
        debugged_json = b"".join(client.get(JSON).streaming_content)
        copied += [q["sql"] for q in connection.queries if q["sql"].startswith("COPY")]
    finally:
        connection.force_debug_cursor = False
    assert debugged == quiet and len(list(csv.reader(io.StringIO(quiet.decode())))) == 4
    assert debugged_json.startswith(b"[{") and debugged_json.endswith(b"}]")
    # PostgreSQL copied both, each statement logged whole by the debug cursor; SQLite none.
    assert len(copied) == (2 if connection.vendor == "postgresql" else 0)
