"""The browser tests' tools: a real ASGI server on loopback (:class:`LiveServer`), pages
of the sizes the product is used on, screenshots kept for people to look at."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests import servers

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
    manager: subprocess.Popen[str] | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        env = {**os.environ, "DATA_DIR": str(self.data_dir)}
        for name in ("DATABASE_URL", "REDIS_URL", "SIMULATE_INTERVAL"):
            env.pop(name, None)
        return env

    def manage(self, *args: str) -> str:
        """``manage.py *args`` on the server's database: its output, or CalledProcessError.

        Run by one Django process kept for the server (:data:`MANAGER`), as manage.py
        runs it (the same command, its system checks first): starting Django for each
        command cost 1-3 s, and a test makes dozens."""
        if self.manager is None or self.manager.poll() is not None:
            with (self.data_dir / "manage.log").open("a") as log:  # the child keeps its own copy
                self.manager = subprocess.Popen(
                    [sys.executable, "-c", MANAGER],
                    cwd=ROOT,
                    env=self.env(),
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=log,
                    text=True,
                )
        assert self.manager.stdin is not None and self.manager.stdout is not None
        self.manager.stdin.write(json.dumps(args) + "\n")
        self.manager.stdin.flush()
        for line in self.manager.stdout:
            if line.startswith(ANSWER):
                done = json.loads(line[len(ANSWER) :])
                if done["returncode"]:
                    raise subprocess.CalledProcessError(
                        done["returncode"], ["manage.py", *args], done["stdout"], done["stderr"]
                    )
                return str(done["stdout"]).strip()
        raise RuntimeError(f"manage.py {' '.join(args)}: its process exited (see {self.data_dir / 'manage.log'})")

    def close(self) -> None:
        """Stop the server and its manage.py process."""
        self.stop()
        if self.manager is not None:
            self.manager.communicate(timeout=10)  # its input closed: it exits
            self.manager = None

    def command(self) -> list[str]:
        return [sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(self.port), *servers.WS]

    def prepare(self) -> None:
        """What the server needs before its first start: its database, a copy of one
        migrated once for the whole run (migrating costs each server 2-3 s)."""
        shutil.copyfile(migrated_database(self.env()), self.data_dir / "db.sqlite3")

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

    def table(self, slug: str, name: str) -> None:
        self.tokens[slug] = self.manage("table_create", "--slug", slug, "--name", name, "--dealer", "Anna")

    def post(self, slug: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        request = urllib.request.Request(
            f"{self.url}/api/tables/{slug}/{path}",
            data=json.dumps(body or {}).encode(),
            headers={"Authorization": f"Bearer {self.tokens[slug]}", "Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())


ANSWER = "\0manage.py answers: "  # what starts the manage.py process's answer (a command may print too)

# The manage.py process: reads one command a line (its arguments as a JSON list) and runs
# it as manage.py would (the command's class through call_command, its system checks
# first; a CommandError or any exception a failure), then answers with what it wrote and
# whether it failed. No database connection is kept between commands.
MANAGER = f"""
import io, json, os, sys, traceback
from contextlib import redirect_stderr, redirect_stdout

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django

django.setup()
from django.core.management import call_command, get_commands, load_command_class
from django.db import connections

answers = sys.stdout
for line in sys.stdin:
    out, err, returncode = io.StringIO(), io.StringIO(), 0
    try:
        with redirect_stdout(out), redirect_stderr(err):
            name, *args = json.loads(line)
            command = load_command_class(get_commands()[name], name)
            checks = {{"skip_checks": False}} if command.requires_system_checks else {{}}
            call_command(command, *args, stdout=out, stderr=err, **checks)
    except SystemExit as exit:
        returncode = 0 if exit.code is None else exit.code if isinstance(exit.code, int) else 1
    except Exception:
        traceback.print_exc(file=err)
        returncode = 1
    finally:
        connections.close_all()
    done = {{"returncode": returncode, "stdout": out.getvalue(), "stderr": err.getvalue()}}
    answers.write({ANSWER!r} + json.dumps(done) + "\\n")
    answers.flush()
"""

_migrated: Path | None = None  # the directory of the run's migrated database


def migrated_database(env: dict[str, str]) -> Path:
    """A SQLite database migrated once for the run (in a temp dir removed at exit), which
    every server's database starts as: the same as migrating each."""
    global _migrated
    if _migrated is None:
        directory = Path(tempfile.mkdtemp(prefix="migrated-"))
        atexit.register(shutil.rmtree, directory, True)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"],
            cwd=ROOT,
            env={**env, "DATA_DIR": str(directory)},
            capture_output=True,
            check=True,
        )
        _migrated = directory
    return _migrated / "db.sqlite3"


def serving(live: LiveServer) -> Iterator[LiveServer]:
    """``live`` prepared, started, and stopped after (a module fixture's body)."""
    live.prepare()
    live.start()
    yield live
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
