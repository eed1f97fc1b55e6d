"""The game's words in the page's language: winners' and bets' names.

The core (tables/game/) keeps English labels and no Django (``Winner.label``,
``BetType.label``, which the API and logs use); the pages word the same codes here, with
gettext at render time, so a push rendered inside ``translation.override(lang)`` comes
out in its pages' language.
"""

from __future__ import annotations

from fractions import Fraction

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from .game.bets import BetType
from .game.outcome import Winner

WINNER_NAMES: dict[Winner, Promise] = {
    Winner.BANKER: gettext_lazy("Banker"),
    Winner.PLAYER: gettext_lazy("Player"),
    Winner.TIE: gettext_lazy("Tie"),
}

WINNER_VERDICTS: dict[Winner, Promise] = {
    Winner.BANKER: gettext_lazy("Banker wins"),
    Winner.PLAYER: gettext_lazy("Player wins"),
    Winner.TIE: gettext_lazy("Tie"),
}

BET_LABELS: dict[BetType, Promise] = {
    BetType.PLAYER: gettext_lazy("Player"),
    BetType.BANKER: gettext_lazy("Banker"),
    BetType.TIE: gettext_lazy("Tie"),
    BetType.PLAYER_PAIR: gettext_lazy("Player Pair"),
    BetType.BANKER_PAIR: gettext_lazy("Banker Pair"),
    BetType.ANY_PAIR: gettext_lazy("Any Pair"),
    BetType.PERFECT_PAIR: gettext_lazy("Perfect Pair"),
    BetType.PLAYER_NATURAL: gettext_lazy("Player Natural"),
    BetType.BANKER_NATURAL: gettext_lazy("Banker Natural"),
    BetType.PLAYER_BONUS: gettext_lazy("Player Bonus"),
    BetType.BANKER_BONUS: gettext_lazy("Banker Bonus"),
    BetType.LUCKY_SIX: gettext_lazy("Lucky Six"),
    BetType.TWO_CARDS_LUCKY_SIX: gettext_lazy("2 Cards Lucky Six"),
    BetType.THREE_CARDS_LUCKY_SIX: gettext_lazy("3 Cards Lucky Six"),
}


def winner_name(winner: Winner | str) -> str:
    """Banker, Player or Tie (from a winner or its letter), in the page's language."""
    return str(WINNER_NAMES[Winner(winner)])


def winner_verdict(winner: Winner | str) -> str:
    """Banker wins, Player wins or Tie (from a winner or its letter), in the page's language."""
    return str(WINNER_VERDICTS[Winner(winner)])


def bet_label(bet: BetType | str) -> str:
    """A bet's name (from a bet or its key), in the page's language."""
    return str(BET_LABELS[BetType(bet)])


def pays_text(pays: float | Fraction | None) -> str:
    """What a bet pays for one unit staked, written one way on every page, as the seeds'
    paytables write it: ``1:1``, ``0.95:1``, ``8:1``, ``7:2``; minus one for a lost
    stake, ``0`` for a push (the stake back), a dash for a bet that was not open."""
    if pays is None:
        return "–"
    value = Fraction(pays).limit_denominator(100)
    if value <= 0:
        return "−1" if value < 0 else "0"
    if value.denominator in (1, 2):  # 8:1, 7:2
        return f"{value.numerator}:{value.denominator}"
    return f"{number_format(float(value))}:1"
