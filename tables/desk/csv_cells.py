"""Every CSV the product writes, through one writer that neutralises formulas.

A cell a spreadsheet would run as a formula (it starts with ``=``, ``+``, ``-``, ``@``, a
tab or a carriage return) gets a leading apostrophe, OWASP's advice against CSV
injection: a dealer named ``=cmd|' /C calc'!A0`` is shown as text when a reviewer opens
the file. Numbers are written as numbers (a negative count is not text a person typed).
PostgreSQL's own CSV of the rounds (``COPY``) neutralises the same cells in SQL with
:data:`FORMULA_STARTS`.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any, Protocol

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """``value`` as a spreadsheet shows it as text: text starting with a formula
    character behind an apostrophe; anything else as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class _Writes(Protocol):
    def write(self, text: str, /) -> Any: ...


class Writer:
    """:func:`csv.writer`'s rows (RFC 4180: rows end in CRLF, so a lone CR in a cell is
    quoted), every text cell neutralised."""

    def __init__(self, out: _Writes) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        for row in rows:
            self.writerow(row)
