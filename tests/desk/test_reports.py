"""Reports that survive history: who may see and force them, where they are computed,
how often a reviewer may force one (issue 30, item 3: a staff account with no
permissions forced 13.5 s, 900 MiB reports on the web workers; beat's whole-history
report ran on the odds queue)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from prometheus_client import REGISTRY

from config.celery import app
from tables import services
from tables.background import runner as background
from tables.background.odds import ODDS_TASK
from tables.background.runner import Job
from tests.html import find_all
from tests.rounds import SEED

ROOT = Path(__file__).resolve().parent.parent.parent


class HeldRunner:
    """A runner that keeps its jobs until the test runs them: a worker that is busy."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Job, tuple[Any, ...]]] = []

    def run_later(self, delay: float, job: Job, *args: Any) -> None:
        self.jobs.append((job, args))

    def drain(self, timeout: float = 30) -> None:
        while self.jobs:
            job, args = self.jobs.pop(0)
            job(*args)


@pytest.fixture
def rounds(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    for _ in range(3):
        services.round_record(table=table, **SEED)


@pytest.fixture
def held() -> HeldRunner:
    held = HeldRunner()
    background.install(held, background.REPORTS_QUEUE)
    return held


def page(response) -> str:
    return response.content.decode()


@pytest.mark.parametrize("path", ["/review/", "/review/rounds.csv", "/review/rounds.json"])
def test_staff_without_the_review_permission_are_refused_the_reports_and_exports(client: Client, db, path) -> None:
    client.force_login(User.objects.create_user("clerk", password="pw-clerk-1", is_staff=True))
    assert client.get(path).status_code == 403
    assert client.post("/review/").status_code == 403  # nor may they force one


def test_a_reviewer_of_the_reviewer_group_reads_the_reports(client: Client, desk_reviewer, rounds) -> None:
    client.force_login(desk_reviewer)
    assert "3 rounds" in page(client.get("/review/"))
    assert client.get("/review/rounds.csv").status_code == 200


def test_a_large_selection_is_computed_by_a_job_on_the_reports_queue_while_the_page_says_so(
    client: Client, desk_reviewer, rounds, held: HeldRunner, settings
) -> None:
    settings.REVIEW_INLINE_ROUNDS = 2
    odds_before = background.runner()
    client.force_login(desk_reviewer)
    waiting = page(client.get("/review/"))
    assert find_all(waiting, "p", id="computing") and find_all(waiting, "meta", content="5")
    assert "3 rounds" not in waiting and len(held.jobs) == 1  # not computed while the page waited
    page(client.get("/review/"))
    assert len(held.jobs) == 1  # one job a selection: a second look queues nothing more
    assert background.runner() is odds_before  # the odds' runner got nothing
    held.drain()
    ready = page(client.get("/review/"))
    assert "3 rounds" in ready and find_all(ready, "form", id="computed-at")
    assert not find_all(ready, "p", id="computing") and not find_all(ready, "meta", content="5")


def test_a_reviewer_may_force_a_fresh_report_once_a_minute(
    client: Client, desk_reviewer, rounds, held: HeldRunner, baccarat_1
) -> None:
    client.force_login(desk_reviewer)
    assert client.post("/review/").status_code == 302
    assert len(held.jobs) == 1
    shown = page(client.get("/review/"))
    assert find_all(shown, "p", id="computing")  # the page refreshes until it is kept
    held.drain()
    refused_before = REGISTRY.get_sample_value("baccarat_throttled_total", {"kind": "report"}) or 0
    again = client.post("/review/")
    assert again.status_code == 429 and 1 <= int(again["Retry-After"]) <= 60
    assert REGISTRY.get_sample_value("baccarat_throttled_total", {"kind": "report"}) == refused_before + 1
    assert find_all(page(again), "p", id="fresh-wait") and "3 rounds" in page(again)  # the kept report stays
    assert held.jobs == []  # the refused ask queued nothing


def test_several_reviewers_forcing_one_report_make_one_job(client: Client, rounds, held: HeldRunner) -> None:
    for n in range(6):
        reviewer = User.objects.create_user(f"reviewer-{n}", password="pw", is_staff=True, is_superuser=True)
        client.force_login(reviewer)
        assert client.post("/review/").status_code == 302
    assert len(held.jobs) == 1


def test_review_tasks_go_to_the_reports_queue_and_the_odds_to_the_default_one() -> None:
    route = app.amqp.router.route
    for task in ("tables.tasks.review_report_compute", "tables.tasks.review_reports_refresh"):
        assert route({}, task)["queue"].name == "reports"
    assert route({}, ODDS_TASK)["queue"].name == "celery"


def test_the_reports_worker_takes_only_reports_and_recycles_its_process_after_each() -> None:
    processes = dict(line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if ": " in line)
    assert "-Q celery " in processes["worker"]
    assert "-Q reports " in processes["reports"] and "--max-tasks-per-child 1" in processes["reports"]


def test_with_the_cache_unreachable_a_large_report_waits_and_compute_now_is_refused(
    client: Client, desk_reviewer, rounds, held: HeldRunner, settings, monkeypatch
) -> None:
    settings.REVIEW_INLINE_ROUNDS = 2
    client.force_login(desk_reviewer)

    def unreachable(*args: object, **kwargs: object) -> None:
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    for name in ("get", "add"):
        monkeypatch.setattr(cache, name, unreachable)
    waiting = client.get("/review/")
    assert waiting.status_code == 200 and find_all(page(waiting), "meta", content="5") and held.jobs == []
    assert client.post("/review/").status_code == 429
