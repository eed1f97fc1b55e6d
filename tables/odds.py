"""Shoe odds in the product: load a shoe's cards, call the exact engine, store, push.

After each round a background task computes the expected return of every bet on the
shoe that is left and stores it on the round (``Round.odds``); pages read what is
stored and never wait for it. Burned cards are unknown, so they stay in the count:
the odds are exact for what the table has shown.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.core.cache import cache

from .game.bets import BetType, Paytable
from .game.cards import unpack_cards
from .game.odds import Composition, CompositionError, ShoeOdds, shoe_odds
from .models import Round, Shoe, Table

QUEUED_MARK_SECONDS = 60  # a queued odds task is taken as lost after this
CHART_BETS = (BetType.BANKER, BetType.PLAYER, BetType.TIE, BetType.PLAYER_PAIR)


@lru_cache(maxsize=64)
def _full_shoe(decks: int, paytable_json: str) -> ShoeOdds:
    return shoe_odds(Composition.full(decks), Paytable().updated(json.loads(paytable_json)))


def full_shoe_odds(table: Table) -> ShoeOdds:
    """The table's return tables for a full shoe (computed once per process)."""
    return _full_shoe(table.decks, json.dumps(table.get_paytable().to_data(), sort_keys=True))


def odds_to_stored(odds: ShoeOdds) -> dict[str, Any]:
    return {
        "cards": odds.composition.size,
        "returns": {bet.value: round(float(o.expected_return), 8) for bet, o in odds.bets.items()},
        "no_commission_banker": round(float(odds.no_commission_banker.expected_return), 8),
    }


def _queued_key(shoe_id: int) -> str:
    return f"odds-queued:{shoe_id}"


def odds_queue(*, shoe_id: int, round_pk: int) -> None:
    """After a round commits: queue the task that computes its shoe's odds, unless one
    is already waiting (it will compute this round too), so a burst of rounds is one
    task. The mark expires, so a task lost with its broker is queued again later."""
    from . import jobs, tasks

    try:
        if not cache.add(_queued_key(shoe_id), True, timeout=QUEUED_MARK_SECONDS):
            return
    except Exception:
        pass  # no cache: queue it anyway, a second task is harmless
    jobs.enqueue(tasks.round_odds_compute, round_pk)


def round_odds_compute(*, round_pk: int) -> int:
    """Store the odds of the shoe left after each round of this round's shoe still
    without them (this round, the ones recorded since it was queued, and any whose
    task was lost while the broker was down), then push. Rounds that have their odds
    already are left alone, so a retried task is harmless. Returns how many rounds got
    their odds."""
    from . import live

    round_ = Round.objects.select_related("shoe__table").filter(pk=round_pk).first()
    if round_ is None:
        return 0
    shoe, table = round_.shoe, round_.shoe.table
    with contextlib.suppress(Exception):
        cache.delete(_queued_key(shoe.pk))  # rounds committed from now on queue a task again
    rounds = list(shoe.rounds.order_by("number"))
    composition, stored = Composition.full(shoe.decks), 0
    for r in rounds:
        composition = composition.without(unpack_cards(r.player_cards + r.banker_cards))
        if r.odds is None and Round.objects.filter(pk=r.pk, odds__isnull=True).update(
            odds=_odds_of(composition, table)
        ):
            stored += 1
    if stored:
        live.publish_odds(table.pk)
    return stored


def _odds_of(composition: Composition, table: Table) -> dict[str, Any]:
    try:
        return odds_to_stored(shoe_odds(composition, table.get_paytable()))
    except CompositionError:  # too few cards left to deal a round
        return {"cards": composition.size, "returns": {}, "no_commission_banker": None}


@dataclass(frozen=True)
class OddsRow:
    label: str
    full: float
    now: float | None

    @property
    def positive(self) -> bool:
        return self.now is not None and self.now > 0

    @property
    def change(self) -> float | None:
        return None if self.now is None else self.now - self.full


def odds_context(table: Table, shoe: Shoe | None, rounds: list[Round]) -> dict[str, Any]:
    """The odds panel: each bet's return now beside its full-shoe value, and the chart
    points. ``rounds`` are the shoe's rounds, newest first, as the page loaded them."""
    from . import charts

    full = full_shoe_odds(table)
    computed = [r for r in rounds if r.odds is not None]
    latest = computed[0] if computed else None
    returns = latest.odds["returns"] if latest else {}
    rows = []
    for bet, bet_odds in full.bets.items():
        now = returns.get(bet.value) if latest else float(bet_odds.expected_return)
        rows.append(OddsRow(bet.label, float(bet_odds.expected_return), now))
    points = [(0, {bet.value: float(full.bets[bet].expected_return) for bet in CHART_BETS})]
    points += [(r.number, r.odds["returns"]) for r in reversed(computed) if r.odds["returns"]]
    return {
        "rows": rows,
        "after": latest.number if latest else None,
        "cards_left": latest.odds["cards"] if latest else (shoe.decks * 52 if shoe else table.decks * 52),
        "pending": bool(rounds) and rounds[0].odds is None,
        "positive": [row.label for row in rows if row.positive],
        "figure": charts.odds_figure(points, [(bet.value, bet.label) for bet in CHART_BETS]),
    }
