"""The live pages' fan-out side by side with a minimal raw-ASGI broadcast server
(:mod:`benchmarks.fanout_baseline`), in one sitting, on one stack.

One stack of benchmarks.load (PostgreSQL, Redis, gunicorn, the Celery worker) records
and renders the rounds; one uvicorn of ours keeps a page of every table and the lobby
open throughout, so that every round is rendered and published whichever server the
clients are on. Each run then starts two fresh uvicorn processes (same flags: the
Procfile's), either ours (``config.asgi``) or the baseline, opens a page of every table
and the lobby on each (what later pages share is loaded then, and left out of the
memory per connection, alike for both), connects the clients to them and deals for
``--seconds`` at ``--rate`` rounds a second over 20 tables: the fan-out of
benchmarks.load, same clients, same dealers. The baseline relays what our stack
publishes, so both send the same messages, bytes and all; the latency (POST to the
client seeing the round) includes the render both wait for.

Ours and the baseline alternate, in pairs whose order swaps (ours first, then the
baseline first, ...), so that the machine's drift falls on both. The table gives each
side's figures and ours ÷ the baseline's, pair by pair, as min-max over the pairs.

    python -m benchmarks.fanout_vs_baseline --clients 1000 5000 10000 --pairs 2
    python -m benchmarks.fanout_vs_baseline --clients 1000 --pairs 1 --seconds 30

The clients are browser-like unless ``--one-address``: each socket from an address of its
own (X-Forwarded-For, which uvicorn takes from the loopback proxy), saying the versions
its page loaded just before (``{"have": ...}``), as static/js/live.js does. Latency is
taken from the dealer's POST and from the push's publish (heard on Redis as the servers
hear it); CPU is also given per 1,000 messages delivered, as the stack publishes more or
fewer pushes for the same rounds as the machine is loaded.

The file limit (10,000 clients are 10,000 sockets in the servers and as many in the
client processes) is raised to the hard limit here, for every process started.
"""

from __future__ import annotations

import argparse
import resource
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager

from benchmarks.load import FIRST_PAGES, Stack, fanout, post, watching
from tests.servers import free_port, uvicorn

OURS, BASELINE = "ours", "baseline"
BASELINE_APP = "benchmarks.fanout_baseline:app"
FIGURES = {  # the table's rows: a figure of benchmarks.load.fanout, and its label here
    "connect all pages, s": "connect all pages, s",
    "failed handshakes": "failed handshakes",
    "server memory per connection, KiB": "memory per connection, KiB",
    "websocket processes' CPU, s": "websocket processes' CPU, s",
    "websocket CPU per 1,000 messages delivered, ms": "CPU per 1,000 messages delivered, ms",
    "publish to client p50, ms": "p50 publish → client, ms",
    "publish to client p99, ms": "p99 publish → client, ms",
    "latency p50, ms": "p50 POST → client, ms",
    "latency p99, ms": "p99 POST → client, ms",
    "pushes published": "pushes published",
    "lost": "lost",
}
COUNTS = {"lost", "pushes published", "failed handshakes"}  # counts, not costs: no ratio


def raise_file_limit() -> int:
    """The soft limit on open files up to the hard one (inherited by every process
    started from here on); returns it."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


@contextmanager
def servers(stack: Stack, kind: str, count: int, run: int) -> Iterator[tuple[list[str], list[int]]]:
    """``count`` fresh uvicorn processes serving ours or the baseline: their addresses and
    process ids. Fresh for every run, so that no run finds memory an earlier one freed."""
    names, urls = [], []
    try:
        for k in range(count):
            port, name = free_port(), f"{kind}-{run}-{k + 1}"
            command = uvicorn(port, stack.deflate)
            if kind == BASELINE:
                command[command.index("config.asgi:application")] = BASELINE_APP
            stack.spawn(name, *command, "--no-access-log", "--log-level", "warning")
            names.append(name)
            urls.append(f"http://127.0.0.1:{port}")
        for url in urls:
            stack._wait(url)
        yield urls, [stack.processes[name].pid for name in names]
    finally:
        for name in names:
            stack.processes[name].terminate()
        for name in names:
            stack.processes.pop(name).wait(timeout=20)


def spread(values: list[float]) -> str:
    low, high = min(values), max(values)
    return f"{low:,.1f}" if f"{low:,.1f}" == f"{high:,.1f}" else f"{low:,.1f}-{high:,.1f}"


def ratios(ours: list[float], baseline: list[float]) -> str:
    """Ours ÷ the baseline's, pair by pair, as min-max ("-" where the baseline's is 0)."""
    found = [a / b for a, b in zip(ours, baseline, strict=True) if b]
    if not found:
        return "-"
    low, high = min(found), max(found)
    return f"{low:.2f}×" if f"{low:.2f}" == f"{high:.2f}" else f"{low:.2f}-{high:.2f}×"


def table(results: dict[int, dict[str, list[dict[str, float]]]]) -> str:
    """A markdown table: each figure at each client count, ours, the baseline's and the ratio."""
    lines = ["| clients | figure | ours | baseline | ours ÷ baseline |", "|---:|---|---:|---:|---:|"]
    for clients, sides in results.items():
        pairs = min(len(sides[OURS]), len(sides[BASELINE]))
        for key, label in FIGURES.items():
            ours = [run[key] for run in sides[OURS][:pairs]]
            baseline = [run[key] for run in sides[BASELINE][:pairs]]
            if not pairs:
                continue
            ratio = "" if key in COUNTS else ratios(ours, baseline)
            lines.append(f"| {clients:,} | {label} | {spread(ours)} | {spread(baseline)} | {ratio} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, nargs="+", default=[1000, 5000, 10000])
    parser.add_argument("--pairs", type=int, default=2, help="runs of each side at each client count")
    parser.add_argument("--seconds", type=float, default=30, help="dealing time of a run")
    parser.add_argument("--rate", type=float, default=10, help="rounds per second across the tables")
    parser.add_argument("--servers", type=int, default=2, help="uvicorn processes of the side measured")
    parser.add_argument("--deflate", choices=["on", "off"], default="off", help="websockets' permessage-deflate")
    parser.add_argument(
        "--one-address",
        action="store_true",
        help="every client from 127.0.0.1, saying it shows nothing (the earlier client); by default each"
        " from an address of its own behind the proxy, saying the versions its page loaded (as a browser)",
    )
    args = parser.parse_args()
    print(f"open files: up to {raise_file_limit():,} a process", flush=True)
    results: dict[int, dict[str, list[dict[str, float]]]] = defaultdict(lambda: {OURS: [], BASELINE: []})
    started = time.monotonic()
    # One server of ours shows every table and the lobby all along: each round is
    # rendered and published whoever serves the clients.
    with Stack(servers=1, deflate=args.deflate == "on").running() as stack, watching(stack, FIRST_PAGES):
        run = 0
        for clients in args.clients:
            for pair in range(args.pairs):
                for kind in (OURS, BASELINE) if pair % 2 == 0 else (BASELINE, OURS):
                    run += 1
                    for slug, token in stack.tokens.items():  # the dealers of a run start with a new shoe
                        post(stack.http_urls[0], slug, "shoes", token)
                    with servers(stack, kind, args.servers, run) as measured:
                        figures = fanout(stack, clients, args.seconds, args.rate, measured, not args.one_address)
                    results[clients][kind].append(figures)
                    shown = ", ".join(f"{label} {figures[key]:,.1f}" for key, label in FIGURES.items())
                    print(f"  {kind} at {clients:,} clients (pair {pair + 1}): {shown}", flush=True)
            print(table({clients: results[clients]}), flush=True)
    print(f"\nFan-out against a raw ASGI baseline ({args.rate:g} rounds/s, {args.seconds:.0f} s a run, ", end="")
    print(f"{args.pairs} pairs, {(time.monotonic() - started) / 60:.0f} min in all)\n")
    print(table(results), flush=True)


if __name__ == "__main__":
    main()
