"""What a table's public screens may show of the shoe that is left, by its audience profile."""

from __future__ import annotations

from tables.game.audience import MAIN_BETS, Audience, sight
from tables.game.bets import BetType

SIDE_BETS = [bet for bet in BetType if bet not in MAIN_BETS]


def test_by_default_the_public_sees_no_return_on_the_cards_left_and_no_count_of_them() -> None:
    default = sight(Audience.FULL_SHOE)
    assert not any(default.shows(bet) for bet in BetType)
    assert not default.any_remaining and not default.cards_left and not default.training


def test_a_table_may_make_banker_player_and_tie_public_and_never_a_side_bet_with_them() -> None:
    main = sight(Audience.MAIN_BETS)
    assert [bet for bet in BetType if main.shows(bet)] == [BetType.PLAYER, BetType.BANKER, BetType.TIE]
    assert not any(main.shows(bet) for bet in SIDE_BETS) and not main.cards_left and not main.training


def test_a_training_room_shows_everything_and_says_so() -> None:
    training = sight(Audience.EVERYTHING)
    assert all(training.shows(bet) for bet in BetType) and training.cards_left and training.training


def test_a_profile_this_release_does_not_know_shows_the_least() -> None:
    assert sight("show_all_to_everyone") == sight(Audience.FULL_SHOE)
