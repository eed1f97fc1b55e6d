"""Idle websockets from one address: the outside probe's scenario (it held 18,000).

Opens ``--sockets`` websockets from one client to one uvicorn (the embedded default's
server, SQLite, one table), keeps them open and idle, and prints how many the server
accepted and refused, and its memory before and after (RSS).

    python -m benchmarks.idle_sockets                  # this checkout
    python -m benchmarks.idle_sockets --root /tmp/old  # another checkout's server
"""

from __future__ import annotations

import argparse
import asyncio
import resource
from pathlib import Path

from websockets.asyncio.client import connect

from benchmarks import load
from benchmarks.embedded import embedded


async def hold(url: str, origin: str, sockets: int) -> tuple[int, int]:
    opened, refused = [], 0
    for _ in range(sockets):
        try:
            opened.append(await connect(url, origin=origin, ping_interval=None))
        except Exception:
            refused += 1
    accepted = len(opened)
    await asyncio.sleep(2)  # idle, as the probe's were
    for socket in opened:
        await socket.close()
    return accepted, refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=load.ROOT, help="the checkout whose server runs")
    parser.add_argument("--sockets", type=int, default=3000)
    options = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 2 * options.sockets + 1000)), hard))
    with embedded(options.root) as server:
        before = load.rss_kib(server.process.pid)
        socket_url = server.url.replace("http", "ws", 1) + "/ws/lobby/"
        accepted, refused = asyncio.run(hold(socket_url, server.url, options.sockets))
        after = load.rss_kib(server.process.pid)
    load.report(
        f"{options.sockets} idle websockets from one address",
        {
            "accepted": accepted,
            "refused": refused,
            "server MiB before": before / 1024,
            "server MiB after": after / 1024,
        },
    )


if __name__ == "__main__":
    main()
