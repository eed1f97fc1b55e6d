"""SVG markup of the five roads, built as strings: no Django, no templates.

A lobby redraws every table's roads and a push carries them to every page, so this
is a hot path; string building is ten times faster than a template per cell. Titles (the
round behind each mark, shown on hover) are optional: the table page has them, the
compact lobby cards do not need them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from .engine import Roads
from .entries import ROWS, Winner

CELL = 20  # SVG units per grid cell
NAMES = {"B": "Banker", "P": "Player", "T": "Tie"}
ROAD_TITLES = {
    "bead_plate": "Bead Plate",
    "big_road": "Big Road",
    "big_eye_road": "Big Eye Road",
    "small_road": "Small Road",
    "cockroach_road": "Cockroach Road",
}
ICONS = {"big_eye_road": "eye", "small_road": "dot", "cockroach_road": "slash"}
_ICON_MARKUP = {
    "eye": '<circle r="6"/>',
    "dot": '<circle r="6"/>',
    "slash": '<line x1="-6" y1="6" x2="6" y2="-6"/>',
    "ring": '<circle r="7.5"/>',
}
_TIE = '<line class="tie" x1="-7" y1="7" x2="7" y2="-7"/>'
_BANKER_PAIR = '<circle class="pair-B" cx="-6.5" cy="-6.5" r="2.6"/>'
_PLAYER_PAIR = '<circle class="pair-P" cx="6.5" cy="6.5" r="2.6"/>'

Titles = Sequence[str] | None  # one per round of the shoe, by index


@dataclass(slots=True)
class Shape:
    """One mark on a board, at a grid cell; ``kind`` is its css classes."""

    row: int
    col: int
    kind: str
    icon: str
    title: str = ""
    label: str = ""
    banker_pair: bool = False
    player_pair: bool = False
    ties: int = 0


def _window(max_col: int, columns: int) -> int:
    """First column shown, so the newest column (and the one after it) stay visible."""
    return max(0, max_col + 2 - columns)


def _title(titles: Titles, index: int | None) -> str:
    return titles[index] if titles is not None and index is not None else ""


def _shape(shape: Shape, first: int) -> str:
    x, y = (shape.col - first) * CELL + CELL // 2, shape.row * CELL + CELL // 2
    parts = [f'<g class="{shape.kind}" transform="translate({x} {y})">']
    if shape.title:
        parts.append(f"<title>{escape(shape.title)}</title>")
    if shape.icon == "bead":
        parts.append(f'<circle r="8.5"/><text y="3.5">{shape.label}</text>')
    else:
        parts.append(_ICON_MARKUP.get(shape.icon, ""))
    if shape.ties or shape.icon == "stripe":
        parts.append(_TIE)
        if shape.ties > 1:
            parts.append(f'<text class="ties" y="3.5">{shape.ties}</text>')
    if shape.banker_pair:
        parts.append(_BANKER_PAIR)
    if shape.player_pair:
        parts.append(_PLAYER_PAIR)
    parts.append("</g>")
    return "".join(parts)


def _board(name: str, shapes: list[Shape], columns: int, max_col: int) -> str:
    first = _window(max_col, columns)
    width, height = columns * CELL, ROWS * CELL
    label = ROAD_TITLES[name]
    grid = "".join(f"M{i * CELL} 0V{height}" for i in range(columns + 1))
    grid += "".join(f"M0 {i * CELL}H{width}" for i in range(ROWS + 1))
    marks = "".join(_shape(s, first) for s in shapes if s.col >= first)
    return (
        f'<svg class="road road-{name}" viewBox="0 0 {width} {height}" role="img" aria-label="{label}"'
        f' preserveAspectRatio="xMinYMin meet"><title>{label}</title>'
        f'<rect class="board" width="{width}" height="{height}"/><path class="grid" d="{grid}"/>{marks}</svg>'
    )


def bead_plate(roads: Roads, *, columns: int = 14, titles: Titles = None) -> str:
    shapes = []
    for cell in roads.bead_plate:
        r = cell.round
        shape = Shape(cell.row, cell.col, f"bead win-{r.winner.value}", "bead", _title(titles, r.index))
        shape.label, shape.banker_pair, shape.player_pair = r.winner.value, r.banker_pair, r.player_pair
        shapes.append(shape)
    max_col = roads.bead_plate[-1].col if roads.bead_plate else 0
    return _board("bead_plate", shapes, columns, max_col)


def big_road(roads: Roads, *, columns: int = 30, titles: Titles = None) -> str:
    shapes = []
    for cell in roads.big_road_cells:
        entry = cell.entry
        if entry.winner:
            kind, icon = f"ring win-{entry.winner.value}", "ring"
        else:
            kind, icon = "stripe-only", "stripe"
        title = ""
        if titles is not None:
            indices = ([entry.index] if entry.index is not None else []) + list(entry.tie_indices)
            title = "\n".join(titles[i] for i in indices)
        shape = Shape(cell.row, cell.col, kind, icon, title, ties=entry.ties)
        shape.banker_pair, shape.player_pair = entry.banker_pair, entry.player_pair
        shapes.append(shape)
    max_col = max((c.col for c in roads.big_road_cells), default=0)
    return _board("big_road", shapes, columns, max_col)


def derived_road(roads: Roads, name: str, *, columns: int = 30, titles: Titles = None) -> str:
    """A derived road with its ask marks, hidden until a Banker/Player ask shows them."""
    road, icon = roads.derived[name], ICONS[name]
    shapes = [
        Shape(c.row, c.col, f"{icon} mark-{c.color.value}", icon, _title(titles, c.index))
        for c in road.cells
        if c.index is not None
    ]
    for winner in (Winner.BANKER, Winner.PLAYER):
        color = roads.ask(winner)[name]
        if color is not None:
            cell = road.peek(color)
            kind = f"{icon} mark-{color.value} ask ask-{winner.value}"
            shapes.append(Shape(cell.row, cell.col, kind, icon, f"If {NAMES[winner.value]} wins next: {color.value}"))
    max_col = max([c.col for c in road.cells] + [0])
    return _board(name, shapes, columns, max_col)
