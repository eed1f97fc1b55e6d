"""What a player's page receives a minute with good-road alerts on, 24 tables dealing
(issue 36): the alerts socket beside the page's own (a table page's, the lobby's).

The embedded default's server (uvicorn, SQLite, the in-memory channel layer) with
``--tables`` tables, each dealt real shoes at one round every ``--every`` seconds
(staggered), for ``--seconds``. One alerts socket, one lobby socket and one table
socket listen; each prints its messages and bytes a minute. The alerts socket's cost
does not grow with the tables watched, only with the good roads that form.

    python -m benchmarks.alert_bytes                   # 24 tables, a round each every 24 s, 5 minutes
    python -m benchmarks.alert_bytes --seconds 120
"""

from __future__ import annotations

import argparse
import asyncio
import threading
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from benchmarks import load
from benchmarks.embedded import Embedded, embedded
from tables.game.shoe import DealingShoe


class Table:
    """A table of the benchmark: its token and its shoe, dealt by the rules."""

    def __init__(self, server: Embedded, slug: str) -> None:
        self.server, self.slug, self.token = server, slug, server.table(slug)
        self.shoe = DealingShoe.shuffled()
        load.post(server.url, slug, "shoes", self.token)

    def round(self) -> None:
        if self.shoe.finished:
            load.post(self.server.url, self.slug, "shoes", self.token)
            self.shoe = DealingShoe.shuffled()
        outcome = self.shoe.deal()
        cards = {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}
        load.post(self.server.url, self.slug, "rounds", self.token, cards)


def deal(tables: list[Table], every: float, seconds: float, stop: threading.Event) -> int:
    """Each table a round every ``every`` seconds, the tables staggered; rounds dealt."""
    start, dealt = time.monotonic(), 0
    step = every / len(tables)
    while not stop.is_set() and time.monotonic() - start < seconds:
        tables[dealt % len(tables)].round()
        dealt += 1
        wait = start + dealt * step - time.monotonic()
        if wait > 0:
            stop.wait(wait)
    return dealt


async def listen(url: str, origin: str, seconds: float) -> dict[str, float]:
    """Messages and bytes one socket receives in ``seconds``."""
    messages = received = 0
    async with connect(url, origin=origin, ping_interval=None, max_size=None) as socket:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                message = await asyncio.wait_for(socket.recv(), timeout=left)
            except TimeoutError:
                break
            messages += 1
            received += len(message.encode() if isinstance(message, str) else message)
    return {"messages": messages, "bytes": received}


async def listen_all(server: Embedded, slug: str, seconds: float) -> dict[str, dict[str, float]]:
    socket = server.url.replace("http", "ws", 1)
    paths = {
        "alerts": "/ws/alerts/?lang=en",
        "lobby": "/ws/lobby/?lang=en",
        "table page": f"/ws/tables/{slug}/?lang=en",
    }
    answers = await asyncio.gather(*(listen(socket + path, server.url, seconds) for path in paths.values()))
    return dict(zip(paths, answers, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=load.ROOT, help="the checkout whose server runs")
    parser.add_argument("--tables", type=int, default=24)
    parser.add_argument("--every", type=float, default=24.0, help="seconds between one table's rounds")
    parser.add_argument("--seconds", type=float, default=300.0)
    options = parser.parse_args()
    with embedded(options.root) as server:
        tables = [Table(server, f"baccarat-{n}") for n in range(1, options.tables + 1)]
        stop, dealt = threading.Event(), [0]
        dealer = threading.Thread(target=lambda: dealt.__setitem__(0, deal(tables, options.every, 1e9, stop)))
        dealer.start()
        try:
            heard = asyncio.run(listen_all(server, tables[0].slug, options.seconds))
        finally:
            stop.set()
            dealer.join()
    minutes = options.seconds / 60
    figures: dict[str, Any] = {"rounds dealt a minute": dealt[0] / minutes}
    for name, got in heard.items():
        figures[f"{name}: messages a minute"] = got["messages"] / minutes
        figures[f"{name}: KiB a minute"] = got["bytes"] / 1024 / minutes
    load.report(f"{options.tables} tables, a round each every {options.every:g} s, {options.seconds:g} s", figures)


if __name__ == "__main__":
    main()
