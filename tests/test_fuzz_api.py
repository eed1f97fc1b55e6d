"""Schemathesis against a real server on the run's backend (the embedded default, or
gunicorn on PostgreSQL and Redis): every operation of the OpenAPI schema, every check,
positive and negative data, its coverage, fuzzing and stateful phases, a bounded number
of examples. No server error, no answer outside the schema, and the database holds only
legal rounds afterwards.

``FUZZ_EXAMPLES`` (60 per operation) and ``FUZZ_SEED`` (17) change the run; the seed is
fixed so that a failure in CI can be replayed. 60 where 150, then 100, were: the run on
both backends took 80 s and more of a suite that must keep under 15 minutes, and
``FUZZ_EXAMPLES=1000`` is there for a longer look."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import urllib.request
from collections import Counter
from collections.abc import Iterator

import pytest

from tables.game.shoe import DealingShoe

from . import servers
from .served import Served

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))
SEED = int(os.environ.get("FUZZ_SEED", "17"))

# Most schema-valid hands are still illegal rounds: the drawing rules and the shoe's card
# counts are beyond JSON Schema, so a schema-valid round may be refused with 422 (a rule
# broken) or 409 (a round number that is not the next): the answers the contract documents.
CONFIG = """
[dictionaries.tables]
values = ["baccarat-1"]

[dictionaries.shoes]
values = [1, 2, 3]

[parameters]
"path.slug" = { dictionary = "tables", probability = 0.85 }
"path.number" = { dictionary = "shoes", probability = 0.5 }

[[operations]]
include-path = "/api/tables/{slug}/rounds"
include-method = "POST"
checks.positive_data_acceptance.expected-statuses = ["2xx", 401, 404, 409, 422, 429]
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, str]]:
    if problem := servers.missing():
        servers.unavailable(problem)
    running = Served.create(tmp_path_factory.mktemp("fuzz"))
    try:
        running.start_http()  # first: its manage.py process loads Django meanwhile (Served.create)
        token = running.table("baccarat-1")
        deal(running.url, token, rounds=10)  # a shoe in play: the fuzzing meets rounds already recorded
        yield running, token
    finally:
        running.stop()


def deal(url: str, token: str, rounds: int) -> None:
    """Start a shoe and record its first ``rounds`` rounds, dealt by the rules."""
    shoe = DealingShoe.shuffled(rng=random.Random(SEED))
    post(url, "shoes", token, None)
    for number in range(1, rounds + 1):
        outcome = shoe.deal()
        body = {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}
        post(url, "rounds", token, {**body, "round": number})


def post(url: str, path: str, token: str, body: dict | None) -> dict:
    request = urllib.request.Request(
        f"{url}/api/tables/baccarat-1/{path}",
        data=json.dumps(body).encode() if body is not None else b"",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def test_schemathesis_finds_no_server_error_and_no_answer_outside_the_schema(served, capsys) -> None:
    running, token = served
    config, report, har = running.root / "schemathesis.toml", running.root / "report.json", running.root / "har.json"
    config.write_text(CONFIG)
    command = [
        *(sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run"),
        f"{running.url}/api/openapi.json",
        *("--checks", "all", "--mode", "all", "--workers", "1"),
        *("--max-examples", str(EXAMPLES), "--seed", str(SEED), "--header", f"Authorization: Bearer {token}"),
        # No example database: it would be kept in this temp dir and thrown away with it, and
        # keeping one cost a sixth of the run (Hypothesis then also keeps a Pareto front of
        # examples to replay, shrinking its members between examples). Still EXAMPLES per
        # operation, still replayed from SEED.
        *("--generation-database", "none"),
        *("--report", "json,har", "--report-json-path", str(report), "--report-har-path", str(har)),
    ]
    done = subprocess.run(command, cwd=running.root, capture_output=True, text=True, timeout=600, check=False)
    summary = json.loads(report.read_text())
    entries = json.loads(har.read_text())["log"]["entries"]
    statuses = Counter(entry["response"]["status"] for entry in entries)
    audit = running.audit()
    with capsys.disabled():
        print(
            f"\nschemathesis on {'PostgreSQL' if running.database else 'SQLite'}: {len(entries)} requests, "
            f"{summary['test_cases']['generated']} test cases, seed {SEED}, statuses {dict(sorted(statuses.items()))}, "
            f"{len(audit['rounds'])} rounds stored"
        )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert summary["failures"] == [] and summary["errors"] == []
    assert not [s for s in statuses if s >= 500]
    assert audit["problems"] == []  # every stored round legal, every shoe whole
    assert len(audit["rounds"]) >= 10
