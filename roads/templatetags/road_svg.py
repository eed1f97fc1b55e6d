"""Server-side SVG for the five roads: geometry here, markup in templates/roads/."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import template

from tables.models import Round

from ..derived import CYCLES
from ..entries import ROWS, Color, Winner
from ..selectors import ShoeRoads

register = template.Library()

CELL = 20  # SVG units per grid cell
NAMES = {"B": "Banker", "P": "Player", "T": "Tie"}
ROAD_TITLES = {"big_eye_road": "Big Eye Road", "small_road": "Small Road", "cockroach_road": "Cockroach Road"}


@dataclass
class Shape:
    x: float
    y: float
    kind: str  # css class: colour and icon
    title: str = ""
    label: str = ""
    banker_pair: bool = False
    player_pair: bool = False
    ties: int = 0


def _round_title(round_: Round | None) -> str:
    if round_ is None:
        return ""
    player = " ".join(c.label for c in round_.player_hand)
    banker = " ".join(c.label for c in round_.banker_hand)
    verdict = NAMES[round_.winner] + ("" if round_.winner == "T" else " wins")
    return (
        f"Round {round_.number}: {verdict} {round_.player_score}–{round_.banker_score} · "
        f"Player {player} · Banker {banker}"
    )


def _window(max_col: int, columns: int) -> int:
    """First column shown, so the newest column (and the one after it) stay visible."""
    return max(0, max_col + 2 - columns)


def _board(shapes: list[Shape], columns: int, first: int, name: str, label: str, **extra: Any) -> dict[str, Any]:
    for shape in shapes:
        shape.x -= first * CELL
    visible = [s for s in shapes if s.x >= 0]
    return {
        "name": name,
        "label": label,
        "shapes": visible,
        "width": columns * CELL,
        "height": ROWS * CELL,
        "cell": CELL,
        "grid_x": [i * CELL for i in range(columns + 1)],
        "grid_y": [i * CELL for i in range(ROWS + 1)],
        **extra,
    }


def _centre(row: int, col: int) -> tuple[float, float]:
    return col * CELL + CELL / 2, row * CELL + CELL / 2


@register.inclusion_tag("roads/road.svg.html")
def bead_plate_svg(shoe_roads: ShoeRoads, columns: int = 14) -> dict[str, Any]:
    rounds = shoe_roads.rounds
    shapes = []
    for cell in shoe_roads.roads.bead_plate:
        r = cell.round
        shape = Shape(*_centre(cell.row, cell.col), kind=f"bead win-{r.winner.value}", label=r.winner.value)
        shape.title, shape.banker_pair, shape.player_pair = _round_title(rounds[r.index]), r.banker_pair, r.player_pair
        shapes.append(shape)
    max_col = shoe_roads.roads.bead_plate[-1].col if shoe_roads.roads.bead_plate else 0
    return _board(shapes, columns, _window(max_col, columns), "bead_plate", "Bead Plate")


@register.inclusion_tag("roads/road.svg.html")
def big_road_svg(shoe_roads: ShoeRoads, columns: int = 30) -> dict[str, Any]:
    rounds = shoe_roads.rounds
    shapes = []
    for cell in shoe_roads.roads.big_road_cells:
        entry = cell.entry
        winner = entry.winner.value if entry.winner else "T"
        titles = [_round_title(rounds[entry.index])] if entry.index is not None else []
        titles += [_round_title(rounds[i]) for i in entry.tie_indices]
        kind = f"ring win-{winner}" if entry.winner else "stripe-only"
        shape = Shape(*_centre(cell.row, cell.col), kind=kind, title="\n".join(titles), ties=entry.ties)
        shape.banker_pair, shape.player_pair = entry.banker_pair, entry.player_pair
        shapes.append(shape)
    cells = shoe_roads.roads.big_road_cells
    max_col = max((c.col for c in cells), default=0)
    return _board(shapes, columns, _window(max_col, columns), "big_road", "Big Road")


@register.inclusion_tag("roads/road.svg.html")
def derived_road_svg(shoe_roads: ShoeRoads, name: str, columns: int = 30) -> dict[str, Any]:
    road = shoe_roads.roads.derived[name]
    icon = {"big_eye_road": "eye", "small_road": "dot", "cockroach_road": "slash"}[name]
    rounds = shoe_roads.rounds
    shapes = [
        Shape(*_centre(c.row, c.col), kind=f"{icon} mark-{c.color.value}", title=_round_title(rounds[c.index]))
        for c in road.cells
        if c.index is not None
    ]
    asks = []
    for winner in (Winner.BANKER, Winner.PLAYER):
        color = shoe_roads.roads.ask(winner)[name]
        if color is not None:
            cell = road.peek(color)
            kind = f"{icon} mark-{color.value} ask ask-{winner.value}"
            title = f"If {NAMES[winner.value]} wins next: {color.value}"
            asks.append(Shape(*_centre(cell.row, cell.col), kind=kind, title=title))
    max_col = max([c.col for c in road.cells] + [0])
    first = _window(max_col, columns)
    return _board(shapes + asks, columns, first, name, ROAD_TITLES[name])


@register.simple_tag
def ask_marks(shoe_roads: ShoeRoads, winner: str) -> list[tuple[str, str | None]]:
    """(road title, colour) of the marks a next ``winner`` would add, for the ask buttons."""
    asked = shoe_roads.roads.ask(Winner(winner))
    return [(ROAD_TITLES[name], asked[name].value if isinstance(asked[name], Color) else None) for name in CYCLES]
