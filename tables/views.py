from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from . import fragments, selectors
from .models import Shoe, Table


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/lobby.html", {"rows": selectors.lobby_tables()})


def table_detail(request: HttpRequest, slug: str) -> HttpResponse:
    table = get_object_or_404(Table, slug=slug)
    which = request.GET.get("shoe", "current")
    shoe = selectors.shoe_find(table=table, which=which if which.isdigit() else "current")
    if which.isdigit() and shoe is None:
        raise Http404(f"no shoe {which}")
    context = fragments.table_context(table, shoe)
    # Only the current shoe is live; an earlier shoe is a fixed record.
    context["live"] = shoe is None or shoe.state == Shoe.State.OPEN
    return render(request, "tables/table.html", context)
