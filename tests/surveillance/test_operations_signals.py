"""Dealer and operations signals (issue 35): each event counted on its dealer's day where
it happens (a round, a void, a cancel, a refused post, a refused plaintext), and an alarm
past the configured rates, raised once."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables import services
from tables.game.operations_signals import OperationsRates, Rate
from tables.models import Alarm, AlarmFinding, AlarmNote, DealerDay, PlaintextRefusal, Round, RoundCancel, Shoe
from tables.services.dealer_days import dealer_days_rebuild
from tables.surveillance import webhooks
from tables.surveillance.alarms import alarm_note
from tests.dealers import ROUND_1, Dealer, Deck, burned, first_round

NATURAL = {"player": ["9H", "KS"], "banker": ["8C", "QD"]}
RATES = OperationsRates(
    voids=Rate(10, 2), cancels=Rate(10, 2), refusals=Rate(20, 3), auth_refusals=Rate(2), critical_factor=3
)


def naturals(n: int) -> list[dict[str, list[str]]]:
    """n different natural rounds (no card more than 8 times in a shoe)."""
    return [
        {"player": [f"2{s}", f"3{s}"], "banker": [f"9{s}", f"{'TJQK'[i // 4 % 4]}{s}"]}
        for i, s in enumerate("SHDC" * (n // 4 + 1))
    ][:n]


def today():
    return timezone.localdate(timezone.now(), timezone.get_default_timezone())


def counts(**where) -> list[tuple]:
    rows = DealerDay.objects.filter(**where).order_by("dealer_name")
    return list(
        rows.values_list("dealer_name", "rounds", "voids", "cancels", "refusals", "refused", "auth_refusals", "shoes")
    )


def test_each_round_recorded_counts_on_its_dealer_s_day_and_a_shoe_s_first_round_counts_a_shoe(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    services.round_record(table=table, **NATURAL)
    services.round_record(table=table, **NATURAL, dealer="Bea")
    services.round_record(table=table, **NATURAL)  # Bea is the table's dealer now
    assert counts() == [("Anna", 1, 0, 0, 0, {}, 0, 1), ("Bea", 2, 0, 0, 0, {}, 0, 0)]
    assert set(DealerDay.objects.values_list("day", flat=True)) == {today()}


def test_a_void_counts_on_the_voided_round_s_dealer_and_a_cancel_on_the_round_s_dealer(
    baccarat_1, desk_reviewer, django_capture_on_commit_callbacks
) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    first = services.round_record(table=table, **NATURAL).round
    services.round_record(table=table, **NATURAL, dealer="Bea")
    with django_capture_on_commit_callbacks(execute=True):
        services.round_void(round_=first, reason="card exposed", user=desk_reviewer)
        services.card_deal(table=table, card="9H", dealer="Cleo")
        services.round_cancel(table=table, reason="misdeal", user=desk_reviewer)
    assert counts() == [("Anna", 1, 1, 0, 0, {}, 0, 1), ("Bea", 1, 0, 0, 0, {}, 0, 0), ("Cleo", 0, 0, 1, 0, {}, 0, 0)]
    assert not Alarm.objects.exists()  # one of each: under every minimum


def test_a_refused_post_counts_by_its_reason_on_the_table_s_dealer_and_changes_nothing_else(
    open_dealer: Dealer, django_capture_on_commit_callbacks
) -> None:
    assert open_dealer.round(**NATURAL).status_code == 201
    before = (list(Round.objects.values_list("pk", "number")), list(Shoe.objects.values_list("last_number", "dealt")))
    with django_capture_on_commit_callbacks(execute=True):
        assert open_dealer.round(["9H"], ["8C", "QD"]).status_code == 422  # invalid
        assert open_dealer.round(["9H", "KS", "2C"], ["8C", "QD"]).status_code == 422  # illegal: a natural stands
        assert open_dealer.round(["9H", "KS"], ["8C", "QD"], round=5).status_code == 409  # round_conflict
        assert open_dealer.post("rounds", raw="{").status_code == 422  # unreadable
        assert open_dealer.round(["9H", "KS"], ["8C", "QD"], round=7).status_code == 409
        assert open_dealer.post("cards", {"card": "9H", "index": 3}).status_code == 409  # a card post
    refused = {"invalid": 1, "illegal": 1, "round_conflict": 3, "unreadable": 1}
    assert counts() == [("Anna", 1, 0, 0, 6, refused, 0, 1)]
    after = (list(Round.objects.values_list("pk", "number")), list(Shoe.objects.values_list("last_number", "dealt")))
    assert after == before and not Alarm.objects.exists()


def test_a_post_without_the_table_s_token_is_not_the_dealer_s_refusal(open_dealer: Dealer) -> None:
    assert open_dealer.post("rounds", NATURAL, token="wrong").status_code == 401
    assert open_dealer.client.post("/api/tables/nowhere/rounds", NATURAL, content_type="application/json").status_code
    assert counts() == []


def test_a_refused_post_answers_even_when_it_cannot_be_counted(open_dealer: Dealer, monkeypatch) -> None:
    def broken(**_: object) -> None:
        raise RuntimeError("the counter is down")

    monkeypatch.setattr("tables.services.dealer_days.dealer_day_add", broken)
    response = open_dealer.round(["9H", "KS", "2C"], ["8C", "QD"])
    assert response.status_code == 422 and response.json()["errors"][0]["field"]
    assert counts() == []


def test_refused_plaintexts_count_as_authentication_refusals(
    dealer: Dealer, django_capture_on_commit_callbacks
) -> None:
    deck = Deck.of("3H 2S 2D 2C 9H AH KS 7C")
    assert dealer.post("shoes", {"commitments": deck.hashes}).status_code == 201
    burned(dealer, deck)
    with django_capture_on_commit_callbacks(execute=True):
        assert first_round(dealer, deck, plaintexts=[deck[5], deck[6], deck[9], deck[8]]).status_code == 422
    assert PlaintextRefusal.objects.count() == 1
    assert counts() == [("Anna", 0, 0, 0, 1, {"illegal": 1}, 1, 0)]
    assert first_round(dealer, deck).status_code == 201
    assert counts() == [("Anna", 1, 0, 0, 1, {"illegal": 1}, 1, 1)]
    assert ROUND_1  # the round the deck deals


def test_a_refused_reveal_counts_and_past_the_day_s_allowance_alarms(
    dealer: Dealer, rates, django_capture_on_commit_callbacks
) -> None:
    deck = Deck.of("3H 2S 2D 2C 9H AH KS 7C")
    assert dealer.post("shoes", {"commitments": deck.hashes}).status_code == 201
    burned(dealer, deck)
    assert first_round(dealer, deck).status_code == 201
    assert dealer.post("shoes/current/end").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        wrong = {"9": deck[10], "10": deck[9]}  # two refused: within 2 a day
        assert dealer.post("shoes/1/reveal", {"plaintexts": wrong}).status_code == 422
    assert counts()[0][6] == 2 and not Alarm.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        assert dealer.post("shoes/1/reveal", {"plaintexts": {"11": deck[12]}}).status_code == 422
    assert counts()[0][6] == 3
    assert sorted(AlarmFinding.objects.values_list("key", "severity")) == [
        (f"ops:baccarat-1:{today().isoformat()}:Anna:auth_refusals", "warning"),
        (f"ops:baccarat-1:{today().isoformat()}:auth_refusals", "warning"),
    ]


def test_recording_a_round_costs_one_statement_more_whether_first_of_the_day_or_not(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)

    def recorded() -> list[str]:
        with CaptureQueriesContext(connection) as queries:
            services.round_record(table=table, **NATURAL)
        return [q["sql"] for q in queries if "tables_dealerday" in q["sql"]]

    assert len(recorded()) == len(recorded()) == 1


@pytest.fixture
def rates(settings) -> OperationsRates:
    settings.OPERATIONS_RATES = RATES
    return RATES


def voided(table, user, rounds: int, voids: int, capture) -> None:
    services.shoe_start(table=table)
    made = [services.round_record(table=table, **cards).round for cards in naturals(rounds)]
    for round_ in made[:voids]:
        with capture(execute=True):
            services.round_void(round_=round_, reason="misread", user=user)


def test_voids_past_the_rate_find_the_dealer_and_the_table_in_one_alarm_of_the_table(
    baccarat_1, desk_reviewer, rates, django_capture_on_commit_callbacks
) -> None:
    table, _ = baccarat_1
    voided(table, desk_reviewer, rounds=12, voids=1, capture=django_capture_on_commit_callbacks)
    assert not Alarm.objects.exists()  # 1 in 12 is past 10 per 100, but under the minimum of 2
    voided(table, desk_reviewer, rounds=0, voids=0, capture=django_capture_on_commit_callbacks)
    first, second = Round.objects.filter(voided=False).order_by("number")[:2]
    with django_capture_on_commit_callbacks(execute=True):
        services.round_void(round_=first, reason="misread", user=desk_reviewer)  # 2 in 12: 16.67 per 100
    alarms = list(AlarmFinding.objects.order_by("key").values_list("kind", "severity", "key", "dealer_name"))
    day = today().isoformat()
    assert Alarm.objects.get().count == 2  # one alarm of the table's operations, its two findings
    assert alarms == [
        ("operations", "warning", f"ops:baccarat-1:{day}:Anna:voids", "Anna"),
        ("operations", "warning", f"ops:baccarat-1:{day}:voids", ""),
    ]
    evidence = AlarmFinding.objects.get(dealer_name="Anna").evidence
    assert evidence == {
        "test": "rate", "signal": "voids", "count": 2, "rounds": 12, "rate": 16.67, "configured_rate": 10,
        "minimum": 2, "per": 100, "out_of": 12, "day": day, "dealer": "Anna", "scope": "dealer",
    }  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        services.round_void(round_=second, reason="misread", user=desk_reviewer)  # 3 in 12: still a warning
    assert AlarmFinding.objects.count() == 2 and Alarm.objects.get().count == 2  # once only


def test_past_three_times_the_rate_the_findings_are_critical(
    baccarat_1, desk_reviewer, rates, django_capture_on_commit_callbacks
) -> None:
    table, _ = baccarat_1
    voided(table, desk_reviewer, rounds=6, voids=2, capture=django_capture_on_commit_callbacks)  # 33 per 100
    assert sorted(AlarmFinding.objects.values_list("severity", flat=True)) == ["critical", "critical"]
    assert AlarmFinding.objects.filter(key__endswith=":voids:critical", dealer_name="Anna").exists()
    assert Alarm.objects.get().severity == "critical"


def test_cancels_and_refusals_past_their_rates_alarm_and_not_below_their_minimum(
    open_dealer: Dealer, rates, desk_reviewer, django_capture_on_commit_callbacks
) -> None:
    table = open_dealer.table
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(2):
            assert open_dealer.round(["9H", "KS", "2C"], ["8C", "QD"]).status_code == 422
    assert not Alarm.objects.exists()  # 2 refusals: under the minimum of 3
    with django_capture_on_commit_callbacks(execute=True):
        assert open_dealer.round(["9H", "KS", "2C"], ["8C", "QD"]).status_code == 422
        services.card_deal(table=table, card="9H")
        services.round_cancel(table=table, reason="misdeal", user=desk_reviewer)
        services.card_deal(table=table, card="9H")
        services.round_cancel(table=table, reason="misdeal", user=desk_reviewer)
    signals = sorted(AlarmFinding.objects.values_list("evidence__signal", "evidence__scope", "severity"))
    assert signals == [
        ("cancels", "dealer", "critical"), ("cancels", "table", "critical"),
        ("refusals", "dealer", "critical"), ("refusals", "table", "critical"),
    ]  # fmt: skip


def test_the_replay_counts_the_history_kept_as_the_events_did(
    baccarat_1, desk_reviewer, dealer: Dealer, django_capture_on_commit_callbacks
) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    made = [services.round_record(table=table, **NATURAL, dealer=name).round for name in ("Anna", "Bea", "Bea")]
    services.round_void(round_=made[1], reason="misread", user=desk_reviewer)
    services.card_deal(table=table, card="9H")
    services.round_cancel(table=table, reason="misdeal", user=desk_reviewer)
    services.shoe_start(table=table)
    services.round_record(table=table, **NATURAL)
    services.dealer_day_refused(table=table, reason="illegal")  # Bea's: kept nowhere else, carried over
    kept = counts()
    DealerDay.objects.update(rounds=0, voids=0, cancels=0, shoes=0)
    call_command("dealer_days_rebuild", stdout=io.StringIO())
    assert counts() == kept == [("Anna", 1, 0, 0, 0, {}, 0, 1), ("Bea", 3, 1, 1, 1, {"illegal": 1}, 0, 1)]
    DealerDay.objects.all().delete()
    assert dealer_days_rebuild() == 2
    assert counts() == [("Anna", 1, 0, 0, 0, {}, 0, 1), ("Bea", 3, 1, 1, 0, {}, 0, 1)]
    assert RoundCancel.objects.count() == 1


def test_a_check_that_fails_never_fails_the_void_that_counted(
    baccarat_1, desk_reviewer, monkeypatch, caplog, django_capture_on_commit_callbacks
) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    round_ = services.round_record(table=table, **NATURAL).round

    def broken(**_: object) -> None:
        raise RuntimeError("surveillance is down")

    monkeypatch.setattr("tables.services.dealer_days.operations_check", broken)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.round_void(round_=round_, reason="misread", user=desk_reviewer).voided
    assert counts()[0][2] == 1 and "not checked" in caplog.text


def test_a_check_reads_the_day_once_and_the_alarms_once_past_a_rate(
    baccarat_1, desk_reviewer, rates, django_capture_on_commit_callbacks
) -> None:
    table, _ = baccarat_1
    voided(table, desk_reviewer, rounds=6, voids=2, capture=django_capture_on_commit_callbacks)
    assert AlarmFinding.objects.count() == 2
    with CaptureQueriesContext(connection) as queries:
        assert services.operations_check(table_id=table.pk, dealer="Anna", day=today()) == []
    assert len(queries) == 4  # the table's day, the dealer's, the table's slug, the alarms already raised


def test_a_flood_of_new_dealer_names_is_one_alarm_with_its_count_and_one_webhook_delivery(
    baccarat_1, desk_reviewer, rates, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    """Issue 49, item 5: a new dealer name, one card and a cancel, three times, raised a
    critical alarm; 150 names gave 151 alarms, each sent to every webhook. Alarms of one
    kind on one table now gather into the one not yet resolved: its count, each finding
    kept, its latest evidence; the webhooks get the episode once."""
    table, _ = baccarat_1
    queued: list[int] = []
    monkeypatch.setattr(
        webhooks, "alarm_deliveries_queue", lambda *, alarm_pk, event="alarm.raised": queued.append(alarm_pk) or 1
    )
    services.shoe_start(table=table)
    for n in range(30):
        with django_capture_on_commit_callbacks(execute=True):
            for _ in range(3):
                services.card_deal(table=table, card="9H", dealer=f"Dealer {n}")
                services.round_cancel(table=table, reason="misdeal")
    [alarm] = Alarm.objects.all()
    findings = AlarmFinding.objects.filter(alarm=alarm)
    assert alarm.kind == "operations" and alarm.severity == "critical" and alarm.state == "open"
    assert alarm.count == findings.count() > 30  # each dealer's, and the table's as its rate rose
    assert {f.dealer_name for f in findings} >= {f"Dealer {n}" for n in range(30)}
    assert alarm.evidence == findings.order_by("-pk").first().evidence  # the latest
    assert queued == [alarm.pk]  # one delivery, not one a finding

    # Resolved, the next finding opens a new episode, sent again.
    alarm_note(alarm=alarm, action=AlarmNote.Action.RESOLVE, note="names checked", user=desk_reviewer)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            services.card_deal(table=table, card="9H", dealer="Dealer 99")
            services.round_cancel(table=table, reason="misdeal")
    assert Alarm.objects.count() == 2 and len(queued) == 2


def test_a_warning_that_turns_critical_escalates_its_alarm(
    baccarat_1, desk_reviewer, rates, django_capture_on_commit_callbacks
) -> None:
    table, _ = baccarat_1
    voided(table, desk_reviewer, rounds=12, voids=0, capture=django_capture_on_commit_callbacks)
    rounds = list(Round.objects.filter(voided=False).order_by("number"))
    with django_capture_on_commit_callbacks(execute=True):
        for round_ in rounds[:2]:
            services.round_void(round_=round_, reason="misread", user=desk_reviewer)  # 2 in 12: a warning
    [alarm] = Alarm.objects.all()
    assert (alarm.severity, alarm.escalated_at) == ("warning", None)
    with django_capture_on_commit_callbacks(execute=True):
        for round_ in rounds[2:5]:
            services.round_void(round_=round_, reason="misread", user=desk_reviewer)  # 5 in 12: critical
    alarm.refresh_from_db()
    assert alarm.severity == "critical" and alarm.escalated_at is not None and Alarm.objects.count() == 1
