"""The tables this process has lately found to exist, so that a page's socket opens
without a trip to the database for each.

A table page's socket is refused (4404) when its table does not exist. Asking the
database every time cost a page about 6 KiB of the server's memory in the fan-out
benchmark (1,000 pages connecting at once, each waiting its turn on the database
thread; ``benchmarks/fanout_vs_baseline.py``), and a reconnecting crowd after a deploy
asks it thousands of times for the same twenty tables. A table found is taken on trust
for ``seconds``; one not found is asked about every time, so a new table opens at once.
"""

from __future__ import annotations

from .clock import Clock

KNOWN_SECONDS = 10.0
PRUNE_AFTER = 1024  # slugs kept before the ones not found lately are forgotten (renamed tables)


class KnownTables:
    """Table slugs found to exist, and when."""

    def __init__(self, clock: Clock, seconds: float = KNOWN_SECONDS) -> None:
        self.clock, self.seconds = clock, seconds
        self._found: dict[str, float] = {}

    def known(self, slug: str) -> bool:
        """Whether the table was found within the last ``seconds``."""
        found = self._found.get(slug)
        return found is not None and self.clock.monotonic() - found < self.seconds

    def found(self, slug: str) -> None:
        """The database has the table now."""
        now = self.clock.monotonic()
        self._found[slug] = now
        if len(self._found) > PRUNE_AFTER:
            self._found = {s: at for s, at in self._found.items() if now - at < self.seconds}

    def slugs(self) -> int:
        """Slugs remembered (for the tests: what this keeps stays bounded)."""
        return len(self._found)
