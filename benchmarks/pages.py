"""Pages: server time of the lobby with 24 tables and of a table page with an 80-round
shoe (median and p95 over 200 requests, in-process, no network), and the bytes pushed
per round. Runs on a throwaway SQLite database in a temp DATA_DIR.
"""

from __future__ import annotations

import atexit
import os
import random
import shutil
import statistics
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import replace
from unittest import mock

TABLES = 24
ROUNDS = 80
REQUESTS = 200
SHOES = (11, 12, 13, 14, 15)  # the seeds of the shoes measured round by round, every round of each
RENDERS = 20


def _setup() -> None:
    os.environ["DATA_DIR"] = data_dir = tempfile.mkdtemp(prefix="bench-pages-")
    atexit.register(shutil.rmtree, data_dir, ignore_errors=True)  # the throwaway SQLite database
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _deal() -> None:
    """Deal each demo table one shoe of up to ROUNDS rounds through the services."""
    from tables import services
    from tables.demo.venue import demo_tables_ensure
    from tables.game.shoe import CutCardRule, DealingShoe

    rng = random.Random(7)
    # No page is open while setting up: skip the pushes and the per-round odds (the
    # measured table gets its odds below) so setup stays quick.
    with mock.patch("tables.live.table_changed"), mock.patch("tables.services.rounds.round_odds_queue"):
        for table in demo_tables_ensure(count=TABLES):
            # A shallow cut card, so that a shoe lasts the ROUNDS a lobby usually shows.
            shoe = DealingShoe.shuffled(
                decks=table.decks, rule=CutCardRule.LAST_ROUND, rng=rng, cut_depth=6, cut_jitter=0
            )
            services.shoe_start(table=table)
            for _ in range(ROUNDS):
                if shoe.finished:
                    break
                outcome = shoe.deal()
                player = [c.code for c in outcome.player_cards]
                banker = [c.code for c in outcome.banker_cards]
                services.round_record(table=table, player=player, banker=banker, dealer="Anna")


def _round_by_round() -> list[int]:
    """Bytes each round of the shoes of :data:`SHOES` pushes to a table page, its odds
    included (the round, then its odds, each from the state pushed before), on a table of
    each shoe's own, from its first round to its last."""
    from tables import selectors, services
    from tables.background import odds
    from tables.game.shoe import CutCardRule, DealingShoe
    from tables.pages import fragments

    sizes = []
    pushes = mock.patch("tables.live.table_changed"), mock.patch("tables.live.odds_changed")
    with pushes[0], pushes[1], mock.patch("tables.services.rounds.round_odds_queue"):
        for seed in SHOES:
            table, _ = services.table_create(slug=f"round-by-round-{seed}", name="Round by round")
            services.shoe_start(table=table)
            dealing = DealingShoe.shuffled(
                decks=8, rule=CutCardRule.LAST_ROUND, rng=random.Random(seed), cut_depth=6, cut_jitter=0
            )
            while not dealing.finished:
                since = selectors.table_version(selectors.shoe_find(table=table, which="current"))
                outcome = dealing.deal()
                player, banker = [c.code for c in outcome.player_cards], [c.code for c in outcome.banker_cards]
                recorded = services.round_record(table=table, player=player, banker=banker, dealer="Anna").round
                shoe = selectors.shoe_find(table=table, which="current")
                version = selectors.table_version(shoe)
                live = fragments.table_push_html(table, shoe, version, since=since)
                odds.round_odds_compute(round_pk=recorded.pk)
                odds_push, _ = fragments.table_odds_push_html(table, since=version)
                sizes.append(len((live + odds_push).encode()))
    return sizes


def _timed(get: Callable[[], object]) -> tuple[float, float]:
    samples = []
    for _ in range(REQUESTS):
        start = time.perf_counter()
        get()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.95) - 1]


def _deflated(text: str) -> int:
    """Bytes after the raw DEFLATE a websocket's permessage-deflate applies (uvicorn's default)."""
    compressor = zlib.compressobj(wbits=-15)
    return len(compressor.compress(text.encode()) + compressor.flush())


def main() -> dict[str, float]:
    _setup()
    from django.test import Client

    from config.heap import freeze_startup_heap
    from tables import selectors
    from tables.background import odds
    from tables.models import Round, Table
    from tables.pages import fragments

    _deal()
    client = Client(HTTP_HOST="localhost")
    table = Table.objects.order_by("pk").first()
    assert table is not None
    with mock.patch("tables.live.odds_changed"):
        for round_pk in Round.objects.filter(shoe__table=table).values_list("pk", flat=True):
            odds.round_odds_compute(round_pk=round_pk)
    freeze_startup_heap()  # as a server does once it has loaded (config/heap.py)
    path = f"/tables/{table.slug}/"
    assert client.get("/").status_code == 200 and client.get(path).status_code == 200
    rounds = table.shoes.get(state="open").rounds.count()

    lobby_median, lobby_p95 = _timed(lambda: client.get("/"))
    table_median, table_p95 = _timed(lambda: client.get(path))
    shoe = selectors.shoe_find(table=table, which="current")
    version = selectors.table_version(shoe)
    # The pages showed the shoe as it was before its last round, odds included: the round
    # is pushed while its odds are computed, then its odds; or both in one message when
    # they are stored by the time the round is pushed.
    before = replace(version, round=version.round - 1, odds=(version.odds or 1) - 1)
    renders = []
    for _ in range(RENDERS):  # the median: the first render of a template compiles it
        start = time.perf_counter()
        shoe = selectors.shoe_find(table=table, which="current")
        version = selectors.table_version(shoe)
        live = fragments.table_push_html(table, shoe, replace(version, odds=before.odds), since=before)
        card = fragments.lobby_card_html(table)
        renders.append((time.perf_counter() - start) * 1000)
    render_ms = statistics.median(renders)
    odds_push, _ = fragments.table_odds_push_html(table, since=replace(version, odds=before.odds))
    one = fragments.table_push_html(table, shoe, version, since=before)
    whole = fragments.table_live_html(table, shoe, version)
    rounds_kib = sorted(size / 1024 for size in _round_by_round())
    return {
        f"lobby, {TABLES} tables: median ms": lobby_median,
        f"lobby, {TABLES} tables: p95 ms": lobby_p95,
        f"table page, {rounds}-round shoe: median ms": table_median,
        f"table page, {rounds}-round shoe: p95 ms": table_p95,
        "pushed per round to a table page, KiB": len(live.encode()) / 1024,
        "pushed per round to a table page, deflated, KiB": _deflated(live) / 1024,
        "odds pushed per round to a table page, KiB": len(odds_push.encode()) / 1024,
        "a round to a table page, odds included, KiB": len((live + odds_push).encode()) / 1024,
        "a round to a table page, odds included, one message, KiB": len(one.encode()) / 1024,
        f"the same, every round of {len(SHOES)} shoes: median KiB": statistics.median(rounds_kib),
        f"the same, every round of {len(SHOES)} shoes: p95 KiB": rounds_kib[int(len(rounds_kib) * 0.95) - 1],
        f"the same, every round of {len(SHOES)} shoes: max KiB": rounds_kib[-1],
        f"the same, every round of {len(SHOES)} shoes: rounds": len(rounds_kib),
        f"the same, every round of {len(SHOES)} shoes: rounds over 5 KiB": sum(kib > 5 for kib in rounds_kib),
        "resync of a table page (the whole live part), KiB": len(whole.encode()) / 1024,
        "pushed per round to the lobby, KiB": len(card.encode()) / 1024,
        "pushed per round to the lobby, deflated, KiB": _deflated(card) / 1024,
        "rendering one round's pushes, ms (median of 20)": render_ms,
    }


if __name__ == "__main__":
    for name, value in main().items():
        print(f"{name:52s} {value:10.1f}")
