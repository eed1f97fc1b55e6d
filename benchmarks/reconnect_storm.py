"""A reconnect storm against the raw-ASGI baseline (issue 50, item 1), in one sitting.

Each run starts the stack of tests/screens.py (PostgreSQL, Redis, the Procfile's web and
ws: uvicorn with two workers), its ws serving ours (``config.asgi``) or the baseline
(``benchmarks.fanout_baseline``), and opens ``--screens`` table screens over 20 tables, each
shoe 40 rounds in, each screen from an address of its own behind the proxy and saying what
it shows, as a browser's page does. Then the ws process group is killed (SIGKILL), two
rounds a table are dealt, ws is started again, and every screen reconnects with htmx's
full jitter. Ours counts a screen back when it shows its table as it is now (it is sent
the whole part it missed); the baseline cannot resync, so a screen counts back once it
reconnects. Ours and the baseline alternate in pairs whose order swaps.

    python -m benchmarks.reconnect_storm --screens 10000 --pairs 2
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from tests.screens import Storm, running

BASELINE = "benchmarks.fanout_baseline:app"
OURS = "config.asgi:application"
TABLES = 20
DEALT = 40


def one_run(app: str, screens: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="bench-storm-") as root, running(Path(root), TABLES, app) as stack:
        storm = Storm(stack, screens, dealt=DEALT, resyncs=app == OURS)
        figures = asyncio.run(storm.run(within=600))
        log = stack.ws_log.read_text()
        return figures | {"workers killed": float(log.count("died")), "caught up": float(storm.caught_up)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--screens", type=int, nargs="+", default=[10000])
    parser.add_argument("--pairs", type=int, default=2)
    args = parser.parse_args()
    started = time.monotonic()
    for screens in args.screens:
        for pair in range(args.pairs):
            for app in (OURS, BASELINE) if pair % 2 == 0 else (BASELINE, OURS):
                figures = one_run(app, screens)
                side = "ours" if app == OURS else "baseline"
                shown = ", ".join(f"{name} {value:,.1f}" for name, value in figures.items())
                print(f"{side} at {screens:,} screens (pair {pair + 1}): {shown}", flush=True)
    print(f"{(time.monotonic() - started) / 60:.0f} min in all")


if __name__ == "__main__":
    main()
