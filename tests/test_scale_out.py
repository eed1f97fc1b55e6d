"""The scaled-out deployment, with real processes: two ASGI servers and a Celery worker
on one PostgreSQL database and one Redis. A page connected to server A sees a round
posted to server B, and the odds that the worker computes for it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from . import servers

ROOT = Path(__file__).resolve().parents[1]
PLAYER_WIN = {"player": ["AH", "3S", "5D"], "banker": ["JC", "2H", "AD"]}


@pytest.fixture(scope="module")
def real_servers() -> Iterator[tuple[servers.PostgresCluster, servers.RedisServer]]:
    problem = servers.missing()
    if problem:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{problem}: .ci/run installs it")
        pytest.skip(problem)
    postgres, redis = servers.PostgresCluster().start(), servers.RedisServer().start()
    yield postgres, redis
    redis.destroy()
    postgres.destroy()


@dataclass
class Stack:
    """Processes sharing one database and one Redis, each logging to its own file."""

    env: dict[str, str]
    logs: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, check=True
        )
        return done.stdout.strip()

    def spawn(self, name: str, *command: str) -> None:
        with (self.logs / f"{name}.log").open("w") as log:  # the child keeps its own copy
            process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        self.processes.append(process)

    def asgi(self, name: str) -> str:
        port = servers.free_port()
        self.spawn(name, sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(port))
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(url + "/api/openapi.json", timeout=1).close()
                return url
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"{name} did not start: see {self.logs / name}.log")

    def stop(self) -> None:
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
        "DATABASE_URL": postgres.create_database("scale_out"),
        "REDIS_URL": redis.url,
        "DATA_DIR": str(tmp_path_factory.mktemp("scale-out")),
    }
    env.pop("TASKS_INLINE", None)
    running = Stack(env, Path(env["DATA_DIR"]))
    running.manage("migrate", "-v0")
    token = running.manage("table_create", "--slug", "baccarat-1", "--name", "Baccarat 1")
    worker = ("-m", "celery", "-A", "config", "worker", "--pool", "solo", "--without-gossip", "--without-mingle")
    running.spawn("worker", sys.executable, *worker)
    try:
        yield {"a": running.asgi("asgi-a"), "b": running.asgi("asgi-b"), "token": token, "logs": running.logs}
    finally:
        running.stop()


def post(url: str, path: str, token: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{url}/api/tables/baccarat-1/{path}",
        data=json.dumps(body or {}).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


@contextmanager
def websocket(url: str, path: str) -> Iterator[ClientConnection]:
    with connect(url.replace("http", "ws", 1) + path, origin=url) as client:  # type: ignore[arg-type]
        client.send(json.dumps({"have": {}}))
        yield client


def wait_for(client: ClientConnection, text: str, timeout: float) -> str:
    """The first pushed message that contains ``text``."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        message = str(client.recv(timeout=left))
        if text in message:
            return message
    raise TimeoutError(f"no message with {text!r} within {timeout} s")


def test_a_page_on_server_a_sees_a_round_posted_to_server_b_and_the_odds_the_worker_computes(stack) -> None:
    post(stack["b"], "shoes", stack["token"])
    with websocket(stack["a"], "/ws/tables/baccarat-1/") as page, websocket(stack["a"], "/ws/lobby/") as lobby:
        time.sleep(0.3)  # both have joined their groups
        round_id = post(stack["b"], "rounds", stack["token"], PLAYER_WIN)["round"]["id"]
        assert 'id="history"' in wait_for(page, round_id, timeout=5)
        assert 'id="table-baccarat-1"' in wait_for(lobby, "<dt>Round</dt><dd>1</dd>", timeout=5)
        # Pushed by the Celery worker's process once it has stored the odds.
        assert "410 cards left" in wait_for(page, "after round 1", timeout=30)
