"""The live push (tables/live/): what a change pushes, when, to whom, and the push
ledger's shared state. Most tests read what the scheduler's sender was handed; the
first sends through the real channel layer (Redis in the scaled pass)."""

from __future__ import annotations

import asyncio
from typing import Any
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from tables import live, selectors, services
from tables.live import Scheduler, lobby_group, push, table_group
from tables.live.fanout import Fanout
from tables.live.groups import alerts_group
from tables.live.ledger import PushLedger
from tables.page_version import PageVersion
from tables.pages import fragments
from tests.fake_time import FakeTime
from tests.html import Prefix, find_all
from tests.pushes import Recorder, page_opens
from tests.rounds import SEED

OTHER = {"player": ["9H", "KS"], "banker": ["2C", "4C"]}


@pytest.fixture
def fake_time(pushes: Recorder) -> FakeTime:
    """Pushes at most once a second, on a clock the test moves, recorded."""
    clock = FakeTime()
    live.install(Scheduler(runner=clock, clock=clock, interval=1.0, sender=pushes))
    return clock


def game_infos(html: list[str]) -> list[str]:
    """The pushes of a table's state, not of its odds."""
    return [h for h in html if find_all(h, "section", id="game-info")]


def watching(table_slug: str, *groups: str) -> dict[str, bool]:
    """What a push is told of the table's pages: these groups watched, its others not."""
    nobody = dict.fromkeys(push.watched_groups(table_slug, live.scheduler().ledger), False)
    return nobody | dict.fromkeys(groups, True)


def shows(html: str, rounds: str) -> bool:
    """Whether the push ``html`` names a page showing ``rounds`` ("shoe:round:voided") as its state."""
    return bool(find_all(html, "section", id="game-info", data_version=Prefix(f"{rounds}:")))


@pytest.mark.django_db(transaction=True)
def test_a_recorded_round_is_pushed_to_its_table_and_the_lobby_after_commit(training_room, listen) -> None:
    table, _ = training_room
    services.shoe_start(table=table)
    table_channel, lobby_channel = listen(table_group(table.slug)), listen(lobby_group())
    recorded = services.round_record(table=table, **SEED)
    to_table, odds = table_channel.take(2)  # the round's fragments, then its odds once computed
    [to_lobby] = lobby_channel.take(1)
    assert find_all(odds["html"], "span", id="odds-when", data_odds="0") and "after round 1" in odds["html"]
    assert to_table["type"] == to_lobby["type"] == "fragments.push"
    # The table page's live fragments, each swapped in by its id, and the lobby card.
    for fragment_id in ("game-info", "roads", "last-round", "history"):
        assert find_all(to_table["html"], "section", id=fragment_id), fragment_id
    assert recorded.round.round_id in to_table["html"]
    assert find_all(to_lobby["html"], "a", id="table-baccarat-1") and "<dt>Round</dt><dd>1</dd>" in to_lobby["html"]


@pytest.mark.django_db(transaction=True)
def test_a_worker_that_fell_behind_pushes_the_latest_state_once(baccarat_1, pushes: Recorder) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    services.round_record(table=table, **SEED)
    cache.clear()
    page_opens(table_group(table.slug))
    live.scheduler().publish_table(table.pk, coalesce=True)
    live.scheduler().publish_table(table.pk, coalesce=True)  # a second queued task for the same state
    assert len(pushes.taken(table_group(table.slug))) == 1
    services.round_record(table=table, **OTHER)
    assert pushes.taken(table_group(table.slug)), "a new round is a new state"


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_rounds_at_one_table_goes_out_as_one_push_of_the_latest_state(
    baccarat_1, pushes: Recorder, fake_time: FakeTime
) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    fake_time.advance(1.0)  # the new shoe's look is long enough ago
    page_opens(table_group(table.slug))
    services.round_record(table=table, **SEED)  # goes out at once
    rounds = [services.round_record(table=table, **OTHER) for _ in range(3)]
    assert fake_time.waiting == 1, "the three rounds within the interval wait as one push"
    fake_time.advance(0.5)
    assert fake_time.waiting == 1, "not before the interval is over"
    fake_time.advance(0.5)
    states = game_infos(pushes.to(table_group(table.slug)))
    assert len(states) == 2
    assert shows(states[0], "1:1:0")
    assert shows(states[-1], "1:4:0") and rounds[-1].round.round_id in states[-1]


def table_push_looks(looks: mock.MagicMock) -> list[Any]:
    """The looks for pages a table's push made (its pages' groups and the lobby's), not
    those of its odds' push, made once a round's odds are stored (with the alerts')."""
    return [
        call for call in looks.call_args_list if live.lobby_group() in call.args and alerts_group() not in call.args
    ]


@pytest.mark.django_db(transaction=True)
def test_a_table_no_page_shows_renders_nothing_but_its_card_for_an_open_lobby(training_room, pushes: Recorder) -> None:
    table, _ = training_room
    services.shoe_start(table=table)
    page_opens(lobby_group())
    pushes.sent.clear()
    with mock.patch("tables.pages.fragments.table_live_html") as render:
        services.round_record(table=table, **SEED)
    assert render.call_count == 0
    # The card once the round is recorded, and again once its odds are stored: the card
    # shows the next round's returns.
    assert [group for group, _ in pushes.sent] == [lobby_group(), lobby_group()]
    recorded, with_odds = pushes.to(lobby_group())
    assert "<dt>Round</dt><dd>1</dd>" in recorded and "being worked out" in recorded
    assert "<dt>Round</dt><dd>1</dd>" in with_odds and "Next round returns: Banker −" in with_odds


@pytest.mark.django_db(transaction=True)
def test_a_table_no_page_shows_and_no_lobby_open_costs_no_push_slot_and_no_lookup(baccarat_1, pushes: Recorder) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    ledger = live.scheduler().ledger
    with (
        mock.patch.object(ledger, "take_slot") as slot,
        mock.patch.object(Scheduler, "publish_table") as publish,
    ):
        services.round_record(table=table, **SEED)
    assert (slot.call_count, publish.call_count) == (0, 0)
    page_opens(table_group(table.slug))  # a page opens: the next round reaches it
    services.round_record(table=table, **OTHER)
    assert shows(game_infos(pushes.to(table_group(table.slug)))[-1], "1:2:0")


@pytest.mark.django_db(transaction=True)
def test_a_table_no_page_shows_looks_for_pages_once_per_interval_and_a_page_that_opens_gets_the_next_change(
    baccarat_1, pushes: Recorder, fake_time: FakeTime
) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)  # the new shoe looked for its pages and the lobby: none
    ledger = live.scheduler().ledger
    with mock.patch.object(ledger, "watched", wraps=ledger.watched) as looks:
        for _ in range(3):
            services.round_record(table=table, **OTHER)
        assert not table_push_looks(looks), "rounds soon after a look wait out the interval"
        fake_time.advance(1.0)
    assert len(table_push_looks(looks)) == 1, "a burst of rounds costs one look"
    page_opens(table_group(table.slug))  # a page opens just after that look
    services.round_record(table=table, **OTHER)
    assert game_infos(pushes.to(table_group(table.slug))) == [], "the interval since the look is not over"
    fake_time.advance(1.0)
    assert shows(game_infos(pushes.to(table_group(table.slug)))[-1], "1:4:0")


@pytest.mark.django_db(transaction=True)
def test_a_push_to_an_open_page_looks_for_pages_once(baccarat_1, pushes: Recorder) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    page_opens(table_group(table.slug))
    ledger = live.scheduler().ledger
    with mock.patch.object(ledger, "watched", wraps=ledger.watched) as looks:
        services.round_record(table=table, **SEED)
    assert len(table_push_looks(looks)) == 1
    assert shows(game_infos(pushes.to(table_group(table.slug)))[-1], "1:1:0")


@pytest.mark.django_db(transaction=True)
def test_a_table_whose_pages_are_all_in_one_language_forgets_the_others_once_not_every_round(
    baccarat_1, pushes: Recorder
) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    korean, english = table_group(table.slug, "ko"), table_group(table.slug, "en")
    with mock.patch.object(cache, "delete_many", wraps=cache.delete_many) as forgets:
        for _ in range(3):
            live.scheduler().publish_table(table.pk, watched=watching(table.slug, korean))
    assert len(pushes.to(korean)) == 3
    assert forgets.call_count == 0, "forgotten when the shoe started (no page then), not again every round"
    live.scheduler().publish_table(table.pk, watched=watching(table.slug, english))
    assert pushes.to(english)  # an English page had a push: a state to forget once it is gone
    with mock.patch.object(cache, "delete_many", wraps=cache.delete_many) as forgets:
        live.scheduler().publish_table(table.pk, watched=watching(table.slug, korean))
    assert [call.args[0] for call in forgets.call_args_list] == [[f"pushed-version:{table.pk}:en"]]


# --- the push ledger and the fan-out of one process


@pytest.mark.asyncio
@pytest.mark.django_db
async def test_presence_lapses_when_its_last_page_closes_and_the_mark_expires() -> None:
    ledger = PushLedger()
    pages, first, second = Fanout(ledger), Page(), Page()
    await pages.join("table.x", first)
    await pages.join("table.x", second)
    await pages.leave("table.x", first)
    assert ledger.watched("table.x", "table.y") == {"table.x": True, "table.y": False}
    await sync_to_async(pages.renew)()
    assert ledger.watched("table.x") == {"table.x": True}, "a page still open keeps its mark"
    await pages.leave("table.x", second)
    cache.clear()  # the mark expiring
    await sync_to_async(pages.renew)()
    assert ledger.watched("table.x") == {"table.x": False}


def test_the_ledger_keeps_the_state_last_pushed_per_language_and_forgets_it() -> None:
    ledger = PushLedger()
    assert ledger.last_pushed(1, "en").version is None
    ledger.pushed(1, "en", PageVersion(2, 7, 0, 7, 0))
    assert (
        ledger.last_pushed(1, "en").version == PageVersion(2, 7, 0, 7, 0)
        and ledger.last_pushed(1, "ko").version is None
    )
    ledger.forget(1, ["en"])
    assert ledger.last_pushed(1, "en").version is None
    cache.set("pushed-version:1:en", "not a version")
    assert ledger.last_pushed(1, "en").version is None, "what no page could show is no state to start a delta from"


def test_a_state_pushed_while_the_table_looked_otherwise_starts_no_delta() -> None:
    ledger = PushLedger()
    ledger.pushed(1, "en", PageVersion(2, 7, 0, 7, 0), "name-and-limits")
    assert ledger.last_pushed(1, "en", "name-and-limits").version == PageVersion(2, 7, 0, 7, 0)
    # A delta carries no table name nor limits: after a rename, the next push goes whole.
    assert ledger.last_pushed(1, "en", "renamed").version is None


def test_one_process_claims_a_state_and_one_slot_an_interval() -> None:
    first, second = PushLedger(), PushLedger()  # two processes sharing the cache
    claim = first.claim(1, PageVersion(1, 3, 0, 3, 0))
    assert claim is not None and second.claim(1, PageVersion(1, 3, 0, 3, 0)) is None
    first.release(claim)  # its push failed
    assert second.claim(1, PageVersion(1, 3, 0, 3, 0)) is not None
    assert first.take_slot(1, bucket=5, interval=1.0) and not second.take_slot(1, bucket=5, interval=1.0)
    assert second.take_slot(1, bucket=6, interval=1.0)


class Page:
    """A page as the fan-out sees it: what is pushed to it, in order."""

    def __init__(self) -> None:
        self.pushed: list[str] = []
        self.changed = asyncio.Event()

    async def send_now(self, html: str) -> None:
        self.push(html)

    def push(self, html: str) -> None:
        self.pushed.append(html)
        self.changed.set()

    async def holding(self, count: int) -> list[str]:
        """What was pushed, once ``count`` pushes have come."""
        while len(self.pushed) < count:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), timeout=5)
        return self.pushed


@pytest.mark.asyncio
@pytest.mark.django_db
async def test_a_process_joins_a_group_once_and_hands_each_push_to_every_page_of_it() -> None:
    pages, one, two, lobby = Fanout(PushLedger()), Page(), Page(), Page()
    for group, page in (("table.x", one), ("table.x", two), ("lobby", lobby)):
        await pages.join(group, page)
    layer = get_channel_layer()
    await layer.group_send("table.x", live.push_message("table.x", "<p>1</p>"))
    await layer.group_send("table.x", live.push_message("table.x", "<p>2</p>"))
    assert await two.holding(2) == await one.holding(2) == ["<p>1</p>", "<p>2</p>"] and lobby.pushed == []
    await pages.leave("table.x", one)
    await pages.leave("table.x", two)
    assert pages.groups() == ["lobby"]
    await layer.group_send("table.x", live.push_message("table.x", "<p>3</p>"))
    await layer.group_send("lobby", live.push_message("lobby", "<p>card</p>"))
    assert await lobby.holding(1) == ["<p>card</p>"]
    assert two.pushed == ["<p>1</p>", "<p>2</p>"], "pushed to the group before the card: none for a page that left"


class Stalled(Page):
    """A page whose socket takes nothing: a send down it waits for ever."""

    tries = 0

    async def send_now(self, html: str) -> None:
        self.tries += 1
        await asyncio.Event().wait()


@pytest.mark.asyncio
@pytest.mark.django_db
async def test_a_page_whose_socket_takes_nothing_holds_up_no_other_and_is_handed_its_pushes() -> None:
    pages, stalled, other = Fanout(PushLedger()), Stalled(), Page()
    await pages.join("table.x", stalled)
    await pages.join("table.x", other)
    layer = get_channel_layer()
    await layer.group_send("table.x", live.push_message("table.x", "<p>1</p>"))
    await layer.group_send("table.x", live.push_message("table.x", "<p>2</p>"))
    assert await other.holding(2) == ["<p>1</p>", "<p>2</p>"]
    assert await stalled.holding(2) == ["<p>1</p>", "<p>2</p>"], "to send on its own, in order"
    assert stalled.tries == 1, "behind: the next push is not tried down its socket first"


@pytest.mark.asyncio
@pytest.mark.django_db
async def test_a_process_joins_its_groups_again_so_a_membership_that_lapsed_is_renewed() -> None:
    pages, page = Fanout(PushLedger()), Page()
    await pages.join("lobby", page)
    layer = get_channel_layer()
    await layer.group_discard("lobby", pages.channel)  # as the in-memory layer ends a membership after a day
    await pages.rejoin()  # the server's lifespan does, every RENEW_SECONDS
    await layer.group_send("lobby", live.push_message("lobby", "<p>card</p>"))
    assert await page.holding(1) == ["<p>card</p>"]


class FlakyLayer:
    """The process's channel layer behind a switch: while ``down``, joining a group fails
    as it does with Redis unreachable."""

    def __init__(self) -> None:
        self.real, self.down = get_channel_layer(), False

    async def new_channel(self) -> str:
        return await self.real.new_channel()

    async def receive(self, channel: str) -> dict[str, object]:
        return await self.real.receive(channel)

    async def group_add(self, group: str, channel: str) -> None:
        if self.down:
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        await self.real.group_add(group, channel)

    async def group_discard(self, group: str, channel: str) -> None:
        await self.real.group_discard(group, channel)


class Resyncing(Page):
    """A page that counts how often it was told to resync."""

    def __init__(self) -> None:
        super().__init__()
        self.told = 0

    def rejoined(self) -> None:
        self.told += 1


@pytest.mark.asyncio
@pytest.mark.django_db
async def test_a_page_opens_while_the_channel_layer_is_down_and_gets_pushes_once_it_is_back() -> None:
    flaky = FlakyLayer()
    pages, page = Fanout(PushLedger(), layer=lambda: flaky), Resyncing()
    flaky.down = True
    await pages.join("table.x", page)  # no exception: the page opens, served from the database
    assert pages.groups() == ["table.x"] and await pages.join_lost() == []  # still down
    flaky.down = False
    assert await pages.join_lost() == ["table.x"] and page.told == 1  # it resyncs what it missed
    await flaky.real.group_send("table.x", live.push_message("table.x", "<p>1</p>"))
    assert await page.holding(1) == ["<p>1</p>"]


@pytest.mark.asyncio
@pytest.mark.django_db
async def test_renewing_memberships_during_an_outage_loses_none_for_good() -> None:
    flaky = FlakyLayer()
    pages, page = Fanout(PushLedger(), layer=lambda: flaky), Resyncing()
    await pages.join("lobby", page)
    flaky.down = True
    await pages.rejoin()  # the lifespan's renewal meets the outage: no exception ends it
    await flaky.real.group_discard("lobby", pages.channel)  # a restarted Redis forgot the membership
    flaky.down = False
    assert await pages.join_lost() == ["lobby"] and page.told == 1
    await flaky.real.group_send("lobby", live.push_message("lobby", "<p>card</p>"))
    assert await page.holding(1) == ["<p>card</p>"]


@pytest.mark.django_db(transaction=True)
def test_a_push_reads_the_round_in_progress_once_for_its_table_pages_and_the_lobby_in_every_language(
    baccarat_1, pushes: Recorder
) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    services.round_record(table=table, **SEED)
    shown = selectors.table_version(selectors.shoe_find(table=table, which="current"))
    services.round_record(table=table, **OTHER)
    ledger = live.scheduler().ledger
    for language in ("en", "ko"):  # the pages show round 1
        with translation.override(language):
            ledger.pushed(table.pk, language, shown, fragments.table_look(table))
    groups = [table_group(table.slug, "en"), table_group(table.slug, "ko"), lobby_group("en"), lobby_group("ko")]
    with CaptureQueriesContext(connection) as captured:
        live.scheduler().publish_table(table.pk, watched=watching(table.slug, *groups))
    for group in groups[:2]:
        [delta] = game_infos(pushes.to(group))
        assert shows(delta, "1:2:0") and find_all(delta, "section", id="game-info", hx_swap_oob=Prefix("innerHTML"))
    assert all(pushes.to(group) for group in groups[2:])
    assert len([q for q in captured if "tables_roundinprogress" in q["sql"]]) == 1


@pytest.mark.django_db(transaction=True)
def test_a_whole_push_reads_the_round_in_progress_once_for_every_language_too(baccarat_1, pushes: Recorder) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    services.round_record(table=table, **SEED)  # no page open: no state pushed, the next push is whole
    cache.clear()
    fragments.recent_live.clear()
    groups = [table_group(table.slug, "en"), table_group(table.slug, "ko")]
    with CaptureQueriesContext(connection) as captured:
        live.scheduler().publish_table(table.pk, watched=watching(table.slug, *groups))
    for group in groups:
        [whole] = game_infos(pushes.to(group))
        assert find_all(whole, "section", id="roads"), "the whole live part"
    assert len([q for q in captured if "tables_roundinprogress" in q["sql"]]) == 1
