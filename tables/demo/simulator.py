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

from .. import services
from ..game.authentication import card_hash, dealing_order, new_plaintext
from ..game.shoe import CutCardRule, DealingShoe
from ..models import Round, Table

log = logging.getLogger(__name__)

SHOE_ROUNDS = 72  # about the rounds an 8-deck shoe deals: the demo's tables start this far apart in all
DEALERS = ("Anna", "Bao", "Carmen", "Daniel", "Eun-ji", "Farah", "Giulia", "Hiro", "Ines", "Jun")
ROUNDS_PER_DEALER = 30  # dealers rotate, as the seeds say they do


@dataclass
class TableDealer:
    """Deals one table's rounds from a shoe it keeps in memory.

    Its shoes are authenticated (seed 001), as a dealer system's would be: every card's
    plaintext is made when the shoe is shuffled, the shoe starts with their hashes, card
    1 is turned over and burns, each round carries its cards' plaintexts, and when the
    shoe's last round is dealt the shoe ends and every card no round revealed is
    revealed. The plaintexts live only here (and in the shared cache for scheduled
    dealing) until their cards are revealed."""

    table_id: int
    rng: random.Random | None = None
    authenticated: bool = True
    head_start: int = 0  # rounds dealt at once into its first shoe, so the venue's shoes end apart
    shoe: DealingShoe | None = field(default=None, init=False)
    rounds_dealt: int = field(default=0, init=False)
    plaintexts: list[str] = field(default_factory=list, init=False)  # card n is plaintexts[n - 1]
    shoe_number: int = field(default=0, init=False)
    first_dealt: int = field(default=2, init=False)  # the first card after the burned ones
    next_card: int = field(default=1, init=False)  # the number of the next card a round takes

    def step(self) -> Round:
        """Deal and record the next round, starting a new shoe when one is due (and
        ending and revealing an authenticated shoe after its last round)."""
        table = Table.objects.get(pk=self.table_id)
        if self.shoe is None:
            self._new_shoe(table)
            self._deal_head_start(table)
        if self.shoe is None or self.shoe.finished:
            self._new_shoe(table)
        return self._deal(table)

    def _deal_head_start(self, table: Table) -> None:
        for _ in range(self.head_start):
            if self.shoe is None or self.shoe.finished:
                return  # a short shoe: it ended (and revealed) within the head start
            self._deal(table)

    def _deal(self, table: Table) -> Round:
        assert self.shoe is not None
        outcome = self.shoe.deal()
        self.rounds_dealt += 1
        dealer = DEALERS[(self.table_id + self.rounds_dealt // ROUNDS_PER_DEALER) % len(DEALERS)]
        plaintexts: list[object] | None = None
        if self.plaintexts:
            taken = len(dealing_order(outcome))
            plaintexts = [*self.plaintexts[self.next_card - 1 : self.next_card - 1 + taken]]
            self.next_card += taken
        recorded = services.round_record(
            table=table,
            player=[c.code for c in outcome.player_cards],
            banker=[c.code for c in outcome.banker_cards],
            dealer=dealer,
            plaintexts=plaintexts,
        )
        if self.shoe.finished and self.plaintexts:
            self._end_and_reveal(table)
        return recorded.round

    def _new_shoe(self, table: Table) -> None:
        self.shoe = DealingShoe.shuffled(decks=table.decks, rule=CutCardRule(table.cut_card_rule), rng=self.rng)
        if not self.authenticated:
            self.plaintexts = []
            services.shoe_start(table=table)
            return
        # The shoe in dealing order: card 1 (turned over), the cards it burns, the rest.
        order = (self.shoe.burn_card, *self.shoe.burned, *self.shoe.remaining)
        self.plaintexts = [new_plaintext(card) for card in order]
        started = services.shoe_start(table=table, commitments=[card_hash(p) for p in self.plaintexts])
        burn = services.shoe_burn(table=table, plaintext=self.plaintexts[0])
        self.shoe_number = started.shoe.number
        self.first_dealt = self.next_card = burn.burn.next_card

    def _end_and_reveal(self, table: Table) -> None:
        """The shoe's last round is dealt: end it and reveal the burned cards and every
        card left, so the shoe is fully verified."""
        services.shoe_end(table=table)
        hidden = [*range(2, self.first_dealt), *range(self.next_card, len(self.plaintexts) + 1)]
        services.shoe_reveal(
            table=table, number=self.shoe_number, plaintexts={str(n): self.plaintexts[n - 1] for n in hidden}
        )
        self.plaintexts = []


@dataclass
class Simulation:
    """Round-robin over the simulated tables; each call to :meth:`step` deals one round."""

    dealers: list[TableDealer]
    next_index: int = 0

    @classmethod
    def for_tables(cls, tables: list[Table], rng: random.Random | None = None, *, stagger: bool = False) -> Simulation:
        """The tables' dealers. ``stagger`` (the demo venue): each table's first shoe starts
        a share of a shoe further on than the one before it, so the tables change shoe one
        after another, not all at once (a lobby wall would show every shoe empty at the
        same moment)."""
        apart = SHOE_ROUNDS // max(1, len(tables)) if stagger else 0
        return cls([TableDealer(table.pk, rng, head_start=n * apart) for n, table in enumerate(tables)])

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
    tables = await sync_to_async(lambda: list(Table.objects.filter(simulated=True)))()
    simulation = Simulation.for_tables(tables, stagger=True)
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
