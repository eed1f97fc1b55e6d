"""HTML fragments, rendered by the same templates as the pages, for live pushes.

A page and a push never disagree: the table page includes ``_table_live.html`` and a
push sends that same template's output, whose top-level elements the page swaps in
by id.
"""

from __future__ import annotations

import contextlib
import hashlib
from typing import Any

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from roads.selectors import roads_of

from . import charts, odds, selectors
from .game.outcome import Winner
from .game.stats import StatRound, shoe_stats
from .models import Round, Shoe, Table

HISTORY_ROWS = 20  # rounds in the live history; the whole shoe is one click away
CARD_SECONDS = 24 * 3600  # a cached lobby card; its key changes whenever the card would
LIVE_SECONDS = 120  # a table page's live part, for the pages that resync at once


# What roads (and their titles), stats and odds read of every round of a shoe; the rest,
# the bets above all (a JSON field per round), only the history's rows need.
SHOE_ROUND_FIELDS = (
    "shoe_id", "number", "winner", "player_cards", "banker_cards", "player_score", "banker_score",
    "player_pair", "banker_pair", "player_natural", "banker_natural", "voided", "odds",
)  # fmt: skip


def _rounds_newest_first(shoe: Shoe | None) -> list[Round]:
    """Every round of the shoe, with the fields in :data:`SHOE_ROUND_FIELDS`."""
    return list(shoe.rounds.only(*SHOE_ROUND_FIELDS).order_by("-number")) if shoe else []


def table_context(
    table: Table, shoe: Shoe | None, *, history_rows: int | None = HISTORY_ROWS, version: str | None = None
) -> dict[str, Any]:
    rounds = _rounds_newest_first(shoe)
    history = list(selectors.shoe_rounds(shoe=shoe).reverse()[:history_rows]) if shoe else []
    road_data = roads_of(rounds[::-1])
    stats = shoe_stats(
        StatRound(Winner(r.winner), r.banker_pair, r.player_pair, r.player_natural or r.banker_natural)
        for r in road_data.rounds
    )
    return {
        "table": table,
        "shoe": shoe,
        "rounds": rounds,
        "history": history,
        "last": history[0] if history else None,
        "shoes": list(table.shoes.order_by("-number").values_list("number", flat=True)[:50]),
        "roads": road_data,
        "good_roads": road_data.roads.good_roads(),
        "version": selectors.table_version(shoe) if version is None else version,
        "stats": stats,
        "charts": {"shares": charts.shares_figure(stats), "running": charts.running_figure(stats)},
        "odds": odds.odds_context(table, shoe, rounds),
        "limits": selectors.table_limits(table),
    }


def table_live_html(table: Table, shoe: Shoe | None, version: str) -> str:
    """The live part of the table page for its current ``shoe``, whose
    :func:`~tables.selectors.table_version` the caller has just read.

    Kept for a while under that state: the pages that reconnect together (after a
    restart or a network blip, a few hundred to a table) and the push of the same
    state cost one render between all processes, not one each."""
    key = f"table-live:{table.pk}:{version}:{_look(table)}"
    with contextlib.suppress(Exception):  # a cache that is down only costs a render
        if (kept := cache.get(key)) is not None:
            return str(kept)
    html = render_to_string("tables/_table_live.html", table_context(table, shoe, version=version))
    with contextlib.suppress(Exception):
        cache.set(key, html, timeout=LIVE_SECONDS)
    return html


def table_odds_html(table: Table) -> str:
    """The odds panel and the game info (which carries the page's version)."""
    shoe = selectors.shoe_find(table=table, which="current")
    rounds = _rounds_newest_first(shoe)
    context = {"table": table, "shoe": shoe, "rounds": rounds, "last": rounds[0] if rounds else None}
    context |= {
        "version": selectors.table_version(shoe),
        "limits": selectors.table_limits(table),
        "odds": odds.odds_context(table, shoe, rounds),
    }
    return render_to_string("tables/_odds_push.html", context)


def lobby_card_html(table: Table) -> str:
    """A table's lobby card, rendered now (for a push) and kept for the lobby pages."""
    shoe = selectors.table_open_shoe(table=table)
    rounds = selectors.lobby_rounds_of(shoe)
    html = _card_render(table, shoe, rounds)
    with contextlib.suppress(Exception):  # a cache that is down only costs the lobby a render
        cache.set(_card_key(table, selectors.lobby_version(shoe, rounds)), html, timeout=CARD_SECONDS)
    return html


def lobby_cards_html(have: dict[str, str] | None = None) -> list[str]:
    """Every table's lobby card: from the cache where the table shows what it showed when
    its card was rendered (pushes and :func:`tables.tasks.lobby_cards_render` keep them
    there), rendered and kept otherwise. With ``have`` (a reconnecting lobby's cards,
    slug to version), only the cards it has in another state."""
    sources = [
        (table, shoe, rounds, selectors.lobby_version(shoe, rounds))
        for table, shoe, rounds in selectors.lobby_sources()
    ]
    if have is not None:
        sources = [(t, s, r, v) for t, s, r, v in sources if t.slug in have and have[t.slug] != v]
    keys = [_card_key(table, version) for table, _, _, version in sources]
    try:
        cached = cache.get_many(keys)
    except Exception:
        cached = {}
    cards, fresh = [], {}
    for key, (table, shoe, rounds, _) in zip(keys, sources, strict=True):
        if key not in cached:
            fresh[key] = _card_render(table, shoe, rounds)
        cards.append(mark_safe(cached.get(key) or fresh[key]))  # our own templates' output
    with contextlib.suppress(Exception):
        cache.set_many(fresh, timeout=CARD_SECONDS)
    return cards


def _card_render(table: Table, shoe: Shoe | None, rounds: list[selectors.LobbyRound]) -> str:
    return render_to_string("tables/_table_card.html", {"row": selectors.lobby_row(table, shoe, rounds)})


def _card_key(table: Table, version: str) -> str:
    return f"lobby-card:{table.pk}:{version}:{_look(table)}"


def _look(table: Table) -> str:
    """What a kept fragment depends on besides its shoe's state: the table's own fields
    (a rename or new limits show at once) and the language it is rendered in."""
    fields = [getattr(table, f.attname) for f in Table._meta.concrete_fields]
    return hashlib.blake2b(repr([*fields, get_language()]).encode(), digest_size=8).hexdigest()
