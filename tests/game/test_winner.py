"""One Winner enum names every result: the code stored and sent, and the words shown."""

import pytest

from tables.game.outcome import Winner

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer


def test_each_winner_has_its_one_letter_code() -> None:
    assert [w.value for w in Winner] == ["B", "P", "T"]
    assert Winner("B") is Winner.BANKER


def test_each_winner_has_the_name_people_read() -> None:
    assert [w.label for w in Winner] == ["Banker", "Player", "Tie"]


def test_a_win_is_said_as_a_win_and_a_tie_as_a_tie() -> None:
    assert [w.verdict for w in Winner] == ["Banker wins", "Player wins", "Tie"]
