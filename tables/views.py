from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from roads.selectors import shoe_roads

from . import selectors
from .models import Table


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/lobby.html", {"rows": selectors.lobby_tables()})


def table_detail(request: HttpRequest, slug: str) -> HttpResponse:
    table = get_object_or_404(Table, slug=slug)
    shoe = selectors.shoe_find(table=table, which=request.GET.get("shoe", "current"))
    rounds = list(selectors.shoe_rounds(shoe=shoe).reverse()) if shoe else []
    shoes = list(table.shoes.order_by("-number").values_list("number", flat=True)[:50])
    road_data = shoe_roads(shoe=shoe)
    context = {
        "table": table,
        "shoe": shoe,
        "rounds": rounds,
        "last": rounds[0] if rounds else None,
        "shoes": shoes,
        "roads": road_data,
        "good_roads": [name.replace("_", " ") for name in road_data.roads.good_roads()],
    }
    return render(request, "tables/table.html", context)
