"""Load on the scaled-out stack, in the Procfile's shape: real PostgreSQL, Redis,
gunicorn (threaded workers) for HTTP, uvicorn processes for the websockets and a Celery
worker on loopback, started here and stopped after. Dealers post to gunicorn; pages
connect to uvicorn.

Each HTTP server is a gunicorn of its own, on its own port, and each dealer alternates
between them, as between the websocket servers. The workers of one gunicorn share its
socket, and a kept-alive connection stays with the worker that accepted it: of twenty
dealers connecting at once, one worker took 15 to 18 here, and the other sat idle
(``--http-servers 1 --workers 2`` shows that). Behind the README's proxy each request is
a connection of its own, accepted by whichever worker is free first.

- fan-out: N websocket clients split over 20 tables and the lobby, across both servers;
  the tables' dealers post in turn at a steady rate overall. For
  each round and each client, the latency from the POST to the first push showing
  that state (or a later one); rounds a client never saw are lost. Server memory per
  connection is the servers' growth while the clients connect, after each server's
  first page of every table and the lobby (what later pages share); the figure since
  start keeps those first pages in.
- ingest: 20 concurrent dealer clients posting rounds as fast as the server answers,
  with no page open (recording alone), then with every table page and the lobby open
  (each change rendered and pushed, at most once per PUSH_INTERVAL per table).

    python -m benchmarks.load                      # both, with the issue's figures
    python -m benchmarks.load fanout --clients 1000 --seconds 60 --rate 10
    python -m benchmarks.load ingest --seconds 30 --dealers 20 --pages 21
    python -m benchmarks.load ingest --http-servers 2 --workers 1 --threads 4 --servers 2 --deflate off
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import http.client
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import InvalidHandshake

from tables.game.shoe import DealingShoe
from tests.servers import PostgresCluster, RedisServer, free_port, gunicorn, uvicorn

ROOT = Path(__file__).resolve().parents[1]
TABLES = 20
VERSION = re.compile(r'data-table="(baccarat-\d+)" data-version="(\d+):(\d+):')  # a lobby card, a whole live part
CARD_VERSION = re.compile(r'data-table="(baccarat-\d+)" data-version="([0-9:]+)"')
PAGE_VERSION = re.compile(r'id="game-info" data-table="[^"]+" data-version="([0-9:]+)"')  # what a table page shows
# A delta to a table page names its state on its game info alone (the page knows its table).
DELTA_VERSION = re.compile(r'<section id="game-info" [^>]*data-version="(\d+):(\d+):')
FIRST_PAGES = TABLES + 1  # a page of each table and the lobby on each server, before the clients
HEAD = 4096  # a push shows its state in its first element (a card, or the table's game info)


class Dealer:
    """A table's dealer: real shoes, dealt by the rules, a new one when the cut card says."""

    def __init__(self, stack: Stack, slug: str) -> None:
        self.stack, self.slug, self.shoe = stack, slug, DealingShoe.shuffled()

    def round(self, url: str) -> dict[str, Any]:
        if self.shoe.finished:
            post(url, self.slug, "shoes", self.stack.tokens[self.slug])
            self.shoe = DealingShoe.shuffled()
        outcome = self.shoe.deal()
        cards = {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}
        return post(url, self.slug, "rounds", self.stack.tokens[self.slug], cards)["round"]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else float("nan")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def run_together(threads: list[threading.Thread]) -> None:
    """Start every thread, then wait for them all."""
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class ServerCPU:
    """The servers' CPU from now on: gunicorn's workers (HTTP) and uvicorn (websockets:
    the stack's, or ``ws_pids``)."""

    def __init__(self, stack: Stack, ws_pids: list[int] | None = None) -> None:
        self.http = {pid: cpu_seconds(pid) for pid in stack.http_pids()}
        self.ws = {pid: cpu_seconds(pid) for pid in (stack.ws_pids() if ws_pids is None else ws_pids)}

    def since(self, elapsed: float) -> dict[str, float]:
        """Share of one core each group used over ``elapsed`` seconds since this was made."""
        http = sum(cpu_seconds(pid) - before for pid, before in self.http.items()) / elapsed
        ws = sum(cpu_seconds(pid) - before for pid, before in self.ws.items()) / elapsed
        return {"all": http + ws, "http": http, "ws": ws}


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (gunicorn's workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
        except OSError:
            pass  # ended meanwhile
    return found


@dataclass
class Stack:
    """PostgreSQL, Redis, ``http_servers`` gunicorns with ``workers`` processes of
    ``threads`` threads each for HTTP, ``servers`` uvicorn processes for the websockets
    and a Celery worker, with TABLES tables."""

    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="bench-load-")))
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    http_urls: list[str] = field(default_factory=list)  # where dealers post (gunicorn)
    ws_urls: list[str] = field(default_factory=list)  # where pages connect (uvicorn)
    tokens: dict[str, str] = field(default_factory=dict)
    extra: dict[str, str] = field(default_factory=dict)
    servers: int = 2
    http_servers: int = 2
    workers: int = 1
    threads: int = 4
    deflate: bool = False

    def env(self) -> dict[str, str]:
        return {**os.environ, **self.extra, "DATA_DIR": str(self.root), "LOG_LEVEL": "WARNING"}

    def manage(self, *args: str) -> str:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env(), capture_output=True)
        done.check_returncode()
        return done.stdout.decode().strip()

    def spawn(self, name: str, *command: str) -> None:
        with (self.root / f"{name}.log").open("w") as log:
            self.processes[name] = subprocess.Popen(
                command, cwd=ROOT, env=self.env(), stdout=log, stderr=subprocess.STDOUT
            )

    @contextmanager
    def running(self) -> Iterator[Stack]:
        self.postgres, self.redis = PostgresCluster().start(), RedisServer().start()
        self.extra = {"DATABASE_URL": self.postgres.create_database("load"), "REDIS_URL": self.redis.url}
        # Every client here comes from one address: the cap per address would refuse them.
        self.extra["WS_MAX_PER_ADDRESS"] = str(resource.getrlimit(resource.RLIMIT_NOFILE)[1])
        finished = False
        try:
            self.manage("migrate", "-v0")
            for n in range(1, TABLES + 1):
                slug = f"baccarat-{n}"
                self.tokens[slug] = self.manage("table_create", "--slug", slug, "--name", f"Baccarat {n}")
            # The worker's odds only use CPU nothing else wants (SCHED_IDLE), as on a
            # machine of its own: recording and pushes come first.
            celery = ("-m", "celery", "-A", "config", "worker", "--pool", "solo", "-l", "warning")
            self.spawn("worker", "chrt", "--idle", "0", sys.executable, *celery)
            for name in self.http_names():
                port = free_port()
                self.spawn(name, *gunicorn(port, self.workers, self.threads), "--log-level", "warning")
                self.http_urls.append(f"http://127.0.0.1:{port}")
            for name in self.ws_names():
                port = free_port()
                self.spawn(name, *uvicorn(port, self.deflate), "--no-access-log", "--log-level", "warning")
                self.ws_urls.append(f"http://127.0.0.1:{port}")
            for url in self.http_urls + self.ws_urls:
                self._wait(url)
            deadline = time.monotonic() + 30
            while len(self.http_pids()) < self.http_servers * self.workers and time.monotonic() < deadline:
                time.sleep(0.1)
            for slug in self.tokens:
                post(self.http_urls[0], slug, "shoes", self.tokens[slug])
            yield self
            finished = True
        finally:
            for process in self.processes.values():
                process.terminate()
            for process in self.processes.values():
                process.wait(timeout=20)
            self.redis.destroy()
            self.postgres.destroy()
            if finished:
                shutil.rmtree(self.root, ignore_errors=True)
            else:
                print(f"  the servers' logs are in {self.root}", file=sys.stderr, flush=True)

    @staticmethod
    def _wait(url: str) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                request("GET", url, "/api/openapi.json")
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"{url} did not start")

    def http_pids(self) -> list[int]:
        """gunicorn's workers (a master only watches them)."""
        return [pid for name in self.http_names() for pid in children(self.processes[name].pid)]

    def http_names(self) -> list[str]:
        return [f"gunicorn-{k + 1}" for k in range(self.http_servers)]

    def ws_pids(self) -> list[int]:
        return [self.processes[name].pid for name in self.ws_names()]

    def ws_names(self) -> list[str]:
        return [f"uvicorn-{k + 1}" for k in range(self.servers)]


_connections = threading.local()
HEADERS: dict[str, str] = {}  # sent with every request (a proxy's, when the stack runs behind one)


def request(method: str, url: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None):
    """(status, body) over one keep-alive connection per thread and server; a kept
    connection the server has closed is opened again once."""
    pool = _connections.__dict__.setdefault("pool", {})
    for attempt in (1, 2):
        if url not in pool:
            pool[url] = http.client.HTTPConnection(url.removeprefix("http://"), timeout=30)
        connection = pool[url]
        try:
            connection.request(method, path, body=body, headers={**HEADERS, **(headers or {})})
            response = connection.getresponse()
            return response.status, response.read()
        except (OSError, http.client.HTTPException):
            connection.close()
            del pool[url]
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def post(url: str, slug: str, path: str, token: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    status, answer = request("POST", url, f"/api/tables/{slug}/{path}", json.dumps(body or {}).encode(), headers)
    if status not in (200, 201):
        raise RuntimeError(f"POST {path}: {status} {answer[:200]!r}")
    return json.loads(answer)


# ---------------------------------------------------------------------------- fan-out


@dataclass(frozen=True)
class Hello:
    """What the clients say when they connect. Browser-like (``shown`` given): each socket
    from an address of its own, as the proxy names it (X-Forwarded-For), saying the
    versions a page loaded just before shows (``shown``: slug -> version; the lobby says
    every card's), as static/js/live.js does. Otherwise every socket from 127.0.0.1,
    saying it shows nothing (each is sent the whole part, or told to ask later)."""

    shown: dict[str, str] | None = None  # a table page's version, by slug
    cards: dict[str, str] = field(default_factory=dict)  # a lobby card's, by slug

    def of(self, table: str) -> dict[str, str]:
        if self.shown is None:
            return {}
        return {table: self.shown[table]} if table else dict(self.cards)

    def headers(self, i: int) -> dict[str, str]:
        return {} if self.shown is None else {"X-Forwarded-For": f"10.{i // 62500}.{i // 250 % 250}.{1 + i % 250}"}


def loaded_now(url: str) -> Hello:
    """What the pages loaded now say: each table page its table's version, the lobby every card's."""
    shown = {}
    for n in range(1, TABLES + 1):
        status, body = request("GET", url, f"/tables/baccarat-{n}/")
        found = PAGE_VERSION.search(body.decode())
        if status != 200 or found is None:
            raise RuntimeError(f"table page baccarat-{n}: {status}")
        shown[f"baccarat-{n}"] = found.group(1)
    status, body = request("GET", url, "/")
    cards = dict(CARD_VERSION.findall(body.decode()))
    if status != 200 or len(cards) != TABLES:
        raise RuntimeError(f"lobby: {status}, {len(cards)} cards")
    return Hello(shown, cards)


def page_socket(url: str, path: str, hello: Hello, i: int) -> Any:
    """The websocket of the ``i``-th client's page at ``url`` + ``path``, opened as
    :class:`Hello` says (an address of its own, or 127.0.0.1)."""
    return connect(
        url.replace("http", "ws", 1) + path,
        origin=url,  # type: ignore[arg-type]
        max_size=None,
        open_timeout=120,
        additional_headers=hello.headers(i),
    )


def client_main(
    urls: list[str], first: int, count: int, total: int, ready: Any, results: Any, stop: Any, hello: Hello = Hello()
) -> None:
    """One client process: ``count`` websockets; reports when each first saw each state."""
    asyncio.run(_clients(urls, first, count, total, ready, results, stop, hello))


async def _clients(
    urls: list[str], first: int, count: int, total: int, ready: Any, results: Any, stop: Any, hello: Hello
) -> None:
    seen: dict[int, dict[str, tuple[int, int]]] = {}  # client -> slug -> newest (shoe, round) shown
    arrivals: list[tuple[int, str, tuple[int, int], float]] = []  # client, slug, state, when first shown
    received = [0, 0]  # messages, bytes
    failed = [0]  # handshakes that failed (each tried again)

    async def one(i: int) -> None:
        url = urls[i % len(urls)]
        group = i % (TABLES + 1)
        table = "" if group == TABLES else f"baccarat-{group + 1}"
        path = f"/ws/tables/{table}/" if table else "/ws/lobby/"
        mine = seen.setdefault(i, {})
        for retries in range(10):
            try:
                await page(i, url, path, table, mine)
                return
            except (OSError, TimeoutError, InvalidHandshake):
                failed[0] += 1  # a browser tries again after a while (htmx: full jitter)
                await asyncio.sleep(random.random() * 2 ** min(retries, 6))
        raise RuntimeError(f"client {i} could not connect in 10 tries")

    async def page(i: int, url: str, path: str, table: str, mine: dict[str, tuple[int, int]]) -> None:
        group = i % (TABLES + 1)
        async with page_socket(url, path, hello, i) as ws:
            await ws.send(json.dumps({"have": hello.of(table)}))
            # Ready once the page shows the current state: a page that said it does, at
            # once; a table page that said nothing when its resync arrives; a lobby that
            # had nothing is sent nothing until a table changes.
            ready = group == TABLES or hello.shown is not None
            if ready:
                connected.append(i)
            async for message in ws:
                now = time.time()
                received[0] += 1
                received[1] += len(message)
                states = VERSION.findall(message, 0, HEAD)
                if not states and table:
                    states = [(table, shoe, number) for shoe, number in DELTA_VERSION.findall(message, 0, HEAD)]
                for slug, shoe, number in states:
                    state = (int(shoe), int(number))
                    if state > mine.get(slug, (0, 0)):
                        mine[slug] = state
                        arrivals.append((i, slug, state, now))
                if not ready:
                    ready = True
                    connected.append(i)

    connected: list[int] = []
    tasks = []
    for i in range(first, first + count):
        tasks.append(asyncio.create_task(one(i)))
        if len(tasks) % 50 == 0:
            await asyncio.sleep(0.05)  # don't open thousands of handshakes at once
    while len(connected) < count:
        if any(t.done() and t.exception() for t in tasks):
            raise next(t.exception() for t in tasks if t.done() and t.exception())  # type: ignore[misc]
        await asyncio.sleep(0.1)
    # No collection of this process's own while it times what arrives: with thousands of
    # sockets here a full one took 150-270 ms (gc.callbacks), and the arrivals it held
    # back made a tail of whichever side's run it fell in (a p99 at 5,000 pages of 40 or
    # 110 ms for the same server). What the dealing allocates is freed by counting.
    gc.collect()
    gc.freeze()
    gc.disable()
    ready.set()
    while not stop.is_set():
        await asyncio.sleep(0.2)
    await asyncio.sleep(3)  # the last pushes
    gc.enable()
    for task in tasks:
        task.cancel()
    results.put((arrivals, received, failed[0]))


class Published:
    """Every push the stack publishes, and when, as a server of the channel layer hears it:
    subscribed to the Redis pub/sub channels of every group (``channels_redis.pubsub``),
    on a thread of its own, from :meth:`start` to :meth:`stop`."""

    def __init__(self, redis_url: str) -> None:
        self.redis_url = redis_url
        self.first: dict[tuple[str, str], list[tuple[tuple[int, int], float]]] = defaultdict(list)  # (kind, slug)
        self.count = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, daemon=True)
        self._subscribed = threading.Event()

    def start(self) -> Published:
        self._thread.start()
        self._subscribed.wait(timeout=10)
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _listen(self) -> None:
        import msgpack
        import redis

        pubsub = redis.Redis.from_url(self.redis_url).pubsub()
        pubsub.psubscribe("asgi__group__*")
        self._subscribed.set()
        while not self._stop.is_set():
            message = pubsub.get_message(timeout=0.5)
            if message is None or message["type"] != "pmessage":
                continue
            at = time.time()
            push = msgpack.unpackb(message["data"])
            group, html = str(push.get("group", "")), str(push.get("html", ""))
            self.count += 1
            kind = "lobby" if group.startswith("lobby.") else "table" if group.startswith("table.") else ""
            if not kind:
                continue
            states = VERSION.findall(html, 0, HEAD)
            if not states and kind == "table":
                slug = group.split(".")[1]
                states = [(slug, shoe, number) for shoe, number in DELTA_VERSION.findall(html, 0, HEAD)]
            for slug, shoe, number in states:
                self.first[(kind, slug)].append(((int(shoe), int(number)), at))

    def when(self, kind: str, slug: str, state: tuple[int, int]) -> float | None:
        """When a push to ``kind``'s pages first showed ``slug`` at ``state`` or later."""
        times = [at for shown, at in self.first.get((kind, slug), []) if shown >= state]
        return min(times) if times else None


def fanout(
    stack: Stack,
    clients: int,
    seconds: float,
    rate: float,
    servers: tuple[list[str], list[int]] | None = None,
    browser_like: bool = True,
) -> dict[str, float]:
    """The fan-out to ``clients`` websockets of the stack's uvicorns, or of ``servers``
    (their addresses and process ids: benchmarks.fanout_vs_baseline's). ``browser_like``:
    the clients say hello as pages do, each from an address of its own (:class:`Hello`)."""
    import multiprocessing as mp

    urls, pids = servers or (stack.ws_urls, stack.ws_pids())
    context = mp.get_context("spawn")
    processes, per = 2, -(-clients // 2)
    ready = [context.Event() for _ in range(processes)]
    stop, results = context.Event(), context.Queue()
    # A server's first pages load what every later page shares (the channel layer's and
    # the cache's clients, the live templates): held apart, so that the figure per
    # connection is what one more page costs; the figure since start keeps them in.
    started_with = {pid: rss_kib(pid) for pid in pids}
    with watching(stack, FIRST_PAGES * len(urls), urls):
        time.sleep(2)
        hello = loaded_now(stack.http_urls[0]) if browser_like else Hello()
        before = {pid: rss_kib(pid) for pid in pids}
        connecting = time.monotonic()
        workers = [
            context.Process(
                target=client_main,
                args=(urls, k * per, min(per, clients - k * per), clients, ready[k], results, stop, hello),
            )
            for k in range(processes)
        ]
        for worker in workers:
            worker.start()
        deadline = time.monotonic() + 600
        while not all(event.is_set() for event in ready):
            if time.monotonic() > deadline or not all(worker.is_alive() for worker in workers):
                raise RuntimeError("clients did not connect")
            time.sleep(0.2)
        connect_seconds = time.monotonic() - connecting
        print(f"  {clients} clients connected and showing the tables; posting for {seconds:.0f} s", flush=True)
        time.sleep(2)
        after = {pid: rss_kib(pid) for pid in before}
        memory = sum(after[pid] - before[pid] for pid in before) / clients
        first_pages = sum(before[pid] - started_with[pid] for pid in before) / len(before) / 1024
        since_start = sum(after[pid] - started_with[pid] for pid in before) / (clients + FIRST_PAGES * len(before))
        server_cpu = ServerCPU(stack, pids)
        clients_cpu_before = sum(cpu_seconds(w.pid) for w in workers if w.pid)
        posted: list[tuple[str, tuple[int, int], float]] = []  # slug, (shoe, round), time posted
        published = Published(stack.redis.url).start()
        started = time.monotonic()

        def deal(k: int, dealer: Dealer) -> None:
            """Table k's rounds: the k-th of every TABLES in the schedule, so the tables take
            turns at ``rate`` overall, and a slow answer only delays its own table."""
            for turn in range(k, int(seconds * rate), TABLES):
                time.sleep(max(0.0, turn / rate - (time.monotonic() - started)))
                at = time.time()
                answer = dealer.round(stack.http_urls[turn % len(stack.http_urls)])
                posted.append((dealer.slug, (answer["shoe"], answer["number"]), at))

        threads = [threading.Thread(target=deal, args=(k, Dealer(stack, s))) for k, s in enumerate(stack.tokens)]
        run_together(threads)
        elapsed = time.monotonic() - started
        cpu = server_cpu.since(elapsed)
        clients_cpu = (sum(cpu_seconds(w.pid) for w in workers if w.pid) - clients_cpu_before) / elapsed
        pushes = published.count
        stop.set()
        arrivals, messages, failed = [], 0, 0
        for _ in workers:
            theirs, (received, _bytes), failures = results.get(timeout=120)
            arrivals += theirs
            messages += received
            failed += failures
        published.stop()
        for worker in workers:
            worker.join(timeout=30)
        return _latencies(posted, arrivals, clients, published) | {
            "connect all pages, s": connect_seconds,
            "failed handshakes": failed,
            "pushes published": pushes,
            "messages delivered": messages,
            "websocket CPU per 1,000 messages delivered, ms": 1e6 * cpu["ws"] * elapsed / max(1, messages),
            "server memory per connection, KiB": memory,
            "server memory for its first pages, MiB a server": first_pages,
            "server memory since start per connection, KiB": since_start,
            **cpu_figures(cpu),
            # The HTTP side's per round (issue 33's figure): gunicorn's workers record each
            # round and render and send its pushes; the Celery worker's odds are not in it.
            "HTTP side's CPU per recorded round, ms": 1000 * cpu["http"] * elapsed / max(1, len(posted)),
            "websocket processes' CPU, s": cpu["ws"] * elapsed,
            "client CPU (both client processes), % of one core": 100 * clients_cpu,
            "rounds posted": len(posted),
            "rounds per second": len(posted) / elapsed,
        }


def _latencies(
    posted: list[tuple[str, tuple[int, int], float]],
    arrivals: list[tuple[int, str, tuple[int, int], float]],
    clients: int,
    published: Published,
) -> dict[str, float]:
    """Latency of each (round, client that should see it): from the dealer's POST, and
    from the push's publish (the first push to the client's kind of page, table or lobby,
    that showed that state or a later one), until the client first showed that state or
    a later one. A round no such state reached is lost."""
    by_client: dict[tuple[int, str], list[tuple[tuple[int, int], float]]] = defaultdict(list)
    for client, slug, state, at in arrivals:
        by_client[(client, slug)].append((state, at))
    latencies, from_publish, lost = [], [], 0
    for client in range(clients):
        group = client % (TABLES + 1)
        kind = "lobby" if group == TABLES else "table"
        for slug, state, at in posted:
            if group != TABLES and slug != f"baccarat-{group + 1}":
                continue
            times = [t for shown, t in by_client.get((client, slug), []) if shown >= state]
            if times:
                latencies.append((min(times) - at) * 1000)
                publish = published.when(kind, slug, state)
                if publish is not None:
                    from_publish.append((min(times) - publish) * 1000)
            else:
                lost += 1
    return {
        "publish to client p50, ms": percentile(from_publish, 0.5),
        "publish to client p99, ms": percentile(from_publish, 0.99),
        "latency p50, ms": percentile(latencies, 0.5),
        "latency p95, ms": percentile(latencies, 0.95),
        "latency p99, ms": percentile(latencies, 0.99),
        "latency max, ms": max(latencies, default=float("nan")),
        "deliveries": len(latencies),
        "lost": lost,
    }


# ---------------------------------------------------------------------------- ingest


@contextmanager
def watching(stack: Stack, pages: int, urls: list[str] | None = None) -> Iterator[None]:
    """``pages`` websocket clients (table pages and the lobby) of the stack's uvicorns (or
    of ``urls``) open meanwhile, in a process of their own, so that every change is
    rendered and pushed."""
    import multiprocessing as mp

    if not pages:
        yield
        return
    context = mp.get_context("spawn")
    ready, stop, results = context.Event(), context.Event(), context.Queue()
    process = context.Process(target=client_main, args=(urls or stack.ws_urls, 0, pages, pages, ready, results, stop))
    process.start()
    if not ready.wait(timeout=120):
        raise RuntimeError("pages did not connect")
    try:
        yield
    finally:
        stop.set()
        results.get(timeout=60)
        process.join(timeout=30)


def pace_ms() -> float:
    """A fixed pure-Python loop, median of five, in ms: how fast this machine is right
    now. Its speed drifts from run to run (shared hosts), and rounds/s with it."""
    times = []
    for _ in range(5):
        start = time.perf_counter()
        sum(i * i for i in range(300_000))
        times.append((time.perf_counter() - start) * 1000)
    return sorted(times)[2]


def ingest(stack: Stack, seconds: float, dealers: int) -> dict[str, float]:
    """Each dealer owns one table and posts its rounds back to back, alternating servers."""
    pace = pace_ms()
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    deadline = time.monotonic() + seconds
    server_cpu = ServerCPU(stack)
    dealers_cpu_before = cpu_seconds(os.getpid())

    def deal(k: int) -> None:
        dealer, n = Dealer(stack, f"baccarat-{k % TABLES + 1}"), 0
        while time.monotonic() < deadline:
            start = time.perf_counter()
            try:
                dealer.round(stack.http_urls[n % len(stack.http_urls)])
            except Exception as error:
                errors.append(str(error))
                continue
            finally:
                n += 1
            with lock:
                latencies.append((time.perf_counter() - start) * 1000)

    threads = [threading.Thread(target=deal, args=(k,)) for k in range(dealers)]
    started = time.monotonic()
    run_together(threads)
    elapsed = time.monotonic() - started
    cpu = server_cpu.since(elapsed)
    dealers_cpu = (cpu_seconds(os.getpid()) - dealers_cpu_before) / elapsed
    for error in sorted(set(errors))[:5]:
        print("  error:", error[:300], flush=True)
    return {
        "rounds recorded": len(latencies),
        "rounds per second": len(latencies) / elapsed,
        "latency p50, ms": percentile(latencies, 0.5),
        "latency p99, ms": percentile(latencies, 0.99),
        "errors": len(errors),
        **cpu_figures(cpu),
        "server CPU per round, ms": 1000 * cpu["all"] * elapsed / max(1, len(latencies)),
        "dealer clients' CPU (this process), % of one core": 100 * dealers_cpu,
        "machine pace before the run (lower: faster), ms": pace,
    }


def cpu_figures(cpu: dict[str, float]) -> dict[str, float]:
    return {
        "server CPU (all server processes), % of one core": 100 * cpu["all"],
        "  of which HTTP (gunicorn workers)": 100 * cpu["http"],
        "  of which websockets (uvicorn)": 100 * cpu["ws"],
    }


def report(title: str, figures: dict[str, float]) -> None:
    print(title, flush=True)
    for name, value in figures.items():
        print(f"  {name:48s} {value:12.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", nargs="?", choices=["all", "fanout", "ingest"], default="all")
    parser.add_argument("--clients", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--rate", type=float, default=10, help="rounds per second across the tables")
    parser.add_argument("--dealers", type=int, default=20)
    parser.add_argument("--servers", type=int, default=2, help="uvicorn processes (websockets)")
    parser.add_argument("--http-servers", type=int, default=2, help="gunicorns (HTTP), each on its own port")
    parser.add_argument("--workers", type=int, default=1, help="worker processes of each gunicorn")
    parser.add_argument("--threads", type=int, default=4, help="threads of each gunicorn worker")
    parser.add_argument("--deflate", choices=["on", "off"], default="off", help="websockets' permessage-deflate")
    parser.add_argument("--pages", type=int, default=0, help="pages open during ingest (21: each table, the lobby)")
    args = parser.parse_args()
    shape = {"http_servers": args.http_servers, "workers": args.workers, "threads": args.threads}
    shape |= {"servers": args.servers, "deflate": args.deflate == "on"}
    if args.what in ("all", "ingest"):
        for pages in (0, TABLES + 1) if args.what == "all" else (args.pages,):
            with Stack(**shape).running() as stack, watching(stack, pages):
                title = f"Ingest: {args.dealers} dealers, {args.seconds:.0f} s, {pages} pages open"
                report(title, ingest(stack, args.seconds, args.dealers))
    if args.what in ("all", "fanout"):
        for clients in args.clients:
            with Stack(**shape).running() as stack:
                title = f"Fan-out: {clients} clients, {args.rate:g} rounds/s, {args.seconds:.0f} s"
                report(title, fanout(stack, clients, args.seconds, args.rate))


if __name__ == "__main__":
    main()
