"""Real PostgreSQL and Redis servers for tests: started on loopback at random ports in
temp dirs, and stopped again. Under CI=true a missing server binary fails the test
run instead of skipping it (see :func:`missing`)."""

from __future__ import annotations

import atexit
import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

ROOT = Path(__file__).resolve().parents[1]

# How the Procfile serves websockets: uvicorn's stock protocol.
WS = ("--ws", "websockets-sansio")


def gunicorn(port: int, workers: int = 1, threads: int = 4) -> list[str]:
    """The Procfile's ``web`` process (HTTP: gunicorn, threaded workers) on ``port``."""
    options = f"--bind 127.0.0.1:{port} --workers {workers} --threads {threads}"
    return [sys.executable, "-m", "gunicorn", "config.wsgi", "-c", "python:config.gunicorn", *options.split()]


def uvicorn(port: int, deflate: bool = False) -> list[str]:
    """The Procfile's ``ws`` process (websockets: uvicorn, its stock protocol) on ``port``."""
    options = f"--port {port} --ws-per-message-deflate {str(deflate).lower()} --ws-max-size 65536"
    return [sys.executable, "-m", "uvicorn", "config.asgi:application", *WS, *options.split()]


def start_server(
    command: list[str],
    *,
    url: str,
    log: Path,
    env: dict[str, str] | None = None,
    timeout: float = 30,
    new_session: bool = False,
) -> subprocess.Popen[bytes]:
    """``command`` run from the project's root, its output in ``log``, once ``url``
    answers (the API's schema: every server of ours serves it). A server that exits or
    stays silent for ``timeout`` seconds fails the test, pointing at its log."""
    with log.open("a") as out:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=new_session
        )
    return answering(process, url=url, log=log, timeout=timeout)


def answering(process: subprocess.Popen[bytes], *, url: str, log: Path, timeout: float = 30) -> subprocess.Popen[bytes]:
    """``process``, a server started from the project's root with its output in ``log``,
    once ``url`` answers (what :func:`start_server` waits for: servers started side by
    side are each waited for with this)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url + "/api/openapi.json", timeout=2).close()
            return process
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise RuntimeError(f"the server did not start: see {log}") from None
            time.sleep(0.1)  # a process starting up: nothing to wait on but its port


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def postgres_bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def missing() -> str | None:
    """What is not installed of the servers these tests start, if anything."""
    if shutil.which("redis-server") is None:
        return "redis-server is not installed (apt-get install redis-server)"
    if postgres_bindir() is None:
        return "PostgreSQL is not installed (apt-get install postgresql)"
    return None


def unavailable(problem: str) -> NoReturn:
    """A server or browser these tests need is missing: under CI (whose .ci/run installs
    it) the test fails; elsewhere it is skipped."""
    import pytest

    if os.environ.get("CI") == "true":
        pytest.fail(f"{problem}: .ci/run installs it")
    pytest.skip(problem)


def _as_postgres(command: str) -> list[str]:
    """initdb refuses root: run PostgreSQL's tools as the postgres user when root."""
    return ["su", "postgres", "-c", command] if os.geteuid() == 0 else ["sh", "-c", command]


@dataclass
class PostgresCluster:
    """A throwaway cluster with trust authentication on 127.0.0.1."""

    port: int = field(default_factory=free_port)
    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="test-pg-")))

    @property
    def data(self) -> Path:
        return self.root / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def start(self, *, migrated: bool = False) -> PostgresCluster:
        """A new cluster, started; ``migrated``: a copy of the run's migrated cluster
        (:func:`migrated_cluster`), whose database ``migrated`` every database made by
        ``create_database(name, migrated=True)`` is a copy of."""
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        if migrated:
            subprocess.run(_as_postgres(f"cp -a {migrated_cluster()} {self.data}"), check=True, capture_output=True)
        else:
            subprocess.run(_as_postgres(initdb(self.data)), check=True, capture_output=True)
        self.resume()
        return self

    def resume(self) -> None:
        """Start the server on an existing cluster (after :meth:`stop`)."""
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} -c fsync=off"
        self.pg_ctl(f"-l {self.root}/log -o '{options}' -w start")

    def pg_ctl(self, args: str) -> None:
        subprocess.run(
            _as_postgres(f"{postgres_bindir()}/pg_ctl -D {self.data} {args}"), check=True, capture_output=True
        )

    def stop(self) -> None:
        self.pg_ctl("-m immediate -w stop")

    def create_database(self, name: str, *, migrated: bool = False) -> str:
        """A new database: empty, or (``migrated``) with every migration applied, as
        ``manage.py migrate`` leaves it (a copy of the migrated cluster's: CREATE
        DATABASE's TEMPLATE; migrating cost each stack 3-5 s)."""
        create = f"CREATE DATABASE {name}" + (f" TEMPLATE {MIGRATED}" if migrated else "")
        psql = f"{postgres_bindir()}/psql -h 127.0.0.1 -p {self.port} -U postgres -c '{create}'"
        subprocess.run(_as_postgres(psql), check=True, capture_output=True)
        return self.url(name)

    def destroy(self) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def initdb(data: Path) -> str:
    return f"{postgres_bindir()}/initdb -D {data} -U postgres --auth=trust -E UTF8 --locale=C.UTF-8"


MIGRATED = "migrated"  # the database of the migrated cluster that the migrations were applied to
_migrated_cluster: Path | None = None  # its data directory, made once for the run


def migrated_cluster() -> Path:
    """The data directory of a stopped cluster whose database :data:`MIGRATED` has had
    ``manage.py migrate`` (made once for the run, in a temp dir removed at exit): what a
    stack's cluster starts as (:meth:`PostgresCluster.start`), the same as migrating it."""
    global _migrated_cluster
    if _migrated_cluster is None:
        cluster = PostgresCluster().start()
        atexit.register(shutil.rmtree, cluster.root, True)
        try:
            env = {**os.environ, "DATABASE_URL": cluster.create_database(MIGRATED), "DATA_DIR": str(cluster.root)}
            for name in ("REDIS_URL", "TASKS_INLINE"):
                env.pop(name, None)
            done = subprocess.run(
                [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, capture_output=True, text=True
            )
            assert done.returncode == 0, done.stderr[-2000:]
        finally:
            cluster.pg_ctl("-m fast -w stop")  # a clean stop: a copy starts with nothing to recover
        _migrated_cluster = cluster.data
    return _migrated_cluster


@dataclass
class RedisServer:
    port: int = field(default_factory=free_port)
    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="test-redis-")))

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        options = {"bind": "127.0.0.1", "port": self.port, "daemonize": "yes", "dir": self.root}
        options |= {"pidfile": self.root / "redis.pid", "save": "", "appendonly": "no"}
        command = ["redis-server"] + [part for name, value in options.items() for part in (f"--{name}", str(value))]
        subprocess.run(command, check=True, capture_output=True)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self._cli("ping").stdout.strip() == "PONG":
                return self
            time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer on port {self.port}")

    def _cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["redis-cli", "-p", str(self.port), *args], capture_output=True, text=True)

    def flush(self) -> None:
        self._cli("flushall")

    def connections_received(self) -> int:
        stats = dict(line.split(":", 1) for line in self._cli("info", "stats").stdout.splitlines() if ":" in line)
        return int(stats["total_connections_received"])

    def stop(self) -> None:
        self._cli("shutdown", "nosave")

    def destroy(self) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
