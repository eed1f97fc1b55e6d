"""A flood of wrong admin sign-ins while a dealer posts rounds: the outside probe's
scenario (gunicorn 2 workers x 4 threads behind a TLS proxy, PostgreSQL, Redis).

A dealer posts 5 rounds a second for ``--seconds``, first alone, then while ``--flooders``
threads send wrong passwords as fast as the login answers: from one address (the
probe's flood), then each try from an address and a username of its own (a flood the
address and username limits cannot stop: only the bound on hashing at once holds it).
For each phase: rounds acknowledged, the dealer's latency (p50, p99), sign-in tries
and how they were answered.

    python -m benchmarks.login_flood                  # this checkout
    python -m benchmarks.login_flood --root /tmp/old  # another checkout (its servers), same load
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import re
import secrets
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from benchmarks import load
from tables.game.shoe import DealingShoe

PROXY = {"X-Forwarded-Proto": "https"}  # what the TLS proxy adds (HTTPS=true trusts it)
CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


def call(url: str, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None):
    connection = http.client.HTTPConnection(url.removeprefix("http://"), timeout=60)
    try:
        connection.request(method, path, body=body, headers={**PROXY, **(headers or {})})
        response = connection.getresponse()
        return response.status, response.getheaders(), response.read()
    finally:
        connection.close()


class Dealer:
    def __init__(self, url: str, slug: str, token: str) -> None:
        self.url, self.slug, self.token, self.shoe = url, slug, token, DealingShoe.shuffled()
        self.post("shoes", {})

    def post(self, path: str, body: dict[str, Any]) -> int:
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        status, _, _ = call(self.url, "POST", f"/api/tables/{self.slug}/{path}", json.dumps(body).encode(), headers)
        return status

    def deal(self, seconds: float, rate: float) -> tuple[int, list[float]]:
        acknowledged, latencies = 0, []
        start = time.monotonic()
        for n in itertools.count():
            due = start + n / rate
            if due >= start + seconds:
                break
            time.sleep(max(0.0, due - time.monotonic()))
            if self.shoe.finished:
                self.post("shoes", {})
                self.shoe = DealingShoe.shuffled()
            outcome = self.shoe.deal()
            cards = {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}
            began = time.monotonic()
            if self.post("rounds", cards) == 201:
                acknowledged += 1
            latencies.append((time.monotonic() - began) * 1000)
        return acknowledged, latencies


def flood(url: str, stop: threading.Event, answers: Counter[int], spread: bool, worker: int) -> None:
    """Wrong passwords until ``stop``; ``spread``: each try from another address and username."""
    for n in itertools.count():
        if stop.is_set():
            return
        address = f"10.{worker}.{n // 250 % 250}.{n % 250 + 1}" if spread else "203.0.113.9"
        username = f"admin-{worker}-{n}" if spread else "owner"
        origin = {"X-Real-IP": address, "Referer": f"https://127.0.0.1{url[url.rindex(':') :]}/admin/login/"}
        status, headers, page = call(url, "GET", "/admin/login/", headers=origin)
        cookie = "; ".join(v.split(";")[0] for k, v in headers if k.lower() == "set-cookie")
        token = CSRF.search(page)
        if token is None:
            answers[status] += 1
            continue
        form = urlencode({"csrfmiddlewaretoken": token.group(1), "username": username, "password": "wrong"})
        status, _, _ = call(
            url,
            "POST",
            "/admin/login/",
            form.encode(),
            {**origin, "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"},
        )
        answers[status] += 1


def phase(url: str, dealer: Dealer, seconds: float, flooders: int, spread: bool) -> dict[str, float]:
    stop, answers = threading.Event(), Counter[int]()
    threads = [
        threading.Thread(target=flood, args=(url, stop, answers, spread, k), daemon=True) for k in range(flooders)
    ]
    for thread in threads:
        thread.start()
    acknowledged, latencies = dealer.deal(seconds, rate=5)
    stop.set()
    for thread in threads:
        thread.join()
    return {
        "acknowledged": acknowledged,
        "posted": len(latencies),
        "p50 ms": load.percentile(latencies, 0.5),
        "p99 ms": load.percentile(latencies, 0.99),
        **{f"sign-ins {status}": count for status, count in sorted(answers.items())},
    }


def production_stack(root: Path) -> load.Stack:
    """The checkout's servers as production runs them (HTTPS, behind the TLS proxy): one
    gunicorn of two workers of four threads, no websocket server."""
    load.ROOT = root
    load.HEADERS.update(PROXY)
    os.environ.update(HTTPS="true", SECRET_KEY=secrets.token_urlsafe(50))
    return load.Stack(servers=0, http_servers=1, workers=2, threads=4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=load.ROOT, help="the checkout whose servers run")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--flooders", type=int, default=16)
    options = parser.parse_args()
    stack = production_stack(options.root)
    with stack.running():
        owner = "from django.contrib.auth.models import User; User.objects.create_superuser('owner', password='pw-1')"
        stack.manage("shell", "-c", owner)
        url, slug = stack.http_urls[0], "baccarat-1"
        dealer = Dealer(url, slug, stack.tokens[slug])
        for title, flooders, spread in [
            ("alone", 0, False),
            (f"{options.flooders} threads from one address", options.flooders, False),
            (f"{options.flooders} threads, every try a new address and username", options.flooders, True),
        ]:
            load.report(title, phase(url, dealer, options.seconds, flooders, spread))


if __name__ == "__main__":
    main()
