"""The HTTP side's CPU per recorded round: ``POST /api/tables/<slug>/rounds`` through the
one service, then rendering and pushing what it changed, in-process (Django's test
client, SQLite in a temp DATA_DIR), while one table page and one lobby page (English)
are open. Two settings:

- embedded: the odds are computed and pushed by this process too (its runner);
- scaled: the odds and shoe surveillance's checks are a worker's (not counted), as
  with a broker.

CPU is this process's (``time.process_time``) over ROUNDS rounds posted onto a shoe
already ``DEALT`` rounds in (the rounds 41 to 80 of an 80-round shoe).

    python -m benchmarks.recording             # the figures
    python -m benchmarks.recording --profile   # and cProfile's top functions (scaled)
"""

from __future__ import annotations

import atexit
import contextlib
import cProfile
import json
import os
import pstats
import random
import shutil
import sys
import tempfile
import time
from typing import Any
from unittest import mock

DEALT = 40
ROUNDS = 40


def _setup() -> None:
    os.environ["DATA_DIR"] = data_dir = tempfile.mkdtemp(prefix="bench-recording-")
    atexit.register(shutil.rmtree, data_dir, ignore_errors=True)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


class Discard:
    """A sender that keeps only how many bytes it was handed."""

    def __init__(self) -> None:
        self.bytes = 0

    def send(self, group: str, message: dict[str, Any]) -> None:
        self.bytes += len(message["html"].encode())


def _run(slug: str, *, embedded: bool, profile: cProfile.Profile | None = None) -> tuple[float, float]:
    """CPU ms per round, and KiB pushed per round, over ROUNDS rounds on a fresh shoe."""
    from django.test import Client

    from tables import live, services
    from tables.background import odds
    from tables.background.runner import InlineRunner
    from tables.game.shoe import CutCardRule, DealingShoe
    from tables.live.groups import lobby_group, table_group
    from tables.live.ledger import PushLedger

    table, token = services.table_create(slug=slug, name=slug.title())
    services.shoe_start(table=table)
    shoe = DealingShoe.shuffled(decks=8, rule=CutCardRule.LAST_ROUND, rng=random.Random(7), cut_depth=6, cut_jitter=0)

    def cards() -> dict[str, list[str]]:
        outcome = shoe.deal()
        return {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}

    with mock.patch("tables.live.table_changed"), mock.patch("tables.services.rounds.round_odds_queue"):
        for _ in range(DEALT):
            services.round_record(table=table, **cards(), dealer="Anna")
    last = table.shoes.get(state="open").rounds.order_by("-number").first()
    assert last is not None
    with mock.patch("tables.live.odds_changed"):
        odds.round_odds_compute(round_pk=last.pk)

    sender = Discard()
    ledger = PushLedger()
    ledger.mark([table_group(slug, "en"), lobby_group("en")])
    previous = live.install(live.Scheduler(runner=InlineRunner(), sender=sender, ledger=ledger))
    client = Client(HTTP_HOST="localhost")
    bodies = [json.dumps({**cards(), "dealer": "Anna"}) for _ in range(ROUNDS)]
    path, headers = f"/api/tables/{slug}/rounds", {"Authorization": f"Bearer {token}"}
    queue = "tables.background.odds.enqueue" if embedded else "tables.services.rounds.round_odds_queue"
    inline = (lambda name, job, *args: job(*args)) if embedded else (lambda **kwargs: None)
    # Scaled, shoe surveillance's checks are a worker's too (queued after each round);
    # embedded, they run on this process's runner and count.
    checks = mock.patch("tables.surveillance.checks.enqueue", lambda *args, **kwargs: None)
    try:
        with mock.patch(queue, inline), checks if not embedded else contextlib.nullcontext():
            if profile is not None:
                profile.enable()
            start = time.process_time()
            for body in bodies:
                answer = client.post(path, data=body, content_type="application/json", headers=headers)
                assert answer.status_code == 201, answer.content
            cpu = time.process_time() - start
            if profile is not None:
                profile.disable()
    finally:
        live.install(previous)
    return cpu * 1000 / ROUNDS, sender.bytes / 1024 / ROUNDS


def main(profile: bool = False) -> dict[str, float]:
    _setup()
    from config.heap import freeze_startup_heap

    _run("warm-up", embedded=True)  # templates loaded, first queries planned
    freeze_startup_heap()
    embedded_ms, embedded_kib = _run("embedded", embedded=True)
    profiler = cProfile.Profile() if profile else None
    scaled_ms, scaled_kib = _run("scaled", embedded=False, profile=profiler)
    if profiler is not None:
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(45)
    return {
        "embedded: CPU per recorded round, ms (odds computed here)": embedded_ms,
        "embedded: pushed per round, KiB (table page + lobby)": embedded_kib,
        "scaled: CPU per recorded round, ms (odds on a worker)": scaled_ms,
        "scaled: pushed per round, KiB (table page + lobby)": scaled_kib,
    }


if __name__ == "__main__":
    for name, value in main(profile="--profile" in sys.argv).items():
        print(f"{name:60s} {value:10.1f}")
