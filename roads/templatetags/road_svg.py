"""Template tags drawing a shoe's roads as SVG (markup built in :mod:`roads.svg`)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from .. import svg
from ..derived import CYCLES
from ..entries import Color, Winner
from ..selectors import ShoeRoads

register = template.Library()


def _titles(shoe_roads: ShoeRoads, titled: bool) -> list[str] | None:
    return shoe_roads.titles if titled else None


@register.simple_tag
def bead_plate_svg(shoe_roads: ShoeRoads, columns: int = 14, titled: bool = True) -> SafeString:
    return mark_safe(svg.bead_plate(shoe_roads.roads, columns=columns, titles=_titles(shoe_roads, titled)))


@register.simple_tag
def big_road_svg(shoe_roads: ShoeRoads, columns: int = 30, titled: bool = True) -> SafeString:
    return mark_safe(svg.big_road(shoe_roads.roads, columns=columns, titles=_titles(shoe_roads, titled)))


@register.simple_tag
def derived_road_svg(shoe_roads: ShoeRoads, name: str, columns: int = 30) -> SafeString:
    return mark_safe(svg.derived_road(shoe_roads.roads, name, columns=columns, titles=shoe_roads.short_titles))


@register.simple_tag
def ask_marks(shoe_roads: ShoeRoads, winner: str) -> list[tuple[str, str | None]]:
    """(road title, colour) of the marks a next ``winner`` would add, for the ask buttons."""
    asked = shoe_roads.roads.ask(Winner(winner))
    return [(svg.ROAD_TITLES[name], asked[name].value if isinstance(asked[name], Color) else None) for name in CYCLES]
