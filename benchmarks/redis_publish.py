"""The channel layer's publish path on its own: where Redis itself becomes the limit.

With ``REDIS_URL`` the live push goes through channels_redis's pub/sub layer: a push to a
group is one ``PUBLISH`` on the group's channel, and Redis writes it to every server
process subscribed to that group (each process subscribes once a group, whatever the
number of its pages: ``tables/live/fanout.py``). So Redis's work grows with the
publishes a second times the server processes that hold a page of the group: with more
machines, not with more pages.

This starts a Redis, ``--subscribers`` subscriber processes (``redis-cli``, a C client
that reads as fast as Redis writes: the server processes of that many machines, each
subscribed to every table's and the lobby's channel in ``--languages`` languages), and
publishes with ``redis-benchmark`` (a C client, pipelined) payloads of ``--bytes``, as
fast as Redis takes them. It prints, for each number of subscribers, the publishes a
second, the deliveries a second (publishes x subscribers), Redis's CPU and its CPU a
delivery, and the bytes a second Redis wrote.

    python -m benchmarks.redis_publish
    python -m benchmarks.redis_publish --subscribers 1 8 32 --bytes 6144 1024
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import time
from pathlib import Path

from tests.servers import RedisServer

TABLES = 20
PUBLISHES = 20_000  # a run, for each row


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def channels(languages: int) -> list[str]:
    """The group channels a server process with pages of every table subscribes to."""
    codes = ["en", "ko", "th", "vi", "zh-hans", "zh-hant"][:languages]
    groups = [f"table-baccarat-{n}-{code}" for n in range(1, TABLES + 1) for code in codes]
    return [f"asgi__group__{group}" for group in groups + [f"lobby-{code}" for code in codes]]


def subscribed(redis: RedisServer, channel: str) -> int:
    found = subprocess.run(
        ["redis-cli", "-p", str(redis.port), "PUBSUB", "NUMSUB", channel], capture_output=True, text=True, check=True
    )
    return int(found.stdout.split()[-1])


def row(redis: RedisServer, pid: int, subscribers: int, size: int, languages: int) -> dict[str, float]:
    names = channels(languages)
    readers = [
        subprocess.Popen(
            ["redis-cli", "-p", str(redis.port), "SUBSCRIBE", *names],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(subscribers)
    ]
    try:
        deadline = time.monotonic() + 30
        while subscribed(redis, names[0]) < subscribers:
            if time.monotonic() > deadline:
                raise RuntimeError("the subscribers did not subscribe")
            time.sleep(0.05)
        payload = "x" * size
        began_cpu, began = cpu_seconds(pid), time.monotonic()
        publisher = ["redis-benchmark", "-p", str(redis.port), "-n", str(PUBLISHES), "-c", "4", "-P", "8", "-q"]
        done = subprocess.run(
            [*publisher, "PUBLISH", names[0], payload],
            capture_output=True,
            text=True,
            check=True,
        )
        seconds, cpu = time.monotonic() - began, cpu_seconds(pid) - began_cpu
        rate = re.search(r"([\d.]+) requests per second", done.stdout)
        publishes = float(rate.group(1)) if rate else PUBLISHES / seconds
        still = subscribed(redis, names[0])
    finally:
        for reader in readers:
            reader.terminate()
        for reader in readers:
            reader.wait()
    deliveries = PUBLISHES * subscribers
    return {
        "publishes a second": publishes,
        "deliveries a second": publishes * subscribers,
        "Redis CPU, % of a core": 100 * cpu / seconds,
        "Redis CPU a delivery, µs": 1e6 * cpu / deliveries,
        "written, MB/s": publishes * subscribers * size / 1e6,
        "subscribers still there": still,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--subscribers", type=int, nargs="+", default=[1, 4, 16, 64])
    parser.add_argument("--bytes", type=int, nargs="+", default=[6144, 1024])
    parser.add_argument("--languages", type=int, default=6)
    options = parser.parse_args()
    redis = RedisServer().start()
    try:
        pid = int((redis.root / "redis.pid").read_text())
        print("| payload | subscribers | publishes/s | deliveries/s | Redis CPU | CPU a delivery | written | kept |")
        print("|---|---|---|---|---|---|---|---|")
        for size in options.bytes:
            for subscribers in options.subscribers:
                r = row(redis, pid, subscribers, size, options.languages)
                print(
                    f"| {size:,} B | {subscribers} | {r['publishes a second']:,.0f} | {r['deliveries a second']:,.0f}"
                    f" | {r['Redis CPU, % of a core']:.0f} % | {r['Redis CPU a delivery, µs']:.2f} µs"
                    f" | {r['written, MB/s']:,.0f} MB/s | {r['subscribers still there']:.0f} |",
                    flush=True,
                )
    finally:
        redis.destroy()


if __name__ == "__main__":
    main()
