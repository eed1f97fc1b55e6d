"""Reviewer statistics and exports: which rounds a reviewer asked for, and the report.

The statistics themselves are in :mod:`tables.game.review`; this module loads rounds
by table and date range, groups them by shoe, and builds the charts.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any

from django import forms
from django.conf import settings
from django.core.cache import cache
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..game.bets import BetType
from ..game.outcome import Winner
from ..game.review import (
    Frequencies,
    expected_streaks,
    flat_bet_curve,
    frequencies,
    full_shoe_rates,
    streak_lengths,
)
from ..labels import bet_label
from ..models import Round, RoundAudit, Shoe, Table
from ..pages import charts
from ..selectors import played_round, round_to_data

LONGEST_STREAK = 8  # streak lengths shown one by one; the last bucket is "8 or more"
CURVE_POINTS = 2000  # flat-bet curves are thinned to about this many points


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
    chi-square tests, flagged shoes, streak lengths, flat-bet curves."""
    rounds = [r for r in selection.rounds() if not r.voided]  # voided rounds void all pays and plays
    by_shoe: dict[int, list[Round]] = {}
    for r in rounds:
        by_shoe.setdefault(r.shoe_id, []).append(r)
    shoes = []
    for shoe_rounds in by_shoe.values():
        shoe = shoe_rounds[0].shoe
        result = frequencies([played_round(r) for r in shoe_rounds], full_shoe_rates(shoe.decks))
        shoes.append(ShoeReport(shoe, result, result.flagged(selection.threshold)))
    decks = {r.shoe.decks for r in rounds} or {8}
    rates = full_shoe_rates(decks.pop() if len(decks) == 1 else 8)
    overall = frequencies([played_round(r) for r in rounds], rates)
    streaks = [n for shoe_rounds in by_shoe.values() for n in streak_lengths(Winner(r.winner) for r in shoe_rounds)]
    return {
        "rounds": len(rounds),
        "overall": overall,
        "shoes": shoes,
        "flagged": [s for s in shoes if s.flagged],
        "streaks": _streaks(streaks, rates),
        "flat_bets": _flat_bets(rounds),
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
        "flat_bets_figure": charts.flat_bets_figure(x, {bet_label(bet): curve for bet, curve in curves.items()}),
    }


def _streaks(streaks: list[int], rates: dict[str, float]) -> tuple[list[str], list[int], list[float]]:
    observed = [0] * LONGEST_STREAK
    for n in streaks:
        observed[min(n, LONGEST_STREAK) - 1] += 1
    expected = expected_streaks(len(streaks), rates, LONGEST_STREAK)
    labels = [str(n) for n in range(1, LONGEST_STREAK)] + [f"{LONGEST_STREAK}+"]
    return labels, observed, expected


def _flat_bets(rounds: list[Round]) -> tuple[list[int], dict[str, list[float]]]:
    """Units won or lost by one unit on every round, per bet (by its code), every ``step``
    rounds (a curve of at most CURVE_POINTS points)."""
    step = max(1, len(rounds) // CURVE_POINTS)
    curves = {}
    for bet in BetType:
        pays = (r.bets.get(bet.value, {}).get("pays") for r in rounds)
        curves[bet.value] = flat_bet_curve(pays)[step - 1 :: step]
    return list(range(step, len(rounds) + 1, step)), curves


# --- Kept reports: the periodic task computes the whole-history reports (all tables, and
# each table) ahead, so a reviewer's first look at a large history is instant.


def _kept_key(table: Table | None) -> str:
    return f"review-report:{table.slug if table else '*'}"


def _keepable(selection: Selection) -> bool:
    """Only the whole history at the default threshold is computed ahead."""
    return (selection.start, selection.end, selection.threshold) == (None, None, settings.REVIEW_P_THRESHOLD)


def reports_refresh() -> int:
    """Compute and keep the whole-history report of all tables and of each table.
    Returns how many were kept."""
    threshold = settings.REVIEW_P_THRESHOLD
    selections = [Selection(None, None, None, threshold)]
    selections += [Selection(table, None, None, threshold) for table in Table.objects.order_by("name")]
    for selection in selections:
        kept = {"report": report(selection), "computed_at": timezone.now()}
        cache.set(_kept_key(selection.table), kept, timeout=3 * settings.REVIEW_REFRESH_SECONDS)
    return len(selections)


def report_kept(selection: Selection) -> dict[str, Any] | None:
    """The kept report of this selection with when it was computed, if there is one."""
    if not _keepable(selection):
        return None
    try:
        return cache.get(_kept_key(selection.table))
    except Exception:
        return None  # the page computes it then


EXPORT_FIELDS = [
    "id", "table", "shoe", "number", "created_at", "dealer", "player_cards", "banker_cards",
    "player_score", "banker_score", "winner", "player_pair", "banker_pair", "perfect_pair",
    "player_natural", "banker_natural", "voided", "void_reason", "voided_by", "voided_at", "audit", "bets",
]  # fmt: skip


def audit_to_data(event: RoundAudit) -> dict[str, Any]:
    """An audit event as the exports give it: what, who, when, why."""
    return {"action": event.action, "by": event.username, "at": event.at.isoformat(), "reason": event.reason}


def _export_rounds(selection: Selection) -> Iterator[Round]:
    """The selection's rounds with their audit events (prefetched a chunk at a time)."""
    return selection.rounds().prefetch_related("audit_events").iterator(chunk_size=2000)


def export_row(r: Round) -> dict[str, Any]:
    data = round_to_data(r)
    return {
        **{k: data[k] for k in ("id", "shoe", "number", "created_at", "dealer", "winner", "voided", "void_reason")},
        "table": r.shoe.table.slug,
        "player_cards": data["player_cards"],
        "banker_cards": data["banker_cards"],
        "player_score": r.player_score,
        "banker_score": r.banker_score,
        "player_pair": r.player_pair,
        "banker_pair": r.banker_pair,
        "perfect_pair": r.perfect_pair,
        "player_natural": r.player_natural,
        "banker_natural": r.banker_natural,
        "voided_by": r.voided_by.get_username() if r.voided_by else None,
        "voided_at": r.voided_at.isoformat() if r.voided_at else None,
        "audit": [audit_to_data(event) for event in r.audit_events.all()],
        "bets": data["bets"],
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
    """CSV text, a line at a time (streamed: a range may hold many rounds). Cards are
    space-separated codes, bets one ``bet=result:pays`` item each; text that a
    spreadsheet would read as a formula is neutralised (:func:`csv_cell`)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=EXPORT_FIELDS)
    writer.writeheader()
    for r in _export_rounds(selection):
        row = export_row(r)
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
    """A JSON array of rounds, streamed one round at a time."""
    yield "["
    for i, r in enumerate(_export_rounds(selection)):
        yield ("," if i else "") + json.dumps(export_row(r))
    yield "]"
