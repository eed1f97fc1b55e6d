"""Exports of rounds, streamed a chunk at a time whatever the range: CSV and JSON.

On PostgreSQL the database writes the CSV itself (``COPY ... TO STDOUT``) and builds
each round's JSON object: a row costs no Python object at all, and a million rounds
stream at the database's speed. Elsewhere (SQLite, the embedded default) the rounds are
read as plain values and written here. Both give the same rows (the tests read both
back and compare them).
"""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import psycopg
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import TextField
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast

from ..models import RoundAudit, Shoe
from . import csv_cells
from .review import Selection

EXPORT_FIELDS = [
    "id", "table", "shoe", "number", "created_at", "dealer", "player_cards", "banker_cards",
    "player_score", "banker_score", "winner", "player_pair", "banker_pair", "perfect_pair",
    "player_natural", "banker_natural", "voided", "void_reason", "voided_by", "voided_at", "audit", "bets",
]  # fmt: skip


EXPORT_CHUNK = 2000  # rounds read, and written out, at a time: memory stays flat whatever the range


def audit_to_data(event: RoundAudit) -> dict[str, Any]:
    """An audit event as the exports give it: what, who, when, why."""
    return {"action": event.action, "by": event.username, "at": event.at.isoformat(), "reason": event.reason}


# What an export reads of a round, as plain values: a million rounds as model instances
# (a round, its shoe and its table each) cost most of an export's time. The bets come as
# their stored JSON text (``bets_json``): the JSON export gives it as it is, undecoded.
_EXPORTED = (
    "pk", "round_id", "shoe__number", "shoe__table__slug", "number", "created_at", "dealer_name",
    "player_cards", "banker_cards", "player_score", "banker_score", "winner", "player_pair", "banker_pair",
    "player_perfect_pair", "banker_perfect_pair", "player_natural", "banker_natural",
    "voided", "void_reason", "voided_by__username", "voided_at", "bets_json",
)  # fmt: skip


def _export_chunks(selection: Selection) -> Iterator[list[tuple[dict[str, Any], list[dict[str, Any]]]]]:
    """The selection's rounds a chunk at a time, as plain values (:data:`_EXPORTED`),
    each with its audit events; the odds, which no export gives, never read."""
    rounds = selection.rounds().annotate(bets_json=Cast("bets", TextField()))
    rows = rounds.values(*_EXPORTED).iterator(chunk_size=EXPORT_CHUNK)
    while chunk := list(itertools.islice(rows, EXPORT_CHUNK)):
        events: dict[int, list[dict[str, Any]]] = {}
        # A void is the one audited action: only a voided round has events, and most
        # chunks have none to look up (a query naming 2,000 IDs cost more than the rest).
        voided = [r["pk"] for r in chunk if r["voided"]]
        trail = RoundAudit.objects.filter(round_id__in=voided).order_by("round_id", "-at", "-pk") if voided else ()
        for event in trail:
            events.setdefault(event.round_id, []).append(audit_to_data(event))
        yield [(r, events.get(r["pk"], [])) for r in chunk]


def _codes(packed: str) -> list[str]:
    """A hand's card codes from its stored, packed form ("AH5SKD": AH, 5S, KD)."""
    return [packed[i : i + 2] for i in range(0, len(packed), 2)]


def export_row(r: dict[str, Any], audit: list[dict[str, Any]]) -> dict[str, Any]:
    """A round as the exports give it, from its values (the API's round object's fields,
    and where it was played, who voided it, its audit trail), but for its bets."""
    return {
        "id": r["round_id"],
        "shoe": r["shoe__number"],
        "number": r["number"],
        "created_at": r["created_at"].isoformat(),
        "dealer": r["dealer_name"],
        "winner": r["winner"],
        "voided": r["voided"],
        "void_reason": r["void_reason"],
        "table": r["shoe__table__slug"],
        "player_cards": _codes(r["player_cards"]),
        "banker_cards": _codes(r["banker_cards"]),
        "player_score": r["player_score"],
        "banker_score": r["banker_score"],
        "player_pair": r["player_pair"],
        "banker_pair": r["banker_pair"],
        "perfect_pair": r["player_perfect_pair"] or r["banker_perfect_pair"],
        "player_natural": r["player_natural"],
        "banker_natural": r["banker_natural"],
        "voided_by": r["voided_by__username"],
        "voided_at": r["voided_at"].isoformat() if r["voided_at"] else None,
        "audit": audit,
    }


# The cells of free text, which may start with anything; every other cell is a number, a
# date, a code or a name of the project's (a card, a bet, a side) and cannot. PostgreSQL's
# COPY neutralises these (the writer here neutralises every text cell: the same cells).
_FREE_TEXT = frozenset({"dealer", "void_reason", "table", "voided_by", "audit"})


def _csv_row(r: dict[str, Any], audit: list[dict[str, Any]]) -> list[object]:
    row: dict[str, Any] = export_row(r, audit)
    row["player_cards"] = " ".join(row["player_cards"])
    row["banker_cards"] = " ".join(row["banker_cards"])
    row["audit"] = " | ".join(f"{e['at']} {e['action']} by {e['by']}: {e['reason']}" for e in audit)
    row["bets"] = " ".join(f"{bet}={v['result']}:{v['pays']}" for bet, v in json.loads(r["bets_json"]).items())
    return [row[field] for field in EXPORT_FIELDS]


def export_csv_lines(selection: Selection) -> Iterator[str | bytes]:
    """CSV text, a chunk of rounds at a time (streamed: a range may hold many rounds).
    Cards are space-separated codes, bets one ``bet=result:pays`` item each; text that a
    spreadsheet would read as a formula is neutralised (:mod:`.csv_cells`)."""
    return csv_copied(selection) if connection.vendor == "postgresql" else csv_written(selection)


def export_json_chunks(selection: Selection) -> Iterator[str | bytes]:
    """A JSON array of rounds, streamed a chunk of rounds at a time."""
    return json_built(selection) if connection.vendor == "postgresql" else json_written(selection)


def csv_written(selection: Selection) -> Iterator[str]:
    """The CSV, written here from the rounds' values."""
    buffer = io.StringIO()
    writer = csv_cells.Writer(buffer)
    writer.writerow(EXPORT_FIELDS)
    for chunk in _export_chunks(selection):
        writer.writerows(_csv_row(r, audit) for r, audit in chunk)
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
    yield buffer.getvalue()


def _json_row(r: dict[str, Any], audit: list[dict[str, Any]]) -> str:
    # The bets spliced in as stored: decoding and encoding them again was most of the time.
    return json.dumps(export_row(r, audit))[:-1] + ', "bets": ' + r["bets_json"] + "}"


def json_written(selection: Selection) -> Iterator[str]:
    """The JSON, written here from the rounds' values."""
    first = True
    yield "["
    for chunk in _export_chunks(selection):
        rows = ",".join(_json_row(r, audit) for r, audit in chunk)
        yield ("" if first else ",") + rows
        first = False
    yield "]"


# PostgreSQL writes the exports itself, each cell as the rows above give it: times as
# Python's isoformat() writes them (UTC, microseconds when there are any), True/False,
# cards spaced, free text neutralised as csv_cells.cell does (and empty text left empty).
ROUND, SHOE, TABLE = '"tables_round"', '"tables_shoe"', '"tables_table"'


def _iso(column: str) -> str:
    utc = f"({column} AT TIME ZONE 'UTC')"
    seconds = f"""to_char({utc}, 'YYYY-MM-DD"T"HH24:MI:SS')"""
    micros = f"""to_char({utc}, 'YYYY-MM-DD"T"HH24:MI:SS.US')"""
    return f"(CASE WHEN date_trunc('second', {column}) = {column} THEN {seconds} ELSE {micros} END || '+00:00')"


def _cell(text: str) -> str:
    starts = ", ".join(f"chr({ord(c)})" for c in csv_cells.FORMULA_STARTS)
    return f"NULLIF(CASE WHEN left({text}, 1) IN ({starts}) THEN chr(39) || {text} ELSE {text} END, '')"


def _yes_no(column: str) -> str:
    return f"CASE WHEN {column} THEN 'True' ELSE 'False' END"


def _codes_joined(column: str, between: str) -> str:
    # A hand is two or three cards of two characters: joined by string operations (an
    # array a hand, built, filtered and written out again, cost a tenth of the JSON export).
    third = f"CASE WHEN length({column}) > 4 THEN '{between}' || substr({column}, 5, 2) ELSE '' END"
    return f"(substr({column}, 1, 2) || '{between}' || substr({column}, 3, 2) || {third})"


def _codes_json(column: str) -> str:
    return f"""('["' || {_codes_joined(column, '","')} || '"]')::json"""


Column = Callable[[str, str], str]  # a table's column, as a query names it


def _audit_of_round(col: Column) -> str:
    return f'FROM "tables_roundaudit" a WHERE a.round_id = {col(ROUND, "id")}'


def _if_voided(col: Column, sql: str, otherwise: str = "NULL") -> str:
    # A void is the one audited action, and only a voided round names who voided it: the
    # subqueries are asked of those alone (a few in a million), not of every round.
    return f"CASE WHEN {col(ROUND, 'voided')} THEN {sql} ELSE {otherwise} END"


def _voided_by(col: Column) -> str:
    users = get_user_model()._meta.db_table
    return f'(SELECT u."username" FROM "{users}" u WHERE u."id" = {col(ROUND, "voided_by_id")})'


def _voided_at(col: Column) -> str:
    voided_at = col(ROUND, "voided_at")
    return f"CASE WHEN {voided_at} IS NULL THEN NULL ELSE {_iso(voided_at)} END"


def _perfect(col: Column) -> str:
    return f"({col(ROUND, 'player_perfect_pair')} OR {col(ROUND, 'banker_perfect_pair')})"


def _audit_text(col: Column) -> str:
    return (
        f"(SELECT string_agg({_iso('a.at')} || ' ' || a.action || ' by ' || a.username || ': ' || a.reason, ' | '"
        f" ORDER BY a.at DESC, a.id DESC) {_audit_of_round(col)})"
    )


def _bets_text(col: Column) -> str:
    return (
        "(SELECT string_agg(b.key || '=' || (b.value ->> 'result') || ':' || COALESCE(b.value ->> 'pays', 'None'),"
        f" ' ' ORDER BY b.n) FROM jsonb_each({col(ROUND, 'bets')}) WITH ORDINALITY AS b(key, value, n))"
    )


_FLAGS = ("player_pair", "banker_pair", "player_natural", "banker_natural", "voided")


def _csv_cells(col: Column) -> dict[str, str]:
    """Each CSV column's cell as SQL over a round, its shoe and its table, named by ``col``."""
    return {
        "id": col(ROUND, "round_id"),
        "table": _cell(col(TABLE, "slug")),
        "shoe": col(SHOE, "number"),
        "number": col(ROUND, "number"),
        "created_at": _iso(col(ROUND, "created_at")),
        "dealer": _cell(col(ROUND, "dealer_name")),
        "player_cards": _codes_joined(col(ROUND, "player_cards"), " "),
        "banker_cards": _codes_joined(col(ROUND, "banker_cards"), " "),
        "player_score": col(ROUND, "player_score"),
        "banker_score": col(ROUND, "banker_score"),
        "winner": col(ROUND, "winner"),
        **{flag: _yes_no(col(ROUND, flag)) for flag in _FLAGS},
        "perfect_pair": _yes_no(_perfect(col)),
        "void_reason": _cell(col(ROUND, "void_reason")),
        "voided_by": _cell(_if_voided(col, _voided_by(col))),
        "voided_at": _voided_at(col),
        "audit": _cell(_if_voided(col, _audit_text(col))),
        "bets": _bets_text(col),
    }


# Both exports read the selection's shoes in order, then each one's rounds in it by their
# index on (shoe, number), and build each round's object or line from them: nothing is
# sorted but the shoes (and a shoe's rounds, in memory). As one query over the rounds and
# their shoes, PostgreSQL built the objects first and sorted them, a million of 1.2 KB on
# disk: 16 s of the JSON at 1 M rounds against 13 s this way; the CSV's plan depended on
# the size: at 100 k rounds a sort of every line, partly on disk (97 MB), and the export
# 0.6 times as fast a round as at 10 k or 1 M.
_ROUND_COLUMNS = (
    "id", "round_id", "number", "created_at", "dealer_name", "winner", "voided", "void_reason", "player_cards",
    "banker_cards", "player_score", "banker_score", "player_pair", "banker_pair", "player_perfect_pair",
    "banker_perfect_pair", "player_natural", "banker_natural", "voided_by_id", "voided_at", "bets",
)  # fmt: skip
_SHOE_COLUMNS = {(SHOE, "id"): "id", (SHOE, "number"): "number", (TABLE, "slug"): "table__slug"}  # named as read


def _read(table: str, name: str) -> str:
    """A column as the JSON export's query names it: a shoe's (and its table's) from the
    ordered shoes, a round's from that shoe's rounds."""
    return f'shoes."{_SHOE_COLUMNS[table, name]}"' if table != ROUND else f'rounds."{name}"'


_JSON_OBJECT = (
    "json_build_object("
    + ", ".join(
        f"'{name}', {value}"
        for name, value in {
            "id": _read(ROUND, "round_id"),
            "shoe": _read(SHOE, "number"),
            "number": _read(ROUND, "number"),
            "created_at": _iso(_read(ROUND, "created_at")),
            "dealer": _read(ROUND, "dealer_name"),
            "winner": _read(ROUND, "winner"),
            "voided": _read(ROUND, "voided"),
            "void_reason": _read(ROUND, "void_reason"),
            "table": _read(TABLE, "slug"),
            "player_cards": _codes_json(_read(ROUND, "player_cards")),
            "banker_cards": _codes_json(_read(ROUND, "banker_cards")),
            "player_score": _read(ROUND, "player_score"),
            "banker_score": _read(ROUND, "banker_score"),
            "player_pair": _read(ROUND, "player_pair"),
            "banker_pair": _read(ROUND, "banker_pair"),
            "perfect_pair": _perfect(_read),
            "player_natural": _read(ROUND, "player_natural"),
            "banker_natural": _read(ROUND, "banker_natural"),
            "voided_by": _if_voided(_read, _voided_by(_read)),
            "voided_at": _voided_at(_read),
            "audit": _if_voided(
                _read,
                "COALESCE((SELECT json_agg(json_build_object('action', a.action, 'by', a.username, 'at', "
                f"{_iso('a.at')}, 'reason', a.reason) ORDER BY a.at DESC, a.id DESC) {_audit_of_round(_read)}),"
                " '[]'::json)",
                "'[]'::json",
            ),
            "bets": _read(ROUND, "bets"),
        }.items()
    )
    + ")::text"
)


_CSV_LINE = ", ".join(_csv_cells(_read)[field] for field in EXPORT_FIELDS)


def csv_copied(selection: Selection) -> Iterator[bytes]:
    """The CSV as PostgreSQL writes it (``COPY ... TO STDOUT``), a block at a time."""
    yield (",".join(EXPORT_FIELDS) + "\n").encode()
    sql, params = _in_order(selection, _CSV_LINE)
    yield from _gathered(_copied_out(f"COPY ({sql}) TO STDOUT WITH (FORMAT csv)", params))


BLOCK = 1 << 16  # bytes handed to the server at a time: COPY gives a row at a time


def _copied_out(copy_sql: str, params: tuple[Any, ...]) -> Iterator[bytes | memoryview]:
    """``COPY (...) TO STDOUT`` of ``copy_sql``, its rows as they come. The parameters are
    merged into the statement by psycopg first: Django's debug cursor (DEBUG=1) copies a
    statement alone, and COPY takes no server-side parameters anyway."""
    connection.ensure_connection()
    statement = psycopg.ClientCursor(connection.connection).mogrify(copy_sql, params)
    with connection.cursor() as cursor, cursor.copy(statement) as copy:
        yield from copy


def _gathered(blocks: Iterable[bytes | memoryview]) -> Iterator[bytes]:
    """COPY's rows gathered into blocks of about BLOCK bytes: a write a row (a million
    of them) cost the server more than the database's work."""
    gathered = bytearray()
    for block in blocks:
        gathered += block
        if len(gathered) >= BLOCK:
            yield bytes(gathered)
            gathered.clear()
    yield bytes(gathered)


def _in_order(selection: Selection, columns: str) -> tuple[str, tuple[Any, ...]]:
    """The selection's rounds in its order (:meth:`Selection.rounds`) as a query of
    ``columns`` (SQL naming them by :func:`_read`): its shoes in order, and for each one,
    its rounds in the selection, by number. The ORM writes the filters."""
    shoes = Shoe.objects.order_by("table__slug", "number")
    if selection.start is not None or selection.end is not None:
        shoes = shoes.filter(pk__in=selection.rounds().values("shoe_id"))  # by the rounds' index on their time
    elif selection.table is not None:
        shoes = shoes.filter(table=selection.table)
    shoe_sql, shoe_params = shoes.values_list(*_SHOE_COLUMNS.values()).query.sql_with_params()
    rounds = selection.rounds().select_related(None).filter(shoe_id=RawSQL(_read(SHOE, "id"), ())).order_by("number")
    round_sql, round_params = rounds.values_list(*_ROUND_COLUMNS).query.sql_with_params()
    order = ", ".join(_read(*column) for column in ((TABLE, "slug"), (SHOE, "number"), (ROUND, "number")))
    sql = f"SELECT {columns} FROM ({shoe_sql}) shoes CROSS JOIN LATERAL ({round_sql}) rounds ORDER BY {order}"
    return sql, (*shoe_params, *round_params)


def json_built(selection: Selection) -> Iterator[bytes]:
    """The JSON, each round's object built by PostgreSQL (:func:`_in_order`) and copied
    out a block at a time. COPY's CSV format with a delimiter and a quote no JSON text
    holds raw (jsonb escapes every control character) gives each object as it is, one a
    line: the line ends become the commas between them."""
    built, params = _in_order(selection, _JSON_OBJECT)
    copy_sql = f"COPY ({built}) TO STDOUT WITH (FORMAT csv, DELIMITER E'\\x02', QUOTE E'\\x01')"
    yield b"["
    held = b""  # the last line end: a comma unless it ends the array
    for block in _gathered(_copied_out(copy_sql, params)):
        lines = held + block.replace(b"\n", b",")
        yield lines[:-1]
        held = lines[-1:]
    yield held.rstrip(b",") + b"]"
