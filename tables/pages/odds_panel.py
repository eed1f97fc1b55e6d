"""The odds a table's pages show: full-shoe return tables, and the odds panel.

After each round a background job (:func:`tables.background.odds.round_odds_compute`) stores
the expected return of every bet on the shoe that is left (``Round.odds``); pages read
what is stored and never wait for it. What of it the public sees is the table's audience
profile's call (:func:`tables.game.audience.sight`): a number it may not see is never
read into a page's context, so no template, push or chart can carry it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..game.audience import Sight, sight
from ..game.bets import BetType, Paytable
from ..game.cards import Card
from ..game.odds import Composition, ShoeOdds, shoe_odds
from ..labels import bet_label
from ..models import Shoe, Table
from ..selectors import ShoeRow
from . import charts

CHART_BETS = (BetType.BANKER, BetType.PLAYER, BetType.TIE, BetType.PLAYER_PAIR)


@lru_cache(maxsize=64)
def _opening(decks: int, burn_card: str, paytable_json: str) -> ShoeOdds:
    burn = Card.parse(burn_card) if burn_card else None
    return shoe_odds(Composition.opening(decks, burn), Paytable().updated(json.loads(paytable_json)))


def full_shoe_odds(table: Table) -> ShoeOdds:
    """The table's return tables for a full shoe (computed once per process)."""
    return _opening(table.decks, "", _paytable_json(table))


def opening_odds(table: Table, shoe: Shoe | None) -> ShoeOdds:
    """The shoe's odds before its first round: a full shoe's, less the burn card once shown."""
    if shoe is None or not shoe.burn_card:
        return full_shoe_odds(table)
    return _opening(shoe.decks, shoe.burn_card, _paytable_json(table))


def _paytable_json(table: Table) -> str:
    return json.dumps(table.get_paytable().to_data(), sort_keys=True)


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


def odds_context(table: Table, shoe: Shoe | None, rounds: Sequence[ShoeRow]) -> dict[str, Any]:
    """The odds panel: each bet's return now beside its full-shoe value, and the chart
    points. ``rounds`` are the shoe's rounds, newest first, as the page loaded them.
    Only what the table's audience may see: the returns now of the bets it shows (None
    for the others), the cards left if it shows them, and a chart of those bets (None
    when it shows none)."""
    seen = sight(table.audience)
    full = full_shoe_odds(table)
    computed: list[tuple[int, dict[str, Any]]] = [(r.number, r.odds) for r in rounds if r.odds is not None]
    after, latest = computed[0] if computed else (None, None)
    if latest is not None:
        now, cards_left = latest["returns"], latest["cards"]
    else:  # no round's odds stored yet: the shoe as it opened, computed only then
        opening = opening_odds(table, shoe)
        now = {bet.value: float(o.expected_return) for bet, o in opening.bets.items()}
        cards_left = opening.composition.size
    rows = [
        OddsRow(bet_label(bet), float(o.expected_return), now.get(bet.value) if seen.shows(bet) else None)
        for bet, o in full.bets.items()
    ]
    # The chart shows the usual bets and every bet the table flags as the player's edge
    # now: a flag the chart does not show would send a player looking for a line. The
    # other bets' lines are there, hidden (charts.odds_figure).
    side = [(bet, row) for bet, row in zip(full.bets, rows, strict=True) if bet not in CHART_BETS]
    charted = [bet for bet in (*CHART_BETS, *(bet for bet, _ in side)) if seen.shows(bet)]
    return {
        "rows": rows,
        "sight": seen,
        "after": after,
        "cards_left": cards_left if seen.cards_left else None,
        "burn_shown": shoe is not None and bool(shoe.burn_card),
        "pending": bool(rounds) and rounds[0].odds is None,
        "positive": [row.label for row in rows if row.positive],
        "figure": _figure(full, computed, charted, side) if charted else None,
    }


def _figure(
    full: ShoeOdds,
    computed: list[tuple[int, dict[str, Any]]],
    charted: list[BetType],
    side: list[tuple[BetType, OddsRow]],
) -> dict[str, Any]:
    """The shoe-odds chart of the ``charted`` bets: the full shoe's returns at round 0,
    then each round's stored returns (oldest first)."""
    points = [(0, {bet.value: float(full.bets[bet].expected_return) for bet in charted})]
    points += [
        (number, {bet.value: stored["returns"][bet.value] for bet in charted if bet.value in stored["returns"]})
        for number, stored in reversed(computed)
        if stored["returns"]
    ]
    shown = {bet.value: row.positive for bet, row in side if bet in charted}
    return charts.odds_figure(points, [(bet.value, bet_label(bet)) for bet in charted], shown)


def odds_change(table: Table, shoe: Shoe | None, rounds: Sequence[ShoeRow], since: int) -> dict[str, Any]:
    """What a push brings a panel that shows the odds after round ``since``: the panel's
    context now (:func:`odds_context`), the cells whose numbers changed (``cells``: the
    row's place, from 1, the row now, and whether its "shoe left" and its "change" did),
    the rows whose bet became or stopped being the player's edge (``edges``: place and row
    now; a flag, the row's look set by static/js/live.js, not the row whole), and the chart
    before and now (``figures``)."""
    return odds_change_from(
        odds_context(table, shoe, [r for r in rounds if r.number <= since]), odds_context(table, shoe, rounds), since
    )


def odds_change_from(before: dict[str, Any], now: dict[str, Any], since: int) -> dict[str, Any]:
    """:func:`odds_change` from the panel's context ``before`` (the odds after round
    ``since``, of this shoe or of the shoe before it) to ``now``."""
    cells, edges = [], []
    for place, (old, new) in enumerate(zip(before["rows"], now["rows"], strict=True), start=1):
        moved = (_shown(old.now) != _shown(new.now), _shown(old.change) != _shown(new.change))
        if any(moved):
            cells.append((place, new, *moved))
        if old.positive != new.positive:
            edges.append((place, new))
    figures = (before["figure"], now["figure"]) if before["figure"] and now["figure"] else None
    return now | {"since": since, "cells": cells, "edges": edges, "figures": figures}


def _shown(value: float | None) -> float | None:
    """A return as the panel shows it (a percentage to three places)."""
    return None if value is None else round(100 * value, 3)


@dataclass(frozen=True)
class NextReturns:
    """What a Banker and a Player bet return on the next round, on the cards left in the
    shoe, beside what they return on a full shoe: how little a good road moves them.
    Where the table's audience may not see the returns on the cards left, the full
    shoe's alone (``banker`` and ``player`` None)."""

    banker: float | None
    player: float | None
    banker_full: float
    player_full: float


def next_returns(table: Table, odds: tuple[int, dict[str, Any]] | None, newest: int) -> NextReturns | None:
    """The next round's Banker and Player returns from the odds stored after round
    ``newest`` (``odds`` is the newest stored: (round number, odds)); None while that
    round's are still being worked out, or when too few cards are left for a round.
    The full shoe's alone where the table's audience may not see them (:func:`_main_seen`)."""
    full = full_shoe_odds(table)
    banker_full = float(full.bets[BetType.BANKER].expected_return)
    player_full = float(full.bets[BetType.PLAYER].expected_return)
    if not _main_seen(sight(table.audience)):
        return NextReturns(None, None, banker_full, player_full)
    if newest == 0:
        return NextReturns(banker_full, player_full, banker_full, player_full)
    if odds is None or odds[0] != newest:
        return None
    returns = odds[1].get("returns") or {}
    if BetType.BANKER.value not in returns or BetType.PLAYER.value not in returns:
        return None
    return NextReturns(returns[BetType.BANKER.value], returns[BetType.PLAYER.value], banker_full, player_full)


def _main_seen(seen: Sight) -> bool:
    """Whether Banker's and Player's returns on the cards left may be shown."""
    return seen.shows(BetType.BANKER) and seen.shows(BetType.PLAYER)
