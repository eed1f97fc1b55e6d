"""HTTP under ASGI is served as under WSGI: a request's signals, middleware, view and
close run in one trip to a thread that is kept for the next request, and no more than
HTTP_THREADS requests run Django code at once."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.contrib.staticfiles import finders
from django.core import signals

from config.asgi import django_asgi_app
from tables import services
from tables.models import Round

pytestmark = pytest.mark.django_db(transaction=True)  # the handler's threads have their own connections


@dataclass
class Answer:
    status: int
    headers: list[tuple[str, str]]
    parts: list[bytes]  # the body as it was sent

    @property
    def body(self) -> bytes:
        return b"".join(self.parts)


def scope_of(method: str, path: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")] + [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


async def call(method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None) -> Answer:
    """One request through the handler, as an ASGI server makes it."""
    communicator = ApplicationCommunicator(django_asgi_app, scope_of(method, path, headers))
    await communicator.send_input({"type": "http.request", "body": body})
    start = await communicator.receive_output(10)
    parts = []
    while True:
        message = await communicator.receive_output(10)
        parts.append(message.get("body", b""))
        if not message.get("more_body"):
            break
    await communicator.wait(10)
    return Answer(start["status"], [(k.decode(), v.decode()) for k, v in start["headers"]], parts)


@pytest.fixture
def threads() -> Iterator[list[tuple[str, int]]]:
    """(signal, thread) for each request_started and request_finished, in order."""
    seen: list[tuple[str, int]] = []

    def started(**kwargs: Any) -> None:
        seen.append(("started", threading.get_ident()))

    def finished(**kwargs: Any) -> None:
        seen.append(("finished", threading.get_ident()))

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    yield seen
    signals.request_started.disconnect(started)
    signals.request_finished.disconnect(finished)


def test_a_page_is_served_with_its_headers_and_cookies() -> None:
    answer = asyncio.run(call("GET", "/admin/login/"))
    assert answer.status == 200
    assert ("Content-Type", "text/html; charset=utf-8") in answer.headers
    assert any(name == "Set-Cookie" and value.startswith("csrftoken=") for name, value in answer.headers)
    assert b'name="csrfmiddlewaretoken"' in answer.body


def test_requests_one_after_another_run_on_one_kept_thread_from_start_to_finish(threads) -> None:
    async def two() -> None:
        for _ in range(2):
            assert (await call("GET", "/api/openapi.json")).status == 200

    asyncio.run(two())
    assert [signal for signal, _ in threads] == ["started", "finished", "started", "finished"]
    assert len({thread for _, thread in threads}) == 1
    assert threads[0][1] != threading.get_ident()  # not the event loop's thread


def test_requests_at_the_same_time_each_have_a_thread_of_their_own() -> None:
    both_started = threading.Barrier(2, timeout=10)  # breaks if one thread served both in turn

    def wait_for_the_other(**kwargs: Any) -> None:
        both_started.wait()

    async def two_at_once() -> list[Any]:
        return await asyncio.gather(call("GET", "/api/openapi.json"), call("GET", "/api/openapi.json"))

    signals.request_started.connect(wait_for_the_other)
    try:
        answers = asyncio.run(two_at_once())
    finally:
        signals.request_started.disconnect(wait_for_the_other)
    assert [answer.status for answer in answers] == [200, 200]


def test_no_more_requests_than_http_threads_run_django_code_at_once_and_the_others_wait_their_turn(
    settings,
) -> None:
    settings.HTTP_THREADS = 2
    lock, running, most = threading.Lock(), [0], [0]

    def started(**kwargs: Any) -> None:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05)  # a view's work

    def finished(**kwargs: Any) -> None:
        with lock:
            running[0] -= 1

    async def five_at_once() -> list[Any]:
        return await asyncio.gather(*(call("GET", "/api/openapi.json") for _ in range(5)))

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    try:
        answers = asyncio.run(five_at_once())
    finally:
        signals.request_started.disconnect(started)
        signals.request_finished.disconnect(finished)
    assert [answer.status for answer in answers] == [200] * 5
    assert most[0] == 2


def test_a_download_whose_client_reads_slowly_holds_no_turn(settings) -> None:
    settings.HTTP_THREADS = 1

    async def scenario() -> tuple[int, int]:
        first_part, client_reads = asyncio.Event(), asyncio.Event()
        received = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b""}

        async def send(message: dict[str, Any]) -> None:
            received.append(message.get("body", b""))
            if message.get("more_body"):
                first_part.set()
                await client_reads.wait()  # the client has not read this part yet

        download = asyncio.create_task(django_asgi_app(scope_of("GET", "/static/plotly/plotly.min.js"), receive, send))
        await asyncio.wait_for(first_part.wait(), 10)
        other = await asyncio.wait_for(call("GET", "/api/openapi.json"), 10)  # served meanwhile
        client_reads.set()
        await asyncio.wait_for(download, 30)
        return other.status, len(b"".join(received))

    status, size = asyncio.run(scenario())
    assert status == 200
    assert size == Path(finders.find("plotly/plotly.min.js")).stat().st_size


def test_a_static_file_is_streamed_a_part_at_a_time_and_arrives_whole() -> None:
    answer = asyncio.run(call("GET", "/static/plotly/plotly.min.js"))
    assert answer.status == 200
    with open(finders.find("plotly/plotly.min.js"), "rb") as file:
        assert answer.body == file.read()
    assert len(answer.parts) > 10  # 64 KiB parts of a file of megabytes, not read whole first


def test_a_dealer_posts_a_round_and_a_bad_one_through_the_handler() -> None:
    table, token = services.table_create(slug="baccarat-1", name="Baccarat 1")
    services.shoe_start(table=table)
    auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def post(cards: dict[str, Any]) -> tuple[int, Any]:
        answer = asyncio.run(call("POST", "/api/tables/baccarat-1/rounds", json.dumps(cards).encode(), auth))
        return answer.status, json.loads(answer.body)

    status, answer = post({"player": ["9S", "KD"], "banker": ["8H", "QC"]})
    assert status == 201 and answer["round"]["number"] == 1
    status, answer = post({"player": ["9S"], "banker": ["8H", "QC"]})
    assert status == 422 and answer["errors"][0]["field"] == "player"
    assert Round.objects.count() == 1
