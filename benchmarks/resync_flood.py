"""A resync flood from one client: the outside probe's scenario.

``--sockets`` (200) websockets from one address to one uvicorn (the embedded default's
server, SQLite, one table with a shoe of ``--rounds`` rounds), each asking once a second
for the whole live part with a version no page shows (``{"have": {"t1": "0:0:0"}}``),
for ``--seconds`` (30). Prints the bytes the client pulled, the whole answers and the
small ones, and the server's CPU (share of one core).

    python -m benchmarks.resync_flood                  # this checkout
    python -m benchmarks.resync_flood --root /tmp/old  # another checkout's server
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from pathlib import Path

from websockets.asyncio.client import connect

from benchmarks import load
from benchmarks.embedded import embedded
from tables.game.shoe import DealingShoe

ASK = json.dumps({"have": {"t1": "0:0:0"}})


async def flood(url: str, sockets: int, seconds: float) -> dict[str, float]:
    pulled = {"bytes": 0, "whole": 0, "small": 0}

    async def page() -> None:
        async with connect(url, origin=url.replace("ws", "http", 1).split("/ws/")[0], max_size=None) as socket:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                await socket.send(ASK)
                try:
                    while True:  # what came within the second
                        answer = await asyncio.wait_for(socket.recv(), timeout=max(0.0, 1 - 0.001))
                        pulled["bytes"] += len(answer)
                        pulled["whole" if len(answer) > 1000 else "small"] += 1
                except TimeoutError:
                    pass

    await asyncio.gather(*(page() for _ in range(sockets)))
    return pulled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=load.ROOT, help="the checkout whose server runs")
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--rounds", type=int, default=40)
    options = parser.parse_args()
    with embedded(options.root) as server:
        token = server.table("t1")
        load.post(server.url, "t1", "shoes", token)
        shoe = DealingShoe.shuffled()
        for _ in range(options.rounds):
            dealt = shoe.deal()
            cards = {"player": [c.code for c in dealt.player_cards], "banker": [c.code for c in dealt.banker_cards]}
            load.post(server.url, "t1", "rounds", token, cards)
        time.sleep(5)  # the rounds' odds computed and stored: nothing else is pushed during the flood
        before, began = load.cpu_seconds(server.process.pid), time.monotonic()
        socket_url = server.url.replace("http", "ws", 1) + "/ws/tables/t1/"
        pulled = asyncio.run(flood(socket_url, options.sockets, options.seconds))
        cpu = (load.cpu_seconds(server.process.pid) - before) / (time.monotonic() - began)
    load.report(
        f"{options.sockets} sockets from one address asking for 0:0:0 once a second, {options.seconds:.0f} s",
        {"MB pulled": pulled["bytes"] / 1e6, "whole answers": pulled["whole"], "small answers": pulled["small"],
         "server CPU, share of a core": cpu},
    )  # fmt: skip


if __name__ == "__main__":
    main()
