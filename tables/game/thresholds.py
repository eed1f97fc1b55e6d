"""Shoe surveillance's thresholds: how unlikely on a fair shoe a figure must be to raise
an alarm, and how unlikely to make it critical.

Every check runs after every round, so a fair shoe's chance of any alarm is at most the
sum, over the checks, of their thresholds times the looks each takes (a union bound;
docs/surveillance.md, "A shoe's false-alarm budget"): the streaks' are whole-shoe chances
(a run only grows, so looking again costs nothing), 3 x 1e-5; the outcomes' six events
over at most 70 looks (from round 20 of an 8-deck shoe's 90 at most), 420 x 1e-7; the
four card tests' 90 looks each, 360 x 1e-8. In all under 8e-5 a shoe: fewer than 1 shoe
in 10,000 with any alarm, by construction; ``python -m benchmarks.shuffle_alarms``
measures how far under.
"""

from __future__ import annotations

from dataclasses import dataclass

from .alarms import Severity


@dataclass(frozen=True)
class Thresholds:
    """The configurable limits of the checks (p-values per look, and counts)."""

    composition: float = 1e-8  # SHORT_SHOE: dealt cards against the shoe's composition
    deck_order: float = 1e-8  # DECK_ORDER: neighbours in new-deck order, count or run
    repeats: float = 1e-8  # CARD_REPEATS: the previous card's rank or suit repeated
    in_shoe: float = 1e-8  # REPEATED_IN_SHOE: a stretch of cards dealt again in the same shoe
    outcomes: float = 1e-7  # OUTCOMES: the lowest of the six events' exact tails, per look
    streak: float = 1e-5  # STREAK: a run (Big Road, in a row, or a chop) this long in a whole shoe, on its odds
    critical: float = 1e-12  # any p-value under this is near-impossible on a fair shoe
    stretch_hits: int = 2  # REPEATED_CARDS/RESULTS: fingerprint hits in line to raise

    def severity(self, p_value: float, threshold: float) -> Severity | None:
        """The severity a p-value earns against ``threshold``: none at or above it,
        critical under :attr:`critical`, else a warning."""
        if p_value >= threshold:
            return None
        return Severity.CRITICAL if p_value < self.critical else Severity.WARNING


DEFAULT_THRESHOLDS = Thresholds()
