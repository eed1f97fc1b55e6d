"""Which push groups have a page open somewhere, so a change nobody watches renders nothing.

A venue has hundreds of tables but only some table pages open at a time. Each server
process counts the pages it serves per group (:class:`PagesOpen`) and marks the groups
in the shared cache, with an expiry it keeps renewing while they are open (from the
server's lifespan). A process that dies stops renewing, and its marks lapse. A page
that opens resyncs from the database on its own, so a push skipped just before it
costs nothing.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter

from django.core.cache import cache

log = logging.getLogger(__name__)

MARK_SECONDS = 60  # a mark lives this long unless renewed
RENEW_SECONDS = 20  # how often a server renews its marks


def _key(group: str) -> str:
    return f"watched:{group}"


class PagesOpen:
    """The pages this process serves, counted per group."""

    def __init__(self) -> None:
        self._count: Counter[str] = Counter()
        self._lock = threading.Lock()

    async def watch(self, group: str) -> None:
        """A page of ``group`` opened here: counted, and the group marked at once if it is
        its first page here (later ones are covered by :meth:`renew`, and a cache call per
        page would leave each page's socket holding a cache client of its own: Django keeps
        one per context)."""
        with self._lock:
            self._count[group] += 1
            first = self._count[group] == 1
        if not first:
            return
        try:
            await cache.aset_many({_key(group): True}, timeout=MARK_SECONDS)
        except Exception:
            log.warning("could not mark %s watched", group, exc_info=True)

    def unwatch(self, group: str) -> None:
        """A page of ``group`` closed; its mark lapses unless another page keeps it."""
        with self._lock:
            self._count[group] -= 1
            if self._count[group] <= 0:
                del self._count[group]

    def groups(self) -> list[str]:
        with self._lock:
            return list(self._count)

    def renew(self) -> None:
        """Mark again every group with a page open in this process."""
        if groups := self.groups():
            try:
                cache.set_many({_key(group): True for group in groups}, timeout=MARK_SECONDS)
            except Exception:
                log.warning("could not mark %d watched groups", len(groups), exc_info=True)


def watched(*groups: str) -> dict[str, bool]:
    """Whether each group has a page open in some process. With the cache unreachable,
    every group counts as watched: a push too many beats a page left stale."""
    try:
        found = cache.get_many([_key(group) for group in groups])
    except Exception:
        log.warning("presence unknown, pushing anyway", exc_info=True)
        return dict.fromkeys(groups, True)
    return {group: _key(group) in found for group in groups}
