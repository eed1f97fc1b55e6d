"""One server of the embedded default (uvicorn, SQLite in a temp dir, the in-memory
channel layer) from any checkout, for the benchmarks that need a single process."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from benchmarks import load
from tests.servers import free_port, uvicorn


@dataclass
class Embedded:
    root: Path  # the checkout
    env: dict[str, str]
    process: subprocess.Popen[bytes]
    url: str  # http://127.0.0.1:port

    def manage(self, *args: str) -> str:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=self.root, env=self.env, capture_output=True)
        done.check_returncode()
        return done.stdout.decode().strip()

    def table(self, slug: str) -> str:
        """A new table; its ingest token."""
        return self.manage("table_create", "--slug", slug, "--name", slug.title()).splitlines()[-1].strip()


@contextmanager
def embedded(root: Path) -> Iterator[Embedded]:
    """The checkout's server, migrated and answering, stopped and removed after."""
    data = Path(tempfile.mkdtemp(prefix="bench-embedded-"))
    env = {**os.environ, "DATA_DIR": str(data), "LOG_LEVEL": "WARNING"}
    for name in ("DATABASE_URL", "REDIS_URL", "TASKS_INLINE"):
        env.pop(name, None)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=root, env=env, check=True)
    port = free_port()
    command = [*uvicorn(port), "--no-access-log", "--log-level", "warning"]
    process = subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        server = Embedded(root, env, process, f"http://127.0.0.1:{port}")
        load.Stack._wait(server.url)
        yield server
    finally:
        process.terminate()
        process.wait(timeout=20)
        shutil.rmtree(data, ignore_errors=True)
