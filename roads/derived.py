"""Big Eye Road, Small Road and Cockroach Road marks (seed 000).

Computed on the Big Road's logical columns (streak lengths), never on the drawn grid.
A road of cycle k (Big Eye 1, Small 2, Cockroach 3) marks every Big Road entry from
the one after the first entry of column k+1:

1. An entry that starts a new column compares the depth of the column just left of it
   with the column k+1 to the left: equal is red, otherwise blue.
2. An entry that continues a column looks at the column k to the left: the cell at its
   row and the one above. Both filled or both empty is red, otherwise blue.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .entries import Color

CYCLES = {"big_eye_road": 1, "small_road": 2, "cockroach_road": 3}


def derived_mark(lengths: Sequence[int], cycle: int) -> Color | None:
    """The mark for the newest Big Road entry, the last cell of the last column.

    ``lengths`` are the column depths including that entry. ``None`` before the road
    starts.
    """
    col = len(lengths) - 1
    row = lengths[col] - 1
    if col < cycle or (col == cycle and row == 0):
        return None
    if row == 0:
        return Color.RED if lengths[col - 1] == lengths[col - 1 - cycle] else Color.BLUE
    # Rule 2: the compared column has a cell at ``row - 1`` and ``row`` exactly when
    # it is deeper than ``row``; only a column exactly ``row`` deep differs.
    return Color.BLUE if lengths[col - cycle] == row else Color.RED


@dataclass(frozen=True, slots=True)
class Comparison:
    """Why a derived road's mark is red or blue: what it compared on the Big Road, in
    logical columns (0 the shoe's first) and rows (0 the top).

    A new column (rule 1): ``columns`` are the two columns whose depths it compared,
    the nearer first, and ``depths`` their depths. The same column (rule 2): ``columns``
    is the one column it looked at, ``rows`` the row of the new entry and the one above
    it, and ``filled`` whether that column has a cell at each."""

    color: Color
    new_column: bool
    columns: tuple[int, ...]
    depths: tuple[int, ...] = ()
    rows: tuple[int, ...] = ()
    filled: tuple[bool, ...] = ()


def derived_comparison(lengths: Sequence[int], cycle: int) -> Comparison | None:
    """What :func:`derived_mark` compares for the newest Big Road entry, and its mark
    (the same colour, said in full for a reader; the roads use :func:`derived_mark`)."""
    col = len(lengths) - 1
    row = lengths[col] - 1
    if col < cycle or (col == cycle and row == 0):
        return None
    if row == 0:
        nearer, further = col - 1, col - 1 - cycle
        depths = (lengths[nearer], lengths[further])
        return Comparison(Color.RED if depths[0] == depths[1] else Color.BLUE, True, (nearer, further), depths)
    looked = col - cycle
    filled = (lengths[looked] > row, lengths[looked] > row - 1)
    color = Color.RED if filled[0] == filled[1] else Color.BLUE
    return Comparison(color, False, (looked,), (lengths[looked],), (row, row - 1), filled)
