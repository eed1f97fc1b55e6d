"""What shoe surveillance finds: an alarm's kind, its severity and its evidence.

The checks (card accounting, shuffle quality, outcome statistics, dealer and operations
signals) are plain functions over a shoe's cards and rounds that return
:class:`Finding` values; the shell stores each finding once as an alarm (its ``key``
says what makes two findings the same alarm), shows it on the reviewer's desk and sends
it to the casino's systems. Nothing here knows a database or a web page.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field


class AlarmKind(enum.StrEnum):
    """One name for each thing surveillance watches (stored, sent in webhooks, chosen per
    webhook): never renamed once shipped."""

    # Card accounting
    CARD_OVERDEALT = "card_overdealt"  # a card or a rank dealt more often than the shoe holds
    CARDS_UNACCOUNTED = "cards_unaccounted"  # an authenticated shoe's card not accounted for at its end
    PLAINTEXT_MISMATCH = "plaintext_mismatch"  # a card's plaintext names another card than it was dealt as
    COMMITMENTS_REUSED = "commitments_reused"  # a new shoe's card hash committed by an earlier shoe (refused)
    SHORT_SHOE = "short_shoe"  # a plain shoe's dealt cards against the shoe's composition
    # Shuffle quality
    DECK_ORDER = "deck_order"  # runs of cards in new-deck order (same suit, consecutive ranks)
    CARD_REPEATS = "card_repeats"  # too many repeats of the previous card's rank or suit
    REPEATED_CARDS = "repeated_cards"  # a stretch of cards repeating an earlier shoe's (a reused shoe)
    REPEATED_RESULTS = "repeated_results"  # rounds repeating an earlier shoe's results in order
    REPEATED_IN_SHOE = "repeated_in_shoe"  # a stretch of cards dealt again later in the same shoe (a stacked shoe)
    # Outcome statistics
    OUTCOMES = "outcomes"  # the per-shoe chi-square tests under a threshold
    STREAK = "streak"  # a run of one side whose probability under the shoe's odds is under a threshold
    # Dealer and operations signals
    OPERATIONS = "operations"  # voids, cancels, refusals per dealer or table a day past a rate
    # Advantage play
    ADVANTAGE_WINDOW = "advantage_window"  # a bet's return on the cards left above its threshold


class Severity(enum.StrEnum):
    """How urgent an alarm is: a warning to look into, or a shoe to stop now."""

    WARNING = "warning"  # worth a look: unlikely, not impossible on a fair shoe
    CRITICAL = "critical"  # stop the shoe: impossible on a fair shoe, or almost so


@dataclass(frozen=True)
class Finding:
    """One thing a check found. ``key`` names it within its shoe (or table and day) and
    kind, so the same finding found again, round after round, stays one alarm; a check
    that finds something worse (a longer run) gives it a new key. ``evidence`` is
    JSON-ready figures: by convention ``test`` (the test's name), ``statistic``,
    ``p_value``, ``rounds`` (round numbers concerned), ``cards`` (card codes), and what
    else the kind needs."""

    kind: AlarmKind
    severity: Severity
    key: str
    round_number: int | None = None  # the round at which it was found (the replay's step)
    evidence: Mapping[str, object] = field(default_factory=dict)
    # What within its kind and shoe makes an episode its own (an advantage window's bet):
    # findings of one kind on one shoe but another subject open alarms of their own.
    subject: str = ""
