"""A round dealt card by card: whose the next card is, when the round is over, and
what the rules say at each step, as the seeds' drawing rules give them."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.game.cards import Card
from tables.game.dealing import Call, CardNotCalledError, Deal, Side, deal_from_sequence, deal_of
from tables.game.validation import validate_round

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer

ALL_CARDS = [Card.parse(rank + suit) for rank in "A23456789TJQK" for suit in "SHDC"]


def dealt(*codes: str) -> Deal:
    deal = Deal()
    for code in codes:
        deal = deal.add(Card.parse(code))
    return deal


def test_the_first_four_cards_go_player_banker_player_banker():
    deal = Deal()
    sides = []
    for code in ("2H", "3S", "4D", "KC"):
        sides.append(deal.next_side)
        deal = deal.add(Card.parse(code))
    assert sides == [Side.PLAYER, Side.BANKER, Side.PLAYER, Side.BANKER]
    assert [c.code for c in deal.player] == ["2H", "4D"]
    assert [c.code for c in deal.banker] == ["3S", "KC"]


def test_a_natural_ends_the_round_and_a_fifth_card_is_refused_with_why():
    deal = dealt("4H", "2S", "4D", "3C")  # player 8: a natural
    assert deal.complete and deal.next_side is None
    assert deal.calls == (Call.NATURAL,)
    with pytest.raises(CardNotCalledError, match="both stand, player has a natural 8"):
        deal.add(Card.parse("9S"))


def test_a_third_card_to_a_player_on_six_is_refused_naming_the_banker():
    deal = dealt("3H", "2S", "3D", "2C")  # player 6 stands; banker 4 draws
    assert deal.next_side is Side.BANKER
    assert deal.calls == (Call.PLAYER_STANDS, Call.BANKER_DRAWS)
    with pytest.raises(CardNotCalledError, match="the next card is the banker's: player stands on 6") as refused:
        deal.add(Card.parse("9S"), Side.PLAYER)
    assert refused.value.field == "side"
    deal = deal.add(Card.parse("9S"), Side.BANKER)
    assert deal.complete and [c.code for c in deal.banker] == ["2S", "2C", "9S"]


def test_the_banker_follows_the_chart_after_the_players_third_card():
    deal = dealt("2H", "3S", "2D", "KC")  # player 4 draws; banker 3
    assert deal.calls == (Call.PLAYER_DRAWS,)
    eight = deal.add(Card.parse("8S"))  # banker 3 stands on an 8
    assert eight.complete and eight.calls == (Call.PLAYER_DRAWS, Call.BANKER_STANDS)
    with pytest.raises(CardNotCalledError, match="banker stands on 3 when the player's third card is 8"):
        eight.add(Card.parse("AS"))
    seven = deal.add(Card.parse("7S"))
    assert seven.next_side is Side.BANKER and seven.calls == (Call.PLAYER_DRAWS, Call.BANKER_DRAWS)


def test_both_stand_on_six_and_seven():
    deal = dealt("3H", "4S", "3D", "3C")
    assert deal.complete and deal.calls == (Call.PLAYER_STANDS, Call.BANKER_STANDS)
    with pytest.raises(CardNotCalledError, match="player stands on 6 and banker stands on 7"):
        deal.add(Card.parse("AS"))


@given(st.permutations(ALL_CARDS))
def test_dealt_card_by_card_a_round_is_the_round_dealt_at_once(cards):
    whole = deal_from_sequence(cards)
    deal = Deal()
    for card in cards:
        if deal.complete:
            break
        deal = deal.add(card, deal.next_side)
    assert deal.outcome() == whole
    assert deal_of(whole) == deal
    assert validate_round([c.code for c in deal.player], [c.code for c in deal.banker]) == whole
    assert all(not deal.upto(n).complete for n in range(len(deal.cards)))
