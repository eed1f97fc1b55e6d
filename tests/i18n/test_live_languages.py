"""Issue 21: live pushes arrive in each page's own language, rendered once per language
some page shows, not once per page; a resync answers in the page's language too."""

from __future__ import annotations

import json
from unittest import mock

import pytest
import pytest_asyncio
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tables.pages import fragments
from tests.html import find_all
from tests.sockets import ORIGIN, connected, record, table_with_shoe

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest_asyncio.fixture(autouse=True)
async def fresh_layer() -> None:
    await get_channel_layer().flush()


async def test_each_page_gets_the_push_in_its_language_rendered_once_per_language() -> None:
    table = await table_with_shoe()
    pages = {lang: await connected(f"/ws/tables/baccarat-1/?lang={lang}") for lang in ("en", "zh-hans", "zh-hant")}
    second_english = await connected("/ws/tables/baccarat-1/?lang=en")
    lobby = await connected("/ws/lobby/?lang=ko")
    with mock.patch("tables.pages.fragments.table_push_html", wraps=fragments.table_push_html) as rendered:
        await record(table)
        pushed = {lang: await page.receive_from(timeout=5) for lang, page in pages.items()}
        assert await second_english.receive_from(timeout=5) == pushed["en"]
    assert rendered.call_count == 3, "one render per language shown, not per page"
    assert "Big Road" in pushed["en"] and "大路" in pushed["zh-hans"] and "大路" in pushed["zh-hant"]
    assert "珠盘路" in pushed["zh-hans"] and "珠盤路" in pushed["zh-hant"] and "Big Road" not in pushed["zh-hans"]
    card = await lobby.receive_from(timeout=5)
    assert find_all(card, "a", id="table-baccarat-1") and "Banker" not in card  # in Korean
    for page in [*pages.values(), second_english, lobby]:
        await page.disconnect()


async def test_a_resync_answers_in_the_page_s_language() -> None:
    table = await table_with_shoe()
    await record(table)
    page = await connected("/ws/tables/baccarat-1/?lang=zh-hant")
    await page.send_to(text_data=json.dumps({"have": {"baccarat-1": "0:0:0:0:0"}}))
    assert "珠盤路" in await page.receive_from(timeout=5)
    await page.disconnect()


async def test_a_socket_in_a_language_the_site_has_not_is_closed_as_malformed() -> None:
    await table_with_shoe()
    page = WebsocketCommunicator(application, "/ws/tables/baccarat-1/?lang=xx", headers=ORIGIN)
    connected, code = await page.connect()
    assert not connected and code == 4400
