"""A backup as docs/production.md says to take one (pg_dump) restored into an empty
database (pg_restore) serves the same tables, rounds, audit trail and authenticated
shoes (issue 32, item 6)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests import servers
from tests.managing import Manager

pytestmark = pytest.mark.backend_free  # starts its own PostgreSQL

ROOT = Path(__file__).resolve().parents[2]

# Run by manage.py shell on the live database: a table, an authenticated shoe burned and
# dealt two rounds with their plaintexts, one round voided (an audit event).
HISTORY = """
from django.contrib.auth.models import User
from tables import services
from tables.models import Table
from tests.dealers import DECK, ROUND_1, Deck
deck = Deck.of(DECK + " 2H 3S 4D 5C")
table, _ = services.table_create(slug="t1", name="Table 1")
services.shoe_start(table=table, commitments=deck.hashes)
services.shoe_burn(table=table, plaintext=deck[1])
services.round_record(table=table, **ROUND_1, plaintexts=[deck[5], deck[6], deck[7], deck[8]])
second = services.round_record(
    table=table, player=["2H", "4D"], banker=["3S", "5C"], plaintexts=[deck[9], deck[10], deck[11], deck[12]]
).round
reviewer = User.objects.create_user("reviewer-b", password="pw", is_staff=True)
services.round_void(round_=second, reason="misdeal seen on the camera", user=reviewer)
"""

# What the restored database must serve as the live one does: the API's answers, and the
# audit trail as the desk reads it.
SERVED = """
import json
from django.test import Client
from tables.models import RoundAudit
client = Client(HTTP_HOST="127.0.0.1")
answers = {
    path: client.get(path).json()
    for path in ("/api/tables", "/api/tables/t1/rounds", "/api/tables/t1/shoes/1/cards", "/api/tables/t1/roads")
}
audit = RoundAudit.objects.order_by("pk")
answers["audit"] = list(audit.values("round__round_id", "action", "reason", "user__username"))
print(json.dumps(answers, sort_keys=True, default=str))
"""


def manager(database: str, root: Path, name: str) -> Manager:
    """A Django process for ``manage.py`` commands on ``database`` (tests/managing.py),
    started now: the test's three load side by side (1-2 s each, one after the other)."""
    env = {**os.environ, "DATABASE_URL": database, "DATA_DIR": str(root)}
    for unset in ("REDIS_URL", "TASKS_INLINE"):
        env.pop(unset, None)
    started = Manager(env, root / f"{name}.log")
    started.start()
    return started


def manage(manager: Manager, *args: str) -> str:
    """``manage.py *args`` run by ``manager``: its output; a failure fails the test with its error."""
    try:
        return manager.run(*args)
    except subprocess.CalledProcessError as failed:
        raise AssertionError(failed.stderr[-2000:]) from None


def test_a_dump_restored_into_an_empty_database_serves_the_same_history(tmp_path: Path) -> None:
    problem = servers.missing()
    if problem:
        servers.unavailable(problem)
    bindir = servers.postgres_bindir()
    postgres = servers.PostgresCluster().start(migrated=True)
    managers: list[Manager] = []
    try:
        live, restored = postgres.create_database("live", migrated=True), postgres.create_database("restored")
        # The live history written by one process and read back by another, as by two
        # manage.py commands: what the reader serves comes from the database alone.
        managers += [manager(live, tmp_path, "writer"), manager(live, tmp_path, "reader")]
        managers.append(manager(restored, tmp_path, "restored"))
        writer, reader, restored_reader = managers
        manage(writer, "shell", "-c", HISTORY)
        writer.close()
        dump = tmp_path / "baccarat.dump"
        subprocess.run([f"{bindir}/pg_dump", "--format=custom", f"--file={dump}", live], check=True)
        subprocess.run([f"{bindir}/pg_restore", "--no-owner", f"--dbname={restored}", str(dump)], check=True)
        before = json.loads(manage(reader, "shell", "-c", SERVED).splitlines()[-1])
        after = json.loads(manage(restored_reader, "shell", "-c", SERVED).splitlines()[-1])
        assert after == before
        assert len(before["/api/tables/t1/rounds"]["rounds"]) == 2 and before["audit"][0]["action"] == "void"
        assert [c["plaintext"] for c in before["/api/tables/t1/shoes/1/cards"]["cards"][:5]] == [
            before["/api/tables/t1/shoes/1/cards"]["cards"][0]["plaintext"], None, None, None,
            before["/api/tables/t1/shoes/1/cards"]["cards"][4]["plaintext"],
        ]  # fmt: skip
        manage(restored_reader, "migrate", "--check")  # nothing left to migrate
    finally:
        for running in managers:
            running.close()
        postgres.destroy()
