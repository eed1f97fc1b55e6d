import pytest

from tables.game.outcome import PlayedRound, Winner
from tables.game.stats import shoe_stats

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer

B, P, T = Winner.BANKER, Winner.PLAYER, Winner.TIE


def test_game_stats_count_results_pairs_naturals_and_the_running_banker_minus_player() -> None:
    rounds = [
        PlayedRound(winner=B, banker_pair=True, natural=True),
        PlayedRound(winner=B),
        PlayedRound(winner=T, player_pair=True),
        PlayedRound(winner=P, banker_pair=True, player_pair=True, natural=True),
    ]
    stats = shoe_stats(rounds)
    assert (stats.rounds, stats.banker, stats.player, stats.tie) == (4, 2, 1, 1)
    assert (stats.banker_pairs, stats.player_pairs, stats.naturals) == (2, 2, 2)
    assert stats.running == (1, 2, 2, 1)
    assert stats.share(stats.banker) == 0.5


def test_an_empty_shoe_has_no_shares() -> None:
    stats = shoe_stats([])
    assert stats.rounds == 0 and stats.share(stats.banker) == 0.0 and stats.running == ()
