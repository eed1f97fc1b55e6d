"""A real server of this project, on the test run's backend, with a database of its own:
for the fuzzing and the kill -9 tests.

- embedded (the default run): SQLite in a temp dir, the in-memory channel layer, and the
  embedded default's server, uvicorn with the ASGI lifespan (odds jobs on its own
  thread, the lost-odds sweep at its start);
- scaled (``--backend=scaled``): a fresh database on the run's PostgreSQL, its Redis
  (database 1, so the broker's queue is this server's alone), gunicorn for HTTP as the
  Procfile has it, and on demand a Celery worker and beat.

The servers run the production settings (``config.settings``), not the tests' own.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

from . import servers

ROOT = Path(__file__).resolve().parents[1]
CELERY = (sys.executable, "-m", "celery", "-A", "config")
WORKER = (*CELERY, "worker", "--pool", "solo", "--without-gossip", "--without-mingle")  # one task at a time


def scaled() -> bool:
    """The run's backend: tests.scaled sets DATABASE_URL for ``--backend=scaled``."""
    return bool(os.environ.get("DATABASE_URL"))


@dataclass
class Served:
    root: Path
    env: dict[str, str] = field(default_factory=dict)
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    port: int = field(default_factory=servers.free_port)
    database: str | None = None

    @classmethod
    def create(cls, root: Path, **settings: str) -> Served:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATA_DIR": str(root), **settings}
        for name in ("TASKS_INLINE", "DB_POOL_MAX_SIZE", "DATABASE_URL", "REDIS_URL"):
            env.pop(name, None)
        served = cls(root, env)
        if scaled():
            served.database = f"served_{uuid.uuid4().hex[:10]}"
            served.env["DATABASE_URL"] = _postgres(f"CREATE DATABASE {served.database}") + served.database
            served.env["REDIS_URL"] = os.environ["REDIS_URL"].rsplit("/", 1)[0] + "/1"
            served.redis("flushdb")
        served.manage("migrate", "-v0")
        return served

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    def table(self, slug: str) -> str:
        """A new table; its ingest token."""
        return self.manage("table_create", "--slug", slug, "--name", slug.title()).splitlines()[-1].strip()

    def spawn(self, name: str, *command: str) -> None:
        with (self.root / f"{name}.log").open("a") as log:  # the child keeps its own copy
            self.processes[name] = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )

    def start_http(self) -> None:
        """The HTTP server, answering once this returns."""
        if scaled():
            command = servers.gunicorn(self.port, workers=2, threads=4)
        else:
            command = [*servers.uvicorn(self.port), "--lifespan", "on"]
        self.processes["http"] = servers.start_server(
            command, url=self.url, log=self.root / "http.log", env=self.env, new_session=True
        )

    def start_workers(self) -> None:
        """A Celery worker and beat (scaled only: the embedded default needs neither)."""
        self.spawn("worker", *WORKER)
        self.spawn("beat", *CELERY, "beat", "--schedule", str(self.root / "beat-schedule"))

    def kill(self, name: str) -> None:
        """kill -9 the process and every process it started (gunicorn's workers)."""
        process = self.processes.pop(name)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    def redis(self, *command: str) -> None:
        port = self.env["REDIS_URL"].rsplit(":", 1)[1].split("/")[0]
        subprocess.run(["redis-cli", "-p", port, "-n", "1", *command], check=True, capture_output=True)

    def audit(self) -> dict:
        """What the database holds, checked against the rules (tests/audit.py)."""
        done = subprocess.run(
            [sys.executable, "-m", "tests.audit"], cwd=ROOT, env=self.env, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    def stop(self) -> None:
        for name in list(self.processes):
            process = self.processes.pop(name)
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if self.database:
            _postgres(f"DROP DATABASE IF EXISTS {self.database} WITH (FORCE)")


def _postgres(sql: str) -> str:
    """Run ``sql`` on the run's PostgreSQL server; returns the server's URL, ending in ``/``."""
    base = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/"
    with psycopg.connect(base + "postgres", autocommit=True) as connection:
        connection.execute(sql.encode())
    return base
