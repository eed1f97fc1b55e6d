"""The desk's socket (issue 35): a reviewer's desk opens it with its ticket and gets the
alarms panel on every (re)connect and each time an alarm is raised; without a ticket
that lets its reviewer see alarms it is closed."""

from __future__ import annotations

import json

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Permission, User

from config.asgi import application
from tables import services
from tables.access.desk_sockets import desk_ticket
from tables.game.alarms import AlarmKind, Finding, Severity
from tables.models import Alarm, Shoe
from tables.surveillance import alarms
from tests.html import find, find_all
from tests.sockets import ORIGIN, connected

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest_asyncio.fixture(autouse=True)
async def fresh_layer() -> None:
    await get_channel_layer().flush()


@database_sync_to_async
def reviewer_ticket() -> str:
    user = User.objects.create_user("desk-reviewer", password="pw-desk-reviewer-1", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_alarm"))  # the flush left no groups
    return desk_ticket(user.pk)


@database_sync_to_async
def shoe_with_alarm(number: int) -> int:
    table, _ = services.table_create(slug="baccarat-1", name="Baccarat 1")
    shoe = services.shoe_start(table=table).shoe
    return raise_on(shoe.pk, number)


@database_sync_to_async
def raise_alarm(shoe_id: int, number: int, kind: AlarmKind = AlarmKind.STREAK) -> int | None:
    return raise_on(shoe_id, number, kind, new=False)


@database_sync_to_async
def shoe_of(alarm_pk: int) -> int:
    shoe_id = Alarm.objects.get(pk=alarm_pk).shoe_id
    assert shoe_id is not None
    return shoe_id


def raise_on(shoe_id: int, number: int, kind: AlarmKind = AlarmKind.STREAK, new: bool = True) -> int | None:
    """A finding of ``kind`` on the shoe: a new alarm's id, or ``None`` when the shoe's
    open alarm of that kind gathered it."""
    shoe = Shoe.objects.select_related("table").get(pk=shoe_id)
    finding = Finding(kind, Severity.WARNING, f"shoe:{shoe_id}:{kind}:{number}", number, {"statistic": number})
    alarm = alarms.alarm_raise(finding, table=shoe.table, shoe=shoe)
    assert alarm is not None or not new
    return alarm.pk if alarm is not None else None


async def test_a_desk_without_a_ticket_is_closed() -> None:
    for path in ("/ws/desk/", "/ws/desk/?ticket=forged", "/ws/desk/shoes/1/"):
        page = WebsocketCommunicator(application, path, headers=ORIGIN)
        connected_, code = await page.connect()
        assert not connected_ and code == 4403
        await page.disconnect()


async def test_a_desk_gets_the_alarms_when_it_connects_and_each_one_raised() -> None:
    ticket = await reviewer_ticket()
    first = await shoe_with_alarm(12)
    page = await connected(f"/ws/desk/?ticket={ticket}")
    await page.send_to(text_data=json.dumps({"have": {}}))  # live.js says what it shows on (re)connect
    resync = await page.receive_from(timeout=5)
    assert find(resync, "li", id=f"alarm-{first}")
    shoe_id = await shoe_of(first)
    second = await raise_alarm(shoe_id, 14, AlarmKind.OUTCOMES)
    pushed = await page.receive_from(timeout=5)
    assert [li.attrs["id"] for li in find_all(pushed, "li", cls="desk-alarm")] == [f"alarm-{second}", f"alarm-{first}"]
    # A later finding of the first one's kind joins it: pushed with its count, no new alarm.
    assert await raise_alarm(shoe_id, 15) is None
    pushed = await page.receive_from(timeout=5)
    [gathered] = [li for li in find_all(pushed, "li", cls="desk-alarm") if li.attrs["id"] == f"alarm-{first}"]
    assert "2 findings" in gathered.text
    await page.disconnect()


async def test_a_shoe_page_gets_its_shoe_alarms_only() -> None:
    ticket = await reviewer_ticket()
    first = await shoe_with_alarm(12)
    shoe_id = await shoe_of(first)
    page = await connected(f"/ws/desk/shoes/{shoe_id}/?ticket={ticket}")
    await page.send_to(text_data=json.dumps({"have": {}}))
    assert find(await page.receive_from(timeout=5), "section", id="shoe-alarms")
    await page.disconnect()
