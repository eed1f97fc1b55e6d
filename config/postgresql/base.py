"""Django's PostgreSQL backend, whose pool checks a connection only after a pause in its use.

Django's pool checks every connection it hands out, a round trip to the database per
request, and under load a round trip waits its turn for the CPU like everything else.
A connection taken again within ``BUSY_SECONDS`` was working a moment ago; after a
pause it is checked, since the database may have restarted meanwhile. A restart inside
that moment costs the one request that meets the dead connection an error (the ingest
API answers 503, and the dealer's retry is recorded once); the pool then drops it.
"""

from __future__ import annotations

import time
from typing import Any
from weakref import WeakKeyDictionary

from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool

BUSY_SECONDS = 1.0

_taken: WeakKeyDictionary[Any, float] = WeakKeyDictionary()  # connection -> when last taken


def check_after_pause(connection: Any) -> None:
    """A psycopg_pool ``check``: raises if a connection taken after a pause is broken."""
    now = time.monotonic()
    last = _taken.get(connection)
    _taken[connection] = now
    if last is None or now - last >= BUSY_SECONDS:
        ConnectionPool.check_connection(connection)


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> ConnectionPool | None:
        pool = super().pool
        if pool is not None and self.settings_dict["CONN_HEALTH_CHECKS"]:
            # Django gives the pool its every-time check when making it, and psycopg_pool
            # takes a check only then: swapped here, where the pool is first used.
            pool._check = check_after_pause
        return pool
