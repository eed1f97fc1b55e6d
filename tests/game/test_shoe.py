"""The shoe procedure: burn, cut card, and both end-of-shoe rules."""

import random
from collections import Counter

import pytest

from tables.game.cards import ALL_CARDS, Card
from tables.game.outcome import Winner
from tables.game.shoe import CutCardRule, DealingShoe, ShoeFinishedError, burn_count

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer


def codes(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


@pytest.mark.parametrize(("card", "burned"), [("AH", 1), ("5S", 5), ("9D", 9), ("TC", 10), ("JH", 10), ("KS", 10)])
def test_the_turned_card_burns_its_value_and_ten_for_a_zero_card(card: str, burned: int) -> None:
    assert burn_count(Card.parse(card)) == burned
    order = codes(card) + list(ALL_CARDS) * 2
    shoe = DealingShoe(order, cut_depth=20, rule=CutCardRule.PLAY_ONE_MORE)
    assert shoe.burn_card == Card.parse(card)
    assert len(shoe.burned) == burned
    assert shoe.remaining == tuple(order[1 + burned :])


def test_a_shuffled_shoe_holds_n_decks_and_the_cut_card_is_about_one_deck_from_the_bottom() -> None:
    shoe = DealingShoe.shuffled(decks=8, rng=random.Random(7))
    everything = Counter([shoe.burn_card, *shoe.burned, *shoe.remaining])
    assert everything == Counter({card: 8 for card in ALL_CARDS})
    assert 52 - 6 <= len(shoe.remaining) - shoe.cut_position <= 52 + 6


# Four-card rounds: two naturals, so every round takes exactly four cards.
NATURAL_ROUND = "9H 9S KH KS"


def shoe_of_natural_rounds(rounds: int, cut_after_cards: int, rule: CutCardRule) -> DealingShoe:
    burn = codes("AC 2C")  # turned ace: burns one card
    cards = burn + codes(NATURAL_ROUND) * rounds
    depth = len(cards) - len(burn) - cut_after_cards
    return DealingShoe(cards, cut_depth=depth, rule=rule)


def deal_all(shoe: DealingShoe) -> int:
    while not shoe.finished:
        shoe.deal()
    with pytest.raises(ShoeFinishedError):
        shoe.deal()
    return shoe.rounds_dealt


def test_seed_000_when_the_cut_card_appears_finish_the_hand_and_play_one_more() -> None:
    # The cut card lies after the 10th card: it appears during round 3 (cards 9-12).
    shoe = shoe_of_natural_rounds(10, cut_after_cards=10, rule=CutCardRule.PLAY_ONE_MORE)
    assert deal_all(shoe) == 4


def test_seed_000_cut_card_instead_of_the_first_card_finish_that_hand_and_stop() -> None:
    # The cut card lies after the 8th card: it comes out instead of round 3's first card.
    shoe = shoe_of_natural_rounds(10, cut_after_cards=8, rule=CutCardRule.PLAY_ONE_MORE)
    assert deal_all(shoe) == 3


@pytest.mark.parametrize("cut_after_cards", [8, 10, 11])
def test_seed_001_the_round_in_which_the_cut_card_is_drawn_is_the_last(cut_after_cards: int) -> None:
    shoe = shoe_of_natural_rounds(10, cut_after_cards=cut_after_cards, rule=CutCardRule.LAST_ROUND)
    assert deal_all(shoe) == 3


def test_a_shoe_deals_until_its_cut_card_and_never_runs_dry() -> None:
    for seed in range(50):
        for rule in CutCardRule:
            shoe = DealingShoe.shuffled(rng=random.Random(seed), rule=rule)
            deal_all(shoe)
            # At most two rounds (12 cards) come out after the cut card.
            assert 52 - 6 - 12 <= len(shoe.remaining) <= 52 + 6
            assert shoe.cut_card_out


def test_all_rounds_of_a_shoe_use_each_card_at_most_n_times() -> None:
    shoe = DealingShoe.shuffled(decks=1, rng=random.Random(3))
    seen: Counter[Card] = Counter()
    while not shoe.finished:
        seen.update(shoe.deal().cards)
    assert max(seen.values()) == 1


@pytest.mark.slow
def test_2000_simulated_shoes_match_the_published_banker_player_tie_shares() -> None:
    # Seeds 000/002: banker 45.86 %, player 44.62 %, tie 9.52 % of rounds (8 decks).
    counts: Counter[Winner] = Counter()
    rng = random.Random(20261122)
    for _ in range(2000):
        shoe = DealingShoe.shuffled(rng=rng)
        while not shoe.finished:
            counts[shoe.deal().winner] += 1
    total = sum(counts.values())
    for winner, expected in ((Winner.BANKER, 0.458597), (Winner.PLAYER, 0.446247), (Winner.TIE, 0.095156)):
        share = counts[winner] / total
        standard_error = (expected * (1 - expected) / total) ** 0.5
        assert abs(share - expected) < 4 * standard_error, (winner, share, expected)
