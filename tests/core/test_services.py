"""round_record and friends: what they store and refuse, and side effects only after
commit (what the live push does with a change: test_live_push.py)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from tables import live, services
from tables.game.alarms import AlarmKind
from tables.game.validation import IllegalRoundError
from tables.live import Scheduler, table_group
from tables.models import Alarm, AlarmFinding, Round, Shoe, Table
from tests.concurrency import at_once
from tests.dealers import DECK, Deck
from tests.pushes import Recorder, page_opens
from tests.rounds import SEED


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_round_pushes_nothing_and_is_not_stored(baccarat_1, pushes: Recorder) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    page_opens(table_group(table.slug))
    pushes.sent.clear()
    with pytest.raises(RuntimeError), transaction.atomic():
        services.round_record(table=table, **SEED)
        raise RuntimeError("the caller's transaction fails after the round")
    assert pushes.sent == []
    assert not Round.objects.exists()


class BrokenLayer:
    """A channel layer that is down: every send fails."""

    def __init__(self) -> None:
        self.tried: list[str] = []

    def send(self, group: str, message: dict) -> None:
        self.tried.append(group)
        raise ConnectionError("channel layer down")


@pytest.mark.django_db(transaction=True)
def test_a_failed_push_never_loses_the_round(baccarat_1, monkeypatch) -> None:
    broken = BrokenLayer()
    live.install(Scheduler(runner=live.scheduler().runner, sender=broken))
    table, _ = baccarat_1
    services.shoe_start(table=table)
    page_opens(table_group(table.slug))  # a page watches: the round is rendered and sent
    recorded = services.round_record(table=table, **SEED)
    assert broken.tried, "the push reached the broken layer"
    assert Round.objects.filter(pk=recorded.round.pk).exists()
    monkeypatch.setattr("tables.pages.fragments.table_live_html", lambda *args: 1 / 0)  # a template that fails
    assert services.round_record(table=table, player=["9H", "KS"], banker=["2C", "4C"]).created
    assert Round.objects.count() == 2


def test_an_illegal_round_raises_before_anything_is_written(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    with pytest.raises(IllegalRoundError, match="player must draw on 4"):
        services.round_record(table=table, player=["AH", "3S"], banker=["6C", "QH"])
    assert not Round.objects.exists()


def test_starting_a_shoe_ends_the_open_one_once_it_has_rounds(baccarat_1) -> None:
    table, _ = baccarat_1
    first = services.shoe_start(table=table).shoe
    services.round_record(table=table, **SEED)
    second = services.shoe_start(table=table)
    first.refresh_from_db()
    assert (first.state, second.shoe.state, second.shoe.number, second.created) == ("closed", "open", 2, True)
    assert first.ended_at is not None
    assert Shoe.objects.filter(table=table, state="open").count() == 1


def test_a_start_retried_before_the_shoe_is_touched_answers_the_shoe_it_started(baccarat_1) -> None:
    """A dealer system retrying a start that timed out made an empty shoe each time,
    each ending the one before."""
    table, _ = baccarat_1
    first = services.shoe_start(table=table)
    again = services.shoe_start(table=table)
    assert (first.created, again.created, again.shoe.pk) == (True, False, first.shoe.pk)
    assert Shoe.objects.filter(table=table).count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_starts_make_one_shoe(baccarat_1) -> None:
    table, _ = baccarat_1
    started = at_once(8, lambda: services.shoe_start(table=Table.objects.get(pk=table.pk)))
    assert len(started) == 8 and sum(s.created for s in started) == 1
    assert {s.shoe.pk for s in started} == {Shoe.objects.get(table=table).pk}


def test_commitments_an_earlier_shoe_had_are_refused(baccarat_1) -> None:
    """Once the first shoe's cards are revealed, a second shoe with its commitments
    would be dealt in an order public from its start."""
    table, _ = baccarat_1
    other, _ = services.table_create(slug="baccarat-2", name="Baccarat 2")
    hashes = Deck.of(DECK).hashes
    services.shoe_start(table=table, commitments=hashes)
    with pytest.raises(services.ShoeConflictError, match="committed by shoe 1 of table baccarat-1") as refused:
        services.shoe_start(table=other, commitments=hashes)
    assert refused.value.field == "commitments[0]"
    assert not other.shoes.exists()


def test_an_earlier_shoe_s_hashes_reordered_or_mixed_with_new_ones_are_refused_and_raise_one_alarm(
    baccarat_1, django_capture_on_commit_callbacks
) -> None:
    """Issue 49, item 6: after shoe A was revealed, its 416 hashes reversed were taken
    as shoe B (whose burn card A's reveal then told), and 415 old hashes and 1 new too."""
    table, _ = baccarat_1
    a = Deck.of(DECK).hashes
    services.shoe_start(table=table, commitments=a)
    fresh = Deck.of("2S " + DECK).hashes  # the same cards, each with a plaintext of its own
    mixed = [fresh[0], *a[1:]]
    for tried, index, count in [(a[::-1], 0, 416), (mixed, 1, 415)]:
        for _ in range(2):  # a dealer system retrying the same post: one alarm
            with django_capture_on_commit_callbacks(execute=True), pytest.raises(services.ShoeConflictError) as refused:
                services.shoe_start(table=table, commitments=tried)
            assert refused.value.field == f"commitments[{index}]"
            assert f"and {count} of these commitments were" in str(refused.value)
    assert Shoe.objects.filter(table=table).count() == 1  # shoe A, still open
    [alarm] = Alarm.objects.filter(kind=AlarmKind.COMMITMENTS_REUSED)  # one alarm: the table's episode
    findings = AlarmFinding.objects.filter(alarm=alarm).order_by("pk")
    assert [(f.severity, f.evidence["field"], f.evidence["reused"]) for f in findings] == [
        ("critical", "commitments[0]", 416),
        ("critical", "commitments[1]", 415),
    ]
    assert (alarm.count, alarm.shoe_id, alarm.severity) == (2, None, "critical")
    assert findings[0].evidence["earlier_shoe"] == 1 and findings[0].evidence["earlier_card"] == 416
    assert services.shoe_start(table=table, commitments=fresh).shoe.number == 2  # all new: taken


def test_the_database_allows_one_open_shoe_per_table(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    with pytest.raises(IntegrityError), transaction.atomic():
        Shoe.objects.create(table=table, number=9, decks=8)


def test_the_database_allows_one_round_per_number_in_a_shoe(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    recorded = services.round_record(table=table, **SEED)
    duplicate = Round.objects.get(pk=recorded.round.pk)
    duplicate.pk, duplicate.round_id = None, "X" * 16
    with pytest.raises(IntegrityError), transaction.atomic():
        duplicate.save()


def test_a_voided_round_keeps_its_cards_and_records_who_and_why(baccarat_1, staff_reviewer) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    recorded = services.round_record(table=table, **SEED)
    voided = services.round_void(round_=recorded.round, reason="card misread by the scanner", user=staff_reviewer)
    assert (voided.voided, voided.void_reason, voided.voided_by) == (
        True,
        "card misread by the scanner",
        staff_reviewer,
    )
    assert voided.player_cards == "AH3S5D"
    with pytest.raises(services.RoundAlreadyVoidedError):
        services.round_void(round_=recorded.round, reason="again", user=staff_reviewer)
    with pytest.raises(ValueError, match="reason is required"):
        services.round_void(round_=services.round_record(table=table, **SEED).round, reason="  ", user=staff_reviewer)


def test_voided_rounds_still_count_as_dealt_cards(baccarat_1, staff_reviewer) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    for _ in range(8):
        recorded = services.round_record(table=table, player=["AS", "8D"], banker=["KH", "QH"])
    services.round_void(round_=recorded.round, reason="malfunction", user=staff_reviewer)
    with pytest.raises(IllegalRoundError, match="AS already dealt 8 times"):
        services.round_record(table=table, player=["AS", "8C"], banker=["KS", "QS"])


def test_the_shoe_keeps_its_dealt_cards_in_dealing_order_and_its_last_round_number(baccarat_1, staff_reviewer) -> None:
    table, _ = baccarat_1
    shoe = services.shoe_start(table=table).shoe
    first = services.round_record(table=table, player=["AH", "3S", "5D"], banker=["JC", "2H", "AD"])
    services.round_void(round_=first.round, reason="misdeal", user=staff_reviewer)
    services.round_record(table=table, player=["9S", "KD"], banker=["8H", "QC"])
    services.round_record(table=table, number=2, player=["9S", "KD"], banker=["8H", "QC"])  # a retry adds nothing
    shoe.refresh_from_db()
    assert shoe.last_number == 2
    assert shoe.dealt == "AH3S5DJC2HAD" + "9SKD8HQC"


def test_the_migration_fills_in_the_tally_of_shoes_recorded_before_it(baccarat_1) -> None:
    table, _ = baccarat_1
    shoe = services.shoe_start(table=table).shoe
    services.round_record(table=table, player=["AH", "3S", "5D"], banker=["JC", "2H", "AD"])
    services.round_record(table=table, player=["9S", "KD"], banker=["8H", "QC"])
    Shoe.objects.filter(pk=shoe.pk).update(last_number=0, dealt="")
    importlib.import_module("tables.migrations.0003_shoe_tally").fill_tallies(apps, None)
    shoe.refresh_from_db()
    assert (shoe.last_number, shoe.dealt) == (2, "AH3S5DJC2HAD9SKD8HQC")


def test_recording_the_next_round_reads_as_much_late_in_the_shoe_as_early_and_looks_no_round_up(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)

    def record(number: int) -> list[str]:
        suit, ten = "SHDC"[number % 4], "TJQK"[number // 4 % 4]
        player, banker = [f"9{suit}", f"{ten}{suit}"], [f"8{suit}", f"{ten}{suit}"]  # naturals: no third card
        with CaptureQueriesContext(connection) as queries:
            services.round_record(table=table, number=number, player=player, banker=banker)
        return [query["sql"] for query in queries]

    record(1)  # the shoe's and the table's first of the day: their sums' rows are made
    early = record(2)
    for number in range(3, 12):
        record(number)
    late = record(12)
    assert len(late) == len(early)
    assert not any('"number" =' in sql for sql in early + late)  # only a retry's number is taken


def test_a_table_paytable_override_applies_to_its_rounds(baccarat_1) -> None:
    table, _ = baccarat_1
    table.paytable = {"perfect_pair_both": 200}
    table.save()
    services.shoe_start(table=table)
    recorded = services.round_record(table=table, player=["9H", "9H"], banker=["QS", "QS"])
    assert recorded.round.bets["perfect_pair"] == {"result": "win", "pays": 200.0}


def test_a_table_with_a_broken_paytable_is_refused(db) -> None:
    with pytest.raises(ValidationError, match="unknown paytable entry"):
        Table(slug="x", name="X", paytable={"jackpot": 1}).full_clean()


@pytest.mark.parametrize(
    ("field", "value"),
    [("name", "\u202eelbaT"), ("name", "\u2800"), ("dealer_name", "Anna\u200f"), ("name", "Table\U000e0041")],
)
def test_a_table_s_names_pass_the_dealer_names_check(db, field: str, value: str) -> None:
    """Issue 49, item 10: a table name with U+202E from table_create was stored and shown."""
    names = {"name": "Baccarat 9", "dealer_name": ""} | {field: value}
    with pytest.raises(ValidationError) as refused:
        services.table_create(slug="baccarat-9", **names)
    assert list(refused.value.message_dict) == [field]
    assert not Table.objects.filter(slug="baccarat-9").exists()
