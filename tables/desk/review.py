"""Reviewer statistics and exports: which rounds a reviewer asked for, and the report.

The statistics themselves are in :mod:`tables.game.review`; this module loads rounds
by table and date range, groups them by shoe, and builds the charts.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any

from django import forms
from django.conf import settings
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..game.bets import BetType
from ..game.review import (
    FlatBetCurves,
    Frequencies,
    Tally,
    expected_streaks,
    full_shoe_rates,
    streak_lengths,
)
from ..models import Round, RoundAudit, Shoe, Table
from ..pages import charts
from ..selectors import PLAYED_FIELDS, played_round

LONGEST_STREAK = 8  # streak lengths shown one by one; the last bucket is "8 or more"
CURVE_POINTS = 2000  # flat-bet curves are thinned to about this many points
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


def report(selection: Selection) -> dict[str, Any]:
    """Per shoe and overall: observed frequencies against exact expectations with
    chi-square tests, flagged shoes, streak lengths, flat-bet curves.

    The rounds are read as rows a chunk at a time and one shoe's are held at a time, so
    a year of history costs time, not memory (the probe saw a worker grow by 900 MiB,
    and keep it, loading 55,568 rounds as objects)."""
    played = selection.rounds().filter(voided=False)  # voided rounds void all pays and plays
    curves = FlatBetCurves([bet.value for bet in BetType], step=max(1, played.count() // CURVE_POINTS))
    overall = Tally()
    tallies: dict[int, Tally] = {}
    streaks: list[int] = []
    rows = played.values_list("shoe_id", "bets", *PLAYED_FIELDS, named=True).iterator(chunk_size=ROWS_A_CHUNK)
    for shoe_id, shoe_rows in itertools.groupby(rows, key=lambda row: row.shoe_id):
        tally = tallies[shoe_id] = Tally()
        winners = []
        for row in shoe_rows:
            played_ = played_round(row)
            tally.add(played_)
            overall.add(played_)
            winners.append(played_.winner)
            curves.add({bet: row.bets.get(bet, {}).get("pays") for bet in curves.totals})
        streaks += streak_lengths(winners)
    shoes_by_id = Shoe.objects.select_related("table").in_bulk(list(tallies))
    shoes = []
    for shoe_id, tally in tallies.items():
        shoe = shoes_by_id[shoe_id]
        tested = tally.frequencies(full_shoe_rates(shoe.decks))
        shoes.append(ShoeReport(shoe, tested, tested.flagged(selection.threshold)))
    decks = {shoe.decks for shoe in shoes_by_id.values()} or {8}
    rates = full_shoe_rates(decks.pop() if len(decks) == 1 else 8)
    return {
        "rounds": overall.rounds,
        "overall": overall.frequencies(rates),
        "shoes": shoes,
        "flagged": [s for s in shoes if s.flagged],
        "streaks": _streaks(streaks, rates),
        "flat_bets": (curves.kept_after, curves.curves),
    }


def figures(report: dict[str, Any]) -> dict[str, Any]:
    """The report's charts, in the language of the page that shows them: a kept report
    holds their numbers only (the task that keeps it has no reader's language)."""
    labels, observed, expected = report["streaks"]
    x, curves = report["flat_bets"]
    return {
        "streaks_figure": charts.observed_expected_figure(
            labels, observed, expected, x_title=_("Streak length (ties ignored)")
        ),
        "flat_bets_figure": charts.flat_bets_figure(x, curves),
    }


def _streaks(streaks: list[int], rates: dict[str, float]) -> tuple[list[str], list[int], list[float]]:
    observed = [0] * LONGEST_STREAK
    for n in streaks:
        observed[min(n, LONGEST_STREAK) - 1] += 1
    expected = expected_streaks(len(streaks), rates, LONGEST_STREAK)
    labels = [str(n) for n in range(1, LONGEST_STREAK)] + [f"{LONGEST_STREAK}+"]
    return labels, observed, expected


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
# (a round, its shoe and its table each) cost most of an export's time.
_EXPORTED = (
    "pk", "round_id", "shoe__number", "shoe__table__slug", "number", "created_at", "dealer_name",
    "player_cards", "banker_cards", "player_score", "banker_score", "winner", "player_pair", "banker_pair",
    "player_perfect_pair", "banker_perfect_pair", "player_natural", "banker_natural",
    "voided", "void_reason", "voided_by__username", "voided_at", "bets",
)  # fmt: skip


def _export_chunks(selection: Selection) -> Iterator[list[tuple[dict[str, Any], list[dict[str, Any]]]]]:
    """The selection's rounds a chunk at a time, as plain values (:data:`_EXPORTED`),
    each with its audit events: one query for a chunk's events, and the odds, which no
    export gives, never read."""
    rounds = selection.rounds().values(*_EXPORTED).iterator(chunk_size=EXPORT_CHUNK)
    while chunk := list(itertools.islice(rounds, EXPORT_CHUNK)):
        events: dict[int, list[dict[str, Any]]] = {}
        trail = RoundAudit.objects.filter(round_id__in=[r["pk"] for r in chunk]).order_by("round_id", "-at", "-pk")
        for event in trail:
            events.setdefault(event.round_id, []).append(audit_to_data(event))
        yield [(r, events.get(r["pk"], [])) for r in chunk]


def _codes(packed: str) -> list[str]:
    """A hand's card codes from its stored, packed form ("AH5SKD": AH, 5S, KD)."""
    return [packed[i : i + 2] for i in range(0, len(packed), 2)]


def export_row(r: dict[str, Any], audit: list[dict[str, Any]]) -> dict[str, Any]:
    """A round as the exports give it, from its values (the API's round object's fields,
    and where it was played, who voided it, its audit trail)."""
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
        "bets": r["bets"],
    }


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """A cell a spreadsheet shows as text: one starting with a formula character gets a
    leading apostrophe (OWASP's advice against CSV injection), so a dealer name such as
    ``=cmd|' /C calc'!A0`` is never run as a formula when a reviewer opens the export."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def export_csv_lines(selection: Selection) -> Iterator[str]:
    """CSV text, a chunk of rounds at a time (streamed: a range may hold many rounds).
    Cards are space-separated codes, bets one ``bet=result:pays`` item each; text that a
    spreadsheet would read as a formula is neutralised (:func:`csv_cell`)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=EXPORT_FIELDS)
    writer.writeheader()
    for chunk in _export_chunks(selection):
        for r, audit in chunk:
            row = export_row(r, audit)
            row["player_cards"] = " ".join(row["player_cards"])
            row["banker_cards"] = " ".join(row["banker_cards"])
            row["audit"] = " | ".join(f"{e['at']} {e['action']} by {e['by']}: {e['reason']}" for e in row["audit"])
            row["bets"] = " ".join(f"{bet}={v['result']}:{v['pays']}" for bet, v in row["bets"].items())
            writer.writerow({field: csv_cell(value) for field, value in row.items()})
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
    yield buffer.getvalue()


def export_json_chunks(selection: Selection) -> Iterator[str]:
    """A JSON array of rounds, streamed a chunk of rounds at a time."""
    first = True
    yield "["
    for chunk in _export_chunks(selection):
        rows = ",".join(json.dumps(export_row(r, audit)) for r, audit in chunk)
        yield ("" if first else ",") + rows
        first = False
    yield "]"
