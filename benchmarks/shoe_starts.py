"""A dealer system retrying a shoe start that timed out: the outside probe's scenario.

``--starts`` (8) ``POST /api/tables/{slug}/shoes`` at once against gunicorn (2 workers x
4 threads) on PostgreSQL and Redis, then how many shoes the table has and how the starts
were answered. Before starts were safe to retry, each start ended the one before: 8
starts made 8 shoes.

    python -m benchmarks.shoe_starts                  # this checkout
    python -m benchmarks.shoe_starts --root /tmp/old  # another checkout, same load
"""

from __future__ import annotations

import argparse
import threading
from collections import Counter
from pathlib import Path

from benchmarks import load


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=load.ROOT, help="the checkout whose servers run")
    parser.add_argument("--starts", type=int, default=8)
    options = parser.parse_args()
    load.ROOT = options.root
    stack = load.Stack(servers=0, http_servers=1, workers=2, threads=4)
    with stack.running():  # every table's first shoe is started (and dealt nothing)
        url, slug = stack.http_urls[0], "baccarat-1"
        answers: Counter[int] = Counter()
        barrier = threading.Barrier(options.starts)

        def start() -> None:
            barrier.wait()
            headers = {"Authorization": f"Bearer {stack.tokens[slug]}", "Content-Type": "application/json"}
            status, _ = load.request("POST", url, f"/api/tables/{slug}/shoes", b"{}", headers)
            answers[status] += 1

        load.run_together([threading.Thread(target=start) for _ in range(options.starts)])
        count = "from tables.models import Shoe; print(Shoe.objects.filter(table__slug='baccarat-1').count())"
        shoes = int(stack.manage("shell", "-c", count).splitlines()[-1])
        figures = {"shoes the table has": shoes, **{f"answers {s}": n for s, n in sorted(answers.items())}}
        load.report(f"{options.starts} shoe starts at once on a table with an untouched shoe", figures)


if __name__ == "__main__":
    main()
