"""A reconnect storm (issue 50, item 1): 2,000 table screens are open on the Procfile's
websocket process (uvicorn, two workers) when it is killed; rounds are dealt while it is
down; it is started again and every screen comes back at once, as a floor's screens do
after a crash or a deploy, each from its own address (behind the proxy) and saying which
version it shows, as static/js/live.js does. Every screen is back and shows the table as
it is, no handshake fails once the server answers, and no worker is killed for missing
its supervisor's health check (answering the hellos never holds the event loop)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import resource
import signal
import subprocess
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tables.game.shoe import DealingShoe
from tables.page_version import PageVersion
from tests import servers
from tests.managing import Manager

pytestmark = pytest.mark.backend_free  # starts every server it needs itself

SCREENS = 2000
TABLES = 4
DEALT = 40  # rounds of each table's shoe before the server is killed
BACK_WITHIN = 60.0  # seconds after the server answers again, for every screen to show the table as it is
INFO = re.compile(r'id="game-info"[^>]*?data-version="([0-9:]+)"(?:[^>]*?data-since="([0-9:]+)")?')
LATER = re.compile(r'id="resync-later" data-after="([0-9.]+)"')


@dataclass
class Screen:
    """A table screen as static/js/live.js and htmx's websocket extension run it: says
    what it shows on every (re)connect, asks again when a delta does not fit or when it
    is told to ask later, and reconnects with full jitter when its socket drops."""

    url: str
    slug: str
    address: str  # the client's own, as the proxy names it
    shown: str
    connects: int = 0
    failures: Counter[str] = field(default_factory=Counter)  # handshakes that failed, by when and why
    asking: asyncio.Future[None] | None = None  # a hello the server said to send later

    async def run(self, stop: asyncio.Event, answering: asyncio.Event) -> None:
        retries = 0
        while not stop.is_set():
            try:
                async with connect(
                    f"{self.url}/ws/tables/{self.slug}/?lang=en",
                    origin=self.url.replace("ws", "http", 1),  # type: ignore[arg-type]
                    additional_headers={"X-Forwarded-For": self.address},
                    open_timeout=30,
                    max_size=None,
                ) as socket:
                    self.connects, retries = self.connects + 1, 0
                    await self.hello(socket)
                    async for message in socket:
                        await self.receive(socket, str(message))
            except ConnectionRefusedError:
                pass  # the server is down: try again
            except (OSError, InvalidHandshake, TimeoutError) as failed:
                self.failures[f"{'after' if answering.is_set() else 'before'} {type(failed).__name__}"] += 1
            except ConnectionClosed:
                pass
            await asyncio.sleep(random.random() * 2 ** min(retries, 6))  # htmx's full jitter
            retries += 1

    async def hello(self, socket: ClientConnection) -> None:
        await socket.send(json.dumps({"have": {self.slug: self.shown}}))

    async def ask_after(self, socket: ClientConnection, seconds: float) -> None:
        await asyncio.sleep(seconds)  # as the server said: static/js/live.js waits as long
        with contextlib.suppress(ConnectionClosed):
            await self.hello(socket)

    async def receive(self, socket: ClientConnection, message: str) -> None:
        if later := LATER.search(message):
            self.asking = asyncio.ensure_future(self.ask_after(socket, float(later.group(1))))
            return
        for version, since in INFO.findall(message):
            if since and _rounds(since) != _rounds(self.shown):
                await self.hello(socket)  # a push went missing
                return
            if PageVersion.parse(version) != PageVersion.parse(self.shown) and _newer(version, self.shown):
                self.shown = version


def _rounds(version: str) -> tuple[int, ...]:
    return tuple(int(n) for n in version.split(":")[:3])


def _newer(version: str, than: str) -> bool:
    return tuple(int(n) for n in version.split(":")) > tuple(int(n) for n in than.split(":"))


@dataclass
class Stack:
    root: Path
    env: dict[str, str]
    web: str
    ws_port: int
    tokens: dict[str, str]
    manager: Manager
    running: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def ws_log(self) -> Path:
        return self.root / "ws.log"

    def start_ws(self) -> None:
        command = [*servers.uvicorn(self.ws_port), "--workers", "2"]  # the Procfile's ws
        self.running["ws"] = servers.start_server(
            command, url=f"http://127.0.0.1:{self.ws_port}", log=self.ws_log, env=self.env, new_session=True
        )

    def kill_ws(self) -> None:
        """kill -9 the websocket server and its workers."""
        process = self.running.pop("ws")
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)

    def post(self, slug: str, path: str, body: dict) -> dict:
        request = urllib.request.Request(
            f"{self.web}/api/tables/{slug}/{path}", data=json.dumps(body).encode(), method="POST",
            headers={"Authorization": f"Bearer {self.tokens[slug]}", "Content-Type": "application/json"},
        )  # fmt: skip
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def deal(self, slug: str, shoe: DealingShoe, number: int) -> None:
        dealt = shoe.deal()
        cards = {"player": [c.code for c in dealt.player_cards], "banker": [c.code for c in dealt.banker_cards]}
        self.post(slug, "rounds", {**cards, "round": number})

    def counted(self, name: str) -> dict[str, float]:
        """A counter's values by label, added up over every process (the web server's /metrics)."""
        with urllib.request.urlopen(f"{self.web}/metrics", timeout=30) as response:
            text = response.read().decode()
        return {label: float(value) for label, value in re.findall(rf'^{name}_total{{\w+="(\w+)"}} (\S+)$', text, re.M)}

    def shown(self, slug: str) -> str:
        """The version a table page loaded now shows."""
        with urllib.request.urlopen(f"{self.web}/tables/{slug}/", timeout=30) as response:
            found = INFO.search(response.read().decode())
        assert found is not None
        return found.group(1)


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    problem = servers.missing()
    if problem:
        servers.unavailable(problem)
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # 2,000 sockets each side
    postgres, redis = servers.PostgresCluster().start(migrated=True), servers.RedisServer().start()
    (tmp_path / "prometheus").mkdir()
    env = {**os.environ, "DATABASE_URL": postgres.create_database("storm", migrated=True), "REDIS_URL": redis.url,
           "DATA_DIR": str(tmp_path), "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "prometheus")}  # fmt: skip
    env.pop("TASKS_INLINE", None)
    manager = Manager(env, tmp_path / "manage.log")
    web_port = servers.free_port()
    made = Stack(tmp_path, env, f"http://127.0.0.1:{web_port}", servers.free_port(), {}, manager)
    try:
        for n in range(1, TABLES + 1):
            output = manager.run("table_create", "--slug", f"t{n}", "--name", f"Table {n}")
            made.tokens[f"t{n}"] = output.splitlines()[-1].strip()
        made.running["web"] = servers.start_server(
            servers.gunicorn(web_port, workers=2), url=made.web, log=tmp_path / "web.log", env=env
        )
        made.start_ws()
        yield made
    finally:
        for name, process in made.running.items():
            if name == "ws":
                os.killpg(process.pid, signal.SIGTERM)
            else:
                process.terminate()
        for process in made.running.values():
            process.wait(timeout=60)
        manager.close()
        redis.destroy()
        postgres.destroy()


def test_two_thousand_screens_come_back_current_after_the_websocket_server_is_killed(stack: Stack) -> None:
    shoes = {slug: DealingShoe.shuffled(rng=random.Random(n)) for n, slug in enumerate(stack.tokens)}
    for slug, shoe in shoes.items():
        stack.post(slug, "shoes", {})
        for number in range(1, DEALT + 1):  # mid-shoe: a screen behind is sent a whole part of 40 rounds
            stack.deal(slug, shoe, number)
    loaded = {slug: stack.shown(slug) for slug in stack.tokens}
    ws = f"ws://127.0.0.1:{stack.ws_port}"
    screens = [
        Screen(ws, slug, f"10.{n // 250}.{n % 250}.{1 + n % 7}", loaded[slug])
        for n, slug in enumerate(list(stack.tokens) * (SCREENS // TABLES))
    ]

    async def storm() -> dict[str, object]:
        stop, answering = asyncio.Event(), asyncio.Event()
        answering.set()
        running = []
        for screen in screens:  # a floor's screens open over a few seconds
            running.append(asyncio.ensure_future(screen.run(stop, answering)))
            await asyncio.sleep(0.002)
        await _until(lambda: all(s.connects for s in screens), 120, "every screen connected")
        answering.clear()
        killed_at = time.monotonic()
        await asyncio.to_thread(stack.kill_ws)
        for slug, shoe in shoes.items():  # dealt while the screens are away
            for number in range(DEALT + 1, DEALT + 3):
                await asyncio.to_thread(stack.deal, slug, shoe, number)
        now = {slug: await asyncio.to_thread(stack.shown, slug) for slug in stack.tokens}
        assert all(now[slug] != loaded[slug] for slug in now)
        await asyncio.to_thread(stack.start_ws)
        answering.set()
        back_at = time.monotonic()
        await _until(lambda: all(s.connects >= 2 for s in screens), BACK_WITHIN, "every screen reconnected")
        reconnected_after = time.monotonic() - back_at
        await _until(lambda: all(s.shown == now[s.slug] for s in screens), BACK_WITHIN, "every screen current")
        current_after = time.monotonic() - back_at
        stop.set()
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        return {
            "down, s": round(back_at - killed_at, 1),
            "all reconnected after, s": round(reconnected_after, 1),
            "all current after, s": round(current_after, 1),
        }

    figures = asyncio.run(storm())
    failures = sum((s.failures for s in screens), Counter())
    log = stack.ws_log.read_text()
    answers, reads = stack.counted("baccarat_resyncs"), stack.counted("baccarat_hello_reads")
    figures |= {"failed handshakes": dict(failures), "answers": answers, "reads": reads}
    print("reconnect storm:", json.dumps(figures))
    assert not [kind for kind in failures if kind.startswith("after")], "no handshake fails once the server answers"
    assert "died" not in log and "Traceback" not in log, "no worker killed, no error"
    # Every screen behind was sent the whole part, from a render shared by the screens of
    # its table (a few renders a table and process, not one a screen).
    assert answers["whole"] >= SCREENS
    assert reads["whole"] <= answers["whole"] / 20


async def _until(condition: object, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds:.0f} s: {what}")
        await asyncio.sleep(0.1)  # the screens' own tasks run meanwhile
