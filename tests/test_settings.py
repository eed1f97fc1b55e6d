"""Settings from the environment: any DATABASE_URL dj-database-url reads picks its own
engine (PostgreSQL pooled by Django, SQLite with the embedded default's options), and
REDIS_URL picks a maintained Redis cache backend."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("DATABASE_URL", "REDIS_URL", "DB_POOL_MAX_SIZE", "CHANNEL_REDIS_URLS")


@pytest.fixture
def settings_with(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """The settings module as it reads this environment (nothing else set)."""

    def load(**env: str) -> dict[str, Any]:
        for name in NAMES:
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("DATA_DIR", str(tmp_path))
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        return runpy.run_path(str(ROOT / "config" / "settings.py"))

    return load


def test_no_database_url_is_sqlite_in_the_data_dir(settings_with, tmp_path: Path) -> None:
    database = settings_with()["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == tmp_path / "db.sqlite3"


def test_an_empty_database_url_counts_as_unset(settings_with) -> None:
    assert settings_with(DATABASE_URL="")["DATABASES"]["default"]["ENGINE"] == "django.db.backends.sqlite3"


def test_a_sqlite_url_is_sqlite_at_that_path_with_the_embedded_defaults_options(settings_with, tmp_path: Path) -> None:
    settings = settings_with(DATABASE_URL=f"sqlite:///{tmp_path}/elsewhere.sqlite3")
    database = settings["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == f"{tmp_path}/elsewhere.sqlite3"
    assert database["OPTIONS"] == settings["SQLITE_OPTIONS"]
    assert "pool" not in database["OPTIONS"]


def test_a_postgres_url_is_postgresql_in_djangos_pool_with_health_checks(settings_with) -> None:
    database = settings_with(DATABASE_URL="postgres://baccarat:secret@db.example:5433/baccarat")["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["HOST"], database["PORT"], database["NAME"], database["USER"]) == (
        "db.example",
        5433,
        "baccarat",
        "baccarat",
    )
    assert database["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 20, "timeout": 3}
    assert database["CONN_MAX_AGE"] == 0  # Django's pool refuses persistent connections
    assert database["CONN_HEALTH_CHECKS"] is True  # the pool checks a connection before handing it out


def test_db_pool_max_size_sets_the_pool_and_zero_turns_it_off(settings_with) -> None:
    url = "postgresql://127.0.0.1/baccarat"
    assert settings_with(DATABASE_URL=url, DB_POOL_MAX_SIZE="8")["DATABASES"]["default"]["OPTIONS"]["pool"] == {
        "min_size": 1,
        "max_size": 8,
        "timeout": 3,
    }
    assert "pool" not in settings_with(DATABASE_URL=url, DB_POOL_MAX_SIZE="0")["DATABASES"]["default"].get(
        "OPTIONS", {}
    )


def test_redis_url_selects_django_redis_with_no_options_of_ours(settings_with) -> None:
    settings = settings_with(REDIS_URL="redis://127.0.0.1:6379/0")
    assert settings["CACHES"] == {
        "default": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": "redis://127.0.0.1:6379/0"}
    }
    assert settings["CHANNEL_LAYERS"]["default"]["CONFIG"] == {"hosts": ["redis://127.0.0.1:6379/0"]}


def test_channel_redis_urls_shard_the_pushes_over_several_redis_servers(settings_with) -> None:
    urls = "redis://10.0.0.1:6379/0, redis://10.0.0.2:6379/0"
    settings = settings_with(REDIS_URL="redis://127.0.0.1:6379/0", CHANNEL_REDIS_URLS=urls)
    hosts = settings["CHANNEL_LAYERS"]["default"]["CONFIG"]["hosts"]
    assert hosts == ["redis://10.0.0.1:6379/0", "redis://10.0.0.2:6379/0"]
    assert settings["CACHES"]["default"]["LOCATION"] == "redis://127.0.0.1:6379/0"  # the cache stays on REDIS_URL


def test_without_redis_url_the_cache_is_djangos_default(settings_with) -> None:
    assert "CACHES" not in settings_with()


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True)


def test_migrate_and_check_run_on_a_sqlite_url(tmp_path: Path) -> None:
    env = {name: value for name, value in os.environ.items() if name not in NAMES}
    env |= {"DATABASE_URL": f"sqlite:///{tmp_path}/given.sqlite3", "DATA_DIR": str(tmp_path / "data")}
    migrated = manage(env, "migrate", "--noinput")
    assert migrated.returncode == 0, migrated.stdout + migrated.stderr
    checked = manage(env, "check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    created = manage(env, "table_create", "--slug", "baccarat-1", "--name", "Baccarat 1")
    assert created.returncode == 0, created.stdout + created.stderr
    assert (tmp_path / "given.sqlite3").stat().st_size > 0
    assert not (tmp_path / "data" / "db.sqlite3").exists()


def test_a_surveillance_threshold_that_is_not_a_number_is_a_configuration_error(tmp_path: Path) -> None:
    env = {name: value for name, value in os.environ.items() if name not in NAMES}
    done = manage(env | {"DATA_DIR": str(tmp_path), "ALARM_STREAK": "often"}, "check")
    assert done.returncode != 0 and "ALARM_STREAK must be a number, not 'often'" in done.stderr
