"""The dealer and table report: per dealer and per table over a date range, what was
dealt and what went wrong (voids, cancels, refused posts, refused plaintexts, alarms),
and how long the shoes lasted.

Summed in SQL from the dealer days kept as events happen (:mod:`tables.services.dealer_days`),
never from the rounds: a year of history costs a row a dealer a table a day. The shoes'
durations are the one read of shoes, one row a table (the median picked by the database).
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from django import forms
from django.db.models import Count, DurationField, ExpressionWrapper, F, Max, Q, QuerySet, Sum, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..models import AdvantageWindow, Alarm, DealerDay, Shoe, Table
from . import csv_cells

SUMS = ("rounds", "voids", "cancels", "refusals", "auth_refusals", "shoes")
SORTS = ("name", "rounds", "voids", "cancels", "refusals", "auth_refusals", "alarms", "advantage_windows", "shoes")


class DealerReportForm(forms.Form):
    table = forms.ModelChoiceField(
        Table.objects.order_by("name"), required=False, to_field_name="slug", label=gettext_lazy("Table")
    )
    start = forms.DateField(required=False, label=gettext_lazy("From"), widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(required=False, label=gettext_lazy("To"), widget=forms.DateInput(attrs={"type": "date"}))
    sort = forms.ChoiceField(
        required=False,
        choices=[(name, name) for name in SORTS],
        widget=forms.HiddenInput,
        label=gettext_lazy("Sort by"),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("start"), data.get("end")
        if start and end and start > end:
            self.add_error("end", _("The end date is before the start date."))
        return data


@dataclass(frozen=True)
class Durations:
    """The ended shoes' lengths: how many, the median, the longest."""

    count: int
    median: timedelta
    longest: timedelta

    @property
    def median_shown(self) -> str:
        return hours_minutes(self.median)

    @property
    def longest_shown(self) -> str:
        return hours_minutes(self.longest)


@dataclass
class Line:
    """One dealer's or one table's figures over the range."""

    name: str
    table: Table | None = None
    rounds: int = 0
    voids: int = 0
    cancels: int = 0
    refusals: int = 0
    auth_refusals: int = 0
    shoes: int = 0
    alarms: int = 0
    advantage_windows: int = 0  # bets' returns on the cards left above their thresholds (opened in the range)
    refused: Counter[str] = field(default_factory=Counter)
    durations: Durations | None = None

    @property
    def refused_by_reason(self) -> str:
        """``illegal 2 · invalid 1``: the reasons, most first."""
        return " · ".join(f"{reason} {n}" for reason, n in sorted(self.refused.items(), key=lambda r: (-r[1], r[0])))


@dataclass(frozen=True)
class DealerSelection:
    table: Table | None
    start: date | None
    end: date | None
    sort: str = "name"

    @classmethod
    def of(cls, form: DealerReportForm) -> DealerSelection:
        data = form.cleaned_data
        return cls(data.get("table"), data.get("start"), data.get("end"), data.get("sort") or "name")

    def days(self) -> QuerySet[DealerDay]:
        days = DealerDay.objects.all()
        if self.table is not None:
            days = days.filter(table=self.table)
        if self.start is not None:
            days = days.filter(day__gte=self.start)
        if self.end is not None:
            days = days.filter(day__lte=self.end)
        return days

    def within(self, name: str) -> Q:
        """The range on a time field (``raised_at``): whole days in the server's time zone,
        as the dealer days count them."""
        zone, where = timezone.get_default_timezone(), Q()
        if self.start is not None:
            where &= Q(**{f"{name}__gte": datetime.combine(self.start, time.min, tzinfo=zone)})
        if self.end is not None:
            where &= Q(**{f"{name}__lt": datetime.combine(self.end + timedelta(days=1), time.min, tzinfo=zone)})
        return where


def dealer_report(selection: DealerSelection) -> dict[str, list[Line]]:
    """Per dealer and per table, ordered by ``selection.sort`` (names A to Z, figures
    most first)."""
    days = selection.days()
    sums = {name: Sum(name) for name in SUMS}
    dealers: dict[str, Line] = {}
    for dealer, *figures in days.values_list("dealer_name").annotate(**sums).order_by():
        dealers[dealer] = _summed(Line(dealer), figures)
    tables = Table.objects.in_bulk(set(days.values_list("table_id", flat=True).distinct()))
    per_table: dict[int, Line] = {}
    for table_id, *figures in days.values_list("table_id").annotate(**sums).order_by():
        per_table[table_id] = _summed(Line(tables[table_id].name, tables[table_id]), figures)
    for dealer, table_id, refused in days.filter(refusals__gt=0).values_list("dealer_name", "table_id", "refused"):
        dealers[dealer].refused.update(refused)
        per_table[table_id].refused.update(refused)
    alarms = Alarm.objects.filter(selection.within("raised_at"))
    if selection.table is not None:
        alarms = alarms.filter(table=selection.table)
    for dealer, n in alarms.exclude(dealer_name="").values_list("dealer_name").annotate(n=Count("pk")).order_by():
        dealers.setdefault(dealer, Line(dealer)).alarms = n
    for table_id, n in alarms.values_list("table_id").annotate(n=Count("pk")).order_by():
        _table_line(per_table, table_id).alarms = n
    windows = AdvantageWindow.objects.filter(selection.within("opened_at"))
    if selection.table is not None:
        windows = windows.filter(table=selection.table)
    for dealer, n in windows.values_list("dealer_name").annotate(n=Count("pk")).order_by():
        dealers.setdefault(dealer, Line(dealer)).advantage_windows = n
    for table_id, n in windows.values_list("table_id").annotate(n=Count("pk")).order_by():
        _table_line(per_table, table_id).advantage_windows = n
    for table_id, durations in shoe_durations(selection).items():
        _table_line(per_table, table_id).durations = durations
    return {"dealers": _sorted(dealers.values(), selection.sort), "tables": _sorted(per_table.values(), selection.sort)}


def _summed(line: Line, figures: list[int | None]) -> Line:
    """``line`` with the sums of :data:`SUMS`, in their order."""
    for name, figure in zip(SUMS, figures, strict=True):
        setattr(line, name, figure or 0)
    return line


def _table_line(lines: dict[int, Line], table_id: int) -> Line:
    if table_id not in lines:
        table = Table.objects.get(pk=table_id)
        lines[table_id] = Line(table.name, table)
    return lines[table_id]


def _sorted(lines: Any, sort: str) -> list[Line]:
    by_name = sorted(lines, key=lambda line: (line.name.casefold(), line.name))
    if sort == "name":
        return by_name
    return sorted(by_name, key=lambda line: -getattr(line, sort))  # stable: names A to Z among equals


def shoe_durations(selection: DealerSelection) -> dict[int, Durations]:
    """Per table, the shoes started in range and ended: how many, their median length and
    the longest, one row a table from the database (the median's rows picked by their
    place in the table's shoes ordered by length: both middle ones for an even count)."""
    shoes = Shoe.objects.filter(selection.within("started_at"), ended_at__isnull=False)
    if selection.table is not None:
        shoes = shoes.filter(table=selection.table)
    length = ExpressionWrapper(F("ended_at") - F("started_at"), output_field=DurationField())
    ranked = shoes.annotate(
        length=length,
        place=Window(RowNumber(), partition_by=[F("table_id")], order_by=[length.asc(), F("pk").asc()]),
        count=Window(Count("pk"), partition_by=[F("table_id")]),
        longest=Window(Max(length), partition_by=[F("table_id")]),
    )
    # The middle places: (n + 1) // 2 and n // 2 + 1, the same one for an odd count.
    middle = ranked.filter(Q(place=(F("count") + 1) / 2) | Q(place=F("count") / 2 + 1))
    found: dict[int, list[Any]] = {}
    for table_id, shoe_length, count, longest in middle.values_list("table_id", "length", "count", "longest"):
        found.setdefault(table_id, [count, longest, []])[2].append(shoe_length)
    return {
        table_id: Durations(count, sum(middles, timedelta()) / len(middles), longest)
        for table_id, (count, longest, middles) in found.items()
    }


def hours_minutes(length: timedelta) -> str:
    """``2:05`` (hours and minutes), as the report shows a shoe's length."""
    minutes = int(length.total_seconds() // 60)
    return f"{minutes // 60}:{minutes % 60:02d}"


CSV_FIELDS = [
    "scope", "table", "dealer", "rounds", "voids", "cancels", "refused_posts", "refused_by_reason",
    "auth_refusals", "alarms", "advantage_windows", "shoes", "ended_shoes", "median_shoe_seconds",
    "longest_shoe_seconds",
]  # fmt: skip


def report_csv(report: dict[str, list[Line]]) -> Iterator[str]:
    """The report as CSV: a header, then a row a dealer (``scope`` dealer) and a row a
    table (``scope`` table, with its shoes' lengths in seconds)."""
    buffer = io.StringIO()
    writer = csv_cells.Writer(buffer)  # a dealer's name is the dealer system's text
    writer.writerow(CSV_FIELDS)
    for scope, lines in (("dealer", report["dealers"]), ("table", report["tables"])):
        for line in lines:
            durations = line.durations
            writer.writerow(
                [
                    scope,
                    line.table.slug if line.table else "",
                    line.name if scope == "dealer" else "",
                    line.rounds,
                    line.voids,
                    line.cancels,
                    line.refusals,
                    ";".join(f"{reason}={n}" for reason, n in sorted(line.refused.items())),
                    line.auth_refusals,
                    line.alarms,
                    line.advantage_windows,
                    line.shoes,
                    durations.count if durations else "",
                    round(durations.median.total_seconds()) if durations else "",
                    round(durations.longest.total_seconds()) if durations else "",
                ]
            )
    yield buffer.getvalue()
