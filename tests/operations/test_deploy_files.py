"""The shipped Prometheus files and Grafana dashboard: valid for Prometheus's own tool,
and naming only numbers the product exports."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from prometheus_client import REGISTRY

from tables.operations import exposition
from tests import servers

pytestmark = pytest.mark.backend_free  # reads the project's files; promtool runs on its own

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NAME = re.compile(r"\bbaccarat_[a-z_]+")
SUFFIXES = ("_bucket", "_count", "_sum", "_total", "_created")
SCRAPE_TIME = {
    "baccarat_dependency_up",
    "baccarat_table_last_activity_timestamp_seconds",
    "baccarat_odds_backlog_rounds",
}


def promtool(*args: str) -> subprocess.CompletedProcess[str]:
    binary = shutil.which("promtool")
    if binary is None:
        servers.unavailable("promtool is not installed (Debian's prometheus package)")
    return subprocess.run([binary, *args], capture_output=True, text=True, check=False)


def test_the_alert_rules_pass_promtool() -> None:
    checked = promtool("check", "rules", str(DEPLOY / "prometheus" / "alerts.yml"))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "SUCCESS: 8 rules found" in checked.stdout


def test_the_scrape_configuration_passes_promtool_once_its_files_are_in_place(tmp_path: Path) -> None:
    (tmp_path / "baccarat-metrics-token").write_text("a-token\n")
    shutil.copy(DEPLOY / "prometheus" / "alerts.yml", tmp_path / "baccarat-alerts.yml")
    config = (DEPLOY / "prometheus" / "prometheus.yml").read_text().replace("/etc/prometheus/", f"{tmp_path}/")
    (tmp_path / "prometheus.yml").write_text(config)
    checked = promtool("check", "config", str(tmp_path / "prometheus.yml"))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def exported() -> set[str]:
    """Every metric family the product exports: its counters and what /metrics reads at scrape time."""
    names = {family.name for family in REGISTRY.collect() if family.name.startswith("baccarat_")}
    return names | SCRAPE_TIME


def family(name: str) -> str:
    for suffix in SUFFIXES:
        if name.endswith(suffix):
            return name.removesuffix(suffix)
    return name


@pytest.mark.parametrize("path", ["prometheus/alerts.yml", "grafana/baccarat.json"])
def test_the_shipped_rules_and_dashboard_name_only_exported_metrics(path: str) -> None:
    named = {family(name) for name in NAME.findall((DEPLOY / path).read_text())}
    assert named and named <= exported(), named - exported()


def test_the_dashboard_is_grafana_json_with_a_prometheus_query_on_every_panel() -> None:
    dashboard = json.loads((DEPLOY / "grafana" / "baccarat.json").read_text())
    assert dashboard["uid"] == "baccarat-roads" and len(dashboard["panels"]) >= 10
    for panel in dashboard["panels"]:
        assert panel["targets"] and all(target["expr"] for target in panel["targets"]), panel["title"]


def test_the_families_read_at_scrape_time_are_the_ones_the_exposition_makes() -> None:
    source = Path(exposition.__file__).read_text()
    assert {name for name in exported() if f'"{name}"' in source} == SCRAPE_TIME
