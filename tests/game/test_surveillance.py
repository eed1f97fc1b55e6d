"""Shoe surveillance's entry point: each alarm fires on a shoe built to trigger it, and
shuffled shoes stay silent round after round."""

from __future__ import annotations

import dataclasses
import json

import pytest

from tables.game.alarms import AlarmKind, Finding, Severity
from tables.game.cards import Card
from tables.game.outcome import Winner
from tables.game.seen import CommittedCard, RoundSeen, ShoeSeen
from tables.game.surveillance import shoe_findings
from tables.game.thresholds import Thresholds

from .shoes_seen import dealing, dealt, new_deck, results_only, shuffled

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer

CONVENTION = {"test", "statistic", "p_value", "rounds", "cards"}


def kinds(findings: list[Finding]) -> set[AlarmKind]:
    return {f.kind for f in findings}


def test_a_new_deck_order_shoe_raises_deck_order_and_card_repeats_with_json_ready_evidence() -> None:
    findings = shoe_findings(dealt(new_deck() * 8, key="42"))
    assert {AlarmKind.DECK_ORDER, AlarmKind.CARD_REPEATS} <= kinds(findings)
    for finding in findings:
        assert set(finding.evidence) >= CONVENTION
        assert json.loads(json.dumps(finding.evidence)) == finding.evidence
        assert finding.key.startswith(f"shoe:42:{finding.kind.value}") and len(finding.key) <= 120
        assert finding.round_number == dealt(new_deck() * 8).round_number


def test_the_same_finding_round_after_round_keeps_its_key() -> None:
    keys = [{f.key for f in shoe_findings(s) if f.kind is AlarmKind.DECK_ORDER} for s in dealing(new_deck() * 8)]
    assert keys[1] == {"shoe:1:deck_order:warning"}
    assert keys[-1] == {"shoe:1:deck_order:critical"}  # worse: a new alarm
    assert len(set().union(*keys)) == 2


def test_an_overdealt_card_raises_card_overdealt() -> None:
    ace, two = Card.parse("AH"), Card.parse("2C")
    shoe = ShoeSeen("7", 1, (RoundSeen(1, (ace, ace), (two, two), Winner.BANKER),))
    assert [f.key for f in shoe_findings(shoe)] == ["shoe:7:card_overdealt:AH", "shoe:7:card_overdealt:2C"]


def test_ties_far_past_their_odds_raise_outcomes() -> None:
    findings = shoe_findings(results_only("BPTT" * 10))
    assert [f.kind for f in findings] == [AlarmKind.OUTCOMES]
    evidence = findings[0].evidence
    assert (evidence["test"], evidence["statistic"], findings[0].severity) == ("tie", 20, Severity.WARNING)
    assert evidence["events"]["tie"]["observed"] == 20  # type: ignore[index]


def test_outcomes_wait_for_twenty_rounds() -> None:
    assert shoe_findings(results_only("TTTTTBPBP")) == []


def test_thresholds_are_configurable() -> None:
    strict = Thresholds(outcomes=1e-30)
    assert shoe_findings(results_only("BPTT" * 10), strict) == []


def test_a_plain_shoe_short_of_cards_raises_short_shoe_and_an_authenticated_one_is_accounted_instead() -> None:
    order = [card for card in shuffled(12) if card.code not in ("9S", "9H", "8D", "8C", "7S")]
    plain = dealt(order)
    assert AlarmKind.SHORT_SHOE in kinds(shoe_findings(plain))
    authenticated = dataclasses.replace(plain, committed=(CommittedCard(1, "burn_card", plain.burn_card),))
    assert AlarmKind.SHORT_SHOE not in kinds(shoe_findings(authenticated))
    assert AlarmKind.CARDS_UNACCOUNTED in kinds(shoe_findings(authenticated))  # 415 committed cards missing


@pytest.mark.slow
def test_200_shuffled_shoes_raise_nothing_round_after_round() -> None:
    for seed in range(200):
        for shoe in dealing(shuffled(20261127 + seed), key=str(seed)):
            assert shoe_findings(shoe) == [], (seed, shoe.round_number)
