"""Table screens as a floor runs them, and the stack they watch, for the reconnect
storm's test and benchmark (tests/deploy/test_reconnect_storm.py,
benchmarks/reconnect_storm.py): each screen from an address of its own behind the
proxy, saying what it shows on every (re)connect."""

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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tables.game.shoe import DealingShoe
from tables.page_version import PageVersion
from tests import servers
from tests.managing import Manager

OURS = "config.asgi:application"

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
    app: str = "config.asgi:application"
    running: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def ws_log(self) -> Path:
        return self.root / "ws.log"

    def start_ws(self) -> None:
        command = [*servers.uvicorn(self.ws_port), "--workers", "2"]  # the Procfile's ws
        command[command.index("config.asgi:application")] = self.app
        self.running["ws"] = (
            servers.start_server(
                command, url=f"http://127.0.0.1:{self.ws_port}", log=self.ws_log, env=self.env, new_session=True
            )
            if self.app == OURS
            else _started(command, self)
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


def _started(command: list[str], stack: Stack) -> subprocess.Popen[bytes]:
    """A websocket server that serves no API (the benchmark's baseline): started once its
    port answers anything."""
    with stack.ws_log.open("a") as out:
        process = subprocess.Popen(
            command, cwd=servers.ROOT, env=stack.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{stack.ws_port}/", timeout=2).close()
            return process
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise RuntimeError(f"the server did not start: see {stack.ws_log}") from None
            time.sleep(0.1)


@contextmanager
def running(tmp_path: Path, tables: int, app: str = OURS) -> Iterator[Stack]:
    """PostgreSQL, Redis, the Procfile's web (gunicorn, two workers) and ws (uvicorn, two
    workers, serving ``app``) with ``tables`` tables ``t1``..., on loopback."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # 2,000 sockets each side
    postgres, redis = servers.PostgresCluster().start(migrated=True), servers.RedisServer().start()
    (tmp_path / "prometheus").mkdir()
    env = {**os.environ, "DATABASE_URL": postgres.create_database("storm", migrated=True), "REDIS_URL": redis.url,
           "DATA_DIR": str(tmp_path), "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "prometheus")}  # fmt: skip
    env.pop("TASKS_INLINE", None)
    manager = Manager(env, tmp_path / "manage.log")
    web_port = servers.free_port()
    made = Stack(tmp_path, env, f"http://127.0.0.1:{web_port}", servers.free_port(), {}, manager, app)
    try:
        for n in range(1, tables + 1):
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


class Storm:
    """The reconnect storm: ``count`` screens over the stack's tables, each shoe ``dealt``
    rounds in, all connected; the websocket server killed (SIGKILL, its workers too), two
    rounds a table dealt meanwhile, the server started again; how long until every screen
    reconnected and shows its table as it is now (:attr:`caught_up`, or ``within``
    seconds passed). A server that cannot resync (the benchmark's baseline) counts a
    screen current once it reconnects (``resyncs=False``)."""

    def __init__(self, stack: Stack, count: int, *, dealt: int, resyncs: bool = True) -> None:
        self.stack, self.dealt, self.resyncs = stack, dealt, resyncs
        self.shoes = {slug: DealingShoe.shuffled(rng=random.Random(n)) for n, slug in enumerate(stack.tokens)}
        for slug, shoe in self.shoes.items():
            stack.post(slug, "shoes", {})
            for number in range(1, dealt + 1):  # mid-shoe: a screen behind is sent a whole part
                stack.deal(slug, shoe, number)
        loaded = {slug: stack.shown(slug) for slug in stack.tokens}
        ws = f"ws://127.0.0.1:{stack.ws_port}"
        slugs = list(stack.tokens)
        self.screens = [
            Screen(ws, slugs[n % len(slugs)], _address(n), loaded[slugs[n % len(slugs)]]) for n in range(count)
        ]
        self.caught_up = False

    async def run(self, within: float) -> dict[str, float]:
        stop, answering = asyncio.Event(), asyncio.Event()
        answering.set()
        started = time.monotonic()
        tasks = []
        for screen in self.screens:  # a floor's screens open over a few seconds
            tasks.append(asyncio.ensure_future(screen.run(stop, answering)))
            await asyncio.sleep(0.001)
        await _until(lambda: all(s.connects for s in self.screens), 600)
        connected = time.monotonic() - started
        answering.clear()
        killed_at = time.monotonic()
        await asyncio.to_thread(self.stack.kill_ws)
        for slug, shoe in self.shoes.items():  # dealt while the screens are away
            for number in range(self.dealt + 1, self.dealt + 3):
                await asyncio.to_thread(self.stack.deal, slug, shoe, number)
        now = {slug: await asyncio.to_thread(self.stack.shown, slug) for slug in self.stack.tokens}
        await asyncio.to_thread(self.stack.start_ws)
        answering.set()
        back_at = time.monotonic()
        reconnected = await _until(lambda: all(s.connects >= 2 for s in self.screens), within)
        reconnected_after = time.monotonic() - back_at
        current = await _until(
            lambda: not self.resyncs or all(s.shown == now[s.slug] for s in self.screens), within - reconnected_after
        )
        current_after = time.monotonic() - back_at
        self.caught_up = reconnected and current
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        failures = sum((s.failures for s in self.screens), Counter())
        return {
            "connect every screen, s": connected,
            "down, s": back_at - killed_at,
            "all reconnected after, s": reconnected_after,
            "all current after, s": current_after,
            "screens not current": sum(s.shown != now[s.slug] for s in self.screens) if self.resyncs else 0,
            "failed handshakes after": sum(n for kind, n in failures.items() if kind.startswith("after")),
        }


def _address(n: int) -> str:
    return f"10.{n // 62500}.{n // 250 % 250}.{1 + n % 250}"


async def _until(condition: Callable[[], bool], seconds: float) -> bool:
    """Whether ``condition`` held within ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.1)  # the screens' own tasks run meanwhile
    return True
