"""Laying streaks out on a six-row grid, with the dragon tail.

A streak goes down its column; when the next cell down is past row 6 or taken, it
turns right and runs along that row for the rest of the streak (never dropping back
down). Each new streak starts at the top of the column after the previous streak's
first column, or at the first free top cell to the right of it.
"""

from __future__ import annotations

from .entries import ROWS


class GridLayout:
    """Places one cell at a time in amortised constant time."""

    __slots__ = ("_col", "_first_col", "_occupied", "_row", "_turned")

    def __init__(self) -> None:
        self._occupied: set[tuple[int, int]] = set()
        self._first_col = -1  # first column of the current streak
        self._row = self._col = 0
        self._turned = False

    def peek(self, new_streak: bool) -> tuple[int, int]:
        """Where the next cell would go, without placing it."""
        if new_streak or self._first_col < 0:
            col = self._first_col + 1
            while (0, col) in self._occupied:
                col += 1
            return 0, col
        if not self._turned and self._row + 1 < ROWS and (self._row + 1, self._col) not in self._occupied:
            return self._row + 1, self._col
        col = self._col + 1
        while (self._row, col) in self._occupied:  # a guard: older tails in this row end before this streak's column
            col += 1
        return self._row, col

    def place(self, new_streak: bool) -> tuple[int, int]:
        """Place the next cell; ``new_streak`` when it starts a new streak."""
        row, col = self.peek(new_streak)
        if new_streak or self._first_col < 0:
            self._first_col, self._turned = col, False
        elif row == self._row:
            self._turned = True
        self._row, self._col = row, col
        self._occupied.add((row, col))
        return row, col
