"""Template tags drawing a shoe's roads as SVG: the road in ``tables/_road.html``, its
marks built in :mod:`tables.pages.svg`; and the roads' words in the page's language
(:mod:`tables.pages.road_labels`): ``board.name|road_title``, ``board|road_words``,
``key|pattern_name``."""

from __future__ import annotations

import dataclasses
from typing import Any

from django import template
from django.utils.safestring import mark_safe

from roads.derived import CYCLES
from roads.entries import Winner
from roads.patterns import PATTERNS

from ..pages import road_labels as labels
from ..pages import svg
from ..pages.road_data import ShoeRoads

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
    """A road with its newest ``columns`` in view (a lobby card's are compact and do not
    scroll), and the marks of the whole shoe: the lobby wall widens the view over them,
    to the shoe's first column where its cells stay readable (static/js/lobby_screen.js).
    A shoe ends at the cut card, so a card's push stays small however long a table runs."""
    board = svg.boards(shoe_roads.roads, {name: columns}, whole=False)[name]
    return dataclasses.replace(board, drawn_from=0)


@register.simple_tag
def ask_marks(shoe_roads: ShoeRoads, winner: str) -> list[tuple[str, str | None]]:
    """(road title, colour) of the marks a next ``winner`` would add, for the ask buttons."""
    asked = shoe_roads.roads.ask(Winner(winner))
    return [(labels.road_title(name), color.value if (color := asked[name]) is not None else None) for name in CYCLES]


@register.simple_tag
def good_road_keys() -> str:
    """Every good road's key, space apart (what a page's alerts can be chosen from)."""
    return " ".join(p.key for p in PATTERNS)


@register.filter
def road_title(name: str) -> str:
    """A road's title (``"big_road"``: Big Road) in the page's language."""
    return labels.road_title(name)


@register.filter
def road_words(board: svg.Board) -> str:
    """The road in a sentence for a screen reader, in the page's language."""
    return labels.road_words(board)


@register.filter
def pattern_name(key: str) -> str:
    """A good road's name (``"long_banker"``: Long Banker) in the page's language."""
    return labels.pattern_name(key)
