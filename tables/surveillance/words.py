"""An alarm's evidence in words and figures, as a reviewer reads it: each figure the
checks gave (:class:`~tables.game.alarms.Finding`'s ``evidence``) under a label in the
reviewer's language, the common ones first and in a fixed order; the test by its name
in words, cards with their suits."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from ..game.bets import BetType
from ..game.cards import Card, InvalidCardError
from ..labels import WINNER_NAMES, bet_label, signed_percent
from ..models import Alarm

# The figures the checks give, by their evidence key, in the order a reviewer reads them:
# what was tested and how unlikely it is first, then where, then the rest.
LABELS: dict[str, Promise] = {
    "test": gettext_lazy("Test"),
    "statistic": gettext_lazy("Statistic"),
    "p_value": gettext_lazy("p-value"),
    "rounds": gettext_lazy("Rounds"),
    "cards": gettext_lazy("Cards"),
    "expected": gettext_lazy("Expected"),
    "held": gettext_lazy("Copies the shoe holds"),
    "burn_card": gettext_lazy("The burn card is one of them"),
    "longest_run": gettext_lazy("Longest run in new-deck order"),
    "neighbours": gettext_lazy("Cards following their new-deck neighbour"),
    "rank_repeats": gettext_lazy("Rank repeats"),
    "rank_repeats_expected": gettext_lazy("Rank repeats expected"),
    "suit_repeats": gettext_lazy("Suit repeats"),
    "suit_repeats_expected": gettext_lazy("Suit repeats expected"),
    "earlier_shoe": gettext_lazy("Earlier shoe"),
    "earlier_table": gettext_lazy("Earlier shoe's table"),
    "earlier_card": gettext_lazy("Its card number there"),
    "field": gettext_lazy("First hash committed before"),
    "reused": gettext_lazy("Hashes committed before"),
    "hits": gettext_lazy("Stretches found again"),
    "positions": gettext_lazy("Where, in this shoe"),
    "shift": gettext_lazy("Shift"),
    "never_seen": gettext_lazy("Cards never seen"),
    "cards_never_seen": gettext_lazy("Cards never seen"),
    "seen": gettext_lazy("Cards seen"),
    "rank_seen_least": gettext_lazy("Rank seen least"),
    "rank_shortfall": gettext_lazy("Its count"),
    "rank_chi_square": gettext_lazy("Chi-square by rank"),
    "card_chi_square": gettext_lazy("Chi-square by card"),
    "problems": gettext_lazy("Problems"),
    "numbers": gettext_lazy("Card numbers"),
    "plaintexts_name": gettext_lazy("Plaintexts name"),
    "side": gettext_lazy("Side"),
    "events": gettext_lazy("Events"),
    "rounds_tested": gettext_lazy("Rounds tested"),
    "rounds_judged": gettext_lazy("Rounds judged"),
    "review_lowest_p": gettext_lazy("Review's lowest p-value"),
    "review_split_p": gettext_lazy("Review's B/P/T p-value"),
    "signal": gettext_lazy("Signal"),
    "count": gettext_lazy("Count"),
    "rate": gettext_lazy("Rate"),
    "configured_rate": gettext_lazy("Configured rate"),
    "minimum": gettext_lazy("Minimum count"),
    "per": gettext_lazy("Per"),
    "out_of": gettext_lazy("Out of"),
    "day": gettext_lazy("Day"),
    "dealer": gettext_lazy("Dealer"),
    "scope": gettext_lazy("Scope"),
    "bet": gettext_lazy("Bet"),
    "return": gettext_lazy("Return on the cards left"),
    "cards_left": gettext_lazy("Cards left"),
    "best_return": gettext_lazy("Best return"),
    "closed_after": gettext_lazy("Closed after round"),
    "rounds_open": gettext_lazy("Rounds open"),
}
# The tests by the name the checks give them.
TESTS: dict[str, Promise] = {
    "card_count": gettext_lazy("A card dealt more often than the shoe holds"),
    "card_accounting": gettext_lazy("Every committed card accounted for"),
    "commitments_seen": gettext_lazy("A new shoe's card hashes committed by an earlier shoe"),
    "plaintext_names_card": gettext_lazy("Each plaintext names the card dealt"),
    "cards_never_seen": gettext_lazy("Cards never seen in the shoe"),
    "rank_shortfall": gettext_lazy("A rank seen too seldom"),
    "rank_chi_square": gettext_lazy("Dealt ranks against the shoe's (chi-square)"),
    "card_chi_square": gettext_lazy("Dealt cards against the shoe's (chi-square)"),
    "rank_most": gettext_lazy("The rank seen most often, against the shoe's composition"),
    "card_most": gettext_lazy("The card seen most often, against the shoe's composition"),
    "deck_order_run": gettext_lazy("A run of cards in new-deck order"),
    "deck_order_count": gettext_lazy("Cards following their new-deck neighbour"),
    "rank_repeats": gettext_lazy("Repeats of the previous card's rank"),
    "suit_repeats": gettext_lazy("Repeats of the previous card's suit"),
    "card_stretches": gettext_lazy("Stretches of cards found in an earlier shoe"),
    "in_shoe_stretch": gettext_lazy("Cards in line dealt again later in the same shoe"),
    "result_stretches": gettext_lazy("Stretches of results found in an earlier shoe"),
    "streak_length": gettext_lazy("A run of one side this long, on the shoe's odds"),
    "strict_streak_length": gettext_lazy("One side this many rounds in a row, no tie between, on the shoe's odds"),
    "chop_length": gettext_lazy("Sides alternating this long, on the shoe's odds"),
    "banker": gettext_lazy("Banker wins against their odds"),
    "player": gettext_lazy("Player wins against their odds"),
    "tie": gettext_lazy("Ties against their odds"),
    "player_pair": gettext_lazy("Player pairs against their odds"),
    "banker_pair": gettext_lazy("Banker pairs against their odds"),
    "natural": gettext_lazy("Naturals against their odds"),
    "rate": gettext_lazy("A rate past its configured limit"),
    "advantage_window": gettext_lazy("A bet's return on the cards left above its threshold"),
}
# Figures that are words from the code, by their key: worded as the pages word them.
VALUE_WORDS: dict[str, dict[str, Promise | str]] = {
    "side": {winner.value: name for winner, name in WINNER_NAMES.items()},
    "signal": {
        "voids": gettext_lazy("Voids"),
        "cancels": gettext_lazy("Cancelled"),
        "refusals": gettext_lazy("Refused posts"),
        "auth_refusals": gettext_lazy("Refused plaintexts"),
    },
    "scope": {"dealer": gettext_lazy("Dealer"), "table": gettext_lazy("Table")},
    "per": {"day": gettext_lazy("Day")},
    "bet": {bet.value: bet_label(bet) for bet in BetType},
}
CARD_KEYS = {"cards", "plaintexts_name", "never_seen"}  # lists of card codes, shown with their suits
RETURN_KEYS = {"return", "best_return"}  # returns per unit staked, shown as the odds panel shows them
YES, NO = gettext_lazy("yes"), gettext_lazy("no")
MOST_LISTED = 24  # a long list of rounds or cards is cut, saying how many more


@dataclass(frozen=True)
class Fact:
    label: str
    value: str


# What a list of alarms shows of each.
BRIEF = ("test", "statistic", "p_value", "rounds", "cards", "bet", "return", "cards_left")


def alarm_facts(alarm: Alarm, *, brief: bool = False) -> list[Fact]:
    """The alarm's evidence as labelled facts: the common figures first, then the rest
    of what its check gave, each under its key's words; ``brief``: the common ones only
    (the desk's list; the alarm's page has them all)."""
    evidence: Mapping[str, object] = alarm.evidence if isinstance(alarm.evidence, dict) else {}
    ordered = [key for key in LABELS if key in evidence] + sorted(key for key in evidence if key not in LABELS)
    if brief:
        ordered = [key for key in ordered if key in BRIEF]
    ordered = [key for key in ordered if evidence[key] not in (None, "", [], {})]  # nothing to show
    return [Fact(_label(key), _value(key, evidence[key])) for key in ordered]


def _label(key: str) -> str:
    return str(LABELS.get(key, key.replace("_", " ").capitalize()))


def _value(key: str, value: object) -> str:
    if key == "test" and isinstance(value, str):
        return str(TESTS.get(value, value.replace("_", " ")))
    if isinstance(value, str) and value in VALUE_WORDS.get(key, {}):
        return str(VALUE_WORDS[key][value])
    if key in RETURN_KEYS and isinstance(value, float):
        return signed_percent(value)
    if key in CARD_KEYS and isinstance(value, list | tuple):
        value = [card_label(item) for item in value]
    return figure(value)


def card_label(code: object) -> object:
    """A card code as the desk shows cards (``10♠``); anything else as it is."""
    try:
        return Card.parse(code).label if isinstance(code, str) else code
    except InvalidCardError:
        return code


def figure(value: object) -> str:
    """A figure as the reviewer reads it: a p-value in significant digits, a list as
    items (at most ``MOST_LISTED``), a mapping as ``key value`` pairs."""
    if isinstance(value, bool):
        return str(YES if value else NO)
    if isinstance(value, float) and value == 0:
        return "0"  # certain, not rounded to zero: a card counted, not a chance
    if isinstance(value, float):
        return f"{value:.3g}" if value and (abs(value) < 0.001 or abs(value) >= 1e6) else number_format(round(value, 4))
    if isinstance(value, int):
        return number_format(value, force_grouping=True)
    if isinstance(value, list | tuple):
        shown = " ".join(figure(item) for item in value[:MOST_LISTED])
        return shown + (f" … (+{len(value) - MOST_LISTED})" if len(value) > MOST_LISTED else "")
    if isinstance(value, dict):
        return ", ".join(f"{key} {figure(item)}" for key, item in value.items())
    return str(value)
