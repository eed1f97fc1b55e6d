"""A reconnect storm (issue 50, item 1): 2,000 table screens are open on the Procfile's
websocket process (uvicorn, two workers) when it is killed; rounds are dealt while it is
down; it is started again and every screen comes back at once, as a floor's screens do
after a crash or a deploy, each from its own address (behind the proxy) and saying which
version it shows, as static/js/live.js does. Every screen is back and shows the table as
it is, no handshake fails once the server answers, and no worker is killed for missing
its supervisor's health check (answering the hellos never holds the event loop)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import servers
from tests.screens import Stack, Storm, running

pytestmark = pytest.mark.backend_free  # starts every server it needs itself

SCREENS = 2000
TABLES = 4
DEALT = 24  # rounds of each table's shoe before the server is killed
BACK_WITHIN = 60.0  # seconds after the server answers again, for every screen to show the table as it is


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    problem = servers.missing()
    if problem:
        servers.unavailable(problem)
    with running(tmp_path, TABLES) as made:
        yield made


def test_two_thousand_screens_come_back_current_after_the_websocket_server_is_killed(stack: Stack) -> None:
    storm = Storm(stack, SCREENS, dealt=DEALT)
    figures = asyncio.run(storm.run(within=BACK_WITHIN))
    log = stack.ws_log.read_text()
    answers, reads = stack.counted("baccarat_resyncs"), stack.counted("baccarat_hello_reads")
    print("reconnect storm:", json.dumps(figures | {"answers": answers, "reads": reads}))
    assert storm.caught_up, "every screen reconnected and shows the table as it is"
    assert figures["failed handshakes after"] == 0, "no handshake fails once the server answers"
    assert "died" not in log and "Traceback" not in log, "no worker killed, no error"
    # Every screen behind was sent the whole part, from a render shared by the screens of
    # its table (a few renders a table and process, not one a screen).
    assert answers["whole"] >= SCREENS
    assert reads["whole"] <= answers["whole"] / 20
