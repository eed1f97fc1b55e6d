"""round_record and friends: side effects only after commit."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from unittest import mock

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import transaction

from tables import live, services
from tables.game.validation import IllegalRoundError
from tables.live import Scheduler, lobby_group, presence, push, table_group
from tables.live.fanout import Fanout
from tables.live.presence import watched
from tables.models import Round, Shoe
from tests.fake_time import FakeTime

SEED = {"player": ["AH", "3S", "5D"], "banker": ["JC", "2H", "AD"]}


class Listener:
    """A channel in a group, and the messages it receives, on whichever layer is
    configured. Redis pub/sub binds a channel to the event loop that made it, so the
    channel lives on a loop of its own in a thread, collecting as messages come."""

    def __init__(self, group: str) -> None:
        self.layer, self.group = get_channel_layer(), group
        self.received: list[dict] = []
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.channel = self._run(self._join(group))

    def _run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=10)

    async def _join(self, group: str) -> str:
        self.channel = await self.layer.new_channel()
        await self.layer.group_add(group, self.channel)
        await presence.amark([group])  # as a process's first page of the group does
        self.collecting = asyncio.create_task(self._collect())
        return self.channel

    async def _collect(self) -> None:
        while True:
            self.received.append(await self.layer.receive(self.channel))

    def pending(self, quiet: float = 0.3) -> list[dict]:
        """What arrived until nothing has for ``quiet`` seconds."""
        count = -1
        while count != len(self.received):
            count = len(self.received)
            # The in-memory layer hands messages over without waking the loop: nudge it.
            self.loop.call_soon_threadsafe(lambda: None)
            time.sleep(quiet)
        messages, self.received[:] = list(self.received), []
        return messages

    async def _stop(self) -> None:
        self.collecting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.collecting
        await self.layer.flush()  # closes its connections on this loop

    def close(self) -> None:
        self._run(self._stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)
        self.loop.close()


@pytest.fixture
def listen():
    listeners: list[Listener] = []

    def make(group: str) -> Listener:
        listeners.append(Listener(group))
        return listeners[-1]

    yield make
    for listener in listeners:
        listener.close()


@pytest.fixture(autouse=True)
def fresh_layer() -> None:
    async_to_sync(get_channel_layer().flush)()


@pytest.fixture
def fake_time() -> FakeTime:
    """Pushes at most once a second, on a clock the test moves."""
    clock = FakeTime()
    live.install(Scheduler(runner=clock, clock=clock, interval=1.0))
    return clock


@pytest.mark.django_db(transaction=True)
def test_a_recorded_round_is_pushed_to_its_table_and_the_lobby_after_commit(baccarat_1, listen) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    table_channel, lobby_channel = listen(table_group(table.slug)), listen(lobby_group())
    recorded = services.round_record(table=table, **SEED)
    to_table, odds = table_channel.pending()  # the round's fragments, then its odds once computed
    [to_lobby] = lobby_channel.pending()
    assert 'id="odds"' in odds["html"] and "after round 1" in odds["html"]
    assert to_table["type"] == to_lobby["type"] == "fragments.push"
    # The table page's live fragments, each swapped in by its id, and the lobby card.
    for fragment_id in ('id="game-info"', 'id="roads"', 'id="last-round"', 'id="history"'):
        assert fragment_id in to_table["html"]
    assert recorded.round.round_id in to_table["html"]
    assert 'id="table-baccarat-1"' in to_lobby["html"] and "<dt>Round</dt><dd>1</dd>" in to_lobby["html"]


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_round_pushes_nothing_and_is_not_stored(baccarat_1, listen) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    channel = listen(table_group(table.slug))
    with pytest.raises(RuntimeError), transaction.atomic():
        services.round_record(table=table, **SEED)
        raise RuntimeError("the caller's transaction fails after the round")
    assert channel.pending() == []
    assert not Round.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_failed_push_never_loses_the_round(baccarat_1, listen, monkeypatch) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    listen(table_group(table.slug))  # a page watches: the round is rendered and sent
    sent = []

    def broken_send(group: str, message: dict) -> None:
        sent.append(group)
        raise ConnectionError("channel layer down")

    monkeypatch.setattr(live.scheduler().sender, "send", broken_send)
    recorded = services.round_record(table=table, **SEED)
    assert sent, "the push reached the broken layer"
    assert Round.objects.filter(pk=recorded.round.pk).exists()
    monkeypatch.setattr("tables.fragments.table_live_html", lambda *args: 1 / 0)  # a template that fails
    assert services.round_record(table=table, player=["9H", "KS"], banker=["2C", "4C"]).created
    assert Round.objects.count() == 2


def test_an_illegal_round_raises_before_anything_is_written(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    with pytest.raises(IllegalRoundError, match="player must draw on 4"):
        services.round_record(table=table, player=["AH", "3S"], banker=["6C", "QH"])
    assert not Round.objects.exists()


def test_starting_a_shoe_ends_the_open_one(baccarat_1) -> None:
    table, _ = baccarat_1
    first = services.shoe_start(table=table)
    second = services.shoe_start(table=table)
    first.refresh_from_db()
    assert (first.state, second.state, second.number) == ("closed", "open", 2)
    assert first.ended_at is not None
    assert Shoe.objects.filter(table=table, state="open").count() == 1


def test_the_database_allows_one_open_shoe_per_table(baccarat_1) -> None:
    from django.db import IntegrityError

    table, _ = baccarat_1
    services.shoe_start(table=table)
    with pytest.raises(IntegrityError), transaction.atomic():
        Shoe.objects.create(table=table, number=9, decks=8)


def test_the_database_allows_one_round_per_number_in_a_shoe(baccarat_1) -> None:
    from django.db import IntegrityError

    table, _ = baccarat_1
    services.shoe_start(table=table)
    recorded = services.round_record(table=table, **SEED)
    duplicate = Round.objects.get(pk=recorded.round.pk)
    duplicate.pk, duplicate.round_id = None, "X" * 16
    with pytest.raises(IntegrityError), transaction.atomic():
        duplicate.save()


def test_a_voided_round_keeps_its_cards_and_records_who_and_why(baccarat_1, staff_reviewer) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    recorded = services.round_record(table=table, **SEED)
    voided = services.round_void(round_=recorded.round, reason="card misread by the scanner", user=staff_reviewer)
    assert (voided.voided, voided.void_reason, voided.voided_by) == (
        True,
        "card misread by the scanner",
        staff_reviewer,
    )
    assert voided.player_cards == "AH3S5D"
    with pytest.raises(services.RoundAlreadyVoidedError):
        services.round_void(round_=recorded.round, reason="again", user=staff_reviewer)
    with pytest.raises(ValueError, match="reason is required"):
        services.round_void(round_=services.round_record(table=table, **SEED).round, reason="  ", user=staff_reviewer)


def test_voided_rounds_still_count_as_dealt_cards(baccarat_1, staff_reviewer) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    for _ in range(8):
        recorded = services.round_record(table=table, player=["AS", "8D"], banker=["KH", "QH"])
    services.round_void(round_=recorded.round, reason="malfunction", user=staff_reviewer)
    with pytest.raises(IllegalRoundError, match="AS already dealt 8 times"):
        services.round_record(table=table, player=["AS", "8C"], banker=["KS", "QS"])


def test_the_shoe_keeps_its_dealt_cards_in_dealing_order_and_its_last_round_number(baccarat_1, staff_reviewer) -> None:
    table, _ = baccarat_1
    shoe = services.shoe_start(table=table)
    first = services.round_record(table=table, player=["AH", "3S", "5D"], banker=["JC", "2H", "AD"])
    services.round_void(round_=first.round, reason="misdeal", user=staff_reviewer)
    services.round_record(table=table, player=["9S", "KD"], banker=["8H", "QC"])
    services.round_record(table=table, number=2, player=["9S", "KD"], banker=["8H", "QC"])  # a retry adds nothing
    shoe.refresh_from_db()
    assert shoe.last_number == 2
    assert shoe.dealt == "AH3S5DJC2HAD" + "9SKD8HQC"


def test_the_migration_fills_in_the_tally_of_shoes_recorded_before_it(baccarat_1) -> None:
    import importlib

    from django.apps import apps

    table, _ = baccarat_1
    shoe = services.shoe_start(table=table)
    services.round_record(table=table, player=["AH", "3S", "5D"], banker=["JC", "2H", "AD"])
    services.round_record(table=table, player=["9S", "KD"], banker=["8H", "QC"])
    Shoe.objects.filter(pk=shoe.pk).update(last_number=0, dealt="")
    importlib.import_module("tables.migrations.0003_shoe_tally").fill_tallies(apps, None)
    shoe.refresh_from_db()
    assert (shoe.last_number, shoe.dealt) == (2, "AH3S5DJC2HAD9SKD8HQC")


def test_recording_the_next_round_reads_as_much_late_in_the_shoe_as_early_and_looks_no_round_up(baccarat_1) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    table, _ = baccarat_1
    services.shoe_start(table=table)

    def record(number: int) -> list[str]:
        suit, ten = "SHDC"[number % 4], "TJQK"[number // 4 % 4]
        player, banker = [f"9{suit}", f"{ten}{suit}"], [f"8{suit}", f"{ten}{suit}"]  # naturals: no third card
        with CaptureQueriesContext(connection) as queries:
            services.round_record(table=table, number=number, player=player, banker=banker)
        return [query["sql"] for query in queries]

    early = record(1)
    for number in range(2, 12):
        record(number)
    late = record(12)
    assert len(late) == len(early)
    assert not any('"number" =' in sql for sql in early + late)  # only a retry's number is taken


def test_a_table_paytable_override_applies_to_its_rounds(baccarat_1) -> None:
    table, _ = baccarat_1
    table.paytable = {"perfect_pair_both": 200}
    table.save()
    services.shoe_start(table=table)
    recorded = services.round_record(table=table, player=["9H", "9H"], banker=["QS", "QS"])
    assert recorded.round.bets["perfect_pair"] == {"result": "win", "pays": 200.0}


def test_a_table_with_a_broken_paytable_is_refused(db) -> None:
    from django.core.exceptions import ValidationError

    from tables.models import Table

    with pytest.raises(ValidationError, match="unknown paytable entry"):
        Table(slug="x", name="X", paytable={"jackpot": 1}).full_clean()


@pytest.mark.django_db(transaction=True)
def test_a_worker_that_fell_behind_pushes_the_latest_state_once(baccarat_1, listen) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    services.round_record(table=table, **SEED)
    cache.clear()
    channel = listen(table_group(table.slug))
    live.scheduler().publish_table(table.pk, coalesce=True)
    live.scheduler().publish_table(table.pk, coalesce=True)  # a second queued task for the same state
    assert len(channel.pending()) == 1
    services.round_record(table=table, player=["9H", "KS"], banker=["2C", "4C"])
    assert channel.pending(), "a new round is a new state"


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_rounds_at_one_table_goes_out_as_one_push_of_the_latest_state(baccarat_1, listen, fake_time) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    fake_time.advance(1.0)  # the new shoe's look is long enough ago
    channel = listen(table_group(table.slug))
    services.round_record(table=table, **SEED)  # goes out at once
    rounds = [services.round_record(table=table, player=["9H", "KS"], banker=["2C", "4C"]) for _ in range(3)]
    assert fake_time.waiting == 1, "the three rounds within the interval wait as one push"
    fake_time.advance(0.5)
    assert fake_time.waiting == 1, "not before the interval is over"
    fake_time.advance(0.5)
    pushes = [m for m in channel.pending() if 'id="game-info"' in m["html"]]  # not the odds
    assert len(pushes) == 2
    assert 'data-version="1:1:0' in pushes[0]["html"]
    assert 'data-version="1:4:0' in pushes[-1]["html"] and rounds[-1].round.round_id in pushes[-1]["html"]


@pytest.mark.django_db(transaction=True)
def test_a_table_no_page_shows_renders_nothing_but_its_card_for_an_open_lobby(baccarat_1, listen) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    lobby = listen(lobby_group())
    with mock.patch("tables.fragments.table_live_html") as render:
        services.round_record(table=table, **SEED)
    assert render.call_count == 0
    [card] = lobby.pending()
    assert "<dt>Round</dt><dd>1</dd>" in card["html"]


@pytest.mark.django_db(transaction=True)
def test_a_table_no_page_shows_and_no_lobby_open_costs_no_push_slot_and_no_lookup(baccarat_1, listen) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    with (
        mock.patch.object(Scheduler, "_take_slot") as slot,
        mock.patch.object(Scheduler, "publish_table") as publish,
    ):
        services.round_record(table=table, **SEED)
    assert (slot.call_count, publish.call_count) == (0, 0)
    channel = listen(table_group(table.slug))  # a page opens: the next round reaches it
    services.round_record(table=table, player=["9H", "KS"], banker=["2C", "4C"])
    assert 'data-version="1:2:0' in channel.pending()[-1]["html"]


@pytest.mark.django_db(transaction=True)
def test_a_table_no_page_shows_looks_for_pages_once_per_interval_and_a_page_that_opens_gets_the_next_change(
    baccarat_1, listen, fake_time
) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)  # the new shoe looked for its pages and the lobby: none
    with mock.patch("tables.live.presence.watched", wraps=watched) as looks:
        for _ in range(3):
            services.round_record(table=table, player=["9H", "KS"], banker=["2C", "4C"])
        table_looks = [call for call in looks.call_args_list if live.lobby_group() in call.args]
        assert not table_looks, "rounds soon after a look wait out the interval"
        fake_time.advance(1.0)
    table_looks = [call for call in looks.call_args_list if live.lobby_group() in call.args]
    assert len(table_looks) == 1, "a burst of rounds costs one look"
    channel = listen(table_group(table.slug))  # a page opens just after that look
    services.round_record(table=table, player=["9H", "KS"], banker=["2C", "4C"])
    pushed = [m for m in channel.pending(quiet=0.05) if 'id="game-info"' in m["html"]]  # not its odds
    assert pushed == [], "the interval since the look is not over"
    fake_time.advance(1.0)
    assert 'data-version="1:4:0' in channel.pending()[-1]["html"]


@pytest.mark.django_db(transaction=True)
def test_a_push_to_an_open_page_looks_for_pages_once(baccarat_1, listen) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    channel = listen(table_group(table.slug))
    with mock.patch("tables.live.presence.watched", wraps=watched) as looks:
        services.round_record(table=table, **SEED)
    table_looks = [call for call in looks.call_args_list if live.lobby_group() in call.args]
    assert len(table_looks) == 1
    assert 'data-version="1:1:0' in channel.pending()[-1]["html"]


@pytest.mark.asyncio
@pytest.mark.django_db
async def test_presence_lapses_when_its_last_page_closes_and_the_mark_expires() -> None:
    pages, first, second = Fanout(), Page(), Page()
    await pages.join("table.x", first)
    await pages.join("table.x", second)
    await pages.leave("table.x", first)
    assert watched("table.x", "table.y") == {"table.x": True, "table.y": False}
    await sync_to_async(pages.renew)()
    assert watched("table.x") == {"table.x": True}, "a page still open keeps its mark"
    await pages.leave("table.x", second)
    cache.clear()  # the mark expiring
    await sync_to_async(pages.renew)()
    assert watched("table.x") == {"table.x": False}


class Page:
    """A page as the fan-out sees it: what is pushed to it, in order."""

    def __init__(self) -> None:
        self.pushed: list[str] = []
        self.changed = asyncio.Event()

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
    pages, one, two, lobby = Fanout(), Page(), Page(), Page()
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


@pytest.mark.asyncio
@pytest.mark.django_db
async def test_a_process_joins_its_groups_again_so_a_membership_that_lapsed_is_renewed() -> None:
    pages, page = Fanout(), Page()
    await pages.join("lobby", page)
    layer = get_channel_layer()
    await layer.group_discard("lobby", pages.channel)  # as the in-memory layer ends a membership after a day
    await pages.rejoin()  # the server's lifespan does, every RENEW_SECONDS
    await layer.group_send("lobby", live.push_message("lobby", "<p>card</p>"))
    assert await page.holding(1) == ["<p>card</p>"]


@pytest.mark.django_db(transaction=True)
def test_a_table_whose_pages_are_all_in_one_language_forgets_the_others_once_not_every_round(
    baccarat_1, listen
) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    korean, english = listen(table_group(table.slug, "ko")), listen(table_group(table.slug, "en"))
    nobody = dict.fromkeys(push.watched_groups(table.slug), False)
    with mock.patch.object(cache, "delete_many", wraps=cache.delete_many) as forgets:
        for _ in range(3):
            live.scheduler().publish_table(table.pk, watched=nobody | {table_group(table.slug, "ko"): True})
    assert len(korean.pending()) == 3
    assert forgets.call_count == 0, "forgotten when the shoe started (no page then), not again every round"
    live.scheduler().publish_table(table.pk, watched=nobody | {table_group(table.slug, "en"): True})
    assert english.pending()  # an English page had a push: a state to forget once it is gone
    with mock.patch.object(cache, "delete_many", wraps=cache.delete_many) as forgets:
        live.scheduler().publish_table(table.pk, watched=nobody | {table_group(table.slug, "ko"): True})
    assert [call.args[0] for call in forgets.call_args_list] == [[f"pushed-version:{table.pk}:en"]]
