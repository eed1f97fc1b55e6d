"""Production settings: `check --deploy` is clean behind a TLS-terminating proxy."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from config import settings as settings_module
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


@pytest.mark.parametrize(
    "key",
    [
        "change-me-to-50-random-characters",  # deploy/systemd/env.example's, as it ships
        "CHANGEME" + "x" * 50,
        "django-insecure-" + "0123456789abcdefghij" * 3,
        "short-but-random-Kq8",
        "ab" * 40,  # long, two characters
    ],
)
def test_production_refuses_to_start_with_a_placeholder_or_weak_secret_key(tmp_path: Path, key: str) -> None:
    """Issue 49, item 10: with env.example's placeholder gunicorn served pages."""
    env = {**os.environ, "SECRET_KEY": key, "ALLOWED_HOSTS": "baccarat.example.org", "HTTPS": "true"}
    env["DATA_DIR"] = str(tmp_path)
    done = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode != 0
    assert "SECRET_KEY is a placeholder or too weak for production (HTTPS=true)" in done.stderr
    assert key not in done.stderr  # the key itself is never printed


def test_the_example_environment_s_secret_key_is_one_production_refuses() -> None:
    example = (ROOT / "deploy" / "systemd" / "env.example").read_text()
    [key] = re.findall(r"^SECRET_KEY=(.*)$", example, re.MULTILINE)
    assert settings_module._placeholder(key)


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
    assert processes["worker"].startswith("celery -A config worker -Q celery ")
    assert processes["api"].split()[:4] == web[:4]  # the dealer systems' gunicorn: the same, its own port
    assert processes["webhooks"].startswith("celery -A config worker -Q webhooks ")
    assert processes["beat"].startswith("celery -A config beat")


def test_the_shipped_proxy_sends_ws_to_the_ws_process_the_dealers_api_to_api_and_the_rest_to_web() -> None:
    nginx = (ROOT / "deploy" / "nginx" / "baccarat.conf").read_text()
    upstreams = dict(re.findall(r"upstream (\S+) \{\s*server 127\.0\.0\.1:(\d+);", nginx))
    routes = dict(re.findall(r"location (?:= )?(\S+) \{[^}]*?proxy_pass http://(\$?\w+);", nginx))
    [api_map] = re.findall(r"map \$http_authorization \$baccarat_api \{([^}]*)\}", nginx)
    by_token = dict(re.findall(r'^\s*(default|"")\s+(\w+);', api_map, re.MULTILINE))
    ports = {
        process: re.search(rf"(?:--bind 127\.0\.0\.1:|--port )\$\{{{variable}:-(\d+)\}}", procfile()[process])
        for process, variable in [("web", "PORT"), ("api", "API_PORT"), ("ws", "WS_PORT")]
    }
    web, api, ws = (ports[process].group(1) for process in ("web", "api", "ws"))  # type: ignore[union-attr]
    assert routes.pop("/api/") == "$baccarat_api"
    assert {path: upstreams[name] for path, name in routes.items()} == {"/ws/": ws, "/static/": web, "/": web}
    # With a bearer token (a dealer system's) to the API's own gunicorn; without, to web.
    assert {token: upstreams[name] for token, name in by_token.items()} == {"default": api, '""': web}
