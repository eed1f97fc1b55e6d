"""The push protocol's shared state, with one owner: :class:`PushLedger`.

Every process of a deployment reads and writes it in the shared cache (Redis when
scaled out, this process's memory otherwise):

- **presence** (``watched:<group>``): which push groups have a page open somewhere. Each
  server marks the groups of its pages, with an expiry it keeps renewing while they are
  open (from its lifespan); a process that dies stops renewing and its marks lapse. A
  change nobody watches renders nothing; a page that opens resyncs on its own.
- **slots** (``push-slot:<table>:<interval>``): the one process that pushes a table in
  an interval.
- **claims** (``pushed:<table>:<version>``): the one process that renders a state.
- **the state last pushed** (``pushed-version:<table>:<language>``): the next push of a
  table sends its pages only what changed since (:class:`~tables.page_version.PageVersion`),
  and what this process has already forgotten of it.

Every read survives the cache being down and leans to a push too many: a page left
stale is worse than a render spent.
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading

from django.core.cache import cache as default_cache
from django.core.cache.backends.base import BaseCache

from ..page_version import PageVersion

log = logging.getLogger(__name__)

MARK_SECONDS = 60  # a presence mark lives this long unless renewed
RENEW_SECONDS = 20  # how often a server renews its marks
PUSHED_SECONDS = 3600  # the state a table's pages were last pushed, for the next push's delta
CLAIM_SECONDS = 3600


class PushLedger:
    """The push protocol's state in ``store`` (Django's default cache unless given)."""

    def __init__(self, store: BaseCache | None = None) -> None:
        self.store: BaseCache = store if store is not None else default_cache
        # The (table, language) pairs whose last pushed state this process has forgotten
        # and not pushed since: forgetting them again would cost a call to the cache on
        # every round of a table whose pages are all in other languages. Another process
        # may have pushed one since; then its key stays, and a page of that language that
        # opens meanwhile asks for the whole state once more (it resyncs anyway).
        self._forgotten: set[tuple[int, str]] = set()
        self._lock = threading.Lock()

    # --- presence

    async def amark(self, groups: list[str]) -> None:
        """Mark ``groups`` watched now: a process's first page of a group (its later pages
        are covered by the renewals; a cache call per page would leave each page's socket
        holding a cache client of its own, as Django keeps one per context)."""
        try:
            await self.store.aset_many({_watched(group): True for group in groups}, timeout=MARK_SECONDS)
        except Exception:
            log.warning("could not mark %s watched", groups, exc_info=True)

    def mark(self, groups: list[str]) -> None:
        """Mark ``groups`` watched again (the server's renewals, from a thread)."""
        if groups:
            try:
                self.store.set_many({_watched(group): True for group in groups}, timeout=MARK_SECONDS)
            except Exception:
                log.warning("could not mark %d watched groups", len(groups), exc_info=True)

    def watched(self, *groups: str) -> dict[str, bool]:
        """Whether each group has a page open in some process. With the cache unreachable,
        every group counts as watched."""
        try:
            found = self.store.get_many([_watched(group) for group in groups])
        except Exception:
            log.warning("presence unknown, pushing anyway", exc_info=True)
            return dict.fromkeys(groups, True)
        return {group: _watched(group) in found for group in groups}

    # --- who pushes

    def take_slot(self, table_id: int, bucket: int, interval: float) -> bool:
        """The table's one push of the interval numbered ``bucket``, for all processes.
        With the cache down, push anyway: the pages would rather have two pushes than none."""
        try:
            return bool(self.store.add(f"push-slot:{table_id}:{bucket}", True, timeout=math.ceil(interval) + 1))
        except Exception:
            return True

    def claim(self, table_id: int, version: PageVersion) -> str | None:
        """Claim the rendering of the table's state ``version``: the claim, or ``None``
        when some process has already pushed it (or is pushing it)."""
        key = f"pushed:{table_id}:{version}"
        return key if self.store.add(key, True, timeout=CLAIM_SECONDS) else None

    def release(self, claim: str) -> None:
        """A claimed push failed: let a later push of the state try again."""
        with contextlib.suppress(Exception):
            self.store.delete(claim)

    # --- what the pages show

    def last_pushed(self, table_id: int, language: str, look: str = "") -> PageVersion | None:
        """The state the table's pages in ``language`` were last pushed, if known, and if
        they were pushed it with the table looking as ``look`` says (its name and limits:
        a delta does not carry them)."""
        try:
            version, pushed_look = str(self.store.get(_pushed(table_id, language))).split(" ")
            return PageVersion.parse(version) if pushed_look == look else None
        except Exception:
            return None

    def pushed(self, table_id: int, language: str, version: PageVersion, look: str = "") -> None:
        """The table's pages in ``language`` were just pushed ``version``, the table
        looking as ``look`` says."""
        with contextlib.suppress(Exception):
            self.store.set(_pushed(table_id, language), f"{version} {look}", timeout=PUSHED_SECONDS)
            with self._lock:
                self._forgotten.discard((table_id, language))

    def forget(self, table_id: int, languages: list[str]) -> None:
        """No page shows the table in these languages: their next push goes whole, to
        pages that open meanwhile (a delta from a state they never had would make them
        ask again). One call to the cache, and none for what this process forgot already."""
        with self._lock:
            fresh = [language for language in languages if (table_id, language) not in self._forgotten]
        if not fresh:
            return
        with contextlib.suppress(Exception):
            self.store.delete_many([_pushed(table_id, language) for language in fresh])
            with self._lock:
                self._forgotten.update((table_id, language) for language in fresh)


def _watched(group: str) -> str:
    return f"watched:{group}"


def _pushed(table_id: int, language: str) -> str:
    return f"pushed-version:{table_id}:{language}"
