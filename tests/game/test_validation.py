"""Every check on a reported round, with the message a dealer would see."""

import re
from collections import Counter

import pytest

from tables.game.cards import Card
from tables.game.outcome import RoundOutcome
from tables.game.validation import FieldError, IllegalRoundError, check_name, check_shoe_counts, validate_round

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer


def errors_of(player: object, banker: object) -> list[FieldError]:
    with pytest.raises(IllegalRoundError) as caught:
        validate_round(player, banker)
    return list(caught.value.errors)


def test_a_legal_round_gives_its_outcome() -> None:
    outcome = validate_round(["AH", "3S", "5D"], ["JC", "2H", "AD"])
    assert (outcome.player_score, outcome.banker_score) == (9, 3)


def test_every_unknown_card_is_named_by_its_position() -> None:
    errors = errors_of(["AH", "1S"], ["ZZ", "QH"])
    assert [e.field for e in errors] == ["player[1]", "banker[0]"]
    assert "unknown card '1S'" in errors[0].message


@pytest.mark.parametrize(("player", "count"), [(["AH"], 1), (["AH", "2S", "3D", "4C"], 4), ([], 0)])
def test_a_hand_has_2_or_3_cards(player: list[str], count: int) -> None:
    assert errors_of(player, ["9C", "QH"]) == [FieldError("player", f"a hand has 2 or 3 cards, got {count}")]


def test_hands_must_be_lists() -> None:
    assert errors_of("AH 2S", ["9C", "QH"]) == [FieldError("player", "must be a list of card codes")]


def test_player_must_draw_on_4() -> None:
    assert errors_of(["AH", "3S"], ["6C", "QH"]) == [FieldError("player", "player must draw on 4")]


def test_player_must_stand_on_6() -> None:
    assert errors_of(["AH", "5S", "2D"], ["6C", "QH"]) == [FieldError("player[2]", "player must stand on 6")]


def test_no_third_card_when_either_side_has_a_natural() -> None:
    assert errors_of(["AH", "3S", "2D"], ["9C", "QH"]) == [
        FieldError("player[2]", "player must stand: banker has a natural 9")
    ]
    assert errors_of(["8H", "KS"], ["2C", "QH", "5D"]) == [
        FieldError("banker[2]", "banker must stand: player has a natural 8")
    ]


def test_banker_must_stand_on_7() -> None:
    assert errors_of(["AH", "3S", "5D"], ["7C", "QH", "2D"]) == [FieldError("banker[2]", "banker must stand on 7")]


def test_banker_follows_the_players_third_card() -> None:
    assert errors_of(["AH", "3S", "6D"], ["6C", "QH"]) == [
        FieldError("banker", "banker must draw on 6 when the player's third card is 6")
    ]
    assert errors_of(["AH", "3S", "8D"], ["3C", "QH", "AD"]) == [
        FieldError("banker[2]", "banker must stand on 3 when the player's third card is 8")
    ]


def test_banker_draws_on_5_or_less_when_the_player_stands() -> None:
    assert errors_of(["AH", "6S"], ["5C", "QH"]) == [
        FieldError("banker", "banker must draw on 5 when the player stands")
    ]


def outcome(player: str, banker: str) -> RoundOutcome:
    return RoundOutcome.of(tuple(map(Card.parse, player.split())), tuple(map(Card.parse, banker.split())))


def test_no_card_is_dealt_more_times_than_the_shoe_holds() -> None:
    dealt = Counter({Card.parse("AS"): 8})
    with pytest.raises(IllegalRoundError) as caught:
        check_shoe_counts(outcome("AH AS 5D", "JC 2H AD"), dealt=dealt, decks=8)
    assert caught.value.errors == (FieldError("player[1]", "AS already dealt 8 times in this shoe"),)


def test_copies_within_the_round_count_too() -> None:
    dealt = Counter({Card.parse("9H"): 7})
    with pytest.raises(IllegalRoundError, match="9H already dealt 8 times"):
        check_shoe_counts(outcome("9H 9H", "2C 3C"), dealt=dealt, decks=8)
    check_shoe_counts(outcome("9H 9S", "2C 3C"), dealt=dealt, decks=8)


def test_a_single_deck_shoe_holds_one_of_each_card() -> None:
    with pytest.raises(IllegalRoundError, match="KH already dealt 1 time in this shoe"):
        check_shoe_counts(outcome("KH KH", "2C 5C"), dealt={}, decks=1)


@pytest.mark.parametrize("name", ["Bo\u0000b", "Bo\nb", "\u0007", "Bo\u009bb", "Bo\ud800b"])
def test_a_name_with_a_control_character_or_an_unpaired_surrogate_is_refused(name: str) -> None:
    with pytest.raises(IllegalRoundError) as refused:
        check_name("dealer", name)
    [error] = refused.value.errors
    assert error.field == "dealer" and "names are printable text" in error.message


@pytest.mark.parametrize("name", ["Anna", "Zoë", "李娜", "Ana María", "O'Brien", ""])
def test_printable_names_in_any_script_are_accepted(name: str) -> None:
    check_name("dealer", name)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("\u2800", "no visible character"),  # the Braille blank
        ("\u3164\u3164", "no visible character"),  # the Hangul filler
        ("\u115f", "no visible character"),
        ("Anna\u061c", "a bidirectional control (U+061C)"),
        ("\u200fAnna", "a bidirectional control (U+200F)"),
        ("Anna\U000e0041\U000e0042", "an invisible format character (U+E0041)"),  # tag characters
        ("An\u00adna", "an invisible format character (U+00AD)"),
    ],
)
def test_a_name_that_draws_blank_or_hides_a_direction_or_tags_is_refused(name: str, why: str) -> None:
    """Issue 49, item 10: names of U+2800, U+3164 or U+115F alone rendered blank; U+061C,
    U+200F and tag characters passed."""
    with pytest.raises(IllegalRoundError, match=re.escape(why)):
        check_name("dealer", name)


@pytest.mark.parametrize("name", ["مهرداد\u200cپور", "👩\u200d💻 Anna", "홍길동", "สมชาย\u200bใจดี"])
def test_joiners_and_word_breaks_inside_a_name_still_shape_it(name: str) -> None:
    check_name("dealer", name)
