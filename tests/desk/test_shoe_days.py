"""Reviewer statistics that stay flat with history (issue 33): each shoe's day is kept as
its rounds are recorded and voided, the replay rebuilds the same rows from the rounds,
and the review page sums them into exactly what reading every round gives."""

from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.test import Client
from django.utils import timezone

from tables import services
from tables.desk import review
from tables.game.bets import BetType
from tables.game.outcome import Winner
from tables.game.review import FlatBetCurves, Tally, full_shoe_rates, streak_lengths
from tables.game.shoe import DealingShoe
from tables.models import Round, ShoeDay, ShoeTotal, Table, TableDay
from tables.selectors import PLAYED_FIELDS, played_round
from tables.services import shoe_days
from tables.services.shoe_days import history_sums_rebuild, shoe_days_rebuild
from tests.concurrency import at_once
from tests.html import find, find_all

MIDNIGHT = datetime(2026, 11, 24, tzinfo=timezone.get_default_timezone()) + timedelta(days=1)


def deal(table: Table, rounds: int, seed: int, *, at: Iterator[datetime] | None = None) -> list[Round]:
    """``rounds`` rounds of a new shoe dealt by the game core and recorded through the
    service, each at the next time of ``at`` (else now)."""
    services.shoe_start(table=table)
    dealing, recorded = DealingShoe.shuffled(rng=random.Random(seed)), []
    for _ in range(rounds):
        outcome = dealing.deal()
        cards = {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}
        with mock.patch("django.utils.timezone.now", return_value=next(at) if at else timezone.now()):
            recorded.append(services.round_record(table=table, **cards).round)
    return recorded


def across_midnight(rounds: int) -> Iterator[datetime]:
    """Times a minute apart, the middle round's at midnight."""
    return (MIDNIGHT + timedelta(minutes=n - rounds // 2) for n in range(rounds))


def kept_rows() -> list[dict[str, Any]]:
    return list(
        ShoeDay.objects.order_by("shoe_id", "day").values(
            *(f.name for f in ShoeDay._meta.concrete_fields if f.name != "id")
        )
    )


def from_the_rounds(rounds: QuerySet[Round], threshold: float) -> dict[str, Any]:
    """The review as the rounds give it, one by one: the reference the sums must meet."""
    overall, streaks, per_shoe = Tally(), [], {}
    curves = FlatBetCurves([bet.value for bet in BetType], step=1)
    played = rounds.filter(voided=False).order_by("shoe__table__slug", "shoe__number", "number")
    for r in played.values_list("shoe_id", "shoe__decks", "bets", *PLAYED_FIELDS, named=True):
        tally, winners, _ = per_shoe.setdefault(r.shoe_id, (Tally(), [], r.shoe__decks))
        tally.add(played_round(r))
        overall.add(played_round(r))
        winners.append(Winner(r.winner))
        curves.add({bet: r.bets.get(bet, {}).get("pays") for bet in curves.totals})
    flagged = 0
    for tally, winners, decks in per_shoe.values():
        streaks += streak_lengths(winners)
        flagged += tally.frequencies(full_shoe_rates(decks)).flagged(threshold)
    return {"rounds": overall.rounds, "counts": +overall.counts, "streaks": sorted(streaks), "flagged": flagged,
            "curves": curves.curves}  # fmt: skip


def summed(selection: review.Selection) -> dict[str, Any]:
    return summed_report(review.report(selection))


def summed_report(report: dict[str, Any]) -> dict[str, Any]:
    _, observed, _ = report["streaks"]
    return {
        "rounds": report["rounds"],
        "counts": +Tally(report["rounds"], {row.event: row.observed for row in report["overall"].rows}).counts,
        "streak_chart": observed,
        "flagged": report["flagged"],
        "curves": report["flat_bets"][1],
    }


def chart_of(streaks: list[int]) -> list[int]:
    observed = [0] * review.LONGEST_STREAK
    for n in streaks:
        observed[min(n, review.LONGEST_STREAK) - 1] += 1
    return observed


def test_a_shoe_day_is_kept_as_each_round_is_recorded_and_counted_again_when_one_is_voided(
    baccarat_1, staff_reviewer: User
) -> None:
    table, _ = baccarat_1
    rounds = deal(table, 30, seed=1)
    [day] = ShoeDay.objects.all()
    assert day.rounds == 30 and day.banker + day.player + day.tie == 30
    assert day.day == timezone.localdate()
    services.round_void(round_=rounds[4], reason="card misread", user=staff_reviewer)
    day.refresh_from_db()
    assert day.rounds == 29
    recorded = kept_rows()
    assert shoe_days_rebuild() == 1
    assert kept_rows() == recorded  # the replay gives the rows that recording kept


def test_a_shoe_dealt_across_midnight_keeps_a_row_each_day_and_the_replay_gives_the_same_rows(
    baccarat_1, staff_reviewer: User
) -> None:
    table, _ = baccarat_1
    rounds = deal(table, 40, seed=2, at=across_midnight(40))
    deal(table, 20, seed=3)
    services.round_void(round_=rounds[25], reason="misdeal", user=staff_reviewer)
    assert [(d.shoe.number, d.day.isoformat(), d.rounds) for d in ShoeDay.objects.order_by("shoe__number", "day")] == [
        (1, "2026-11-24", 20), (1, "2026-11-25", 19), (2, timezone.localdate().isoformat(), 20),
    ]  # fmt: skip
    recorded = kept_rows()
    ShoeDay.objects.all().delete()
    assert shoe_days_rebuild() == 3 and kept_rows() == recorded


@pytest.mark.parametrize(
    "days", [(None, None), ("2026-11-24", "2026-11-25"), ("2026-11-25", None), (None, "2026-11-24")]
)
def test_the_review_summed_from_shoe_days_is_what_the_rounds_give_one_by_one(
    baccarat_1, staff_reviewer: User, days: tuple[str | None, str | None]
) -> None:
    table, _ = baccarat_1
    for seed in range(3):
        deal(table, 70, seed=10 + seed, at=across_midnight(70))  # each shoe split at midnight
    services.round_void(round_=Round.objects.order_by("pk")[100], reason="misread", user=staff_reviewer)
    start, end = (datetime.fromisoformat(d).date() if d else None for d in days)
    selection = review.Selection(None, start, end, threshold=0.5)  # a threshold that flags some shoes
    reference = from_the_rounds(selection.rounds(), threshold=0.5)
    got = summed(selection)
    assert got["rounds"] == reference["rounds"] > 0 and got["counts"] == reference["counts"]
    assert got["streak_chart"] == chart_of(reference["streaks"])  # runs joined across midnight
    assert got["flagged"] == reference["flagged"] > 0
    assert got["curves"] == reference["curves"]  # few rounds: drawn round by round


def test_a_long_history_draws_the_flat_bet_curves_a_point_a_shoe_day(
    baccarat_1, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, _ = baccarat_1
    for seed in range(3):
        deal(table, 30, seed=20 + seed)
    monkeypatch.setattr(review, "CURVE_ROUNDS", 50)
    selection = review.Selection(None, None, None, threshold=0.01)
    x, curves = review.report(selection)["flat_bets"]
    assert x == [30, 60, 90]
    reference = from_the_rounds(selection.rounds(), threshold=0.01)["curves"]
    assert {bet: [line[29], line[59], line[89]] for bet, line in reference.items()} == curves
    monkeypatch.setattr(review, "CURVE_DAYS", 2)  # every other day, the last one kept
    today = review.Selection(None, timezone.localdate(), None, threshold=0.01)
    x, curves = review.report(today)["flat_bets"]
    assert x == [30, 90] and {bet: [line[29], line[89]] for bet, line in reference.items()} == curves
    # All history of more shoe days than CURVE_DAYS: a point after each table's day.
    x, curves = review.report(selection)["flat_bets"]
    assert x == [90] and {bet: [line[89]] for bet, line in reference.items()} == curves


def test_the_shoes_are_listed_a_page_at_a_time_flagged_first(
    client: Client, staff_reviewer: User, baccarat_1, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, _ = baccarat_1
    for seed in range(2):
        deal(table, 20, seed=30 + seed)
    services.shoe_start(table=table)
    for i, suit in enumerate("SHDCSHDCSHDCSHDC"):  # sixteen Banker naturals in a row: flagged
        services.round_record(
            table=table, player=[f"2{suit}", f"3{suit}"], banker=[f"9{suit}", f"{'TJQK'[i // 4]}{suit}"]
        )
    monkeypatch.setattr(review, "SHOES_A_PAGE", 2)
    client.force_login(staff_reviewer)
    first = client.get("/review/", {"table": "baccarat-1"}).content.decode()
    listed = [
        a.attrs["href"] for a in find_all(find(first, "section", id="shoes").html, "a") if "shoe=" in a.attrs["href"]
    ]
    assert listed == ["/tables/baccarat-1/?shoe=3", "/tables/baccarat-1/?shoe=1"]
    pager = find(first, "nav", id="shoes-pages")
    assert "Shoes 1–2 of 3" in pager.text
    [later] = find_all(pager.html, "a", rel="next")
    assert later.attrs["href"] == "?table=baccarat-1&page=2#shoes"
    second = client.get("/review/", {"table": "baccarat-1", "page": "2"}).content.decode()
    assert [
        a.attrs["href"] for a in find_all(find(second, "section", id="shoes").html, "a") if "shoe=" in a.attrs["href"]
    ] == ["/tables/baccarat-1/?shoe=2"]
    assert "56 rounds" in second  # the overall figures are the whole selection's, on every page


@pytest.mark.django_db(transaction=True)
def test_two_rounds_voided_at_once_in_one_shoe_day_are_both_counted_out(baccarat_1, staff_reviewer: User) -> None:
    """Each void counts its day again from the rounds: two at once must not each count
    before the other's commit (the later write would bring a voided round back)."""
    table, _ = baccarat_1
    rounds = iter(deal(table, 12, seed=40)[:2])
    taking, both_counting = threading.Lock(), threading.Barrier(2)
    recount = shoe_days.day_recount

    def counting_together(**day: Any) -> None:
        # Wait for the other void, if it can get here (with the shoe locked, it cannot).
        with contextlib.suppress(threading.BrokenBarrierError):
            both_counting.wait(timeout=1)
        recount(**day)

    def void_the_next() -> None:
        with taking:
            round_ = next(rounds)
        services.round_void(round_=round_, reason="misdeal", user=staff_reviewer)

    with mock.patch.object(shoe_days, "day_recount", counting_together):
        at_once(2, void_the_next)
    [day] = ShoeDay.objects.all()
    assert day.rounds == 10, "a void counted the day before the other's commit: one was lost"
    recorded = kept_rows()
    shoe_days_rebuild()
    assert kept_rows() == recorded


def kept_sums() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The sums of all history as kept: every table's day and every shoe's total."""

    def rows(model: Any, order: tuple[str, ...]) -> list[dict[str, Any]]:
        return list(model.objects.order_by(*order).values(*(f.attname for f in model._meta.concrete_fields)))

    return [{**row, "id": None} for row in rows(TableDay, ("table_id", "day", "decks"))], rows(ShoeTotal, ("shoe_id",))


def a_history(staff_reviewer: User) -> list[Table]:
    """Two tables: shoes split at midnight, whole ones, a flagged one, voids on both
    sides of a seam and one emptying a shoe's only round of a day."""
    one, _ = services.table_create(slug="baccarat-1", name="Baccarat 1")
    two, _ = services.table_create(slug="baccarat-2", name="Baccarat 2")
    split = deal(one, 70, seed=50, at=across_midnight(70))
    deal(one, 40, seed=51)
    services.shoe_start(table=two)
    for i, suit in enumerate("SHDCSHDCSHDC"):  # twelve Banker naturals in a row: flagged
        services.round_record(
            table=two, player=[f"2{suit}", f"3{suit}"], banker=[f"9{suit}", f"{'TJQK'[i // 4]}{suit}"]
        )
    deal(two, 35, seed=52, at=across_midnight(35))
    last = deal(one, 2, seed=53, at=iter([MIDNIGHT - timedelta(minutes=1), MIDNIGHT + timedelta(minutes=1)]))
    for round_ in (split[10], split[34], split[35], split[60], last[1]):
        services.round_void(round_=round_, reason="misdeal", user=staff_reviewer)
    return [one, two]


def test_the_sums_of_all_history_are_kept_as_rounds_are_recorded_and_voided_and_the_replay_gives_the_same(
    db, staff_reviewer: User
) -> None:
    a_history(staff_reviewer)
    tables, totals = kept_sums()
    assert sum(day["rounds"] for day in tables) == Round.objects.filter(voided=False).count()
    assert sum(day["shoes"] for day in tables) == 5 == sum(total["played"] > 0 for total in totals)
    history_sums_rebuild()
    assert kept_sums() == (tables, totals)


@pytest.mark.parametrize("table", [None, "baccarat-1", "baccarat-2"])
def test_the_review_over_all_history_gives_what_its_shoe_days_give_page_by_page(
    db, staff_reviewer: User, monkeypatch: pytest.MonkeyPatch, table: str | None
) -> None:
    """All history is read from the sums of each table's day and each shoe's total; a
    date range over the same rounds from the shoe days: the same report, page by page."""
    a_history(staff_reviewer)
    monkeypatch.setattr(review, "SHOES_A_PAGE", 2)
    chosen = Table.objects.filter(slug=table).first()
    everything = review.Selection(chosen, None, None, threshold=0.2)
    same_rounds = review.Selection(chosen, MIDNIGHT.date() - timedelta(days=400), None, threshold=0.2)
    assert everything.everything and not same_rounds.everything

    def read(report: dict[str, Any]) -> dict[str, Any]:
        return {
            **summed_report(report),
            "shoes": [(s.shoe.table.slug, s.shoe.number, s.flagged, s.frequencies.lowest_p) for s in report["shoes"]],
            "listed": (report["shoes_page"].paginator.count, report["shoes_page"].paginator.num_pages),
        }

    pages = review.report(everything)["shoes_page"].paginator.num_pages
    assert pages > 1 or table == "baccarat-2"  # its two shoes on one page
    for page in range(1, pages + 1):
        assert read(review.report(everything, page)) == read(review.report(same_rounds, page))
    assert everything.played_rounds() == same_rounds.played_rounds()
    if table != "baccarat-1":
        assert review.report(everything)["shoes"][0].flagged  # the Banker naturals' shoe, first
