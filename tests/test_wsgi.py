"""Production HTTP: Django's WSGI application (config.wsgi) under gunicorn's threaded
workers (config/gunicorn.py), as the Procfile's ``web`` runs it."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders

from config.wsgi import application
from tables import services
from tables.models import Round
from tests.html import find_all

from . import servers
from .managing import migrated_database

pytestmark = pytest.mark.backend_free  # starts the servers it needs itself, whatever the run's backend

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Answer:
    status: int
    headers: list[tuple[str, str]]
    body: bytes


def call(method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None) -> Answer:
    """One request through the WSGI application, as gunicorn makes it."""
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "127.0.0.1",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.url_scheme": "http",
    }
    for name, value in (headers or {}).items():
        key = name.upper().replace("-", "_")
        environ[key if key in ("CONTENT_TYPE", "CONTENT_LENGTH") else f"HTTP_{key}"] = value
    started: list[Any] = []
    response = application(environ, lambda status, headers, exc_info=None: started.append((status, headers)))
    try:
        content = b"".join(response)
    finally:
        response.close()  # request_finished: Django returns the database connection
    status, headers_sent = started[0]
    return Answer(int(status.split()[0]), headers_sent, content)


committed = pytest.mark.django_db(transaction=True)  # the application closes its connection itself


@committed
def test_the_wsgi_application_serves_a_page_with_its_cookies() -> None:
    answer = call("GET", "/admin/login/")
    assert answer.status == 200
    assert ("Content-Type", "text/html; charset=utf-8") in answer.headers
    assert any(name == "Set-Cookie" and value.strip().startswith("csrftoken=") for name, value in answer.headers)
    assert find_all(answer.body.decode(), "input", type="hidden", name_="csrfmiddlewaretoken")


@committed
def test_the_wsgi_application_serves_a_static_file_whole() -> None:
    answer = call("GET", "/static/plotly/plotly-basic.min.js")
    assert answer.status == 200
    assert answer.body == Path(finders.find("plotly/plotly-basic.min.js")).read_bytes()


@committed
def test_a_dealer_posts_a_round_and_a_bad_one_through_the_wsgi_application() -> None:
    table, token = services.table_create(slug="baccarat-1", name="Baccarat 1")
    services.shoe_start(table=table)
    auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def post(cards: dict[str, Any]) -> tuple[int, Any]:
        answer = call("POST", "/api/tables/baccarat-1/rounds", json.dumps(cards).encode(), auth)
        return answer.status, json.loads(answer.body)

    status, answer = post({"player": ["9S", "KD"], "banker": ["8H", "QC"]})
    assert status == 201 and answer["round"]["number"] == 1
    status, answer = post({"player": ["9S"], "banker": ["8H", "QC"]})
    assert status == 422 and answer["errors"][0]["field"] == "player"
    assert Round.objects.count() == 1


# ---------------------------------------------------------------- a real gunicorn


@dataclass
class Gunicorn:
    """The Procfile's web process on a port of its own, against ``env``'s database."""

    env: dict[str, str]
    logs: Path
    port: int = field(default_factory=servers.free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, check=True
        )
        return done.stdout.strip()

    def start(self) -> Gunicorn:
        command = [*servers.gunicorn(self.port, workers=1, threads=2), "--log-level", "info"]
        self.process = servers.start_server(command, url=self.url, log=self.logs / "gunicorn.log", env=self.env)
        return self

    def stop(self) -> None:
        if self.process:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def log(self) -> str:
        return (self.logs / "gunicorn.log").read_text()

    def request(self, path: str, token: str = "", body: dict[str, Any] | None = None) -> tuple[int, Any]:
        """(status, JSON body): a POST with ``body``, else a GET."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"} if token else {}
        request = urllib.request.Request(self.url + path, data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())


def environment(data_dir: Path, **extra: str) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name not in ("DATABASE_URL", "REDIS_URL")}
    env.pop("DB_POOL_MAX_SIZE", None)  # the production default: Django's pool
    return env | {"DATA_DIR": str(data_dir), **extra}


@pytest.fixture
def web(tmp_path: Path) -> Iterator[Gunicorn]:
    server = Gunicorn(environment(tmp_path), tmp_path)
    # A copy of the run's migrated SQLite database (tests/managing.py): the same as migrating, 2-3 s sooner.
    shutil.copyfile(migrated_database(server.env), tmp_path / "db.sqlite3")
    yield server
    server.stop()


def test_gunicorn_serves_the_lobby_and_records_a_round_with_threaded_workers(web: Gunicorn) -> None:
    token = web.manage("table_create", "--slug", "baccarat-1", "--name", "Baccarat 1")
    web.start()
    assert web.request("/api/tables/baccarat-1/shoes", token, {})[0] == 201
    status, answer = web.request(
        "/api/tables/baccarat-1/rounds", token, {"player": ["9S", "KD"], "banker": ["8H", "QC"]}
    )
    assert status == 201 and answer["round"]["winner"] == "P"
    with urllib.request.urlopen(web.url + "/", timeout=10) as response:
        assert "Baccarat 1" in response.read().decode()
    assert "Using worker: gthread" in web.log()


@pytest.fixture
def postgres() -> Iterator[servers.PostgresCluster]:
    problem = servers.missing()
    if problem:
        servers.unavailable(problem)
    cluster = servers.PostgresCluster().start(migrated=True)
    yield cluster
    cluster.destroy()


def test_after_a_postgresql_restart_the_next_request_succeeds(
    postgres: servers.PostgresCluster, tmp_path: Path
) -> None:
    web = Gunicorn(environment(tmp_path, DATABASE_URL=postgres.create_database("restart", migrated=True)), tmp_path)
    try:
        token = web.manage("table_create", "--slug", "baccarat-1", "--name", "Baccarat 1")
        web.start()
        assert web.request("/api/tables/baccarat-1/shoes", token, {})[0] == 201
        assert web.request("/api/tables/baccarat-1/rounds")[0] == 200  # the pool holds a connection now
        postgres.stop()
        postgres.resume()
        # The pooled connection died with the server: its health check replaces it.
        status, answer = web.request(
            "/api/tables/baccarat-1/rounds", token, {"player": ["9S", "KD"], "banker": ["8H", "QC"]}
        )
        assert status == 201, answer
        assert web.request("/api/tables/baccarat-1/rounds")[1]["rounds"][0]["number"] == 1
    finally:
        web.stop()
