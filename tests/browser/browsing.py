"""The browser tests' tools: a real ASGI server on loopback (:class:`LiveServer`), pages
of the sizes the product is used on, screenshots kept for people to look at."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests import servers
from tests.managing import Manager, migrated_database

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class LiveServer:
    """uvicorn serving config.asgi on a temp database; restartable on the same port."""

    data_dir: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    tokens: dict[str, str] = field(default_factory=dict)
    manager: Manager | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        env = {**os.environ, "DATA_DIR": str(self.data_dir)}
        for name in ("DATABASE_URL", "REDIS_URL", "SIMULATE_INTERVAL"):
            env.pop(name, None)
        return env

    def manage(self, *args: str) -> str:
        """``manage.py *args`` on the server's database: its output, or CalledProcessError
        (run by one Django process kept for the server: tests/managing.py)."""
        return self._manager().run(*args)

    def _manager(self) -> Manager:
        if self.manager is None:
            self.manager = Manager(self.env(), self.data_dir / "manage.log")
        return self.manager

    def close(self) -> None:
        """Stop the server and its manage.py process, both shutting down at once."""
        if self.manager is not None:
            self.manager.closing()
        self.stop()
        if self.manager is not None:
            self.manager.close()

    def command(self) -> list[str]:
        return [sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(self.port), *servers.WS]

    def prepare(self) -> None:
        """What the server needs before its first start: its database, a copy of one
        migrated once for the whole run (migrating costs each server 2-3 s); and its
        manage.py process, started now so that Django loads in it while the server starts
        (each takes about a second, which the first command waited for after the server)."""
        shutil.copyfile(migrated_database(self.env()), self.data_dir / "db.sqlite3")
        self._manager().start()

    def start(self) -> None:
        self.process = servers.start_server(
            self.command(), url=self.url, log=self.data_dir / "server.log", env=self.env(), timeout=20
        )

    def stop(self) -> None:
        if self.process:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
            self.process = None

    def table(self, slug: str, name: str, audience: str = "full_shoe") -> None:
        """A new table (``audience``: what its public pages show of the shoe left)."""
        command = ("table_create", "--slug", slug, "--name", name, "--dealer", "Anna", "--audience", audience)
        self.tokens[slug] = self.manage(*command)

    def record(self, slug: str, rounds: list[dict[str, Any]]) -> None:
        """Record ``rounds`` (each a round's body as the API takes it) in the table's open
        shoe, by the service the API's POST calls, in one manage.py command: the rows that
        posting them one by one makes (each round's odds and the shoe's checks computed as
        the server's would be: inline, tests' settings), without an HTTP request each (a
        third of a post's time). For the history a table has before its pages open: what
        a page must be pushed is posted."""
        self.manage("shell", "-c", RECORD.format(slug=slug, rounds=json.dumps(rounds)))

    def post(self, slug: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        request = urllib.request.Request(
            f"{self.url}/api/tables/{slug}/{path}",
            data=json.dumps(body or {}).encode(),
            headers={"Authorization": f"Bearer {self.tokens[slug]}", "Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())


# Run by the server's manage.py process (LiveServer.record): round_record is what the
# API's round POST calls, with the table its token opens.
RECORD = """
import json
from tables import services
from tables.models import Table
table = Table.objects.get(slug={slug!r})
for body in json.loads({rounds!r}):
    services.round_record(table=table, **body)
"""


def serving(live: LiveServer) -> Iterator[LiveServer]:
    """``live`` prepared, started, and stopped after (a module fixture's body), however it
    ends: a start that fails, or a loop over it left by an exception (the gallery's),
    leaves no server or manage.py process behind."""
    try:
        live.prepare()
        live.start()
        yield live
    finally:
        live.close()


def refused_by_policy(page: Any) -> list[str]:
    """Every Content-Security-Policy refusal the page's console reports, as it happens."""
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    return refused


# The screens the product is used on: phones, a desktop, the TVs at the tables and on
# the lobby wall (landscape and portrait).
SIZES = {
    "phone-360": (360, 740),
    "phone-390": (390, 844),
    "desktop": (1440, 900),
    "tv": (1920, 1080),
    "tv-portrait": (1080, 1920),
}
SCREENS = ARTIFACTS / "screens"


@contextmanager
def sized_page(browser: Any, size: str) -> Iterator[Any]:
    """A page of one of :data:`SIZES` (a phone's is a touch screen); the test fails if the
    site's policy refused anything the page tried to run or load."""
    width, height = SIZES[size]
    phone = size.startswith("phone")
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone)
    page = context.new_page()
    refused = refused_by_policy(page)
    try:
        yield page
    finally:
        context.close()
    assert refused == [], f"the Content-Security-Policy refused what a page needs: {refused}"


def screenshot(page: Any, name: str, *, full_page: bool = True) -> Path:
    """Keep a screenshot for people to look at (test-artifacts/screens/<name>.png)."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    path = SCREENS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def page_width(page: Any) -> int:
    """How wide the page's content is: wider than the viewport means it scrolls sideways."""
    return int(page.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"))


def past_the_side(page: Any) -> list[str]:
    """The first elements that run past the viewport's right edge (what to look at when a
    page scrolls sideways): tag, id, class and right edge."""
    return page.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .map(e => [e, Math.round(e.getBoundingClientRect().right)]).filter(([e, right]) => right > innerWidth + 1)
            .slice(0, 8).map(([e, right]) => `${e.tagName}#${e.id}.${e.className} ${right}`)"""
    )


# A table whose game info shows its limits (as a casino sets them), and what a display must show whole on its screen.
LIMITS = {
    "banker": [10, 5000], "player": [10, 5000], "tie": [10, 1000], "banker_pair": [10, 500], "player_pair": [10, 500],
}  # fmt: skip


def table_with_limits(server: LiveServer, slug: str, name: str) -> None:
    server.table(slug, name)
    update = f"from tables.models import Table; Table.objects.filter(slug={slug!r}).update(limits={LIMITS!r})"
    server.manage("shell", "-c", update)


def off_screen(page: Any) -> list[str]:
    """What the display shows that does not lie wholly on the screen (none may)."""
    return page.evaluate(
        """() => {
            const w = innerWidth, h = innerHeight;
            const shown = ['#game-info h1', '#game-info .limits', '#stats .stat-counts', '#last-round',
                           '#last-round .verdict',
                           ...[...document.querySelectorAll('#display svg.road')].map(s => '#' + s.id)];
            return shown.filter(s => {
                const r = document.querySelector(s).getBoundingClientRect();
                const outside = r.left < 0 || r.top < 0 || r.right > w + 0.5 || r.bottom > h + 0.5;
                return r.width === 0 || r.height === 0 || outside;
            });
        }"""
    )


def make_reviewer(server: LiveServer, username: str, password: str) -> None:
    """Staff in the "reviewer" group, as an owner makes one."""
    server.manage(
        "shell",
        "-c",
        "from django.contrib.auth.models import Group, User; "
        f"u = User.objects.create_user({username!r}, password={password!r}, is_staff=True); "
        "u.groups.add(Group.objects.get(name='reviewer'))",
    )


def log_in(server: LiveServer, page: Any, next_path: str, username: str, password: str) -> None:
    """Sign in to admin on ``page`` and land on ``next_path``."""
    page.goto(f"{server.url}/admin/login/?next={next_path}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("input[type=submit]")
