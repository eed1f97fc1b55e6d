"""Shuffled shoes the tests deal by the rules, the same every run (each named by its seed),
and dealing them into a table's open shoe."""

from __future__ import annotations

import random

from tables import services
from tables.background import odds
from tables.game.shoe import CutCardRule, DealingShoe
from tables.models import Round, Table


def shuffled_shoe(seed: int) -> DealingShoe:
    """A shuffled 8-deck shoe, cut six cards from its end: seed 1's lasts 83 rounds (two
    side bets favour the player after its 80th), seed 11's 80 (the Perfect Pair after 64-65,
    67-68, 70 and 80)."""
    return DealingShoe.shuffled(
        decks=8, rule=CutCardRule.LAST_ROUND, rng=random.Random(seed), cut_depth=6, cut_jitter=0
    )


def dealt(table: Table, shoe: DealingShoe, count: int) -> list[Round]:
    """``count`` real rounds of ``shoe``, dealt by the rules, recorded at ``table``."""
    rounds = []
    for _ in range(count):
        outcome = shoe.deal()
        cards = {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}
        rounds.append(services.round_record(table=table, **cards, dealer="Anna").round)
    return rounds


def dealt_with_odds(table: Table, shoe: DealingShoe, count: int) -> list[Round]:
    """:func:`dealt`, each round's odds stored (and announced) after it, as the odds job does."""
    rounds = dealt(table, shoe, count)
    for played in rounds:
        odds.round_odds_compute(round_pk=played.pk)
    return rounds


def shoe_rounds(seed: int, count: int) -> list[dict[str, list[str]]]:
    """The first ``count`` rounds of :func:`shuffled_shoe`, as the API takes them."""
    shoe = shuffled_shoe(seed)
    played = (shoe.deal() for _ in range(count))
    return [{"player": [c.code for c in o.player_cards], "banker": [c.code for c in o.banker_cards]} for o in played]
