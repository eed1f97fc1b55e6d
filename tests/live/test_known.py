"""The tables a page's socket opens without asking the database: those found lately."""

from __future__ import annotations

from tables.live.known import PRUNE_AFTER, KnownTables
from tests.fake_time import FakeTime


def test_a_table_found_is_taken_on_trust_for_a_while_then_asked_about_again() -> None:
    clock = FakeTime()
    tables = KnownTables(clock, seconds=10)
    assert not tables.known("baccarat-1"), "never found: the database is asked"
    tables.found("baccarat-1")
    clock.advance(9.9)
    assert tables.known("baccarat-1") and not tables.known("baccarat-2")
    clock.advance(0.1)
    assert not tables.known("baccarat-1"), "found too long ago: asked again (it may be gone)"


def test_slugs_not_found_lately_are_forgotten_once_many_are_kept() -> None:
    clock = FakeTime()
    tables = KnownTables(clock, seconds=10)
    for n in range(PRUNE_AFTER):
        tables.found(f"renamed-{n}")
    clock.advance(10)
    tables.found("baccarat-1")
    assert tables.slugs() == 1 and tables.known("baccarat-1")
