"""The marks of the five roads as SVG, built as strings: no Django, no templates.

Every kind of mark is drawn once, as a ``<marker>`` the page holds
(``templates/tables/_road_defs.html``); a road places all its marks of one kind as
the vertices of one path, whose class (``mk-<kind>``) puts that marker on each vertex:
a few bytes a mark, against a few dozen for an element each. Marks sit at absolute
grid positions (the centre of column c is at x = c * CELL + CELL / 2) and the road's
``viewBox`` picks the columns in view, so a live push adds a round's marks to a road a
page shows, and moves its view, without sending the marks it has (:func:`appended`).
The road around the marks is a template (``tables/_road.html``).

A table page draws each road whole (``whole=True``): every column from the shoe's first,
in a box that scrolls sideways, the newest column and the one after it at the right end,
so the whole shoe stays reachable however long it runs. A lobby card shows its newest
``columns`` and draws the marks of as many columns again before them (``drawn_from``),
over which the lobby wall's bigger cards widen their view.

A lobby draws every table's roads and a push carries them to every page, so this is
a hot path. Marks carry no hover text: the table page asks the server what the mark
under the pointer stands for (:func:`mark_at`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import NamedTuple

from roads.derived import Comparison
from roads.engine import Roads
from roads.entries import ROWS, Color, RoadRound, Winner

CELL = 20  # SVG units per grid cell
# The roads' names in English, for the core's own use (a road's name is checked against
# these); the pages show them translated (tables/pages/road_labels.py).
ROAD_TITLES = {
    "bead_plate": "Bead Plate",
    "big_road": "Big Road",
    "big_eye_road": "Big Eye Road",
    "small_road": "Small Road",
    "cockroach_road": "Cockroach Road",
}
ICONS = {"big_eye_road": "eye", "small_road": "dot", "cockroach_road": "slash"}
# Each mark's kind by its winner or colour, looked up rather than read off the enum's
# value: a property, and most of the time a road took to build.
BEADS = {w: f"bead-{w.value}" for w in Winner}
RINGS = {w: f"ring-{w.value}" for w in (Winner.BANKER, Winner.PLAYER)}
DERIVED_MARKS = {name: {c: f"{icon}-{c.value}" for c in Color} for name, icon in ICONS.items()}
# Paint order: a cell's tie stripe over its ring, its pair dots over both.
LAYERS = ("bead-B", "bead-P", "bead-T", "ring-B", "ring-P", "eye-red", "eye-blue", "dot-red", "dot-blue",
          "slash-red", "slash-blue", "tie", "pair-B", "pair-P")  # fmt: skip


@dataclass(frozen=True, slots=True)
class BeadPlateFacts:
    """What the Bead Plate shows, for the sentence a screen reader reads (worded in the
    page's language by tables/pages/road_labels.py: the core holds no words)."""

    rounds: int
    banker: int
    player: int
    tie: int
    banker_pairs: int
    player_pairs: int
    last: Winner | None  # the newest round's winner; None: no round yet


@dataclass(frozen=True, slots=True)
class BigRoadFacts:
    """What the Big Road shows: its columns (of Banker or Player wins), its ties, and
    its newest column's winner and depth."""

    columns: int
    ties: int
    newest: Winner | None  # None: no Banker or Player win yet
    depth: int


@dataclass(frozen=True, slots=True)
class DerivedFacts:
    """What a derived road shows: its marks, how many red, and its newest mark's colour."""

    name: str
    marks: int
    reds: int
    newest: Color | None  # None: no mark yet


RoadFacts = BeadPlateFacts | BigRoadFacts | DerivedFacts


class Mark(NamedTuple):
    """One mark in a cell: a marker's ``kind``, or a Big Road tie count (``ties``). A
    tuple: a lobby builds a few thousand of them for every render of its cards."""

    col: int
    row: int
    kind: str
    ties: int = 0


@dataclass(frozen=True, slots=True)
class Board:
    """One road as drawn: its marks in the order the rounds made them.

    A board of the same shoe a round later has the same marks and the new ones after
    them, except when a round changes a mark already drawn (a third tie on one Big
    Road entry changes its count): then only a redraw shows it."""

    name: str
    columns: int
    first: int  # the first column in view
    marks: tuple[Mark, ...]
    asks: tuple[tuple[str, Mark], ...] = ()  # (B or P, the mark it would add), hidden until asked
    alt: RoadFacts | None = None  # what the road shows, worded for a screen reader by the shell
    drawn_from: int | None = None  # the first column whose marks are drawn (None: the first in view)
    marked: tuple[int, int] | None = None  # (col, row) of the cell a review or a receipt points at
    rows: int = ROWS  # the rows in view from the top: all six but in a good road's picture

    @property
    def marked_at(self) -> tuple[int, int] | None:
        """The top left corner of the marked cell, in SVG units."""
        return None if self.marked is None else (self.marked[0] * CELL, self.marked[1] * CELL)

    @property
    def title(self) -> str:
        return ROAD_TITLES[self.name]

    @property
    def view(self) -> str:
        return f"{self.first * CELL} 0 {self.columns * CELL} {self.rows * CELL}"

    @property
    def marks_html(self) -> str:
        """The marks in view (or from ``drawn_from`` on); the view only moves right
        within a shoe, so the marks left of it never show again."""
        start = self.first if self.drawn_from is None else self.drawn_from
        return paths(m for m in self.marks if m.col >= start)

    @property
    def asks_html(self) -> str:
        return "".join(paths([mark], f"ask-{winner} ") for winner, mark in self.asks)


def paths(marks: Iterable[Mark], css: str = "") -> str:
    """Marks as one path per kind, each vertex a mark (the path ends on a zero-length
    step, whose end gets no marker), then the tie counts."""
    vertices: dict[str, list[str]] = {}
    counts = []
    for m in marks:
        x, y = m.col * CELL + CELL // 2, m.row * CELL + CELL // 2
        if m.ties:
            counts.append(f'<text class="ties" x="{x}" y="{y + 3.5}">{m.ties}</text>')
        else:
            vertices.setdefault(m.kind, []).append(f"{x} {y}")
    drawn = [f'<path class="{css}mk-{kind}" d="M{" ".join(vertices[kind])}h0"/>' for kind in LAYERS if kind in vertices]
    return "".join(drawn + counts)


def appended(before: Board, after: Board) -> str | None:
    """The markup of the marks ``after`` adds to ``before``, or ``None`` when it changes
    a mark ``before`` has."""
    count = len(before.marks)
    if after.marks[:count] != before.marks:
        return None
    return paths(after.marks[count:])


def _window(max_col: int, columns: int, whole: bool) -> tuple[int, int]:
    """(first column shown, columns shown): the newest column and the one after it (where
    an ask preview may go) always in view; when ``whole``, every column from the first
    and no more (its box, not the board, decides how many columns fit: app.css draws
    the grid on across a box wider than the road)."""
    if whole:
        return 0, max_col + 2
    return max(0, max_col + 2 - columns), columns


def bead_plate(roads: Roads, *, columns: int = 14, whole: bool = False) -> Board:
    marks = []
    for cell in roads.bead_plate:
        r = cell.round
        marks.append(Mark(cell.col, cell.row, BEADS[r.winner]))
        if r.banker_pair:
            marks.append(Mark(cell.col, cell.row, "pair-B"))
        if r.player_pair:
            marks.append(Mark(cell.col, cell.row, "pair-P"))
    count = len(roads.bead_plate)
    asks = tuple((w.value, Mark(count // ROWS, count % ROWS, BEADS[w])) for w in (Winner.BANKER, Winner.PLAYER))
    max_col = count // ROWS  # the next round's column is in view too
    first, shown = _window(max_col - 1, columns, whole)
    return Board("bead_plate", shown, first, tuple(marks), asks, _bead_plate_alt(roads))


def _bead_plate_alt(roads: Roads) -> BeadPlateFacts:
    rounds = [cell.round for cell in roads.bead_plate]
    wins = {w: sum(r.winner is w for r in rounds) for w in Winner}
    return BeadPlateFacts(
        len(rounds),
        wins[Winner.BANKER],
        wins[Winner.PLAYER],
        wins[Winner.TIE],
        sum(r.banker_pair for r in rounds),
        sum(r.player_pair for r in rounds),
        rounds[-1].winner if rounds else None,
    )


def big_road(roads: Roads, *, columns: int = 30, whole: bool = False) -> Board:
    """Each entry as its ring with its pair dots, and its ties as they come: the stripe,
    then the count from the second on; in the order of the rounds that made them, so a
    round adds marks after those drawn before."""
    marks: list[Mark] = []
    for cell in roads.big_road_cells:
        entry, col, row = cell.entry, cell.col, cell.row
        ring = []
        if entry.winner is not None:
            ring.append(Mark(col, row, RINGS[entry.winner]))
            if entry.banker_pair:
                ring.append(Mark(col, row, "pair-B"))
            if entry.player_pair:
                ring.append(Mark(col, row, "pair-P"))
        ties = entry.tie_indices
        if not ties:
            marks += ring
            continue
        stripe = [Mark(col, row, "tie")]
        count = [Mark(col, row, "count", len(ties))] if len(ties) > 1 else []
        if entry.index is None or entry.index > ties[-1]:  # the ties came first (they open the shoe)
            marks += stripe + count + ring
        elif entry.index > ties[0]:  # a winner joins the shoe's opening tie, and more ties follow
            marks += stripe + ring + count
        else:
            marks += ring + stripe + count
    asks = []
    for winner in (Winner.BANKER, Winner.PLAYER):
        row, col = roads.big_road_next(winner)
        asks.append((winner.value, Mark(col, row, RINGS[winner])))
    max_col = max((c.col for c in roads.big_road_cells), default=0)
    first, shown = _window(max_col, columns, whole)
    return Board("big_road", shown, first, tuple(marks), tuple(asks), _big_road_alt(roads))


def _big_road_alt(roads: Roads) -> BigRoadFacts:
    columns = [column for column in roads.columns if column[0].winner is not None]
    ties = sum(entry.ties for column in roads.columns for entry in column)
    if not columns:
        return BigRoadFacts(0, ties, None, 0)
    newest = columns[-1]
    return BigRoadFacts(len(columns), ties, newest[0].winner, len(newest))


def pattern_pictures(examples: Iterable[str]) -> list[Board]:
    """Good roads' example shoes (``"BPPBPP"``) as the Big Road draws them, each with its
    columns and no more in view, all as deep as the deepest (no empty rows below): the
    small pictures beside the patterns in the lobby's good road settings."""
    shoes = [Roads.of([RoadRound.parse(char, i) for i, char in enumerate(text)]) for text in examples]
    boards = [big_road(roads, whole=True) for roads in shoes]
    rows = max((mark.row + 1 for board in boards for mark in board.marks), default=ROWS)
    # No room kept for a next round: a picture has no asks.
    return [replace(board, columns=board.columns - 1, rows=rows, asks=()) for board in boards]


def derived_road(roads: Roads, name: str, *, columns: int = 30, whole: bool = False) -> Board:
    """A derived road, with the marks a next Banker or Player would add."""
    road, kinds = roads.derived[name], DERIVED_MARKS[name]
    marks = tuple(Mark(c.col, c.row, kinds[c.color]) for c in road.cells)
    asks = []
    for winner in (Winner.BANKER, Winner.PLAYER):
        color = roads.ask(winner)[name]
        if color is not None:
            cell = road.peek(color)
            asks.append((winner.value, Mark(cell.col, cell.row, kinds[color])))
    max_col = max([c.col for c in road.cells] + [0])
    first, shown = _window(max_col, columns, whole)
    return Board(name, shown, first, marks, tuple(asks), _derived_alt(name, road.marks))


def _derived_alt(name: str, colors: list[Color]) -> DerivedFacts:
    reds = sum(c is Color.RED for c in colors)
    return DerivedFacts(name, len(colors), reds, colors[-1] if colors else None)


def boards(roads: Roads, columns: dict[str, int], *, whole: bool = True, marked: int | None = None) -> dict[str, Board]:
    """The roads named in ``columns`` (name to the columns a lobby card shows), in that
    order; ``whole`` (a table page): every column of the shoe instead. ``marked``: the
    index of a round whose mark each road points out (:func:`cell_of`)."""
    drawn = {}
    for name, width in columns.items():
        if name == "bead_plate":
            board = bead_plate(roads, columns=width, whole=whole)
        elif name == "big_road":
            board = big_road(roads, columns=width, whole=whole)
        else:
            board = derived_road(roads, name, columns=width, whole=whole)
        if marked is not None:
            board = replace(board, marked=cell_of(roads, name, marked))
        drawn[name] = board
    return drawn


def cell_of(roads: Roads, name: str, index: int) -> tuple[int, int] | None:
    """The (col, row) of the mark the round of ``index`` made in a road, the inverse of
    :func:`mark_at`; ``None`` where it made none (a tie in a derived road, or a round
    before the road's first mark)."""
    if name == "bead_plate":
        return next(((c.col, c.row) for c in roads.bead_plate if c.round.index == index), None)
    if name == "big_road":
        for c in roads.big_road_cells:
            if c.entry.index == index or index in c.entry.tie_indices:
                return c.col, c.row
        return None
    return next(((c.col, c.row) for c in roads.derived[name].cells if c.index == index), None)


def mark_at(roads: Roads, name: str, col: int, row: int) -> list[int]:
    """The indices of the rounds behind the mark in a cell of a road (none if the cell
    is empty): on the Big Road, the entry's round and the ties drawn on it."""
    if name == "bead_plate":
        return [c.round.index for c in roads.bead_plate if (c.col, c.row) == (col, row)]
    if name == "big_road":
        for c in roads.big_road_cells:
            if (c.col, c.row) == (col, row):
                return sorted(([] if c.entry.index is None else [c.entry.index]) + c.entry.tie_indices)
        return []
    return [c.index for c in roads.derived[name].cells if (c.col, c.row) == (col, row) and c.index is not None]


def compared_cells(roads: Roads, comparison: Comparison) -> list[tuple[int, int]]:
    """The Big Road cells (col, row, as drawn) a derived road's mark compared: every
    cell of both columns for a new column; the two cells of one column for the same
    result again, a blank one where the column's own cells would have gone."""
    if comparison.new_column:
        wanted = [(col, row) for col, depth in zip(comparison.columns, comparison.depths, strict=True)
                  for row in range(depth)]  # fmt: skip
    else:
        wanted = [(comparison.columns[0], row) for row in comparison.rows]
    drawn = []
    for col, row in wanted:
        cell = roads.big_road_cell(col, row)
        if cell is not None:
            drawn.append((cell.col, cell.row))
        elif row < ROWS and (top := roads.big_road_cell(col, 0)) is not None:
            drawn.append((top.col, row))  # a blank under the column's top, where it would have grown
    return drawn
