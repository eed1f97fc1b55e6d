"""A card on screen (issue 50, item 4): from a card's POST to the table pages' message.

The production shape of benchmarks.load (PostgreSQL, Redis, two gunicorns for HTTP, two
uvicorns for the websockets, the Celery worker), ``--pages`` table pages over its 20 tables
(browser-like: each from an address of its own, saying the version its page loaded), and
each table's dealer system dealing its shoe card by card, ``--cards`` a second a table,
through ``POST /api/tables/<slug>/cards`` as a card-reading shoe does. For each card and
each page of its table: the time from the POST to the first message after it that shows
the table further on (its shoe, round or cards; not its odds, which follow on their own).

    python -m benchmarks.card_latency --pages 1000 --seconds 60
    python -m benchmarks.card_latency --pages 1 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import multiprocessing as mp
import re
import threading
import time
from typing import Any

from benchmarks.load import TABLES, Hello, Stack, loaded_now, page_socket, percentile, post
from tables.game.shoe import DealingShoe

STATE = re.compile(r'data-version="(\d+):(\d+):\d+:\d+:(\d+)"')  # a table page's shoe, round and cards
HEAD = 4096


def pages_main(urls: list[str], count: int, hello: Hello, ready: Any, stop: Any, results: Any) -> None:
    asyncio.run(_pages(urls, count, hello, ready, stop, results))


async def _pages(urls: list[str], count: int, hello: Hello, ready: Any, stop: Any, results: Any) -> None:
    seen: list[list[tuple[float, tuple[int, int, int]]]] = [[] for _ in range(count)]
    connected = [0]

    async def page(i: int) -> None:
        slug, url = f"baccarat-{i % TABLES + 1}", urls[i % len(urls)]
        async with page_socket(url, f"/ws/tables/{slug}/", hello, i) as ws:
            await ws.send(json.dumps({"have": hello.of(slug)}))
            connected[0] += 1
            newest = (0, 0, 0)
            async for message in ws:
                now = time.time()
                for shoe, number, cards in STATE.findall(str(message), 0, HEAD):
                    state = (int(shoe), int(number), int(cards))
                    if state > newest:
                        newest = state
                        seen[i].append((now, state))

    tasks = []
    for i in range(count):
        tasks.append(asyncio.create_task(page(i)))
        if len(tasks) % 50 == 0:
            await asyncio.sleep(0.05)
    while connected[0] < count:
        await asyncio.sleep(0.1)
    ready.set()
    while not stop.is_set():
        await asyncio.sleep(0.2)
    await asyncio.sleep(3)  # the last cards' messages
    for task in tasks:
        task.cancel()
    results.put(seen)


class CardDealer:
    """A table's card-reading shoe: real shoes, dealt by the rules, card by card."""

    def __init__(self, stack: Stack, slug: str) -> None:
        self.stack, self.slug = stack, slug
        self.shoe, self.number, self.cards = DealingShoe.shuffled(), 0, []  # the round's cards to come
        self.posted: list[float] = []

    def next_card(self, url: str) -> None:
        if not self.cards:
            if self.shoe.finished:
                post(url, self.slug, "shoes", self.stack.tokens[self.slug])
                self.shoe, self.number = DealingShoe.shuffled(), 0
            dealt = self.shoe.deal()
            self.number += 1
            player, banker = [c.code for c in dealt.player_cards], [c.code for c in dealt.banker_cards]
            order = [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]]
            self.cards = [(self.number, index, card) for index, card in enumerate(order, start=1)]
        number, index, card = self.cards.pop(0)
        self.posted.append(time.time())
        body = {"card": card, "round": number, "index": index}
        post(url, self.slug, "cards", self.stack.tokens[self.slug], body)


def latencies(dealers: list[CardDealer], seen: list[list[tuple[float, tuple[int, int, int]]]]) -> list[float]:
    """For each card and each page of its table: until the first message after the POST
    that shows the table further on than the page showed when the card was posted."""
    found = []
    for i, page in enumerate(seen):
        dealer = dealers[i % TABLES]
        arrivals = [at for at, _ in page]
        for t0 in dealer.posted:
            k = bisect.bisect_left(arrivals, t0)
            if k < len(arrivals):
                found.append((arrivals[k] - t0) * 1000)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--cards", type=float, default=1.0, help="cards a second at each table")
    args = parser.parse_args()
    with Stack(servers=2, http_servers=2).running() as stack:
        context = mp.get_context("spawn")
        ready, stop, results = context.Event(), context.Event(), context.Queue()
        hello = loaded_now(stack.http_urls[0])
        clients = context.Process(target=pages_main, args=(stack.ws_urls, args.pages, hello, ready, stop, results))
        clients.start()
        if not ready.wait(timeout=600):
            raise RuntimeError("pages did not connect")
        time.sleep(2)
        dealers = [CardDealer(stack, f"baccarat-{n + 1}") for n in range(TABLES)]
        started = time.monotonic()

        def deal(k: int) -> None:
            turns = int(args.seconds * args.cards)
            for turn in range(turns):
                time.sleep(max(0.0, (turn + k / TABLES) / args.cards - (time.monotonic() - started)))
                dealers[k].next_card(stack.http_urls[turn % len(stack.http_urls)])

        threads = [threading.Thread(target=deal, args=(k,)) for k in range(TABLES)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        stop.set()
        seen = results.get(timeout=120)
        clients.join(timeout=30)
    found = latencies(dealers, seen)
    cards = sum(len(d.posted) for d in dealers)
    print(f"{args.pages} pages, {cards} cards over {args.seconds:.0f} s ({cards / args.seconds:.1f} a second)")
    for p in (0.5, 0.95, 0.99):
        print(f"  card POST → page, p{round(p * 100)}: {percentile(found, p):,.0f} ms")
    print(f"  max: {max(found, default=float('nan')):,.0f} ms; deliveries {len(found):,}")


if __name__ == "__main__":
    main()
