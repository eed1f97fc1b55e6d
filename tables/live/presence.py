"""Which push groups have a page open somewhere, so a change nobody watches renders nothing.

A venue has hundreds of tables but only some table pages open at a time. Each server
process knows the pages it serves per group (:class:`~.fanout.Fanout`) and marks the
groups in the shared cache, with an expiry it keeps renewing while they are open (from
the server's lifespan). A process that dies stops renewing, and its marks lapse. A page
that opens resyncs from the database on its own, so a push skipped just before it
costs nothing.
"""

from __future__ import annotations

import logging

from django.core.cache import cache

log = logging.getLogger(__name__)

MARK_SECONDS = 60  # a mark lives this long unless renewed
RENEW_SECONDS = 20  # how often a server renews its marks


def _key(group: str) -> str:
    return f"watched:{group}"


async def amark(groups: list[str]) -> None:
    """Mark ``groups`` watched now: a process's first page of a group (its later pages are
    covered by the renewals; a cache call per page would leave each page's socket holding
    a cache client of its own, as Django keeps one per context)."""
    try:
        await cache.aset_many({_key(group): True for group in groups}, timeout=MARK_SECONDS)
    except Exception:
        log.warning("could not mark %s watched", groups, exc_info=True)


def mark(groups: list[str]) -> None:
    """Mark ``groups`` watched again (the server's renewals, from a thread)."""
    if groups:
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
