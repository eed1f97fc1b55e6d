"""A real server of this project, on the test run's backend, with a database of its own:
for the fuzzing and the kill -9 tests.

- embedded (the default run): SQLite in a temp dir (a copy of one migrated once for the
  run), the in-memory channel layer, and the embedded default's server, uvicorn with the
  ASGI lifespan (odds jobs on its own thread, the lost-odds sweep at its start);
- scaled (``--backend=scaled``): a fresh database on the run's PostgreSQL (a copy of one
  migrated once for the run), its Redis
  (database 1, so the broker's queue is this server's alone), gunicorn for HTTP as the
  Procfile has it, and on demand a Celery worker and beat.

The servers run the production settings (``config.settings``), not the tests' own.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

from . import servers
from .managing import Manager, migrated_database

ROOT = Path(__file__).resolve().parents[1]
CELERY = (sys.executable, "-m", "celery", "-A", "config")
WORKER = (*CELERY, "worker", "--pool", "solo", "--without-gossip", "--without-mingle")  # one task at a time


def scaled() -> bool:
    """The run's backend: tests.scaled sets DATABASE_URL for ``--backend=scaled``."""
    return bool(os.environ.get("DATABASE_URL"))


AUDIT = "import json; from tests.audit import audit; print(json.dumps(audit()))"


@dataclass
class Served:
    root: Path
    env: dict[str, str] = field(default_factory=dict)
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    port: int = field(default_factory=servers.free_port)
    database: str | None = None
    manager: Manager | None = field(default=None, repr=False)

    @classmethod
    def create(cls, root: Path, **settings: str) -> Served:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATA_DIR": str(root), **settings}
        for name in ("TASKS_INLINE", "DB_POOL_MAX_SIZE", "DATABASE_URL", "REDIS_URL"):
            env.pop(name, None)
        served = cls(root, env)
        if scaled():
            served.env["REDIS_URL"] = os.environ["REDIS_URL"].rsplit("/", 1)[0] + "/1"
            served.database = f"served_{uuid.uuid4().hex[:10]}"
            copy = f"CREATE DATABASE {served.database} TEMPLATE {_migrated_postgres(served.env)}"
            served.env["DATABASE_URL"] = _postgres(copy) + served.database
            served.redis("flushdb")
        else:
            shutil.copyfile(migrated_database(env), root / "db.sqlite3")
        served._manager().start()  # Django loads in it while the caller starts the server
        return served

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def manage(self, *args: str) -> str:
        """``manage.py *args`` on the server's database, run by one Django process kept for
        it (tests/managing.py): starting Django for each command cost 1-3 s."""
        try:
            return self._manager().run(*args)
        except subprocess.CalledProcessError as failed:
            raise AssertionError(failed.stderr) from None

    def _manager(self) -> Manager:
        if self.manager is None:
            self.manager = Manager(self.env, self.root / "manage.log")
        return self.manager

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
        """What the database holds, checked against the rules (tests/audit.py), read by
        the kept manage.py process (the kill -9 test polls it)."""
        return json.loads(self.manage("shell", "--no-imports", "-c", AUDIT))

    def stop(self) -> None:
        if self.manager is not None:
            self.manager.closing()  # it exits while the servers stop
        for name in list(self.processes):
            process = self.processes.pop(name)
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if self.manager is not None:
            self.manager.close()
            self.manager = None
        if self.database:
            _postgres(f"DROP DATABASE IF EXISTS {self.database} WITH (FORCE)")


_template: str | None = None  # the run's migrated PostgreSQL database


def _migrated_postgres(env: dict[str, str]) -> str:
    """A database migrated once for the run, which every served database is created from
    (as a copy: CREATE DATABASE's TEMPLATE): the same as migrating each, which cost a
    server 3-5 s. The run's cluster is thrown away with it."""
    global _template
    if _template is None:
        name = f"served_migrated_{uuid.uuid4().hex[:10]}"
        url = _postgres(f"CREATE DATABASE {name}") + name
        done = subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"],
            cwd=ROOT,
            env={**env, "DATABASE_URL": url},
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        _template = name
    return _template


def _postgres(sql: str) -> str:
    """Run ``sql`` on the run's PostgreSQL server; returns the server's URL, ending in ``/``."""
    base = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/"
    with psycopg.connect(base + "postgres", autocommit=True) as connection:
        connection.execute(sql.encode())
    return base
