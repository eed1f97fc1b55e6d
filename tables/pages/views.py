from __future__ import annotations

import functools
from typing import NamedTuple

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control

from roads.derived import CYCLES
from roads.patterns import PATTERNS, Pattern

from .. import selectors
from ..authentication import selectors as authentication
from ..labels import bet_label
from ..models import Shoe, Table
from . import fragments, odds_panel, svg
from . import road_labels as labels
from .road_data import roads_of
from .svg import ROAD_TITLES

SCREEN_TABLES = 12  # tables per page on a lobby screen (1920x1080)
DISPLAY_BANNER_SECONDS = 5  # how long a table display shows "Banker wins" after a round


def lobby(request: HttpRequest) -> HttpResponse:
    context = {
        "cards": fragments.lobby_cards_html(),
        "patterns": [(p.key, labels.pattern_name(p.key)) for p in PATTERNS],
        "good_only": request.GET.get("good") == "1",
        "pattern": request.GET.get("pattern", ""),
        "road_settings": [(NamedPattern(p.key, labels.pattern_name(p.key)), board) for p, board in _pattern_pictures()],
    }
    return render(request, "tables/lobby.html", context)


@functools.cache
def _pattern_pictures() -> list[tuple[Pattern, svg.Board]]:
    """Each good road with its example drawn as a Big Road: the same for every lobby."""
    return list(zip(PATTERNS, svg.pattern_pictures(p.example for p in PATTERNS), strict=True))


class NamedPattern(NamedTuple):
    """A good road as the lobby's settings show it: its key and its name in the page's language."""

    key: str
    name: str


def good_roads(request: HttpRequest) -> HttpResponse:
    """The tables whose roads now show a good road the player chose (the lobby's
    settings, applied in the page by static/js/good_roads.js), longest-running first,
    each with the next round's returns; cards join and leave live with the lobby's pushes."""
    return render(request, "tables/good_roads.html", {"cards": fragments.lobby_cards_html()})


def lobby_screen(request: HttpRequest) -> HttpResponse:
    """Full-screen lobby display for screens beside the tables: no controls, pages cycle."""
    context = {"cards": fragments.lobby_cards_html(), "per_page": SCREEN_TABLES}
    return render(request, "tables/lobby_screen.html", context)


def table_detail(request: HttpRequest, slug: str) -> HttpResponse:
    table = get_object_or_404(Table, slug=slug)
    which = request.GET.get("shoe", "current")
    shoe = selectors.shoe_find(table=table, which=which if which.isdigit() else "current")
    if which.isdigit() and shoe is None:
        raise Http404(f"no shoe {which}")
    whole = request.GET.get("all") == "1"
    context = fragments.table_context(table, shoe, history_rows=None if whole else fragments.HISTORY_ROWS)
    # The current shoe is live; an earlier shoe, or a whole shoe's history, is a fixed record.
    context["live"] = (shoe is None or shoe.state == Shoe.State.OPEN) and not whole
    return render(request, "tables/table.html", context)


def table_cards(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The rows of an authenticated shoe's cards (the card authentication panel's list,
    loaded when a player opens it): every card's number and Public Hash Value, and each
    revealed card's plaintext, card and Verify button. Never an unrevealed plaintext:
    only revealed ones are stored."""
    table = get_object_or_404(Table, slug=slug)
    shoe = get_object_or_404(Shoe, table=table, number=number)
    cards = authentication.shoe_cards(shoe=shoe) if shoe.authenticated else []
    return render(request, "tables/_card_rows.html", {"table": table, "shoe": shoe, "cards": cards})


def table_display(request: HttpRequest, slug: str) -> HttpResponse:
    """The screen beside a table, read from a few metres: its current shoe's roads, counts
    and last round, live through the table page's own pushes (the same group, the same
    fragments, laid out for a TV), with no controls."""
    table = get_object_or_404(Table, slug=slug)
    shoe = selectors.shoe_find(table=table, which="current")
    context = fragments.table_context(table, shoe)
    context["banner_seconds"] = DISPLAY_BANNER_SECONDS
    return render(request, "tables/display.html", context)


def table_odds(request: HttpRequest, slug: str) -> HttpResponse:
    """Payouts & odds: the table's paytable and the exact full-shoe return table of every bet."""
    table = get_object_or_404(Table, slug=slug)
    full = odds_panel.full_shoe_odds(table)
    tables = [(bet_label(bet), bet_odds) for bet, bet_odds in full.bets.items()]
    if table.variant == "standard":
        tables.insert(2, (_("Banker (No Commission)"), full.no_commission_banker))
    return render(request, "tables/odds.html", {"table": table, "decks": table.decks, "return_tables": tables})


@cache_control(public=True, max_age=3600)
def round_tip(request: HttpRequest, slug: str) -> HttpResponse:
    """What the mark in a cell of a road stands for (``?shoe=N&road=NAME&col=C&row=R``):
    its round; on the Big Road, the entry's round and the ties drawn on it. Empty for
    an empty cell. The page adds ``v``, the shoe's state, to the address: an answer
    holds for that state, so the browser keeps it."""
    table = get_object_or_404(Table, slug=slug)
    query = {key: request.GET.get(key, "") for key in ("shoe", "col", "row")}
    road = request.GET.get("road", "")
    if not (all(value.isdigit() for value in query.values()) and road in ROAD_TITLES):
        raise Http404("a tip needs shoe, col and row numbers and a road's name")
    shoe = get_object_or_404(Shoe, table=table, number=int(query["shoe"]))
    road_data = roads_of(list(selectors.shoe_rounds(shoe=shoe)))  # voided rounds are on no road
    indices = svg.mark_at(road_data.roads, road, int(query["col"]), int(query["row"]))
    rounds = [road_data.rounds[i] for i in indices]
    context: dict[str, object] = {"rounds": rounds, "road": labels.road_title(road)}
    # A derived road's mark says why it is red or blue, and which Big Road cells it compared.
    why = road_data.roads.comparison(road, indices[0]) if indices and road in CYCLES else None
    if why is not None:
        context["why"] = labels.comparison_words(why)
        context["compared"] = " ".join(f"{col},{row}" for col, row in svg.compared_cells(road_data.roads, why))
    return render(request, "tables/_round_tip.html", context)


@cache_control(public=True, max_age=3600)
def road_asks(request: HttpRequest, slug: str) -> HttpResponse:
    """The marks a next Banker or a next Player would add to each road of shoe ``?shoe=N``,
    as it is now, for the ask buttons. A page loads them with its roads; a round's push
    leaves them out (on every round they would be a tenth of it, and few pages ask), so a
    page asks here when a button is pressed. The page adds ``v``, the state it shows, to
    the address, and the answer names the state it was drawn at: the page drops an answer
    that a newer round overtook."""
    table = get_object_or_404(Table, slug=slug)
    number = request.GET.get("shoe", "")
    if not number.isdigit():
        raise Http404("asks need a shoe number")
    shoe = get_object_or_404(Shoe, table=table, number=int(number))
    rounds = fragments.pushed_rounds(shoe)  # newest first; one read for the roads and their version
    boards = svg.boards(roads_of(rounds[::-1]).roads, fragments.TABLE_ROADS)
    asks = [(name, mark_safe(board.asks_html)) for name, board in boards.items()]  # our own builder's markup
    return render(
        request, "tables/_road_asks.html", {"asks": asks, "version": selectors.table_version_of(shoe, rounds)}
    )
