"""Alarms raised on "Baccarat 1", a receiver of the casino's, and a clock the test moves
that runs the webhooks' retries as it passes them (no sleeping)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tables import services
from tables.background import runner as background
from tables.game.alarms import Finding
from tables.models import Alarm, Shoe, Table, Webhook
from tables.surveillance import webhooks
from tables.surveillance.alarms import alarm_raise
from tests.fake_time import FakeTime
from tests.surveillance.receiver import Receiver, receiving


@pytest.fixture
def clock() -> Iterator[FakeTime]:
    """The webhooks' clock and runner: a failed attempt's retry runs when the test
    advances the clock past it."""
    fake = FakeTime()
    webhooks.install_clock(fake)
    background.install(fake, queue=webhooks.QUEUE)
    yield fake
    webhooks.install_clock(None)
    background.install(None, queue=webhooks.QUEUE)


@pytest.fixture
def receiver(clock: FakeTime) -> Iterator[Receiver]:
    with receiving(Receiver(secrets={}, now=clock.time)) as running:
        yield running


@pytest.fixture
def shoe(baccarat_1: tuple[Table, str]) -> Shoe:
    table, _ = baccarat_1
    return services.shoe_start(table=table).shoe


@pytest.fixture
def hook(receiver: Receiver, db: None) -> Callable[..., Webhook]:
    """A webhook at ``path`` on the receiver, whose secret the receiver verifies with."""

    def make(path: str = "/alarms", **fields: object) -> Webhook:
        fields = {"private_address_allowed": True, **fields}  # the receiver is on 127.0.0.1
        webhook = Webhook.objects.create(name=path.strip("/"), url=receiver.url + path, **fields)
        receiver.secrets[path] = webhook.secret
        return webhook

    return make


@pytest.fixture
def raise_alarm(shoe: Shoe, django_capture_on_commit_callbacks) -> Callable[[Finding], Alarm | None]:
    """Raise ``finding`` on the shoe as the checks do, its after-commit work run."""

    def raise_(finding: Finding) -> Alarm | None:
        with django_capture_on_commit_callbacks(execute=True):
            return alarm_raise(finding, table=shoe.table, shoe=shoe, dealer="Anna")

    return raise_
