"""Simulated tables: real shoes dealt by the rules into tables through the services.

The demo and the tests exercise the same path as a dealer system: card by card, as a
card-reading shoe reports them (:func:`tables.services.card_deal`, the card that
completes a round records it through :func:`tables.services.round_record`), with a
dealer's rhythm (:class:`Rhythm`, :class:`CardByCard`); or a whole round at once
(:meth:`TableDealer.step`: ``simulate --whole-rounds``, beat's venue, load tests).
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from asgiref.sync import sync_to_async
from django.core.cache import cache

from .. import services
from ..game.authentication import card_hash, dealing_order, new_plaintext
from ..game.cards import Card
from ..game.dealing import deal_of
from ..game.shoe import CutCardRule, DealingShoe
from ..models import Round, RoundInProgress, Shoe, Table
from ..services import CardDealt

log = logging.getLogger(__name__)

SHOE_ROUNDS = 72  # about the rounds an 8-deck shoe deals: the demo's tables start this far apart in all
DEALERS = ("Anna", "Bao", "Carmen", "Daniel", "Eun-ji", "Farah", "Giulia", "Hiro", "Ines", "Jun")
ROUNDS_PER_DEALER = 30  # dealers rotate, as the seeds say they do
CARD_SECONDS = 1.0  # a dealer's rhythm: about a second between two cards of a round
LEFTOVER_REASON = "the simulator restarted mid-round"


@dataclass
class TableDealer:
    """Deals one table's rounds from a shoe it keeps in memory.

    Its shoes are authenticated (seed 001), as a dealer system's would be: every card's
    plaintext is made when the shoe is shuffled, the shoe starts with their hashes, card
    1 is turned over and burns, each round carries its cards' plaintexts, and when the
    shoe's last round is dealt the shoe ends and every card no round revealed is
    revealed. The plaintexts live only here (and in the shared cache for scheduled
    dealing) until their cards are revealed.

    :meth:`step` deals a whole round at once; :meth:`deal_card` one card of a round (a
    card-reading shoe): the same shoe, rounds, plaintexts and dealers either way, so the
    rows they make are the same."""

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
    # The round being dealt card by card: its cards in dealing order, how many are dealt,
    # its number (once the server has answered its first card) and its dealer.
    round_cards: tuple[Card, ...] = field(default=(), init=False)
    round_placed: int = field(default=0, init=False)
    round_number: int | None = field(default=None, init=False)
    round_dealer: str = field(default="", init=False)

    def step(self) -> Round:
        """Deal and record the next round, starting a new shoe when one is due (and
        ending and revealing an authenticated shoe after its last round)."""
        table = Table.objects.get(pk=self.table_id)
        self._shoe_ready(table)
        return self._deal(table)

    @property
    def mid_round(self) -> bool:
        """Whether a round is being dealt card by card (its next card is due)."""
        return bool(self.round_cards)

    def deal_card(self) -> CardDealt:
        """Deal the next card as a card-reading shoe reports it: the first card of the
        next round (starting a new shoe when one is due), then each card of it in dealing
        order (P1, B1, P2, B2, P3, B3), with its round number and index, and on an
        authenticated shoe as its plaintext. The card that completes the round records it
        (``.round`` of the answer), and after a shoe's last round the shoe is ended and
        revealed as :meth:`step` does."""
        table = Table.objects.get(pk=self.table_id)
        if not self.round_cards:
            self._shoe_ready(table)
            assert self.shoe is not None
            self.rounds_dealt += 1
            self.round_cards = deal_of(self.shoe.deal()).cards
            self.round_placed, self.round_number, self.round_dealer = 0, None, self._dealer_name()
        card = self.round_cards[self.round_placed]
        plaintext = self.plaintexts[self.next_card - 1] if self.plaintexts else None
        dealt = services.card_deal(
            table=table,
            card=None if plaintext else card.code,
            plaintext=plaintext,
            number=self.round_number,
            index=self.round_placed + 1,
            dealer=self.round_dealer,
        )
        self.round_placed += 1
        self.round_number = dealt.number
        if plaintext:
            self.next_card += 1
        if dealt.round is not None:
            self.round_cards = ()
            if self.shoe is not None and self.shoe.finished and self.plaintexts:
                self._end_and_reveal(table)
        return dealt

    def reset(self) -> None:
        """Forget the shoe (after a failure): the next round cancels whatever round was
        left being dealt and starts a new shoe, from its first round."""
        self.shoe, self.plaintexts, self.round_cards, self.head_start = None, [], (), 0

    def _shoe_ready(self, table: Table) -> None:
        """A shoe to deal the next round from: at the first round (or after a reset) a
        new one, after cancelling a round a previous run left half dealt, and dealing the
        head start; a new one when the shoe is finished."""
        if self.shoe is None:
            if RoundInProgress.objects.filter(shoe__table_id=self.table_id, shoe__state=Shoe.State.OPEN).exists():
                services.round_cancel(table=table, reason=LEFTOVER_REASON)
            self._new_shoe(table)
            self._deal_head_start(table)
        if self.shoe is None or self.shoe.finished:
            self._new_shoe(table)

    def _dealer_name(self) -> str:
        return DEALERS[(self.table_id + self.rounds_dealt // ROUNDS_PER_DEALER) % len(DEALERS)]

    def _deal_head_start(self, table: Table) -> None:
        for _ in range(self.head_start):
            if self.shoe is None or self.shoe.finished:
                return  # a short shoe: it ended (and revealed) within the head start
            self._deal(table)

    def _deal(self, table: Table) -> Round:
        assert self.shoe is not None
        outcome = self.shoe.deal()
        self.rounds_dealt += 1
        dealer = self._dealer_name()
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


@dataclass(frozen=True)
class Rhythm:
    """A dealer's rhythm: ``card`` seconds between two cards of a round, ``pause``
    seconds between a round's last card and the next round's first."""

    card: float = CARD_SECONDS
    pause: float = 4.0

    @classmethod
    def of(cls, interval: float, card: float | None = None) -> Rhythm:
        """A pause of ``interval`` between rounds, and ``card`` between cards: by default
        a second, or the interval when it is shorter (``--interval 0`` deals at once)."""
        return cls(card=min(CARD_SECONDS, interval) if card is None else card, pause=interval)

    @property
    def round_seconds(self) -> float:
        """About how long a table takes from one round's first card to the next's: a
        round is 4 to 6 cards (4.9 on average), so about four gaps, then the pause."""
        return 4 * self.card + self.pause


@dataclass
class CardByCard:
    """The simulated tables dealing card by card, each at a dealer's rhythm: a table's
    next card is due ``rhythm.card`` seconds after its last, the first card of its next
    round ``rhythm.pause`` seconds after a round's last. The tables start a share of a
    round apart, so that their cards do not all come at once. It reads no clock of its
    own: :meth:`deal` and :meth:`wait` take the time, :meth:`run` a clock and a sleep
    (a test passes a fake clock's)."""

    dealers: list[TableDealer]
    rhythm: Rhythm
    due: list[float]  # when each table's next card is due (inf: the table is done)
    rounds: int = 0  # deal this many rounds in all, then stop once none is half dealt (0: never stop)
    started: int = 0  # rounds whose first card is dealt
    last: int | None = None  # the table that dealt the latest card
    _turns: list[int] = field(default_factory=list)  # when each table last dealt: of two due at once, the earlier goes

    @classmethod
    def start(cls, dealers: list[TableDealer], rhythm: Rhythm, *, now: float, rounds: int = 0) -> CardByCard:
        apart = rhythm.round_seconds / max(1, len(dealers))
        due = [now + n * apart for n in range(len(dealers))]
        return cls(dealers, rhythm, due, rounds=rounds, _turns=list(range(len(dealers))))

    def wait(self, now: float) -> float | None:
        """Seconds until the next card is due (0: now); None when every table is done."""
        due = min(self.due, default=math.inf)
        return None if due == math.inf else max(0.0, due - now)

    def deal(self, now: float) -> CardDealt | None:
        """Deal the card due first, whatever the time, and set when that table's next
        card is due; None when every table is done."""
        while True:
            waiting = [n for n, due in enumerate(self.due) if due != math.inf]
            if not waiting:
                return None
            n = min(waiting, key=lambda n: (self.due[n], self._turns[n]))
            dealer = self.dealers[n]
            if dealer.mid_round or not self.rounds or self.started < self.rounds:
                break
            self.due[n] = math.inf  # its rounds are dealt: no new one starts
        if not dealer.mid_round:
            self.started += 1
        self.last, self._turns[n] = n, max(self._turns) + 1
        self.due[n] = now + self.rhythm.pause  # also when the card fails: the table tries again after a pause
        dealt = dealer.deal_card()
        if dealer.mid_round:
            self.due[n] = now + self.rhythm.card
        elif self.rounds and self.started >= self.rounds:
            self.due[n] = math.inf  # its last round is dealt
        return dealt

    def recover(self) -> None:
        """After a card failed: the table that dealt it starts over with a new shoe."""
        if self.last is not None:
            self.dealers[self.last].reset()

    def run(
        self,
        *,
        clock: Callable[[], float],
        sleep: Callable[[float], object],
        dealt: Callable[[CardDealt], object] | None = None,
    ) -> None:
        """Deal each card when it is due, waiting with ``sleep`` (``dealt`` is told of
        each), until every table is done: never, unless ``rounds`` is set."""
        while (wait := self.wait(clock())) is not None:
            if wait > 0:
                sleep(wait)
            card = self.deal(clock())
            if card is not None and dealt is not None:
                dealt(card)


def deal_scheduled() -> int:
    """One round on every simulated table, for Celery beat in a scaled deployment. Each
    table's dealer (its shoe, mid-deal) lives in the shared cache so that any worker can
    deal the next round; a per-table lock keeps two workers off the same table. Beat
    records whole rounds: dealing card by card would hold a worker for a whole round."""
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


async def deal_forever(
    interval: float,
    *,
    card_interval: float | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> None:
    """Deal the simulated tables card by card at a dealer's rhythm (:class:`CardByCard`):
    ``card_interval`` seconds between two cards (a second by default, or ``interval``
    when shorter) and ``interval`` seconds between a round's last card and the next
    round's first, so a display shows rounds unfolding: the embedded default's demo
    venue, run by the ASGI server's lifespan (in-memory pushes only reach that server's
    pages). A failed card is logged, and that table starts over with a new shoe."""
    tables = await sync_to_async(lambda: list(Table.objects.filter(simulated=True)))()
    dealers = Simulation.for_tables(tables, stagger=True).dealers
    if not dealers:
        log.info("no simulated tables to deal")
        return
    rhythm = Rhythm.of(interval, card_interval)
    log.info(
        "dealing %d simulated tables card by card: %.1f s between cards, %.1f s between rounds",
        len(dealers), rhythm.card, rhythm.pause,
    )  # fmt: skip
    dealing = CardByCard.start(dealers, rhythm, now=clock())
    while (wait := dealing.wait(clock())) is not None:
        await sleep(wait)
        try:
            await sync_to_async(dealing.deal)(clock())
        except Exception:
            log.exception("simulated card failed")  # keep dealing the other tables
            dealing.recover()
