"""The game's words in the page's language: winners' and bets' names.

The core (tables/game/) keeps English labels and no Django (``Winner.label``,
``BetType.label``, which the API and logs use); the pages word the same codes here, with
gettext at render time, so a push rendered inside ``translation.override(lang)`` comes
out in its pages' language.
"""

from __future__ import annotations

import re
from fractions import Fraction

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

from .game.bets import BetType
from .game.dealing import Call, Side
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

# What the rules decided, beside a round being dealt (the screens say it as it happens).
CALL_WORDS: dict[Call, Promise] = {
    Call.NATURAL: gettext_lazy("Natural: both stand"),
    Call.PLAYER_DRAWS: gettext_lazy("Player draws"),
    Call.PLAYER_STANDS: gettext_lazy("Player stands"),
    Call.BANKER_DRAWS: gettext_lazy("Banker draws"),
    Call.BANKER_STANDS: gettext_lazy("Banker stands"),
}

NEXT_CARD_WORDS: dict[Side, Promise] = {
    Side.PLAYER: gettext_lazy("Next card: Player"),
    Side.BANKER: gettext_lazy("Next card: Banker"),
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


# The rows of the odds page's return tables (tables/game/odds.py names them in English).
EVENT_LABELS: dict[str, Promise] = {
    "Banker wins": gettext_lazy("Banker wins"),
    "Player wins": gettext_lazy("Player wins"),
    "Tie": gettext_lazy("Tie"),
    "Loss": gettext_lazy("Loss"),
    "Banker wins with 6": gettext_lazy("Banker wins with 6"),
    "Banker wins with 6 on 2 cards": gettext_lazy("Banker wins with 6 on 2 cards"),
    "Banker wins with 6 on 3 cards": gettext_lazy("Banker wins with 6 on 3 cards"),
    "Natural win": gettext_lazy("Natural win"),
    "Natural tie": gettext_lazy("Natural tie"),
    "Player natural": gettext_lazy("Player natural"),
    "Banker natural": gettext_lazy("Banker natural"),
    "Pair": gettext_lazy("Pair"),
    "No pair": gettext_lazy("No pair"),
    "Pair on one hand": gettext_lazy("Pair on one hand"),
    "Pairs on both hands": gettext_lazy("Pairs on both hands"),
    "Perfect pair on one hand": gettext_lazy("Perfect pair on one hand"),
    "Perfect pairs on both hands": gettext_lazy("Perfect pairs on both hands"),
}
WIN_BY = re.compile(r"Win by (\d+)")


def event_label(label: str) -> str:
    """A row of a return table (``"Natural win"``, ``"Win by 4"``) in the page's
    language; a label this does not know stays as the core wrote it."""
    if won := WIN_BY.fullmatch(label):
        return gettext("Win by %(margin)s") % {"margin": won.group(1)}
    return str(EVENT_LABELS.get(label, label))


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


def decimal(value: float, places: int) -> str:
    """``value`` rounded to ``places`` decimals, written as the active language writes
    numbers (Django's number_format cuts the digits it does not show instead of rounding)."""
    return number_format(round(value, places), places)


def signed_percent(value: float | None, places: int = 3) -> str:
    """An expected return as a signed percentage: ``-1.058%``; a dash when unknown."""
    if value is None:
        return "–"
    return ("+" if value >= 0 else "−") + f"{decimal(abs(100 * value), places)}%"
