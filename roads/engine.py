"""All five roads of one shoe, updated round by round.

:class:`Roads` keeps every road and appends a round in amortised constant time. The
tests check it, after every round of random shoes, against a plain implementation of
the seed's rules written separately (``tests/roads/reference.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .derived import CYCLES, Comparison, derived_comparison, derived_mark
from .entries import ROWS, BeadCell, BigRoadCell, BigRoadEntry, Color, DerivedCell, RoadRound, Winner
from .grid import GridLayout
from .patterns import DEFAULT_RULES, GoodRoadRules, good_roads

DERIVED_ROADS = tuple(CYCLES)


@dataclass
class DerivedRoad:
    """One derived road (Big Eye Road, Small Road, Cockroach Road): its red and blue marks and
    their cells, laid out in the dragon-tail grid; ``cycle`` is the columns it looks back."""

    cycle: int
    marks: list[Color] = field(default_factory=list)
    cells: list[DerivedCell] = field(default_factory=list)
    _grid: GridLayout = field(default_factory=GridLayout)

    def _new_streak(self, color: Color) -> bool:
        return not self.marks or self.marks[-1] is not color

    def add(self, color: Color, index: int) -> None:
        """Add a mark of ``color`` for the Big Road entry of round ``index``."""
        row, col = self._grid.place(self._new_streak(color))
        self.marks.append(color)
        self.cells.append(DerivedCell(row, col, color, index))

    def peek(self, color: Color) -> DerivedCell:
        """The cell ``color`` would take next (for ask previews)."""
        return DerivedCell(*self._grid.peek(self._new_streak(color)), color)


class Roads:
    """Bead Plate, Big Road and the three derived roads of one shoe."""

    def __init__(self, rules: GoodRoadRules = DEFAULT_RULES) -> None:
        self.rules = rules
        self.rounds: list[RoadRound] = []
        self.bead_plate: list[BeadCell] = []
        self.columns: list[list[BigRoadEntry]] = []
        self.big_road_cells: list[BigRoadCell] = []
        self.derived = {name: DerivedRoad(cycle) for name, cycle in CYCLES.items()}
        self._lengths: list[int] = []
        self._grid = GridLayout()

    @classmethod
    def of(cls, rounds: Iterable[RoadRound], rules: GoodRoadRules = DEFAULT_RULES) -> Roads:
        """Every road of ``rounds`` (played rounds, in order), good roads judged by ``rules``."""
        roads = cls(rules)
        for round_ in rounds:
            roads.append(round_)
        return roads

    def append(self, round_: RoadRound) -> None:
        """Add the next played round to every road."""
        n = len(self.rounds)
        self.rounds.append(round_)
        self.bead_plate.append(BeadCell(n % ROWS, n // ROWS, round_))
        if round_.winner is Winner.TIE:
            self._add_tie(round_)
        else:
            self._add_win(round_)

    def _add_entry(self, entry: BigRoadEntry, new_column: bool) -> None:
        if new_column:
            self.columns.append([entry])
            self._lengths.append(1)
        else:
            self.columns[-1].append(entry)
            self._lengths[-1] += 1
        self.big_road_cells.append(BigRoadCell(*self._grid.place(new_column), entry))

    def _add_tie(self, round_: RoadRound) -> None:
        if not self.columns:  # ties before the first B/P: a leading entry, no winner yet
            self._add_entry(BigRoadEntry(None), new_column=True)
        self.columns[-1][-1].tie_indices.append(round_.index)

    def _add_win(self, round_: RoadRound) -> None:
        last = self.columns[-1][-1] if self.columns else None
        if last is not None and last.winner is None:  # drawn in the leading ties' square
            last.winner, last.banker_pair, last.player_pair, last.index = (
                round_.winner, round_.banker_pair, round_.player_pair, round_.index,
            )  # fmt: skip
        else:
            entry = BigRoadEntry(round_.winner, round_.banker_pair, round_.player_pair, round_.index)
            self._add_entry(entry, new_column=last is None or last.winner is not round_.winner)
        for road in self.derived.values():
            mark = derived_mark(self._lengths, road.cycle)
            if mark is not None:
                road.add(mark, round_.index)

    def ask(self, winner: Winner) -> dict[str, Color | None]:
        """The mark each derived road would add if the next round were ``winner``."""
        if winner is Winner.TIE:
            return dict.fromkeys(self.derived)
        last = self.columns[-1][-1].winner if self.columns else None
        if last is None:  # the shoe's first B/P: one entry, in the leading ties' square
            lengths = [1]
        elif last is winner:
            lengths = [*self._lengths[:-1], self._lengths[-1] + 1]
        else:
            lengths = [*self._lengths, 1]
        return {name: derived_mark(lengths, road.cycle) for name, road in self.derived.items()}

    def big_road_next(self, winner: Winner) -> tuple[int, int]:
        """(row, col) of the Big Road square a next ``winner`` (Banker or Player) would
        take, for the ask previews: the leading ties' square, the next cell of the
        newest column's streak, or the top of the next free column."""
        if winner is Winner.TIE:
            raise ValueError("a tie takes no square of its own on the Big Road")
        if not self.columns:
            return self._grid.peek(new_streak=True)
        last = self.columns[-1][-1]
        if last.winner is None:  # drawn in the leading ties' square
            cell = self.big_road_cells[-1]
            return cell.row, cell.col
        return self._grid.peek(new_streak=last.winner is not winner)

    def comparison(self, name: str, index: int) -> Comparison | None:
        """Why the derived road ``name`` marked the Big Road entry of the round of
        ``index`` red or blue (``None`` for a round that made no mark there): the road as
        it stood when that entry was added. Asked for one mark at a time (a reader's tap),
        so it looks the entry up rather than keep anything per round."""
        for col, column in enumerate(self.columns):
            for row, entry in enumerate(column):
                if entry.index == index:
                    lengths = [len(earlier) for earlier in self.columns[:col]] + [row + 1]
                    return derived_comparison(lengths, CYCLES[name])
        return None

    def big_road_cell(self, col: int, row: int) -> BigRoadCell | None:
        """Where the Big Road draws the entry of logical column ``col`` and row ``row``
        (a dragon's tail turns right), or ``None`` for a cell no entry holds."""
        if not (0 <= col < len(self.columns) and 0 <= row < len(self.columns[col])):
            return None
        return self.big_road_cells[sum(self._lengths[:col]) + row]

    def good_roads(self) -> list[str]:
        """The good roads that hold at the newest column; none before the first B/P
        (only a leading entry of ties has no winner)."""
        columns = [(winner, len(column)) for column in self.columns if (winner := column[0].winner) is not None]
        return good_roads(columns, self.rules)

    def to_data(self) -> dict[str, Any]:
        """The stable JSON contract of ``manage.py roads`` and the roads API."""
        return {
            "bead_plate": [_bead_data(c) for c in self.bead_plate],
            "big_road": {
                "columns": [[_entry_data(e) for e in column] for column in self.columns],
                "cells": [{"row": c.row, "col": c.col, **_entry_data(c.entry)} for c in self.big_road_cells],
            },
            **{
                name: {
                    "marks": [m.value for m in road.marks],
                    "cells": [{"row": c.row, "col": c.col, "color": c.color.value} for c in road.cells],
                }
                for name, road in self.derived.items()
            },
            "ask": {
                w.value: {name: (m.value if m else None) for name, m in self.ask(w).items()}
                for w in (Winner.BANKER, Winner.PLAYER)
            },
            "good_roads": self.good_roads(),
        }


def _bead_data(cell: BeadCell) -> dict[str, Any]:
    r = cell.round
    return {
        "row": cell.row,
        "col": cell.col,
        "winner": r.winner.value,
        "banker_pair": r.banker_pair,
        "player_pair": r.player_pair,
    }


def _entry_data(entry: BigRoadEntry) -> dict[str, Any]:
    return {
        "winner": entry.winner.value if entry.winner else None,
        "ties": entry.ties,
        "banker_pair": entry.banker_pair,
        "player_pair": entry.player_pair,
    }
