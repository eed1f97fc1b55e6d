"""Reviewer statistics: which rounds a reviewer asked for, and the report.

The statistics themselves are in :mod:`tables.game.review`; this module sums the shoe
days of a table and date range and builds the charts. The exports of the same selection
are :mod:`.exports`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any, NamedTuple, overload

from django import forms
from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import Count, F, FloatField, Min, QuerySet, Sum, Window
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce, Mod, RowNumber
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..game.bets import BetType
from ..game.review import EVENTS, FlatBetCurves, Frequencies, Tally, expected_streaks, full_shoe_rates
from ..models import Round, Shoe, ShoeDay, ShoeTotal, Table, TableDay
from ..pages import charts
from ..selectors import shoe_sums

LONGEST_STREAK = 8  # streak lengths shown one by one; the last bucket is "8 or more"
CURVE_POINTS = 2000  # flat-bet curves are thinned to about this many points
CURVE_ROUNDS = CURVE_POINTS  # up to this many rounds (a day of a table or so), the curves go round by round
# Beyond CURVE_ROUNDS, a point after each shoe day, thinned to about this many points
# (a day of twenty tables holds as many shoe days); over all history of more shoe days
# than that, a point after each table's day, thinned alike.
CURVE_DAYS = 500
SHOES_A_PAGE = 100  # shoes listed a page at a time (a year of history holds thousands)
ROWS_A_CHUNK = 2000  # rounds read from the database at a time


class ReviewForm(forms.Form):
    table = forms.ModelChoiceField(
        Table.objects.order_by("name"), required=False, to_field_name="slug", label=gettext_lazy("Table")
    )
    start = forms.DateField(required=False, label=gettext_lazy("From"), widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(required=False, label=gettext_lazy("To"), widget=forms.DateInput(attrs={"type": "date"}))
    threshold = forms.FloatField(
        required=False,
        min_value=1e-9,
        max_value=0.5,
        label=gettext_lazy("Flag p-values under"),
        widget=forms.NumberInput(attrs={"step": "any", "placeholder": str(settings.REVIEW_P_THRESHOLD)}),
        help_text=gettext_lazy("Shoes whose lowest p-value falls under this are flagged for review."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("start"), data.get("end")
        if start and end and start > end:
            self.add_error("end", _("The end date is before the start date."))
        if data.get("threshold") is None:
            data["threshold"] = settings.REVIEW_P_THRESHOLD
        return data


@dataclass(frozen=True)
class Selection:
    table: Table | None
    start: date | None
    end: date | None
    threshold: float

    @classmethod
    def of(cls, form: ReviewForm) -> Selection:
        data = form.cleaned_data
        return cls(data.get("table"), data.get("start"), data.get("end"), data["threshold"])

    def shoe_days(self) -> QuerySet[ShoeDay]:
        """The shoe days in range that hold played rounds, oldest shoe first, each shoe's days in order."""
        days = ShoeDay.objects.filter(rounds__gt=0)
        if self.table is not None:
            days = days.filter(shoe__table=self.table)
        if self.start is not None:
            days = days.filter(day__gte=self.start)
        if self.end is not None:
            days = days.filter(day__lte=self.end)
        return days.order_by("shoe__table__slug", "shoe__number", "day")

    @property
    def everything(self) -> bool:
        """All history (of a table, or every one): no date range."""
        return self.start is None and self.end is None

    def table_days(self) -> QuerySet[TableDay]:
        """The sums of each table's days of all history (of the table chosen)."""
        days = TableDay.objects.all()
        return days if self.table is None else days.filter(table=self.table)

    def played_rounds(self) -> int:
        """How many played rounds the range holds, from its tables' days over all history,
        else from its shoe days (no round counted)."""
        rows = self.table_days() if self.everything else self.shoe_days()
        return rows.aggregate(rounds=Sum("rounds"))["rounds"] or 0

    def rounds(self) -> QuerySet[Round]:
        """Every round in range, voided ones included, oldest shoe first."""
        rounds = Round.objects.select_related("shoe__table", "voided_by")
        if self.table is not None:
            rounds = rounds.filter(shoe__table=self.table)
        if self.start is not None:
            rounds = rounds.filter(created_at__date__gte=self.start)
        if self.end is not None:
            rounds = rounds.filter(created_at__date__lte=self.end)
        return rounds.order_by("shoe__table__slug", "shoe__number", "number")


@dataclass(frozen=True)
class ShoeReport:
    shoe: Shoe
    frequencies: Frequencies
    flagged: bool


class Sums(NamedTuple):
    """What the report needs of a selection's sums before its listed shoes' own figures."""

    overall: Tally
    ended: Counter[int]  # runs ended, by length (each shoe's last run left out: it may go on)
    flagged: int
    listed: Page[int]  # of shoe IDs, flagged first
    flagged_ids: set[int]  # of the listed shoes, those flagged
    decks: set[int]


def report(selection: Selection, page: int | str = 1) -> dict[str, Any]:
    """Per shoe and overall: observed frequencies against exact expectations with
    chi-square tests, flagged shoes, streak lengths, flat-bet curves; the shoes a page
    at a time, flagged first.

    Never read from the rounds: over all history (no dates) from the sums of each table's
    days and each shoe's total (:mod:`tables.models.history_sums`), a row a table and day
    and a row a listed shoe, so the report costs the same after a year as after a day; a
    date range from its shoe days (:mod:`tables.services.shoe_days`), mostly in SQL. Only
    a small selection's flat-bet curves read rounds, to draw them round by round."""
    sums = _all_history(selection, page) if selection.everything else _in_range(selection, page)
    listed = list(sums.listed.object_list)
    shown = Shoe.objects.select_related("table").in_bulk(listed)
    of_listed = shoe_sums(selection.shoe_days().filter(shoe_id__in=listed))
    shoes = [
        ShoeReport(shown[i], sums_of.summary.tally.frequencies(full_shoe_rates(sums_of.decks)), i in sums.flagged_ids)
        for i in listed
        for sums_of in [of_listed[i]]
    ]
    decks = set(sums.decks) or {8}
    rates = full_shoe_rates(decks.pop() if len(decks) == 1 else 8)
    return {
        "rounds": sums.overall.rounds,
        "overall": sums.overall.frequencies(rates),
        "shoes": shoes,
        "shoes_page": sums.listed,
        "flagged": sums.flagged,
        "streaks": _streaks(sums.ended, rates),
        "flat_bets": _flat_bets(selection, sums.overall.rounds),
    }


def _tally(rows: QuerySet[Any]) -> Tally:
    totals = rows.aggregate(rounds=Sum("rounds"), **{event: Sum(event) for event in EVENTS})
    return Tally(totals["rounds"] or 0, {event: totals[event] or 0 for event in EVENTS})


def _all_history(selection: Selection, page: int | str) -> Sums:
    """The sums of all history (of one table, or every one): its tables' days summed, its
    flagged shoes from the shoe totals' index, the page of shoes listed from their order."""
    table_days, totals = selection.table_days(), ShoeTotal.objects.filter(played__gt=0)
    if selection.table is not None:
        totals = totals.filter(table=selection.table)
    flagged = list(
        totals.filter(lowest_p__lt=selection.threshold)
        .order_by("table__slug", "number")
        .values_list("shoe_id", "table_id")
    )
    per_table = table_days.order_by("table__slug").values_list("table_id").annotate(shoes=Sum("shoes"))
    shoes = ShoesInOrder(totals.exclude(lowest_p__lt=selection.threshold), flagged, list(per_table))
    listed: Page[int] = Paginator(shoes, SHOES_A_PAGE).get_page(page)
    return Sums(
        _tally(table_days),
        _runs_ended(table_days),
        len(flagged),
        listed,
        {shoe for shoe, _ in flagged} & set(listed.object_list),
        set(table_days.values_list("decks", flat=True).distinct()),
    )


class ShoesInOrder:
    """The IDs of every shoe with played rounds, flagged first, then by table and number,
    as a Paginator reads them: the count from the tables' days, a page from the shoe
    totals' index (``unflagged``, a table at a time), never the whole list."""

    def __init__(
        self, unflagged: QuerySet[ShoeTotal], flagged: list[tuple[int, int]], per_table: list[tuple[int, int]]
    ) -> None:
        self.unflagged = unflagged
        self.flagged = [shoe for shoe, _ in flagged]
        flagged_in = Counter(table for _, table in flagged)
        self.per_table = [(table, shoes - flagged_in[table]) for table, shoes in per_table]

    def count(self) -> int:
        return len(self.flagged) + sum(shoes for _, shoes in self.per_table)

    def __len__(self) -> int:
        return self.count()

    def __iter__(self) -> Iterator[int]:
        return iter(self[0 : len(self)])

    @overload
    def __getitem__(self, index: int, /) -> int: ...

    @overload
    def __getitem__(self, index: slice, /) -> list[int]: ...

    def __getitem__(self, index: int | slice, /) -> int | list[int]:
        if isinstance(index, int):
            return self[index : index + 1][0]
        start, stop = index.start or 0, index.stop
        ids = self.flagged[start:stop]
        skip, wanted = max(0, start - len(self.flagged)), stop - start - len(ids)
        for table, shoes in self.per_table:
            if wanted <= 0:
                break
            if skip >= shoes:
                skip -= shoes
                continue
            of_table = self.unflagged.filter(table_id=table).order_by("number").values_list("shoe_id", flat=True)
            read = list(of_table[skip : skip + wanted])
            ids += read
            skip, wanted = 0, wanted - len(read)
        return ids


def _in_range(selection: Selection, page: int | str) -> Sums:
    """The sums of a date range's shoe days. A shoe of one day in range keeps that day's
    figures; one dealt across midnight is joined from its days (runs across the seam, its
    p-value tested again)."""
    days = selection.shoe_days()
    in_range = _shoes_of(days)
    spread_ids = [shoe.shoe_id for shoe in in_range if shoe.days > 1]
    spread = shoe_sums(days.filter(shoe_id__in=spread_ids)) if spread_ids else {}
    ended = _runs_ended(days.exclude(shoe_id__in=spread_ids))  # a shoe's last run may not have ended: left out
    for shoe in spread.values():
        ended += shoe.summary.runs.ended
    flagged_ids = {
        shoe.shoe_id
        for shoe in in_range
        if shoe.days == 1 and shoe.lowest_p is not None and shoe.lowest_p < selection.threshold
    }
    flagged_ids |= {
        i for i, shoe in spread.items() if shoe.lowest_p is not None and shoe.lowest_p < selection.threshold
    }
    ordered = [shoe.shoe_id for shoe in in_range]  # table, shoe number
    flagged = [i for i in ordered if i in flagged_ids]
    listed = Paginator([*flagged, *(i for i in ordered if i not in flagged_ids)], SHOES_A_PAGE).get_page(page)
    return Sums(_tally(days), ended, len(flagged), listed, flagged_ids, {shoe.decks for shoe in in_range})


class ShoeInRange(NamedTuple):
    """A shoe as the review's range holds it: what ordering, flagging and joining need."""

    shoe_id: int
    decks: int
    days: int  # its days in range: more than one for a shoe dealt across midnight
    lowest_p: float | None  # its day's, for a shoe of one day


def _shoes_of(days: QuerySet[ShoeDay]) -> list[ShoeInRange]:
    """Each shoe of the shoe days, once, by table and shoe number: one grouped query."""
    shoes = days.order_by("shoe__table__slug", "shoe__number").values_list("shoe_id", "shoe__decks")
    return [ShoeInRange(*row) for row in shoes.annotate(Count("pk"), Min("lowest_p"))]


# Each shoe day's ``ended`` (run length -> runs), a row a length, by the database's JSON
# functions: about 14,000 objects at a month of history (1 M rounds), decoded here before.
_JSON_EACH = {"postgresql": "jsonb_each_text", "sqlite": "json_each"}


def _runs_ended(days: QuerySet[ShoeDay] | QuerySet[TableDay]) -> Counter[int]:
    """The runs ended in ``days``, summed by length in the database."""
    sql, params = days.order_by().values("ended").query.sql_with_params()
    each = _JSON_EACH[connection.vendor]
    with connection.cursor() as cursor:
        summed = "SELECT runs.key, SUM(CAST(runs.value AS INTEGER))"
        cursor.execute(f"{summed} FROM ({sql}) days, {each}(days.ended) runs GROUP BY runs.key", params)
        return Counter({int(length): n for length, n in cursor.fetchall()})


def _flat_bets(selection: Selection, rounds: int) -> tuple[list[int], dict[str, list[float]]]:
    """The flat-bet curves: round by round for a selection of a few shoes, else a point
    after each shoe day, or over all history of more than CURVE_DAYS of them, a point
    after each table's day."""
    bets = [bet.value for bet in BetType]
    if rounds > CURVE_ROUNDS:
        days = selection.shoe_days()
        if selection.everything and days.order_by()[: CURVE_DAYS + 1].count() > CURVE_DAYS:
            return _day_curves(selection.table_days(), bets, TABLE_DAYS_IN_ORDER)
        return _day_curves(days, bets, SHOE_DAYS_IN_ORDER)
    curves = FlatBetCurves(bets, step=max(1, rounds // CURVE_POINTS))
    for (bets_paid,) in selection.rounds().filter(voided=False).values_list("bets").iterator(chunk_size=ROWS_A_CHUNK):
        curves.add({bet: bets_paid.get(bet, {}).get("pays") for bet in curves.totals})
    return curves.kept_after, curves.curves


SHOE_DAYS_IN_ORDER = ("shoe__table__slug", "shoe__number", "day")
TABLE_DAYS_IN_ORDER = ("table__slug", "day", "decks")


def _day_curves(
    days: QuerySet[Any], bets: list[str], in_order: tuple[str, ...]
) -> tuple[list[int], dict[str, list[float]]]:
    """Each bet's units won so far after each of ``days`` (shoe days or tables' days),
    summed by the database (running sums over the days in order), every how many days it
    takes to keep about CURVE_DAYS points, the last day always among them. Read as the
    database's plain numbers: Django's converters cost more than the sums."""
    count = days.count()
    every = max(1, -(-count // CURVE_DAYS))
    order = [F(name).asc() for name in in_order]

    def so_far(expression: Any) -> Window:
        return Window(Sum(expression), order_by=order)

    paid = {f"paid_{i}": so_far(Coalesce(Cast(KT(f"pays__{bet}"), FloatField()), 0.0)) for i, bet in enumerate(bets)}
    points = (
        days.annotate(at=Window(RowNumber(), order_by=order), rounds_so_far=so_far(F("rounds")), **paid)
        .annotate(phase=Mod("at", every))
        .filter(phase=count % every)  # the last day's phase: it is kept, and every so many before it
        .values_list("at", "rounds_so_far", *paid)
    )
    sql, params = points.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    x: list[int] = []
    curves: dict[str, list[float]] = {bet: [] for bet in bets}
    for _at, rounds, *totals in sorted(rows):
        x.append(rounds)
        for bet, total in zip(bets, totals, strict=True):
            curves[bet].append(round(total, 4))
    return x, curves


def figures(report: dict[str, Any]) -> dict[str, Any]:
    """The report's charts, in the language of the page that shows them."""
    labels, observed, expected = report["streaks"]
    x, curves = report["flat_bets"]
    return {
        "streaks_figure": charts.observed_expected_figure(
            labels, observed, expected, x_title=_("Streak length (ties ignored)")
        ),
        "flat_bets_figure": charts.flat_bets_figure(x, curves),
    }


def _streaks(ended: Counter[int], rates: dict[str, float]) -> tuple[list[str], list[int], list[float]]:
    observed = [0] * LONGEST_STREAK
    for length, n in ended.items():
        observed[min(length, LONGEST_STREAK) - 1] += n
    expected = expected_streaks(sum(ended.values()), rates, LONGEST_STREAK)
    labels = [str(n) for n in range(1, LONGEST_STREAK)] + [f"{LONGEST_STREAK}+"]
    return labels, observed, expected
