"""Shoe surveillance's one entry point: every check of a shoe, after each round.

:func:`shoe_findings` runs card accounting, the shuffle checks, the outcome statistics
and the streaks on a :class:`~tables.game.seen.ShoeSeen`; the shell stores each finding
once as an alarm by its kind and key. The cost is the shoe's own (a full 8-deck shoe in
a few milliseconds): earlier shoes come in only as the fingerprint hits the shell found.
"""

from __future__ import annotations

from .alarms import AlarmKind, Finding
from .card_accounting import composition_finding, overdealt_findings, plaintext_findings, unaccounted_finding
from .outcome_checks import outcomes_finding
from .seen import ShoeSeen
from .shuffle_checks import card_repeats_finding, deck_order_finding, in_shoe_finding, repeated_finding
from .streaks import streak_findings
from .thresholds import DEFAULT_THRESHOLDS, Thresholds


def shoe_findings(shoe: ShoeSeen, thresholds: Thresholds = DEFAULT_THRESHOLDS) -> list[Finding]:
    """Everything the checks find on ``shoe`` as it stands: card accounting (overdealt
    cards; an authenticated shoe's plaintexts, and its accounting at its end; a plain
    shoe's composition), shuffle quality (deck order, repeats, stretches dealt again in
    the shoe or repeating an earlier shoe's cards or results), outcome statistics and streaks."""
    findings = overdealt_findings(shoe)
    findings += plaintext_findings(shoe)
    optional = [
        unaccounted_finding(shoe),
        None if shoe.authenticated else composition_finding(shoe, thresholds),
        deck_order_finding(shoe, thresholds),
        card_repeats_finding(shoe, thresholds),
        in_shoe_finding(shoe, thresholds),
        repeated_finding(shoe, AlarmKind.REPEATED_CARDS, thresholds),
        repeated_finding(shoe, AlarmKind.REPEATED_RESULTS, thresholds),
        outcomes_finding(shoe, thresholds),
    ]
    findings += [f for f in optional if f is not None]
    findings += streak_findings(shoe, thresholds)
    return findings
