from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from roads.patterns import PATTERN_NAMES

from . import fragments, odds, selectors
from .models import Shoe, Table

SCREEN_TABLES = 12  # tables per page on a lobby screen (1920x1080)


def lobby(request: HttpRequest) -> HttpResponse:
    context = {
        "cards": fragments.lobby_cards_html(),
        "patterns": list(PATTERN_NAMES.items()),
        "good_only": request.GET.get("good") == "1",
        "pattern": request.GET.get("pattern", ""),
    }
    return render(request, "tables/lobby.html", context)


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


def table_odds(request: HttpRequest, slug: str) -> HttpResponse:
    """Payouts & odds: the table's paytable and the exact full-shoe return table of every bet."""
    table = get_object_or_404(Table, slug=slug)
    full = odds.full_shoe_odds(table)
    tables = [(bet.label, bet_odds) for bet, bet_odds in full.bets.items()]
    if table.variant == "standard":
        tables.insert(2, ("Banker (No Commission)", full.no_commission_banker))
    return render(request, "tables/odds.html", {"table": table, "decks": table.decks, "return_tables": tables})
