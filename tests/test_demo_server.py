"""The README's run command: a real ASGI server whose demo tables deal by themselves."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.road_marks import marks

pytestmark = pytest.mark.backend_free  # starts the servers it needs itself, whatever the run's backend

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read().decode()


@pytest.fixture
def demo_log(tmp_path: Path) -> Path:
    return tmp_path / "server.log"


@pytest.fixture
def demo_server(tmp_path: Path, demo_log: Path):
    port = free_port()
    env = {**os.environ, "DATA_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    log = demo_log.open("w")
    process = subprocess.Popen(
        [sys.executable, "manage.py", "demo", "--port", str(port), "--tables", "3", "--interval", "0.3"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def wait_for(predicate, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = predicate()
            if value:
                return value
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.2)


def test_the_demo_serves_a_lobby_whose_tables_deal_live(demo_server: str) -> None:
    def rounds_shown() -> int:
        page = get(demo_server + "/")
        return sum(len(marks(page, f"bead-{winner}")) for winner in "BPT")

    first = wait_for(rounds_shown)
    page = get(demo_server + "/")
    assert "Baccarat 1" in page and "Baccarat 2" in page and "Speed Baccarat 3" in page
    wait_for(lambda: rounds_shown() > first)  # the tables keep dealing: the lobby grows
    table_page = get(demo_server + "/tables/baccarat-1/")
    assert "Game history" in table_page
    assert "--banker" in get(demo_server + "/static/css/app.css")


def test_the_demo_logs_its_requests_in_the_projects_words_and_leaves_the_probes_out(
    demo_server: str, demo_log: Path
) -> None:
    wait_for(lambda: get(demo_server + "/readyz"))
    get(demo_server + "/healthz")
    get(demo_server + "/")

    def lines() -> list[str]:
        return demo_log.read_text().splitlines()

    access = wait_for(lambda: [line for line in lines() if '"GET / HTTP/1.1" 200' in line])
    assert access[0].startswith("INFO uvicorn.access: ")  # the project's Text format, not uvicorn's own
    assert not [line for line in lines() if "/readyz" in line or "/healthz" in line]
