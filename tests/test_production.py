"""Production settings: `check --deploy` is clean behind a TLS-terminating proxy."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

from tests import servers

ROOT = Path(__file__).resolve().parents[1]


def test_check_deploy_is_clean_with_the_production_environment(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "baccarat.example.org",
        "HTTPS": "true",
        "STATIC_MANIFEST": "true",
        "DATA_DIR": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_the_procfile_runs_web_worker_and_beat() -> None:
    processes = dict(line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if ": " in line)
    assert processes["web"].startswith("uvicorn config.asgi:application") and "--workers" in processes["web"]
    assert " ".join(servers.WS) in processes["web"]  # one deflate per pushed message, as the tests serve
    assert processes["worker"].startswith("celery -A config worker")
    assert processes["beat"].startswith("celery -A config beat")
