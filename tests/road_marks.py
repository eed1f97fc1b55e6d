"""Reading road marks back out of the SVG a page or a push carries."""

from __future__ import annotations

import re

from tables.pages.svg import CELL


def marks(markup: str, kind: str) -> list[tuple[int, int]]:
    """(column, row) of every mark of ``kind`` ("bead-B", "ring-P", "pair-B", ...), in
    the order drawn: each is a vertex of a path of class ``mk-<kind>``, bar the
    zero-length step ending the path. Ask marks are left out. ``markup`` is ours or
    a browser's serialisation of it."""
    cells = []
    for d in re.findall(rf'<path class="mk-{re.escape(kind)}" d="M([^"]*)h0"', markup):
        numbers = [int(n) for n in d.split()]
        cells += [(x // CELL, y // CELL) for x, y in zip(numbers[::2], numbers[1::2], strict=True)]
    return cells


def asks(markup: str, winner: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, (column, row)) of the ask marks a next ``winner`` ("B" or "P") would add."""
    found = re.findall(rf'<path class="ask-{winner} mk-([\w-]+)" d="M(\d+) (\d+)h0"', markup)
    return [(kind, (int(x) // CELL, int(y) // CELL)) for kind, x, y in found]
