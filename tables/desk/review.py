"""Reviewer statistics: which rounds a reviewer asked for, and the report.

The statistics themselves are in :mod:`tables.game.review`; this module sums the shoe
days of a table and date range and builds the charts. The exports of the same selection
are :mod:`.exports`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date
from typing import Any, NamedTuple

from django import forms
from django.conf import settings
from django.core.paginator import Paginator
from django.db import connection
from django.db.models import Count, F, FloatField, Min, QuerySet, Sum, Window
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce, Mod, RowNumber
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..game.bets import BetType
from ..game.review import EVENTS, FlatBetCurves, Frequencies, Tally, expected_streaks, full_shoe_rates
from ..models import Round, Shoe, ShoeDay, Table
from ..pages import charts
from ..selectors import shoe_sums

LONGEST_STREAK = 8  # streak lengths shown one by one; the last bucket is "8 or more"
CURVE_POINTS = 2000  # flat-bet curves are thinned to about this many points
CURVE_ROUNDS = CURVE_POINTS  # up to this many rounds (a day of a table or so), the curves go round by round
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

    def played_rounds(self) -> int:
        """How many played rounds the range holds, from its shoe days (no round counted)."""
        return self.shoe_days().aggregate(rounds=Sum("rounds"))["rounds"] or 0

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


def report(selection: Selection, page: int | str = 1) -> dict[str, Any]:
    """Per shoe and overall: observed frequencies against exact expectations with
    chi-square tests, flagged shoes, streak lengths, flat-bet curves; the shoes a page
    at a time, flagged first.

    Summed from the shoe days kept as rounds are recorded (:mod:`tables.services.shoe_days`),
    never from the rounds, and mostly in SQL: the counts and the curves are sums the
    database makes; Python reads a row a shoe day only for the streaks' runs, and joins the
    days only of a shoe dealt across midnight. Only a small selection's flat-bet curves
    read rounds, to draw them round by round."""
    days = selection.shoe_days()
    totals = days.aggregate(rounds=Sum("rounds"), **{event: Sum(event) for event in EVENTS})
    overall = Tally(totals["rounds"] or 0, {event: totals[event] or 0 for event in EVENTS})
    # A shoe of one day in range keeps that day's figures; one dealt across midnight is
    # joined from its days (runs across the seam, its p-value tested again).
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
    shown = Shoe.objects.select_related("table").in_bulk(list(listed.object_list))
    sums = shoe_sums(days.filter(shoe_id__in=listed.object_list))
    shoes = [
        ShoeReport(shown[i], sums[i].summary.tally.frequencies(full_shoe_rates(sums[i].decks)), i in flagged_ids)
        for i in listed.object_list
    ]
    decks = {shoe.decks for shoe in in_range} or {8}
    rates = full_shoe_rates(decks.pop() if len(decks) == 1 else 8)
    return {
        "rounds": overall.rounds,
        "overall": overall.frequencies(rates),
        "shoes": shoes,
        "shoes_page": listed,
        "flagged": len(flagged),
        "streaks": _streaks(ended, rates),
        "flat_bets": _flat_bets(selection, overall.rounds),
    }


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


def _runs_ended(days: QuerySet[ShoeDay]) -> Counter[int]:
    """The runs ended in ``days``, summed by length in the database."""
    sql, params = days.order_by().values("ended").query.sql_with_params()
    each = _JSON_EACH[connection.vendor]
    with connection.cursor() as cursor:
        summed = "SELECT runs.key, SUM(CAST(runs.value AS INTEGER))"
        cursor.execute(f"{summed} FROM ({sql}) days, {each}(days.ended) runs GROUP BY runs.key", params)
        return Counter({int(length): n for length, n in cursor.fetchall()})


def _flat_bets(selection: Selection, rounds: int) -> tuple[list[int], dict[str, list[float]]]:
    """The flat-bet curves: round by round for a selection of a few shoes, else a point
    after each shoe day (a year of history has more than a chart's points of those)."""
    bets = [bet.value for bet in BetType]
    if rounds > CURVE_ROUNDS:
        return _day_curves(selection.shoe_days(), bets)
    curves = FlatBetCurves(bets, step=max(1, rounds // CURVE_POINTS))
    for (bets_paid,) in selection.rounds().filter(voided=False).values_list("bets").iterator(chunk_size=ROWS_A_CHUNK):
        curves.add({bet: bets_paid.get(bet, {}).get("pays") for bet in curves.totals})
    return curves.kept_after, curves.curves


def _day_curves(days: QuerySet[ShoeDay], bets: list[str]) -> tuple[list[int], dict[str, list[float]]]:
    """Each bet's units won so far after each shoe day, summed by the database (running
    sums over the days in order), every how many days it takes to keep about
    CURVE_POINTS points, the last day always among them."""
    count = days.count()
    every = max(1, -(-count // CURVE_POINTS))
    order = [F("shoe__table__slug").asc(), F("shoe__number").asc(), F("day").asc()]

    def so_far(expression: Any) -> Window:
        return Window(Sum(expression), order_by=order)

    paid = {f"paid_{i}": so_far(Coalesce(Cast(KT(f"pays__{bet}"), FloatField()), 0.0)) for i, bet in enumerate(bets)}
    points = (
        days.annotate(at=Window(RowNumber(), order_by=order), rounds_so_far=so_far(F("rounds")), **paid)
        .annotate(phase=Mod("at", every))
        .filter(phase=count % every)  # the last day's phase: it is kept, and every so many before it
        .values_list("at", "rounds_so_far", *paid)
    )
    x: list[int] = []
    curves: dict[str, list[float]] = {bet: [] for bet in bets}
    for _at, rounds, *totals in sorted(points):
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
