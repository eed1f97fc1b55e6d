"""Readiness: the database (and every migration applied), the cache, the channel layer
and, when configured, the Celery broker, checked at once within ``READY_TIMEOUT``
(:mod:`.checks` runs them). ``/readyz`` answers with them (:mod:`.probes`), and
``/metrics`` gives each as ``baccarat_dependency_up`` (:mod:`.exposition`).
"""

from __future__ import annotations

import os
import threading

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from .. import live
from .checks import Check, Checks, Outcome


def database() -> None:
    """A query answered (on a connection of the probe's thread, closed after)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    finally:
        connection.close()


class Migrations:
    """Every migration applied; once they are, they stay so for the life of the process."""

    applied = False

    def __call__(self) -> None:
        if self.applied:
            return
        try:
            executor = MigrationExecutor(connection)
            plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        finally:
            connection.close()
        if plan:
            migration, _ = plan[0]
            raise RuntimeError(f"{len(plan)} migrations not applied, from {migration.app_label}.{migration.name}")
        self.applied = True


def cache_check() -> None:
    """A value written and read back."""
    key = f"readiness:{os.getpid()}"
    cache.set(key, 1, timeout=30)
    if cache.get(key) != 1:
        raise RuntimeError("the cache did not keep a value")


def broker() -> None:
    """A connection to the Celery broker opened."""
    with current_app.connection_for_write() as connection_:
        connection_.ensure_connection(max_retries=1)


def readiness_checks() -> Checks:
    checks: dict[str, Check] = {
        "database": database,
        "migrations": Migrations(),
        "cache": cache_check,
        "channel_layer": live.channel_layer_check,
    }
    if settings.CELERY_BROKER_URL:
        checks["broker"] = broker
    return Checks(checks)


_checks: Checks | None = None
_making = threading.Lock()


def outcomes() -> list[Outcome]:
    """Every dependency's check, answered within ``READY_TIMEOUT`` seconds."""
    global _checks
    with _making:
        if _checks is None:
            _checks = readiness_checks()
    return _checks.run(timeout=settings.READY_TIMEOUT)
