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
  and what this process has already forgotten of it. A push records the state it brings
  only if the state it started from is still the one recorded (compare-and-set): a
  table's round push (a server) and its odds push (a worker) run at once, and the slower
  one must not put back a state the pages have left behind.

Every read survives the cache being down and leans to a push too many: a page left
stale is worse than a render spent.
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
from dataclasses import dataclass

from django.core.cache import cache, caches
from django.core.cache.backends.base import BaseCache
from django_redis import get_redis_connection
from django_redis.cache import RedisCache
from redis.commands.core import Script

from ..page_version import PageVersion

log = logging.getLogger(__name__)

MARK_SECONDS = 60  # a presence mark lives this long unless renewed
RENEW_SECONDS = 20  # how often a server renews its marks
PUSHED_SECONDS = 3600  # the state a table's pages were last pushed, for the next push's delta
CLAIM_SECONDS = 3600
CACHE = "default"

# Redis compares and sets in one step; ARGV[1] is the text expected ("": no state).
_SWAP = """
local stored = redis.call('GET', KEYS[1])
if (stored == false and ARGV[1] == '') or stored == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
  return 1
end
return 0
"""
# The local-memory cache is this process's alone: one lock makes its swaps atomic.
_LOCAL_SWAPS = threading.Lock()


@dataclass(frozen=True)
class Pushed:
    """The state a table's pages in one language were last pushed, as read: the version
    a delta starts from (None: push them the whole part), and the stored text a push
    that records its own state expects to find still there."""

    version: PageVersion | None
    stored: str | None


NOTHING_PUSHED = Pushed(None, None)  # no state recorded (or the cache is down)


class PushLedger:
    """The push protocol's state in Django's default cache."""

    def __init__(self) -> None:
        self.store: BaseCache = cache  # each thread and context its own client, as Django keeps them
        # Redis stores the state last pushed as plain text, which a script compares;
        # django-redis would pickle it.
        self._redis = isinstance(caches[CACHE], RedisCache)
        self._swap_script: Script | None = None
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

    def last_pushed(self, table_id: int, language: str, look: str = "") -> Pushed:
        """The state the table's pages in ``language`` were last pushed, if known, and if
        they were pushed it with the table looking as ``look`` says (its name and limits:
        a delta does not carry them)."""
        try:
            stored = self._stored(_pushed(table_id, language))
        except Exception:
            return Pushed(None, None)
        try:
            version, pushed_look = str(stored).split(" ")
            return Pushed(PageVersion.parse(version) if pushed_look == look else None, stored)
        except ValueError:
            return Pushed(None, stored)

    def pushed(
        self, table_id: int, language: str, version: PageVersion, look: str = "", *, was: Pushed | None = None
    ) -> bool:
        """The table's pages in ``language`` were just pushed ``version``, the table
        looking as ``look`` says. With ``was`` (what the push read before it rendered),
        only if that is still what is recorded: False when another push recorded a state
        meanwhile (then render again from it). True with the cache down: every push goes
        whole then, from any state."""
        try:
            if not self._swap(
                _pushed(table_id, language), None if was is None else was.stored, f"{version} {look}", was is not None
            ):
                return False
        except Exception:
            log.warning("could not record the state pushed to table %s", table_id, exc_info=True)
            return True
        with self._lock:
            self._forgotten.discard((table_id, language))
        return True

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

    # --- the state last pushed, as text

    def _stored(self, key: str) -> str | None:
        if self._redis:
            raw = get_redis_connection(CACHE).get(self.store.make_key(key))
            return None if raw is None else raw.decode(errors="replace")
        stored = self.store.get(key)
        return None if stored is None else str(stored)

    def _swap(self, key: str, expected: str | None, new: str, compare: bool) -> bool:
        """Store ``new`` under ``key`` if ``expected`` is stored there (None: nothing), or
        whatever is, without ``compare``."""
        if self._redis:
            client = get_redis_connection(CACHE)
            if not compare:
                client.set(self.store.make_key(key), new, ex=PUSHED_SECONDS)
                return True
            if self._swap_script is None:
                self._swap_script = client.register_script(_SWAP)  # sent once, then run by its digest
            return bool(self._swap_script(keys=[self.store.make_key(key)], args=[expected or "", new, PUSHED_SECONDS]))
        with _LOCAL_SWAPS:
            if compare and self._stored(key) != expected:
                return False
            self.store.set(key, new, timeout=PUSHED_SECONDS)
            return True


def _watched(group: str) -> str:
    return f"watched:{group}"


def _pushed(table_id: int, language: str) -> str:
    return f"pushed-version:{table_id}:{language}"
