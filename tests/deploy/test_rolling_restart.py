"""A rolling restart while a dealer posts and pages are open (issue 32, item 5): gunicorn
reloaded (SIGHUP), each uvicorn stopped (SIGTERM) and started again in turn, the Celery
worker's warm shutdown and a new worker. Every acknowledged round is stored once, the
dealer sees no error but a 503 it retries, every page shows the latest round within 5 s
of its server coming back, and every round gets its odds."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from tables.game.shoe import DealingShoe
from tests import servers
from tests.managing import Manager
from tests.served import ROOT, WORKER

pytestmark = pytest.mark.backend_free  # starts every server it needs itself

ROUND = re.compile(r'id="game-info"[^>]*data-version="\d+:(\d+):')


class Processes:
    def __init__(self, root: Path, env: dict[str, str]) -> None:
        self.root, self.env, self.running = root, env, {}
        # manage.py's commands, run by one kept Django process (tests/managing.py): the test
        # polls the database, and starting Django for each read cost 1-3 s.
        self.manager = Manager(env, root / "manage.log")

    def start(self, name: str, command: list[str], url: str | None = None) -> None:
        log = self.root / f"{name}.log"
        if url:
            self.running[name] = servers.start_server(command, url=url, log=log, env=self.env)
        else:
            with log.open("a") as out:
                self.running[name] = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=out, stderr=out)

    def start_together(self, started: dict[str, tuple[list[str], str]]) -> None:
        """Start servers (each its command and URL) side by side, answering once this
        returns: each loads Django for a second or two, which one after the other added up."""
        for name, (command, _) in started.items():
            self.start(name, command)
        for name, (_, url) in started.items():
            servers.answering(self.running[name], url=url, log=self.root / f"{name}.log")

    def stop(self, name: str) -> None:
        process = self.running.pop(name)
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)


class Dealer(threading.Thread):
    """Posts a round every 0.2 s, each with its number: a retry after a 503 or a lost
    answer is never recorded twice."""

    def __init__(self, url: str, token: str) -> None:
        super().__init__(daemon=True)
        self.url, self.token = url, token
        self.shoe, self.number = DealingShoe.shuffled(), 1
        self.acknowledged: list[int] = []
        self.answers: dict[int, int] = {}
        self.stop = threading.Event()

    def post(self, body: dict) -> int:
        request = urllib.request.Request(
            f"{self.url}/api/tables/t1/rounds", data=json.dumps(body).encode(), method="POST",
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code
        except OSError:
            return 0  # no answer: sent again

    def run(self) -> None:
        while not self.stop.is_set() and not self.shoe.finished:
            dealt = self.shoe.deal()
            body = {"player": [c.code for c in dealt.player_cards], "banker": [c.code for c in dealt.banker_cards]}
            while True:
                status = self.post({**body, "round": self.number})
                self.answers[status] = self.answers.get(status, 0) + 1
                if status in (200, 201):
                    break
                time.sleep(0.2)  # the dealer system's retry
            self.acknowledged.append(self.number)
            self.number += 1
            self.stop.wait(0.2)


class Page(threading.Thread):
    """A live table page on one server: reconnects when its socket closes and resyncs."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url, self.shown, self.stop = url, 0, threading.Event()
        self.reconnected_at: list[float] = []
        self.resynced_at: list[float] = []  # the first message after each (re)connect: the page is current

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                with connect(f"{self.url}/ws/tables/t1/", origin=self.url.replace("ws", "http", 1)) as socket:
                    socket.send(json.dumps({"have": {}}))
                    self.reconnected_at.append(time.monotonic())
                    while not self.stop.is_set():
                        try:
                            message = str(socket.recv(timeout=0.5))
                        except TimeoutError:
                            continue
                        if len(self.resynced_at) < len(self.reconnected_at):
                            self.resynced_at.append(time.monotonic())
                        if found := ROUND.search(message):
                            self.shown = max(self.shown, int(found.group(1)))
            except (OSError, WebSocketException):
                time.sleep(0.2)  # the server is away: try again


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[tuple[Processes, dict[str, str]]]:
    problem = servers.missing()
    if problem:
        servers.unavailable(problem)
    postgres, redis = servers.PostgresCluster().start(migrated=True), servers.RedisServer().start()
    env = {**os.environ, "DATABASE_URL": postgres.create_database("rolling", migrated=True), "REDIS_URL": redis.url,
           "DATA_DIR": str(tmp_path)}  # fmt: skip
    env.pop("TASKS_INLINE", None)
    processes = Processes(tmp_path, env)
    try:
        made = processes.manager.run("table_create", "--slug", "t1", "--name", "Table 1")
        ports = {"web": servers.free_port(), "ws-a": servers.free_port(), "ws-b": servers.free_port()}
        commands = {"web": servers.gunicorn(ports["web"], workers=2)}
        commands |= {name: servers.uvicorn(ports[name]) for name in ("ws-a", "ws-b")}
        processes.start_together(
            {name: (command, f"http://127.0.0.1:{ports[name]}") for name, command in commands.items()}
        )
        processes.start("worker", WORKER)
        yield (
            processes,
            {"token": made.splitlines()[-1].strip()}
            | {name: f"http://127.0.0.1:{port}" for name, port in ports.items()},
        )
    finally:
        for process in processes.running.values():
            process.terminate()
        for process in processes.running.values():
            process.wait(timeout=60)
        processes.manager.close()
        redis.destroy()
        postgres.destroy()


NUMBERS = (
    "import json; from tables.models import Round; "
    "print(json.dumps(list(Round.objects.values_list('number', flat=True).order_by('number'))))"
)
WITHOUT_ODDS = "from tables.models import Round; print(Round.objects.filter(odds__isnull=True).count())"


def stored(processes: Processes, script: str) -> str:
    return processes.manager.run("shell", "-c", script).splitlines()[-1]


def test_a_rolling_restart_loses_no_round_no_page_and_no_odds(stack) -> None:
    processes, urls = stack
    headers = {"Authorization": f"Bearer {urls['token']}", "Content-Type": "application/json"}
    request = urllib.request.Request(f"{urls['web']}/api/tables/t1/shoes", data=b"{}", method="POST", headers=headers)
    urllib.request.urlopen(request, timeout=10).close()
    dealer = Dealer(urls["web"], urls["token"])
    served_by = ["ws-a", "ws-a", "ws-b", "ws-b"]
    pages = [Page(urls[name].replace("http", "ws", 1)) for name in served_by]
    for thread in [dealer, *pages]:
        thread.start()
    down: dict[str, float] = {}  # when each websocket server was told to stop
    back: dict[str, float] = {}  # and when its new process answered
    time.sleep(3)
    os.kill(processes.running["web"].pid, signal.SIGHUP)  # gunicorn: new workers, the old ones finish
    time.sleep(3)
    for name in ("ws-a", "ws-b"):  # one at a time
        down[name] = time.monotonic()
        processes.stop(name)
        processes.start(name, servers.uvicorn(int(urls[name].rsplit(":", 1)[1])), urls[name])
        back[name] = time.monotonic()
        time.sleep(3)
    processes.stop("worker")  # Celery's warm shutdown: the task running finishes
    processes.start("worker-2", WORKER)
    time.sleep(3)
    dealer.stop.set()
    dealer.join(timeout=30)
    last = dealer.acknowledged[-1]
    deadline = time.monotonic() + 5
    while any(page.shown < last for page in pages) and time.monotonic() < deadline:
        time.sleep(0.1)  # other threads' sockets: nothing of ours to wait on
    for page in pages:
        page.stop.set()
    numbers = json.loads(stored(processes, NUMBERS))
    deadline = time.monotonic() + 60
    while (waiting := int(stored(processes, WITHOUT_ODDS))) and time.monotonic() < deadline:
        time.sleep(1)  # the new worker computes what the old one left
    figures = {
        "rounds posted": sum(dealer.answers.values()), "acknowledged": len(dealer.acknowledged), "stored": len(numbers),
        "answers": dealer.answers, "pages showing the last round": sum(p.shown == last for p in pages),
        "reconnects": [len(p.reconnected_at) - 1 for p in pages], "rounds without odds": waiting,
        "longest a page went without its server, s": round(
            max(p.resynced_at[-1] - down[name] for p, name in zip(pages, served_by, strict=True)), 2
        ),
        "current again after its server came back, s": [
            # 0: before the test's own poll of the new server had its answer
            round(max(0.0, p.resynced_at[-1] - back[name]), 2)
            for p, name in zip(pages, served_by, strict=True)
        ],
    }  # fmt: skip
    print("rolling restart:", json.dumps(figures))
    assert numbers == dealer.acknowledged == list(range(1, last + 1))  # each acknowledged round, once
    assert set(dealer.answers) <= {200, 201, 503, 0}
    assert all(page.shown == last for page in pages)
    assert all(len(page.reconnected_at) >= 2 for page in pages)  # each page's server went away once
    assert all(0 <= gap < 5 for gap in figures["current again after its server came back, s"])
    assert waiting == 0
