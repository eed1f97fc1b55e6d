"""Hard shoes: rounds that follow an outcome pattern, dealt by the rules from one 8-deck
shoe (tables/game/patterns.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from tables.game.outcome import Winner
from tables.game.patterns import HARD_SHOES, deal_pattern, pattern_check


def winners(pattern: str, seed: int) -> str:
    return "".join(outcome.winner.value for outcome in deal_pattern(pattern, seed))


@pytest.mark.parametrize("name", sorted(HARD_SHOES))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_each_hard_shoe_follows_its_pattern_round_by_round(name: str, seed: int) -> None:
    pattern = HARD_SHOES[name]
    rounds = deal_pattern(pattern, seed)
    assert len(rounds) == len(pattern)
    for letter, outcome in zip(pattern, rounds, strict=True):
        if letter in "PBT":
            assert outcome.winner is Winner(letter)
        elif letter == "2":
            assert outcome.any_pair


@pytest.mark.parametrize("name", sorted(HARD_SHOES))
def test_no_card_is_dealt_more_often_than_eight_decks_hold_it(name: str) -> None:
    dealt = Counter(
        card.code
        for outcome in deal_pattern(HARD_SHOES[name], 3)
        for card in (*outcome.player_cards, *outcome.banker_cards)
    )
    assert max(dealt.values()) <= 8
    assert sum(dealt.values()) <= 416


def test_the_choppy_shoe_alternates_80_times_and_the_streak_holds_a_40_banker_dragon() -> None:
    assert winners(HARD_SHOES["choppy"], 5) == "PB" * 40
    streak = winners(HARD_SHOES["streak"], 5)
    assert "P" + "B" * 40 + "P" in streak and 75 <= len(streak) <= 85


def test_the_tie_heavy_shoe_starts_with_ties_and_has_one_every_third_round() -> None:
    shoe = winners(HARD_SHOES["tie-heavy"], 5)
    assert shoe.startswith("TT") and all(shoe[n] == "T" for n in range(4, len(shoe), 3))


def test_the_normal_and_pairs_heavy_shoes_are_as_long_as_a_shoe_and_the_pairs_come_every_second_round() -> None:
    assert 75 <= len(HARD_SHOES["normal"]) <= 85
    pairs = deal_pattern(HARD_SHOES["pairs-heavy"], 5)
    assert sum(outcome.any_pair for outcome in pairs) >= len(pairs) // 2


def test_one_seed_deals_the_same_shoe_and_another_seed_another() -> None:
    assert deal_pattern("." * 30, 9) == deal_pattern("." * 30, 9)
    assert deal_pattern("." * 30, 9) != deal_pattern("." * 30, 10)


@pytest.mark.parametrize(
    ("pattern", "message"), [("", "at least one round"), ("PBX", "round 3: 'X'"), ("pb", "round 1")]
)
def test_a_pattern_with_a_letter_it_does_not_know_is_refused_naming_the_round(pattern: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pattern_check(pattern)


def test_a_pattern_longer_than_a_shoe_is_refused() -> None:
    with pytest.raises(ValueError, match="no round of 'T' left"):
        deal_pattern("T" * 120, 1)
