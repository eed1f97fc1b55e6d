"""Logs: one JSON object a line in production, each naming its request, table, shoe and
round where known; the request id in the answer and carried to jobs and tasks; and no
secret ever written."""

from __future__ import annotations

import io
import json
import logging
import os
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from config.celery import _task_about
from tables.background import runner as background
from tables.background.runner import ThreadRunner
from tables.operations import context
from tables.operations.logs import About, JsonLines
from tests import servers
from tests.dealers import DECK, Dealer, Deck, burned, first_round
from tests.managing import migrated_database
from tests.rounds import SEED

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def written() -> Iterator[io.StringIO]:
    """Every log line, at every level, as production writes it."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(About())
    handler.setFormatter(JsonLines())
    root = logging.getLogger()
    level, root.level = root.level, logging.DEBUG
    root.addHandler(handler)
    try:
        yield out
    finally:
        root.removeHandler(handler)
        root.level = level


def lines(out: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_a_line_is_one_json_object_with_what_it_is_about_and_its_traceback(written: io.StringIO) -> None:
    context.begin("req-0123456789")
    context.bind(table="baccarat-1", shoe=3, round=41)
    try:
        raise ValueError("a bug")
    except ValueError:
        logging.getLogger("tables.test").exception("it failed for %s", "baccarat-1")
    [line] = lines(written)
    assert {k: line[k] for k in ("level", "logger", "message", "request_id", "table", "shoe", "round")} == {
        "level": "ERROR", "logger": "tables.test", "message": "it failed for baccarat-1",
        "request_id": "req-0123456789", "table": "baccarat-1", "shoe": 3, "round": 41,
    }  # fmt: skip
    assert line["time"].endswith("+00:00") and "ValueError: a bug" in line["exception"]


def test_a_refused_round_is_logged_with_its_request_table_and_the_answer_says_the_id(
    open_dealer: Dealer, written: io.StringIO
) -> None:
    response = open_dealer.round(player=["AS", "2S", "3S"], banker=["KS", "QS"])
    assert response.status_code == 422
    request_id = response["X-Request-ID"]
    [warning] = [line for line in lines(written) if line["logger"] == "django.request"]
    assert warning["request_id"] == request_id and warning["table"] == "baccarat-1"


def test_a_recorded_round_names_its_shoe_and_round_and_the_proxys_id_is_kept(open_dealer: Dealer) -> None:
    sent = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"  # nginx's $request_id
    response = open_dealer.client.post(
        "/api/tables/baccarat-1/rounds",
        data=json.dumps(SEED),
        content_type="application/json",
        headers={"Authorization": f"Bearer {open_dealer.token}", "X-Request-ID": sent},
    )
    assert response.status_code == 201 and response["X-Request-ID"] == sent
    assert context.current() == {"request_id": sent, "table": "baccarat-1", "shoe": 1, "round": 1}


@pytest.mark.parametrize("sent", ["", "short", "has spaces in it", "x" * 65, "<script>alert(1)</script>"])
def test_an_id_that_does_not_look_like_one_is_replaced(client: Client, db, sent: str) -> None:
    made = client.get("/api/openapi.json", headers={"X-Request-ID": sent})["X-Request-ID"]
    assert made != sent and len(made) == 32


def test_a_job_queued_by_a_request_logs_with_its_id() -> None:
    jobs, seen = ThreadRunner(name="test-jobs"), []
    context.begin("req-job-0123456789")
    jobs.run_later(0, lambda: seen.append(context.current()))
    context.begin("req-another-0123456789")  # the thread serves another request meanwhile
    jobs.drain(timeout=5)
    assert seen == [{"request_id": "req-job-0123456789"}]


def test_a_task_is_sent_with_the_request_id_and_begins_with_it(monkeypatch, settings) -> None:
    sent = {}
    settings.CELERY_BROKER_URL, settings.TASKS_INLINE = "redis://127.0.0.1:1/0", False
    monkeypatch.setattr(background.current_app, "send_task", lambda name, **options: sent.update(options))
    context.begin("req-task-0123456789")
    background.enqueue("tables.tasks.round_odds_compute", print, 7)
    assert sent == {"args": (7,), "headers": {"request_id": "req-task-0123456789"}}

    class Task:
        class request:  # what Celery's worker makes of the message's headers
            id = "celery-task-id"

            @staticmethod
            def get(name: str) -> str | None:
                return {"request_id": "req-task-0123456789"}.get(name)

    context.begin("something-else-entirely")
    _task_about(task=Task)
    assert context.current() == {"request_id": "req-task-0123456789"}


def test_no_token_plaintext_password_or_session_is_ever_logged(
    dealer: Dealer, client: Client, written: io.StringIO, db
) -> None:
    deck = Deck.of(DECK)
    dealer.post("rounds", SEED, token="wrong-token-but-secret-all-the-same")
    assert dealer.post("shoes", {"commitments": deck.hashes}).status_code == 201
    burned(dealer, deck)
    assert first_round(dealer, deck, plaintexts=[deck[5], deck[6], deck[8], deck[7]]).status_code == 422
    assert first_round(dealer, deck).status_code == 201
    User.objects.create_superuser("owner-logs", password="pw-owner-secret-1")
    client.post("/admin/login/", {"username": "owner-logs", "password": "pw-wrong-secret-2"})
    client.post("/admin/login/", {"username": "owner-logs", "password": "pw-owner-secret-1"})
    session = client.cookies["sessionid"].value
    logged = written.getvalue()
    assert logged  # the refusals were logged
    secrets = [dealer.token, "wrong-token-but-secret-all-the-same", "pw-owner-secret-1", "pw-wrong-secret-2", session]
    secrets += [deck[n] for n in range(1, 9)]  # the burn, the round's and the refused plaintexts
    assert [secret for secret in secrets if secret in logged] == []


def test_production_logs_json_and_an_unknown_format_refuses_to_start(tmp_path: Path) -> None:
    check = [sys.executable, "manage.py", "shell", "-c", "from django.conf import settings; print(settings.LOG_FORMAT)"]
    base = {"DATA_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "config.settings", "PATH": "/usr/bin:/bin"}
    production = {
        **base,
        "HTTPS": "true",
        "SECRET_KEY": "logs-" + "0123456789abcdefghij" * 3,
        "ALLOWED_HOSTS": "example.org",
    }
    assert subprocess.run(check, cwd=ROOT, env=production, capture_output=True, text=True).stdout.split()[-1] == "json"
    assert subprocess.run(check, cwd=ROOT, env=base, capture_output=True, text=True).stdout.split()[-1] == "text"
    refused = subprocess.run(check, cwd=ROOT, env={**base, "LOG_FORMAT": "xml"}, capture_output=True, text=True)
    assert refused.returncode != 0 and "LOG_FORMAT is json or text, not 'xml'" in refused.stderr


@pytest.mark.backend_free  # starts its own server on its own SQLite database
@pytest.mark.parametrize("server", ["gunicorn", "uvicorn"])
def test_a_server_in_production_format_writes_only_json_lines(tmp_path: Path, server: str) -> None:
    env = {**os.environ, "DATA_DIR": str(tmp_path), "LOG_FORMAT": "json", "DJANGO_SETTINGS_MODULE": "config.settings"}
    for name in ("DATABASE_URL", "REDIS_URL", "TASKS_INLINE"):
        env.pop(name, None)
    shutil.copyfile(migrated_database(env), tmp_path / "db.sqlite3")  # the run's, migrated once: 3 s sooner
    port = servers.free_port()
    command = servers.gunicorn(port) if server == "gunicorn" else servers.uvicorn(port)
    log = tmp_path / "server.log"
    process = servers.start_server(command, url=f"http://127.0.0.1:{port}", log=log, env=env)
    try:
        sent = "feedc0ffee0123456789abcdef012345"
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables/nowhere", headers={"X-Request-ID": sent})
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(request, timeout=10)
    finally:
        process.terminate()
        process.wait(timeout=10)
    written = [line for line in log.read_text().splitlines() if line.strip()]
    parsed = [json.loads(line) for line in written]  # every line: a JSON object
    assert any(line.get("request_id") == sent and line["logger"] == "django.request" for line in parsed)
