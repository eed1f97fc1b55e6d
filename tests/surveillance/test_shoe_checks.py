"""Shoe surveillance after each round (issue 35): the checks run in the background after a
round is recorded, and raise each finding once as an alarm: a shoe dealt in new-deck
order, a shoe that repeats an earlier shoe's cards, a card dealt more often than the
shoe holds; a properly shuffled shoe raises nothing."""

from __future__ import annotations

import random

import pytest
from prometheus_client import REGISTRY

from tables import services
from tables.game.cards import ALL_CARDS, Card
from tables.game.dealing import deal_round
from tables.game.validation import IllegalRoundError
from tables.models import Alarm, ShoeStretch
from tables.surveillance.checks import shoe_checks_run
from tests.browser.hard_shoes import CHOPPY, rounds_of
from tests.dealers import DECK, Dealer, Deck, burned, first_round

pytestmark = pytest.mark.django_db(transaction=True)  # the checks are queued after commit


def deal_in_order(table, cards: list[Card], rounds: int) -> None:
    """Deal ``rounds`` rounds from the front of ``cards`` through the recording service."""
    source = iter(cards)
    for _ in range(rounds):
        outcome = deal_round(lambda: next(source))
        services.round_record(
            table=table,
            player=[c.code for c in outcome.player_cards],
            banker=[c.code for c in outcome.banker_cards],
        )


def kinds() -> list[str]:
    """The integrity alarms raised. Not the advantage windows: a fair shoe's return on the
    cards left favours some bet now and then, a fact the pit is told, not a test's finding."""
    return sorted(Alarm.objects.exclude(kind="advantage_window").values_list("kind", flat=True))


def raised(kind: str, severity: str) -> float:
    """The alarms raised so far, as /metrics counts them."""
    return REGISTRY.get_sample_value("baccarat_alarms_raised_total", {"kind": kind, "severity": severity}) or 0.0


def test_a_shoe_dealt_in_new_deck_order_raises_the_deck_order_alarm_once(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    before = raised("deck_order", "critical")
    deal_in_order(table, list(ALL_CARDS) * 8, rounds=12)
    assert raised("deck_order", "critical") == before + 1
    alarm = Alarm.objects.get(kind="deck_order")
    assert alarm.severity == "critical" and alarm.table == table and alarm.shoe.number == 1
    assert alarm.round_number is not None and alarm.round_number <= 12
    assert alarm.evidence["p_value"] < 1e-8 and alarm.evidence["rounds"]
    assert Alarm.objects.filter(kind="deck_order").count() == 1  # found again each round, raised once


def test_a_properly_shuffled_shoe_raises_nothing(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    order = list(ALL_CARDS) * 8
    random.Random(35).shuffle(order)
    deal_in_order(table, order, rounds=60)
    assert kinds() == []
    assert ShoeStretch.objects.filter(kind="cards").count() > 250  # its stretches kept, to find them again


def test_a_shoe_repeating_an_earlier_shoe_of_another_table_raises_repeated_cards(baccarat_1) -> None:
    table, _ = baccarat_1
    other, _ = services.table_create(slug="baccarat-2", name="Baccarat 2")
    order = list(ALL_CARDS) * 8
    random.Random(7).shuffle(order)
    services.shoe_start(table=table)
    deal_in_order(table, order, rounds=20)
    services.shoe_start(table=other)
    deal_in_order(other, order, rounds=5)  # the same shoe, dealt again at another table
    alarm = Alarm.objects.get(kind="repeated_cards")
    assert alarm.table == other and alarm.severity == "critical"
    assert kinds().count("repeated_results") <= 1 and "deck_order" not in kinds()


def test_a_card_the_shoe_no_longer_holds_is_refused_and_raised(db) -> None:
    table, _ = services.table_create(slug="one-deck", name="One deck", decks=1)
    services.shoe_start(table=table)
    services.round_record(table=table, player=["AS", "9H"], banker=["KD", "8C"])
    with pytest.raises(IllegalRoundError, match="AS already dealt 1 time"):
        services.round_record(table=table, player=["AS", "9D"], banker=["KH", "8S"])
    alarm = Alarm.objects.get(kind="card_overdealt")
    assert alarm.severity == "critical" and alarm.evidence["cards"] == ["AS"]
    assert table.shoes.get().rounds.count() == 1  # refused: nothing recorded


def test_a_card_dealt_card_by_card_that_the_shoe_no_longer_holds_is_raised_too(db) -> None:
    table, _ = services.table_create(slug="one-deck", name="One deck", decks=1)
    services.shoe_start(table=table)
    services.round_record(table=table, player=["AS", "9H"], banker=["KD", "8C"])
    with pytest.raises(IllegalRoundError):
        services.card_deal(table=table, card="AS")
    assert kinds() == ["card_overdealt"]


def authenticated_shoe_dealt_and_ended(dealer: Dealer) -> Deck:
    deck = Deck.of(DECK)
    assert dealer.post("shoes", {"commitments": deck.hashes}).status_code == 201
    first_round(burned(dealer, deck), deck)
    assert dealer.post("shoes/current/end").status_code == 200
    return deck


def test_an_authenticated_shoe_revealed_after_its_end_has_every_card_accounted_for(dealer: Dealer) -> None:
    deck = authenticated_shoe_dealt_and_ended(dealer)
    rest = {str(n): deck[n] for n in [2, 3, 4, *range(9, 417)]}  # the burned cards and those left unused
    assert dealer.post("shoes/1/reveal", {"plaintexts": rest}).status_code == 200
    assert kinds() == []


def test_an_authenticated_shoe_left_unrevealed_past_its_due_time_has_cards_not_accounted_for(
    dealer: Dealer, settings
) -> None:
    settings.REVEAL_DUE_SECONDS = 0  # due at once: the end's own checks find them
    authenticated_shoe_dealt_and_ended(dealer)
    alarm = Alarm.objects.get(kind="cards_unaccounted")
    assert alarm.severity == "critical" and "not revealed" in str(alarm.evidence)


def test_an_authenticated_shoe_with_a_cancelled_round_has_every_card_accounted_for(dealer: Dealer) -> None:
    deck = Deck.of(DECK)
    assert dealer.post("shoes", {"commitments": deck.hashes}).status_code == 201
    burned(dealer, deck)
    for number in (5, 6):  # a misdeal: two cards out, then cancelled
        assert dealer.post("cards", {"plaintext": deck[number]}).status_code == 201
    assert dealer.post("rounds/current/cancel", {"reason": "card face up"}).status_code == 200
    number = 7
    while not dealer.post("cards", {"plaintext": deck[number]}).json()["round"]["complete"]:
        number += 1
    assert dealer.post("shoes/current/end").status_code == 200
    rest = {str(n): deck[n] for n in [2, 3, 4, *range(number + 1, 417)]}
    assert dealer.post("shoes/1/reveal", {"plaintexts": rest}).status_code == 200
    assert kinds() == []


def test_the_alternating_80_round_shoe_raises_one_alarm_not_17(baccarat_1) -> None:
    """Issue 51: one alternating run raised 17 separate open alarms (10 warnings, then 7
    criticals, rounds 23-80). Its chop is one episode: one alarm, escalated once, its
    findings counted."""
    table, _ = baccarat_1
    shoe = services.shoe_start(table=table).shoe
    for body in rounds_of(CHOPPY, 0):
        services.round_record(table=table, **body, dealer="Anna")
        shoe_checks_run(shoe.pk)  # as the job after each round does
    [alarm] = Alarm.objects.exclude(kind="advantage_window").filter(state=Alarm.State.OPEN)
    assert (alarm.kind, alarm.severity) == ("streak", "critical") and alarm.escalated_at is not None
    assert alarm.count > 1 and alarm.findings.count() == alarm.count
