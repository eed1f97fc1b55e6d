"""The five roads of a shoe, read plainly off seed 000's text, for checking the engine.

Written separately from the engine: nothing here imports ``roads.engine``,
``roads.grid`` or ``roads.derived``. It recomputes everything from the whole list of
rounds the slow, obvious way (dicts, a set of taken cells), and builds the same JSON as
``Roads.to_data()``, so the property tests can compare the two after every round.

Where the seed is silent, the choices are the engine's documented ones: the derived
roads read the Big Road's logical columns (a dragon tail still counts as its column's
depth), and every road is laid out six rows deep with the dragon tail of ``roads/grid.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from roads.entries import RoadRound
from roads.patterns import DEFAULT_RULES, good_roads
from tables.game.outcome import Winner

ROWS = 6
# "The only differences among the 3 types are the Cycle": 1, 2, 3.
CYCLES = {"big_eye_road": 1, "small_road": 2, "cockroach_road": 3}

Entry = dict[str, Any]  # {"winner": "B" | "P" | None, "ties": int, "banker_pair": bool, "player_pair": bool}


def bead_plate(rounds: Sequence[RoadRound]) -> list[dict[str, Any]]:
    """ "Arranged in a rectangular grid in a top-to-bottom, left-to-right fashion ... the
    icon for the 1st round is put on the top left corner, that for the 2nd round is on
    the one below it": round n (from 0) is row n mod 6 of column n div 6."""
    return [
        {
            "row": n % ROWS,
            "col": n // ROWS,
            "winner": r.winner.value,
            "banker_pair": r.banker_pair,
            "player_pair": r.player_pair,
        }
        for n, r in enumerate(rounds)
    ]


def big_road_columns(rounds: Sequence[RoadRound]) -> list[list[Entry]]:
    """The Big Road's columns, or streaks: "Each time the result flips between Banker and
    Player, a new column is used"; ties are "a green stripe, embedded inside the circle of
    the last round"."""
    columns: list[list[Entry]] = []
    for r in rounds:
        code = r.winner.value
        last = columns[-1][-1] if columns else None
        if code == "T":
            if last is None:
                # "In case the 1st round of the shoe is a tie, its icon will be a simple
                # green stripe with no circles surrounding it."
                last = {"winner": None, "ties": 0, "banker_pair": False, "player_pair": False}
                columns.append([last])
            last["ties"] += 1
        elif last is not None and last["winner"] is None:
            # "the red circle for Banker will be drawn in the same square as that of the
            # green stripe for Tie"
            last.update(winner=code, banker_pair=r.banker_pair, player_pair=r.player_pair)
        else:
            entry = {"winner": code, "ties": 0, "banker_pair": r.banker_pair, "player_pair": r.player_pair}
            if last is not None and last["winner"] == code:
                columns[-1].append(entry)
            else:
                columns.append([entry])
    return columns


def six_row_layout(streaks: Sequence[int]) -> list[tuple[int, int]]:
    """(row, col) of every cell of streaks of these lengths, in order.

    A streak starts at the top of the column after the previous streak's first column,
    or at the first free top cell to the right of that. It goes down while the cell
    below is inside the six rows and free; then it turns right and stays in that row,
    taking the next free cell to the right each time (the dragon tail).
    """
    taken: set[tuple[int, int]] = set()
    cells: list[tuple[int, int]] = []
    first_col = -1
    for length in streaks:
        col = first_col + 1
        while (0, col) in taken:
            col += 1
        first_col, row, turned = col, 0, False
        taken.add((row, col))
        cells.append((row, col))
        for _ in range(length - 1):
            if not turned and row + 1 < ROWS and (row + 1, col) not in taken:
                row += 1
            else:
                turned = True
                col += 1
                while (row, col) in taken:
                    col += 1
            taken.add((row, col))
            cells.append((row, col))
    return cells


def derived_marks(columns: Sequence[Sequence[Entry]], cycle: int) -> list[str]:
    """Every mark of the derived road of this cycle, in order, as seed 000 words it."""
    depths = [len(c) for c in columns if c[0]["winner"] is not None]  # a column of leading ties only: no entry yet

    def filled(col: int, row: int) -> bool:
        return row < depths[col]

    marks = []
    started = False
    for col, depth in enumerate(depths):
        for row in range(depth):
            if not started:
                # "The first entry ... is the hand after the first entry in the second
                # [third, fourth] column of the Big Road."
                started = (col, row) == (cycle, 0)
                continue
            if row == 0:
                # "(1) If the hand in question causes a new column in the Big Road, then
                # compare the first and (cycle+1)th columns to the left of the new column.
                # If they are the same in depth, then record a red circle."
                same = depths[col - 1] == depths[col - 1 - cycle]
            else:
                # "(2) ... compare the cell [cycle] cells to the left of the newly created
                # entry with the cell directly above that one. If these two cells are the
                # same, whether both Player, both Banker, or both blank; then mark a red."
                same = filled(col - cycle, row) == filled(col - cycle, row - 1)
            marks.append("red" if same else "blue")
    return marks


def streaks_of(marks: Sequence[str]) -> list[int]:
    """Derived marks are laid out like the Big Road: one column per run of one colour."""
    lengths: list[int] = []
    for i, mark in enumerate(marks):
        if i and marks[i - 1] == mark:
            lengths[-1] += 1
        else:
            lengths.append(1)
    return lengths


def roads_data(rounds: Sequence[RoadRound]) -> dict[str, Any]:
    """The same JSON as ``Roads.of(rounds).to_data()``."""
    columns = big_road_columns(rounds)
    big_cells = six_row_layout([len(c) for c in columns])
    entries = [entry for column in columns for entry in column]
    data: dict[str, Any] = {
        "bead_plate": bead_plate(rounds),
        "big_road": {
            "columns": columns,
            "cells": [{"row": row, "col": col, **entry} for (row, col), entry in zip(big_cells, entries, strict=True)],
        },
    }
    for name, cycle in CYCLES.items():
        marks = derived_marks(columns, cycle)
        cells = six_row_layout(streaks_of(marks))
        data[name] = {
            "marks": marks,
            "cells": [{"row": row, "col": col, "color": mark} for (row, col), mark in zip(cells, marks, strict=True)],
        }
    data["ask"] = {code: ask(rounds, code) for code in ("B", "P")}
    sides = [(Winner(c[0]["winner"]), len(c)) for c in columns if c[0]["winner"] is not None]
    data["good_roads"] = good_roads(sides, DEFAULT_RULES)
    return data


def ask(rounds: Sequence[RoadRound], code: str) -> dict[str, str | None]:
    """What each derived road would add if the next round went to ``code``: play it and see."""
    before, after = big_road_columns(rounds), big_road_columns([*rounds, RoadRound(Winner(code))])
    asked: dict[str, str | None] = {}
    for name, cycle in CYCLES.items():
        old, new = derived_marks(before, cycle), derived_marks(after, cycle)
        asked[name] = new[-1] if len(new) > len(old) else None
    return asked
