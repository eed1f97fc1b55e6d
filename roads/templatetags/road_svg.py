"""Template tags drawing a shoe's roads as SVG: the road in ``tables/_road.html``, its
marks built in :mod:`roads.svg`."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import mark_safe

from .. import svg
from ..derived import CYCLES
from ..entries import Winner
from ..selectors import ShoeRoads

register = template.Library()


@register.inclusion_tag("tables/_road.html", takes_context=True)
def road(context: template.Context, board: svg.Board, live: bool = False) -> dict[str, Any]:
    """A road. ``live`` (the table page) gives it the ids a push finds its parts by and
    the version it shows; a lobby card has several tables' roads and no such parts."""
    return {
        "board": board,
        "marks": mark_safe(board.marks_html),  # our own builder's markup
        "asks": mark_safe(board.asks_html),
        "live": live,
        "version": context.get("version", ""),
        "since": context.get("since", ""),
    }


@register.simple_tag
def road_board(shoe_roads: ShoeRoads, name: str, columns: int) -> svg.Board:
    """A road's newest ``columns`` (a lobby card's are compact and do not scroll)."""
    return svg.boards(shoe_roads.roads, {name: columns}, whole=False)[name]


@register.simple_tag
def ask_marks(shoe_roads: ShoeRoads, winner: str) -> list[tuple[str, str | None]]:
    """(road title, colour) of the marks a next ``winner`` would add, for the ask buttons."""
    asked = shoe_roads.roads.ask(Winner(winner))
    return [(svg.ROAD_TITLES[name], color.value if (color := asked[name]) is not None else None) for name in CYCLES]
