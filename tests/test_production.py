"""Production settings: `check --deploy` is clean behind a TLS-terminating proxy."""

from __future__ import annotations

import os
import re
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


def test_production_refuses_to_start_without_a_secret_key(tmp_path: Path) -> None:
    """Without SECRET_KEY a production host wrote a key of its own to its data dir and
    `check --deploy` passed: hosts with separate data dirs signed with different keys."""
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env |= {"ALLOWED_HOSTS": "baccarat.example.org", "HTTPS": "true", "DATA_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode != 0
    assert "SECRET_KEY is not set: in production (HTTPS=true)" in done.stderr
    assert not (tmp_path / "secret_key").exists()


def procfile() -> dict[str, str]:
    return dict(line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if ": " in line)


def test_the_procfile_serves_http_from_gunicorn_and_websockets_from_uvicorn_beside_worker_and_beat() -> None:
    processes = procfile()
    web, ws = processes["web"].split(), processes["ws"].split()
    assert web[:4] == ["gunicorn", "config.wsgi", "-c", "python:config.gunicorn"]  # gthread, config/gunicorn.py
    assert "--workers" in web and "--threads" in web
    assert ws[:2] == ["uvicorn", "config.asgi:application"] and "--workers" in ws
    assert " ".join(servers.WS) in processes["ws"]  # uvicorn's stock protocol, as the tests serve
    assert "--ws-per-message-deflate" in ws
    assert ws[ws.index("--ws-max-size") + 1] == "65536"  # a page sends only small resync requests
    assert processes["worker"].startswith("celery -A config worker")
    assert processes["beat"].startswith("celery -A config beat")


def test_the_shipped_proxy_sends_ws_to_the_ws_process_and_the_rest_to_web() -> None:
    nginx = (ROOT / "deploy" / "nginx" / "baccarat.conf").read_text()
    upstreams = dict(re.findall(r"upstream (\S+) \{\s*server 127\.0\.0\.1:(\d+);", nginx))
    routes = dict(re.findall(r"location (?:= )?(\S+) \{[^}]*?proxy_pass http://(\w+);", nginx))
    web_port = re.search(r"--bind 127\.0\.0\.1:\$\{PORT:-(\d+)\}", procfile()["web"])
    ws_port = re.search(r"--port \$\{WS_PORT:-(\d+)\}", procfile()["ws"])
    assert web_port and ws_port
    assert {path: upstreams[name] for path, name in routes.items()} == {
        "/ws/": ws_port.group(1), "/api/": web_port.group(1), "/static/": web_port.group(1), "/": web_port.group(1),
    }  # fmt: skip
