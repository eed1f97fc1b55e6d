"""A real Prometheus scrapes a real server of the project (gunicorn's two workers adding
up through the multiprocess directory on the scaled backend) and loads the shipped
alert rules; the values read back from its query API are the rounds posted."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import servers
from tests.rounds import SEED
from tests.served import Served, scaled

ROOT = Path(__file__).resolve().parents[2]
ALERTS = ROOT / "deploy" / "prometheus" / "alerts.yml"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, str]]:
    root = tmp_path_factory.mktemp("metrics")
    settings = {}
    if scaled():  # several processes: prometheus-client's multiprocess mode adds them up
        (root / "prometheus").mkdir()
        settings["PROMETHEUS_MULTIPROC_DIR"] = str(root / "prometheus")
    served = Served.create(root, **settings)
    try:
        served.start_http()  # first: its manage.py process loads Django meanwhile (Served.create)
        token = served.table("baccarat-1")
        yield served, token
    finally:
        served.stop()


@pytest.fixture(scope="module")
def prometheus(served: tuple[Served, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    binary = shutil.which("prometheus")
    if binary is None:
        servers.unavailable("prometheus is not installed (Debian's prometheus package)")
    root = tmp_path_factory.mktemp("prometheus")
    config = {
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
        "rule_files": [str(ALERTS)],
        "scrape_configs": [{"job_name": "baccarat", "static_configs": [{"targets": [f"127.0.0.1:{served[0].port}"]}]}],
    }
    (root / "prometheus.yml").write_text(json.dumps(config))  # JSON is YAML
    port = servers.free_port()
    with (root / "prometheus.log").open("w") as log:
        process = subprocess.Popen(
            [binary, f"--config.file={root / 'prometheus.yml'}", f"--storage.tsdb.path={root / 'data'}",
             f"--web.listen-address=127.0.0.1:{port}"],
            stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: _get(f"{url}/-/ready") is not None, what="prometheus ready")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def _get(url: str) -> bytes | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read()
    except OSError:
        return None


def wait_until(found, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not found():
        assert time.monotonic() < deadline, f"no {what} within {timeout} s"
        time.sleep(0.25)  # polls another process: no clock of ours to fake


def query(prometheus: str, expression: str) -> float | None:
    answer = _get(f"{prometheus}/api/v1/query?{urllib.parse.urlencode({'query': expression})}")
    result = json.loads(answer or b"{}").get("data", {}).get("result", [])
    return float(result[0]["value"][1]) if result else None


def post(served: Served, token: str, path: str, body: dict) -> int:
    request = urllib.request.Request(
        f"{served.url}/api/tables/baccarat-1/{path}",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_prometheus_reads_back_the_rounds_posted_and_loads_the_shipped_alert_rules(served, prometheus) -> None:
    server, token = served
    assert post(server, token, "shoes", {}) == 201
    for _ in range(3):
        assert post(server, token, "rounds", SEED) == 201
    assert post(server, token, "rounds", {"player": ["AS", "2S", "3S"], "banker": ["KS", "QS"]}) == 422
    wait_until(lambda: query(prometheus, "sum(baccarat_rounds_recorded_total)") == 3, what="3 rounds in prometheus")
    assert query(prometheus, 'sum(baccarat_rounds_refused_total{reason="illegal"})') == 1
    assert query(prometheus, "min(baccarat_dependency_up)") == 1
    assert query(prometheus, 'up{job="baccarat"}') == 1
    rules = json.loads(_get(f"{prometheus}/api/v1/rules") or b"{}")["data"]["groups"]
    names = {rule["name"] for group in rules for rule in group["rules"]}
    assert {"BaccaratNotReady", "BaccaratPushLatencyHigh", "BaccaratOddsBacklog", "BaccaratTableSilent"} <= names
