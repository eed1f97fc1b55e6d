"""Simulated tables: real shoes dealt by the rules into tables through the services.

The demo and the tests exercise the same path as a dealer system: every round goes
through :func:`tables.services.round_record`.
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass, field

from asgiref.sync import sync_to_async
from django.core.cache import cache

from . import services
from .game.shoe import CutCardRule, Shoe
from .models import Round, Table

log = logging.getLogger(__name__)

DEALERS = ("Anna", "Bao", "Carmen", "Daniel", "Eun-ji", "Farah", "Giulia", "Hiro", "Ines", "Jun")
ROUNDS_PER_DEALER = 30  # dealers rotate, as the seeds say they do


@dataclass
class TableDealer:
    """Deals one table's rounds from a shoe it keeps in memory."""

    table_id: int
    rng: random.Random | None = None
    shoe: Shoe | None = field(default=None, init=False)
    rounds_dealt: int = field(default=0, init=False)

    def step(self) -> Round:
        """Deal and record the next round, starting a new shoe when one is due."""
        table = Table.objects.get(pk=self.table_id)
        if self.shoe is None or self.shoe.finished:
            self.shoe = Shoe.shuffled(decks=table.decks, rule=CutCardRule(table.cut_card_rule), rng=self.rng)
            services.shoe_start(table=table)
        outcome = self.shoe.deal()
        self.rounds_dealt += 1
        dealer = DEALERS[(self.table_id + self.rounds_dealt // ROUNDS_PER_DEALER) % len(DEALERS)]
        recorded = services.round_record(
            table=table,
            player=[c.code for c in outcome.player_cards],
            banker=[c.code for c in outcome.banker_cards],
            dealer=dealer,
        )
        return recorded.round


@dataclass
class Simulation:
    """Round-robin over the simulated tables; each call to :meth:`step` deals one round."""

    dealers: list[TableDealer]
    next_index: int = 0

    @classmethod
    def for_tables(cls, tables: list[Table], rng: random.Random | None = None) -> Simulation:
        return cls([TableDealer(table.pk, rng) for table in tables])

    def step(self) -> Round | None:
        if not self.dealers:
            return None
        dealer = self.dealers[self.next_index % len(self.dealers)]
        self.next_index += 1
        return dealer.step()


def deal_scheduled() -> int:
    """One round on every simulated table, for Celery beat in a scaled deployment. Each
    table's dealer (its shoe, mid-deal) lives in the shared cache so that any worker can
    deal the next round; a per-table lock keeps two workers off the same table."""
    dealt = 0
    for table_id in Table.objects.filter(simulated=True).values_list("pk", flat=True):
        lock, key = f"simulate-lock:{table_id}", f"simulate:{table_id}"
        if not cache.add(lock, 1, timeout=60):
            continue  # another worker is dealing this table
        try:
            dealer = cache.get(key) or TableDealer(table_id)
            dealer.step()
            cache.set(key, dealer, timeout=None)
            dealt += 1
        except Exception:
            log.exception("scheduled round on table %s failed; its next round starts a new shoe", table_id)
            cache.delete(key)
        finally:
            cache.delete(lock)
    return dealt


async def deal_forever(interval: float) -> None:
    """Deal one round on one simulated table every ``interval / tables`` seconds, so each
    table deals about every ``interval`` seconds: the embedded default's demo venue,
    run by the ASGI server's lifespan (in-memory pushes only reach that server's pages)."""
    simulation = await sync_to_async(lambda: Simulation.for_tables(list(Table.objects.filter(simulated=True))))()
    if not simulation.dealers:
        log.info("no simulated tables to deal")
        return
    log.info("dealing %d simulated tables every %.1f s", len(simulation.dealers), interval)
    pause = interval / len(simulation.dealers)
    while True:
        try:
            await sync_to_async(simulation.step)()
        except Exception:
            log.exception("simulated round failed")  # keep dealing the other tables
        await asyncio.sleep(pause)
