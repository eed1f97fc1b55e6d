"""Fixtures with meaning: "Baccarat 1" with a known token, and named users."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.test import Client
from django.utils import translation

from tables import live, services
from tables.background import runner as background
from tables.game.audience import Audience
from tables.live import Scheduler
from tables.models import Table
from tables.pages import fragments
from tests.dealers import Dealer
from tests.pushes import Listener, Recorder


@pytest.fixture
def baccarat_1(db: None) -> tuple[Table, str]:
    return services.table_create(slug="baccarat-1", name="Baccarat 1", dealer_name="Anna")


@pytest.fixture
def training_room(baccarat_1: tuple[Table, str]) -> tuple[Table, str]:
    """Baccarat 1 as a training room: its public pages show every return on the cards
    left (the odds panel's every part, for the tests of how it shows and pushes them)."""
    table, token = baccarat_1
    services.table_audience_set(table=table, audience=Audience.EVERYTHING, user=None)
    return table, token


@pytest.fixture
def dealer(baccarat_1: tuple[Table, str], client: Client) -> Dealer:
    table, token = baccarat_1
    return Dealer(client, table, token)


@pytest.fixture
def open_dealer(dealer: Dealer) -> Dealer:
    assert dealer.start_shoe().status_code == 201
    return dealer


@pytest.fixture
def staff_reviewer(db: None) -> User:
    return User.objects.create_user("reviewer", password="pw-reviewer-1", is_staff=True, is_superuser=True)


@pytest.fixture
def owner(db: None) -> User:
    """The casino's owner of the installation: a superuser, who alone holds rights such
    as rotating a table's ingest token."""
    return User.objects.create_user("owner", password="pw-owner-1", is_staff=True, is_superuser=True)


@pytest.fixture
def desk_reviewer(db: None) -> User:
    """A reviewer as the README promises one: staff in the "reviewer" group (migration
    0005), who views everything and voids rounds, and nothing else."""
    user = User.objects.create_user("desk-reviewer", password="pw-desk-reviewer-1", is_staff=True)
    user.groups.add(Group.objects.get(name="reviewer"))
    return user


@pytest.fixture
def outsider(db: None) -> User:
    return User.objects.create_user("outsider", password="pw-outsider-1")


@pytest.fixture(autouse=True)
def fresh_cache() -> None:
    """Each test starts with no cached state (which states were pushed, cached fragments,
    the roads a delta or a lobby card drew last)."""
    cache.clear()
    fragments.recent_live.clear()
    fragments.forget_drawn()


@pytest.fixture
def pushes() -> Recorder:
    """The pushes the test's changes make, recorded by the scheduler's sender: no
    channel layer, nothing to wait for."""
    recorder = Recorder()
    live.install(Scheduler(runner=background.runner(), interval=settings.PUSH_INTERVAL, sender=recorder))
    return recorder


@pytest.fixture
def listen() -> Iterator[Callable[[str], Listener]]:
    """Channels in groups of the real channel layer (Redis in the scaled pass), for the
    tests of delivery itself."""
    async_to_sync(get_channel_layer().flush)()
    listeners: list[Listener] = []

    def make(group: str) -> Listener:
        listeners.append(Listener(group))
        return listeners[-1]

    yield make
    for listener in listeners:
        listener.close()


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    """Each test starts in the site's default language: a request in another (?lang=th)
    leaves it active in the test's thread, as a request does in a server's thread until
    the next one sets its own."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def fresh_scheduler() -> Iterator[None]:
    """Each test starts with a push scheduler made from the test settings: jobs run
    inline, every change pushed at once, no page counted open."""
    live.install(None)
    background.install(None)
    yield
    live.install(None)
    background.install(None)
