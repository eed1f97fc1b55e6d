"""A crowd of table pages saying hello at once (after a deploy, a restart, a blip) is
answered from one read of the table's state and one render of its whole live part, per
process and language; a push that arrives, or the last page leaving, makes the next
hello read again (tables/live/answers.py)."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from django.utils import translation

from tables import live, selectors, services
from tables.live.answers import ANSWER_SECONDS, Answers
from tables.live.groups import lobby_group
from tables.live.ledger import NOTHING_PUSHED
from tables.operations.metrics import HELLO_READS
from tables.page_version import PageVersion
from tables.pages import fragments
from tests.fake_time import FakeTime
from tests.html import find_all
from tests.sockets import connected, record, table_with_shoe

NOW, BEFORE = PageVersion(1, 5, 0, 5, 10), PageVersion(1, 4, 0, 4, 8)


class Table:
    """A table's state read from a database the test holds still: reads and renders
    counted, each waiting until the test lets it finish."""

    def __init__(self, version: PageVersion = NOW) -> None:
        self.version, self.reads, self.renders = version, 0, 0
        self.go = asyncio.Event()

    async def read(self) -> PageVersion:
        self.reads += 1
        await self.go.wait()
        return self.version

    async def render(self) -> str:
        self.renders += 1
        return f"<section id='game-info' data-version='{self.version}'></section>"


async def crowd(answers: Answers, table: Table, have: list[PageVersion | None]) -> list[str]:
    pages = [asyncio.ensure_future(answers.answer("table.t1.en", v, table.read, table.render)) for v in have]
    await asyncio.sleep(0)  # every page has asked
    table.go.set()
    return await asyncio.gather(*pages)


@pytest.mark.asyncio
async def test_a_thousand_pages_asking_at_once_cost_one_read_and_one_render() -> None:
    table = Table()
    answers = await crowd(Answers(FakeTime()), table, [NOW] * 500 + [BEFORE] * 400 + [None] * 100)
    assert (table.reads, table.renders) == (1, 1)
    assert answers[:500] == [""] * 500, "a page that shows the table as it is now is sent nothing"
    assert len(set(answers[500:])) == 1 and f"data-version='{NOW}'" in answers[500], "the others the whole part"


@pytest.mark.asyncio
async def test_the_state_read_is_shared_for_a_second_then_read_again() -> None:
    clock, table = FakeTime(), Table()
    answers = Answers(clock)
    await crowd(answers, table, [NOW])
    clock.advance(ANSWER_SECONDS - 0.1)
    assert await answers.answer("table.t1.en", BEFORE, table.read, table.render)
    assert table.reads == 1
    clock.advance(0.1)
    table.version = PageVersion(1, 6, 0, 6, 12)
    assert await answers.answer("table.t1.en", NOW, table.read, table.render), "round 6 was read"
    assert (table.reads, table.renders) == (2, 2)


@pytest.mark.asyncio
async def test_a_push_that_arrives_or_the_last_page_leaving_makes_the_next_hello_read_again() -> None:
    table = Table()
    answers = Answers(FakeTime())
    await crowd(answers, table, [NOW])
    answers.stale("table.t1.en")  # round 6's push arrived here
    table.version = PageVersion(1, 6, 0, 6, 12)
    assert await answers.answer("table.t1.en", NOW, table.read, table.render)
    assert table.reads == 2


@pytest.mark.asyncio
async def test_a_read_that_a_push_overtook_answers_its_pages_but_is_not_kept() -> None:
    table = Table()
    answers = Answers(FakeTime())
    asking = asyncio.ensure_future(answers.answer("table.t1.en", NOW, table.read, table.render))
    while not table.reads:
        await asyncio.sleep(0)  # the read has begun
    answers.stale("table.t1.en")  # a push arrived while the database was read
    table.go.set()
    assert await asking == ""
    await answers.answer("table.t1.en", NOW, table.read, table.render)
    assert table.reads == 2
    assert answers.groups() == 1


# --- through the table page's socket


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_after_a_restart_the_first_push_to_pages_that_said_hello_is_a_delta() -> None:
    table = await table_with_shoe()
    await record(table)
    shown = await database_sync_to_async(lambda: str(selectors.table_version(selectors.table_open_shoe(table=table))))()
    ledger = live.scheduler().ledger
    await database_sync_to_async(lambda: ledger.forget(table.pk, ["en"]))()  # the cache restarted: nothing recorded
    page = await connected("/ws/tables/baccarat-1/")
    await page.send_to(text_data=json.dumps({"have": {"baccarat-1": shown}}))
    assert await page.receive_nothing(timeout=0.2), "it shows the table as it is"
    look = await database_sync_to_async(fragments.table_look)(table)
    with translation.override("en"):
        recorded = await database_sync_to_async(ledger.last_pushed)(table.pk, "en", look)
    assert recorded != NOTHING_PUSHED and str(recorded.version) == shown
    await record(table, player=["9H", "KS"], banker=["2C", "4C"])
    pushed = await page.receive_from(timeout=5)
    assert find_all(pushed, "section", id="game-info", data_since=shown), "a delta from what it said it shows"
    assert len(pushed.encode()) <= 5 * 1024
    await page.disconnect()


# --- through the lobby's socket


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_crowd_of_lobby_pages_saying_hello_costs_one_read_and_one_behind_gets_its_card_only() -> None:
    """Every lobby page's hello read every table, its shoe, rounds and odds: a floor's
    lobby screens reconnecting were most of what connecting cost beyond the baseline."""
    one = await table_with_shoe()
    two, _ = await database_sync_to_async(services.table_create)(slug="baccarat-2", name="Baccarat 2")
    await database_sync_to_async(services.shoe_start)(table=two)
    await record(one)
    before = {s.table.slug: str(s.version) for s in await database_sync_to_async(fragments.lobby_sources)()}
    await record(one, player=["9H", "KS"], banker=["2C", "4C"])
    now = {s.table.slug: str(s.version) for s in await database_sync_to_async(fragments.lobby_sources)()}
    live.scheduler().answers.stale(lobby_group("en"))
    reads = HELLO_READS.labels("lobby")._value.get()
    pages = [await connected("/ws/lobby/", address=f"10.0.0.{i}") for i in range(1, 21)]
    behind = await connected("/ws/lobby/", address="10.0.1.1")
    await asyncio.gather(
        *(page.send_to(text_data=json.dumps({"have": now})) for page in pages),
        behind.send_to(text_data=json.dumps({"have": before})),
    )
    sent = await behind.receive_from(timeout=5)
    cards = [card.attrs["data-table"] for card in find_all(sent, "a") if "data-table" in card.attrs]
    assert cards == ["baccarat-1"], "the one card it is behind on"
    for page in pages:
        assert await page.receive_nothing(timeout=0.05), "a lobby that shows every table as it is: nothing"
    assert HELLO_READS.labels("lobby")._value.get() - reads == 1, "the tables read once for all 21"
    for page in [*pages, behind]:
        await page.disconnect()
