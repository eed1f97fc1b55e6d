"""Game stats of a shoe (seed 002 "Game Stats"): counts, shares, the running count."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .outcome import PlayedRound, Winner

# Seeds 000/002, 8 decks: the exact probabilities of the published return tables.
THEORETICAL_SHARES = {Winner.BANKER: 0.458597, Winner.PLAYER: 0.446247, Winner.TIE: 0.095156}


@dataclass(frozen=True)
class ShoeStats:
    """A shoe's game stats (seed 002): counts of each winner, pairs and naturals, and the running lead."""

    rounds: int
    banker: int
    player: int
    tie: int
    banker_pairs: int
    player_pairs: int
    naturals: int
    running: tuple[int, ...]  # Banker wins minus Player wins after each round

    def share(self, count: int) -> float:
        """``count`` as a share of the shoe's rounds (0 before the first)."""
        return count / self.rounds if self.rounds else 0.0


def shoe_stats(rounds: Iterable[PlayedRound]) -> ShoeStats:
    """The game stats of ``rounds``, the played rounds of one shoe in order."""
    counts = dict.fromkeys(Winner, 0)
    banker_pairs = player_pairs = naturals = 0
    running = []
    lead = 0
    for r in rounds:
        counts[r.winner] += 1
        banker_pairs += r.banker_pair
        player_pairs += r.player_pair
        naturals += r.natural
        lead += {Winner.BANKER: 1, Winner.PLAYER: -1, Winner.TIE: 0}[r.winner]
        running.append(lead)
    return ShoeStats(
        rounds=len(running),
        banker=counts[Winner.BANKER],
        player=counts[Winner.PLAYER],
        tie=counts[Winner.TIE],
        banker_pairs=banker_pairs,
        player_pairs=player_pairs,
        naturals=naturals,
        running=tuple(running),
    )
