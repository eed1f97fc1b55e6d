"""Good-road alerts (issue 36): the toast a player's pages show when a good road forms on
a table, pushed to the pages that asked for alerts (:mod:`tables.live`'s alerts group).

A round forms a good road when the road holds after it and did not before it
(:func:`roads.alerts.newly_formed`); the alert goes out once the round's odds are stored,
so it can show the next round's returns beside the pattern."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.template.loader import render_to_string

from roads import alerts
from roads.entries import RoadRound

from .. import selectors
from ..game.outcome import Winner
from ..models import Table
from . import odds_panel
from .road_data import ShoeRoads

ALERT_KEEP_SECONDS = 3600  # how long the claim that a round's alert went out is kept
BIG_ROAD_COLUMNS = 16  # the Big Road a toast draws: its newest columns


def alert_context(table: Table) -> dict[str, Any] | None:
    """What the alert of the table's newest round shows, or None: no good road formed on
    it, or its odds are not stored yet (the alert waits for them), or it went out already
    (from this process or another: a claim in the cache)."""
    shoe = selectors.table_open_shoe(table=table)
    if shoe is None:
        return None
    rounds = selectors.lobby_rounds_of(shoe)
    played = [r for r in rounds if not r[4]]
    if not played or rounds[-1][4]:
        return None  # no round yet, or the newest was voided: it formed nothing
    held = alerts.held_roads(RoadRound(Winner(w), bp, pp, i) for i, (_, w, bp, pp, _) in enumerate(played))
    if not held.formed:
        return None
    newest = rounds[-1][0]
    returns = odds_panel.next_returns(table, selectors.newest_odds([shoe.pk]).get(shoe.pk), newest)
    if returns is None:
        return None
    try:
        if not cache.add(f"good-road-alert:{shoe.pk}:{newest}", 1, timeout=ALERT_KEEP_SECONDS):
            return None
    except Exception:  # the cache is down: the pages drop an alert they have shown
        pass
    return {
        "table": table,
        "shoe": shoe,
        "round": newest,
        "formed": held.formed,
        "roads": ShoeRoads(held.roads, rounds=[]),
        "next_returns": returns,
        "columns": BIG_ROAD_COLUMNS,
    }


def alert_html(context: dict[str, Any]) -> str:
    """The toasts of one table's newest round, one a pattern, in the active language."""
    return render_to_string("tables/_good_road_alert.html", context)
