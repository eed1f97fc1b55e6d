"""Shoe surveillance's thresholds: how unlikely on a fair shoe a figure must be to raise
an alarm, and how unlikely to make it critical.

The defaults are calibrated by ``python -m benchmarks.shuffle_alarms`` (docs/benchmarks.md,
"Shuffle alarms"): every check runs after every round, so each p-value threshold is a
per-look one, set far enough under 1 in 10,000 that a shuffled shoe's 70-odd looks at
all the checks together raise nothing in 10,000 shoes.
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
    outcomes: float = 1e-6  # OUTCOMES: the lowest of the per-shoe chi-square tests
    streak: float = 1e-5  # STREAK: a run of one side this long in a shoe, on its odds
    critical: float = 1e-12  # any p-value under this is near-impossible on a fair shoe
    stretch_hits: int = 2  # REPEATED_CARDS/RESULTS: fingerprint hits in line to raise

    def severity(self, p_value: float, threshold: float) -> Severity | None:
        """The severity a p-value earns against ``threshold``: none at or above it,
        critical under :attr:`critical`, else a warning."""
        if p_value >= threshold:
            return None
        return Severity.CRITICAL if p_value < self.critical else Severity.WARNING


DEFAULT_THRESHOLDS = Thresholds()
