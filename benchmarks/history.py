"""Costs as history grows (issue 33): every page, the API's reads, the review page, the
exports and recording a round, timed on the production stack (PostgreSQL, Redis,
gunicorn 2 workers x 4 threads behind the proxy's headers) with 10 k, 100 k and 1 M
rounds of history.

History is written by :mod:`benchmarks.history_fill` (whole shoes dealt by the game core,
stored in bulk as the recording service stores them: checked first, field for field,
against the service recording the same shoe). At each size it prints the median (and
slowest) answer in ms of each page over ``--samples`` requests, each on a connection of
its own as behind the proxy; the review page's first answer (cold) too; the exports'
rounds a second; a web worker's memory growth over the reviewer's requests; and the
dealer's median POST of a round.

    python -m benchmarks.history                       # 10 k, 100 k, 1 M
    python -m benchmarks.history --sizes 10000 100000  # a quicker look
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import time
from pathlib import Path
from typing import Any

from benchmarks import load
from benchmarks.forced_reports import PeakRSS, Reviewer
from benchmarks.login_flood import PROXY, Dealer, call, production_stack

PUBLIC = {
    "lobby": "/",
    "good roads": "/good-roads/",
    "lobby screen": "/lobby/screen/",
    "table page": "/tables/baccarat-1/",
    "table odds page": "/tables/baccarat-1/odds/",
    "table display": "/tables/baccarat-1/display/",
    "an old shoe's page": "/tables/baccarat-2/?shoe=2",
    "API: current shoe's rounds": "/api/tables/baccarat-1/rounds",
    "API: an old shoe's rounds": "/api/tables/baccarat-2/rounds?shoe=2",
    "API: current shoe's roads": "/api/tables/baccarat-1/roads",
    "API: an old shoe's roads": "/api/tables/baccarat-2/shoes/2/roads",
}
REVIEWER = {
    "admin index (the desk)": "/admin/",
    "admin round list": "/admin/tables/round/",
    "admin round list, one table": "/admin/tables/round/?table__id__exact=2",
    "admin shoe list": "/admin/tables/shoe/",
    "admin shoe page": "/admin/tables/shoe/{shoe}/change/",
    "admin round page": "/admin/tables/round/{round}/change/",
    "review, one table": "/review/?table=baccarat-2",
    "review, everything": "/review/",
}
REVIEWER_USER = (
    "from django.contrib.auth.models import User; User.objects.create_superuser('reviewer-0', password='pw-reviewer-1')"
)
VACUUM = (
    "from django.db import connection; connection.cursor().execute('VACUUM ANALYZE')"  # as autovacuum would by then
)
OLDEST = "from tables.models import Round; r = Round.objects.order_by('pk')[500]; print(r.shoe_id, r.pk)"
EXPORTS = {"rounds.csv, everything": "/review/rounds.csv", "rounds.json, everything": "/review/rounds.json"}


def timed(send: Any, path: str, samples: int) -> list[float]:
    times = []
    for _ in range(samples):
        began = time.perf_counter()
        status, _, _ = send("GET", path)
        times.append((time.perf_counter() - began) * 1000)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status}")
    return times


def exported(url: str, path: str, cookies: str) -> tuple[int, float]:
    """Rounds an export streams (its lines, less the CSV header or counting the JSON
    objects' "id" keys) and the seconds it took, read a chunk at a time as a client does."""
    connection = http.client.HTTPConnection(url.removeprefix("http://"), timeout=3600)
    began = time.perf_counter()
    connection.request("GET", path, headers={**PROXY, "Cookie": cookies})
    response = connection.getresponse()
    lines = ids = 0
    tail = b""
    while chunk := response.read(1 << 20):
        lines += chunk.count(b"\n")
        text = tail + chunk
        ids += text.count(b'"id"') - tail.count(b'"id"')  # the round's key, with or without a space after
        tail = chunk[-8:]
    seconds = time.perf_counter() - began
    connection.close()
    if response.status != 200:
        raise RuntimeError(f"GET {path}: {response.status}")
    return (lines - 1 if path.endswith(".csv") else ids), seconds


def measure(
    stack: load.Stack, reviewer: Reviewer, dealer: Dealer, samples: int, old: dict[str, int]
) -> dict[str, float]:
    url = stack.http_urls[0]
    figures: dict[str, float] = {}

    def public(method: str, path: str):
        return call(url, method, path)

    for name, path in PUBLIC.items():
        times = timed(public, path, samples)
        figures[f"{name}, median ms"] = statistics.median(times)
    before = {pid: load.rss_kib(pid) for pid in stack.http_pids()}
    cold = timed(reviewer.send, "/review/", 1)[0]
    figures["review, everything, cold (first) ms"] = cold
    for name, path in REVIEWER.items():
        path = path.format(**old)
        times = timed(reviewer.send, path, samples if "review" not in name else max(3, samples // 3))
        figures[f"{name}, median ms"] = statistics.median(times)
    after = {pid: load.rss_kib(pid) for pid in stack.http_pids()}
    figures["web worker growth over the reviewer's pages, MiB (largest)"] = (
        max(after[pid] - before.get(pid, after[pid]) for pid in after) / 1024
    )
    cookies = "; ".join(f"{k}={v}" for k, v in reviewer.cookies.items())
    for name, path in EXPORTS.items():
        before = {pid: load.rss_kib(pid) for pid in stack.http_pids()}
        peak = PeakRSS(stack)
        rounds, seconds = exported(url, path, cookies)
        peak.stop()
        figures[f"{name}: rounds a second"] = rounds / seconds
        figures[f"{name}: web worker peak growth, MiB"] = (peak.web - max(before.values())) / 1024
    acknowledged, latencies = dealer.deal(seconds=8, rate=5)
    figures["record a round (POST), median ms"] = statistics.median(latencies)
    figures["record a round, acknowledged of 40"] = acknowledged
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=load.ROOT, help="the checkout whose servers run")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--samples", type=int, default=15)
    options = parser.parse_args()
    os.environ["EXPORT_MAX_ROUNDS"] = str(10 * max(options.sizes))  # the whole history in one export, timed
    stack = production_stack(options.root)
    columns: dict[int, dict[str, float]] = {}
    with stack.running():
        stack.manage("shell", "-c", REVIEWER_USER)
        stack.manage("shell", "-c", "from benchmarks import history_fill; history_fill.check()")
        print("the bulk path writes what the recording service writes: checked", flush=True)
        url = stack.http_urls[0]
        dealer = Dealer(url, "baccarat-1", stack.tokens["baccarat-1"])
        dealer.deal(seconds=4, rate=10)  # the table page's current shoe: some rounds in
        reviewer = Reviewer(url, "reviewer-0")
        stored, old = 0, {"shoe": 0, "round": 0}
        for size in sorted(options.sizes):
            began = time.monotonic()
            fill = f"from benchmarks import history_fill; print(history_fill.fill({size - stored}))"
            stored = int(stack.manage("shell", "-c", fill).splitlines()[-1])
            print(f"history: {stored:,} rounds ({time.monotonic() - began:.0f} s to write)", flush=True)
            stack.manage("shell", "-c", VACUUM)
            if not old["round"]:  # an early shoe and round of history, for their admin pages
                old = dict(
                    zip(
                        ("shoe", "round"),
                        map(int, stack.manage("shell", "-c", OLDEST).splitlines()[-1].split()),
                        strict=True,
                    )
                )
            columns[size] = measure(stack, reviewer, dealer, options.samples, old)
            load.report(f"{stored:,} rounds", columns[size])
    names = list(next(iter(columns.values())))
    print("\n| figure | " + " | ".join(f"{size:,} rounds" for size in columns) + " |")
    print("|---|" + "---|" * len(columns))
    for name in names:
        print(f"| {name} | " + " | ".join(f"{columns[size][name]:,.1f}" for size in columns) + " |")


if __name__ == "__main__":
    main()
