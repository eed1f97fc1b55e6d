"""The scaled-out deployment, with real processes in the Procfile's shape: uvicorn for
websockets (server A), gunicorn for HTTP (server B) and a Celery worker, on one
PostgreSQL database and one Redis. A page connected to server A sees a round posted to
server B, and the odds that the worker computes for it."""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from tests.html import find_all
from tests.rounds import SEED

from . import servers
from .managing import Manager
from .served import ROOT, WORKER

pytestmark = pytest.mark.backend_free  # starts the servers it needs itself, whatever the run's backend

DOWN = 10  # seconds each fault lasts


def banker_natural(i: int) -> dict[str, list[str]]:
    """The i-th of many different legal rounds (no card used more than a shoe holds)."""
    suit, zero = "SHDC"[i % 4], "TJQK"[i // 4 % 4]
    return {"player": [f"2{suit}", f"3{suit}"], "banker": [f"9{suit}", f"{zero}{suit}"]}


@pytest.fixture(scope="module")
def real_servers() -> Iterator[tuple[servers.PostgresCluster, servers.RedisServer]]:
    problem = servers.missing()
    if problem:
        servers.unavailable(problem)
    postgres, redis = servers.PostgresCluster().start(migrated=True), servers.RedisServer().start()
    yield postgres, redis
    redis.destroy()
    postgres.destroy()


@dataclass
class Stack:
    """Processes sharing one database and one Redis, each logging to its own file."""

    env: dict[str, str]
    logs: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    manager: Manager | None = None

    def manage(self, *args: str) -> str:
        """``manage.py *args``, run by one Django process kept for the stack (tests/managing.py)."""
        if self.manager is None:
            self.manager = Manager(self.env, self.logs / "manage.log")
        return self.manager.run(*args)

    def spawn(self, name: str, *command: str) -> None:
        with (self.logs / f"{name}.log").open("w") as log:  # the child keeps its own copy
            process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        self.processes.append(process)

    def start_servers(self, started: dict[str, tuple[list[str], int]]) -> dict[str, str]:
        """Start servers (each its command and port) side by side, answering once this
        returns: each loads Django for a second or two, which one after the other added
        up. Their URLs, by name."""
        for name, (command, _) in started.items():
            self.spawn(name, *command)
        urls = {name: f"http://127.0.0.1:{port}" for name, (_, port) in started.items()}
        for process, name in zip(self.processes[-len(started) :], started, strict=True):
            servers.answering(process, url=urls[name], log=self.logs / f"{name}.log")
        return urls

    def stop(self) -> None:
        if self.manager is not None:
            self.manager.close()
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture(scope="module")
def stack(real_servers, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    postgres, redis = real_servers
    env = {
        **os.environ,
        "DATABASE_URL": postgres.create_database("scale_out", migrated=True),
        "REDIS_URL": redis.url,
        "DATA_DIR": str(tmp_path_factory.mktemp("scale-out")),
    }
    env.pop("TASKS_INLINE", None)
    running = Stack(env, Path(env["DATA_DIR"]))
    token = running.manage("table_create", "--slug", "baccarat-1", "--name", "Baccarat 1", "--audience", "everything")
    running.spawn("worker", *WORKER)
    try:
        a, b = servers.free_port(), servers.free_port()
        started = running.start_servers({"uvicorn-a": (servers.uvicorn(a), a), "gunicorn-b": (servers.gunicorn(b), b)})
        urls = {"a": started["uvicorn-a"], "b": started["gunicorn-b"]}
        yield urls | {"token": token, "processes": running}
    finally:
        running.stop()


def call(url: str, path: str, token: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    """(status, JSON body) of a POST, errors included."""
    request = urllib.request.Request(
        f"{url}/api/tables/baccarat-1/{path}",
        data=json.dumps(body or {}).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def post(url: str, path: str, token: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    status, answer = call(url, path, token, body)
    assert status in (200, 201), answer
    return answer


def rounds(url: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{url}/api/tables/baccarat-1/rounds", timeout=10) as response:
        return json.loads(response.read())["rounds"]


@contextmanager
def websocket(url: str, path: str, have: dict[str, str] | None = None) -> Iterator[ClientConnection]:
    with connect(url.replace("http", "ws", 1) + path, origin=url) as client:  # type: ignore[arg-type]
        client.send(json.dumps({"have": have or {}}))
        yield client


def wait_for(client: ClientConnection, *texts: str, timeout: float) -> str:
    """The first pushed message that contains all ``texts``."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        message = str(client.recv(timeout=left))
        if all(text in message for text in texts):
            return message
    raise TimeoutError(f"no message with {texts!r} within {timeout} s")


def test_a_page_on_server_a_sees_a_round_posted_to_server_b_and_the_odds_the_worker_computes(stack) -> None:
    post(stack["b"], "shoes", stack["token"])
    with websocket(stack["a"], "/ws/tables/baccarat-1/") as page, websocket(stack["a"], "/ws/lobby/") as lobby:
        time.sleep(0.3)  # both have joined their groups
        round_id = post(stack["b"], "rounds", stack["token"], SEED)["round"]["id"]
        # A delta from the state the page was sent when it said hello (answering it
        # recorded that state: nothing was pushed to the table before).
        pushed = wait_for(page, "afterbegin:#history-rows", round_id, timeout=5)
        assert "data-since" in pushed
        assert find_all(wait_for(lobby, "<dt>Round</dt><dd>1</dd>", timeout=5), "a", id="table-baccarat-1")
        # The odds the Celery worker stored: pushed by its process, or already in the
        # round's push when the worker was first.
        if "after round 1" not in pushed:
            pushed = wait_for(page, "after round 1", timeout=30)
        assert "410 cards left" in pushed


def test_recording_rounds_reuses_the_servers_redis_connections(stack, real_servers) -> None:
    _, redis = real_servers
    post(stack["b"], "shoes", stack["token"])
    post(stack["b"], "rounds", stack["token"], banker_natural(0))  # the pools have what they need
    before = redis.connections_received()
    for i in range(1, 21):
        post(stack["b"], "rounds", stack["token"], banker_natural(i))
    assert redis.connections_received() - before < 3  # not one (or more) a round


def test_with_redis_down_for_10_s_rounds_are_recorded_and_pages_catch_up_after(stack, real_servers) -> None:
    _, redis = real_servers
    post(stack["b"], "shoes", stack["token"])
    before = len(rounds(stack["b"]))
    redis.stop()
    try:
        started = time.monotonic()
        recorded = [post(stack["b"], "rounds", stack["token"], banker_natural(i))["round"] for i in range(3)]
        assert time.monotonic() - started < DOWN, "recording must not wait on Redis"
        time.sleep(max(0.0, DOWN - (time.monotonic() - started)))
    finally:
        redis.start()
    assert len(rounds(stack["a"])) == before + 3
    # A page that was open before reconnects with what it had, and gets the rest.
    shoe = rounds(stack["a"])[0]["shoe"]
    stale = {"baccarat-1": f"{shoe}:{before}:0:{before}"}
    with websocket(stack["a"], "/ws/tables/baccarat-1/", have=stale) as page:
        html = wait_for(page, 'id="history"', recorded[-1]["id"], timeout=15)
        assert all(r["id"] in html for r in recorded)
        # The worker is back on Redis: the next round's odds arrive, with those it missed.
        number = post(stack["b"], "rounds", stack["token"], banker_natural(3))["round"]["number"]
        wait_for(page, f"after round {number}", timeout=30)


def test_with_redis_down_a_new_page_opens_shows_the_table_and_is_pushed_to_once_redis_is_back(
    stack, real_servers
) -> None:
    _, redis = real_servers
    post(stack["b"], "shoes", stack["token"])
    first = post(stack["b"], "rounds", stack["token"], banker_natural(0))["round"]
    redis.stop()
    down = True
    try:
        with websocket(stack["a"], "/ws/tables/baccarat-1/") as page:  # the probe: 24 refused in an outage
            wait_for(page, 'id="history"', first["id"], timeout=10)  # resynced from the database
            redis.start()
            down = False
            second = post(stack["b"], "rounds", stack["token"], banker_natural(1))["round"]
            wait_for(page, 'id="history"', second["id"], timeout=15)  # pushed, or resynced on rejoining
    finally:
        if down:
            redis.start()


def probe(url: str, path: str) -> tuple[int, dict[str, Any], float]:
    """A load balancer's probe: status, JSON body, seconds to answer."""
    began = time.monotonic()
    try:
        with urllib.request.urlopen(f"{url}{path}", timeout=10) as response:
            status, body = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, body = error.code, error.read()
    return status, json.loads(body), time.monotonic() - began


def ready_again(url: str) -> None:
    deadline = time.monotonic() + 20
    while probe(url, "/readyz")[0] != 200:
        assert time.monotonic() < deadline, probe(url, "/readyz")
        time.sleep(0.5)


def test_readiness_names_each_dependency_stopped_within_2_s_and_liveness_stays_up(stack, real_servers) -> None:
    postgres, redis = real_servers
    servers_ = {"uvicorn": stack["a"], "gunicorn": stack["b"]}
    for url in servers_.values():
        status, body, _ = probe(url, "/readyz")
        assert status == 200 and set(body["checks"]) == {"database", "migrations", "cache", "channel_layer", "broker"}
    for stopped, stop, start, failing in (
        ("redis", redis.stop, redis.start, {"cache", "channel_layer", "broker"}),
        ("postgresql", postgres.stop, postgres.resume, {"database"}),
    ):
        stop()
        try:
            for name, url in servers_.items():
                status, body, seconds = probe(url, "/readyz")
                assert status == 503 and failing <= set(body["failed"]), (stopped, name, body)
                assert seconds < 2, (stopped, name, seconds)
                assert probe(url, "/healthz")[0] == 200  # alive: no reason to restart it
        finally:
            start()
        for url in servers_.values():
            ready_again(url)
    probe(stack["a"], "/api/tables/baccarat-1/rounds")  # a request worth its access line
    logged = (stack["processes"].logs / "uvicorn-a.log").read_text()
    assert "/api/tables/baccarat-1/rounds" in logged
    assert "/readyz" not in logged and "/healthz" not in logged  # dozens of probes, no line


def test_with_postgresql_down_for_10_s_the_dealer_gets_503_and_its_retries_record_each_round_once(
    stack, real_servers
) -> None:
    postgres, _ = real_servers
    post(stack["b"], "shoes", stack["token"])
    post(stack["b"], "rounds", stack["token"], banker_natural(0))
    number = 2
    cards = {**banker_natural(4), "round": number}
    postgres.stop()
    try:
        status, answer = call(stack["b"], "rounds", stack["token"], cards)
        assert status == 503 and "database is unavailable" in answer["errors"][0]["message"]
        time.sleep(DOWN)
    finally:
        postgres.resume()
    deadline = time.monotonic() + 20
    while (status := call(stack["b"], "rounds", stack["token"], cards)[0]) == 503 and time.monotonic() < deadline:
        time.sleep(0.5)  # the dealer's retries
    assert status == 201
    assert call(stack["a"], "rounds", stack["token"], cards)[0] == 200  # a retry whose answer was lost
    numbers = [r["number"] for r in rounds(stack["a"])]
    assert numbers == list(range(1, number + 1))


def test_with_the_worker_killed_rounds_are_recorded_and_pushed_and_odds_catch_up_when_it_returns(stack) -> None:
    processes = stack["processes"]
    worker = next(p for p in processes.processes if "celery" in p.args)
    worker.kill()
    worker.wait()
    post(stack["b"], "shoes", stack["token"])
    with websocket(stack["a"], "/ws/tables/baccarat-1/") as page:
        time.sleep(0.3)
        recorded = post(stack["b"], "rounds", stack["token"], banker_natural(5))["round"]
        wait_for(page, "afterbegin:#history-rows", recorded["id"], timeout=5)  # pushed without a worker
        processes.spawn("worker-again", *WORKER)
        wait_for(page, f"after round {recorded['number']}", timeout=30)
