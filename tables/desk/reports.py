"""Kept reports: reviewer statistics computed off the request threads and kept for the
review page.

A report reads every round of its selection, a year of history in the end: a page that
computed it while a reviewer waited held a web thread for seconds and, before the rounds
were streamed, grew its worker by hundreds of MiB (the outside probe: 13.5 s and 900 MiB
for 55,568 rounds; six at once pushed the dealers' p99 to 2.6 s). So:

- a selection of at most ``REVIEW_INLINE_ROUNDS`` rounds is computed while the page
  waits (a day or a shoe: fast), anything larger by a job;
- jobs run on the ``reports`` queue (its own Celery worker, which recycles its process
  after each report so memory goes back to the system; with no broker, a thread of its
  own), never beside the odds;
- one job a selection at a time (a claim in the cache), and a reviewer may force a fresh
  report once every ``REVIEW_FRESH_SECONDS``;
- with a broker, beat keeps the whole-history reports fresh (:func:`reports_refresh`).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from ..background.runner import REPORTS_QUEUE, enqueue
from ..models import Table
from .review import Selection, report

log = logging.getLogger(__name__)

REPORT_TASK = "tables.tasks.review_report_compute"

SelectionArgs = tuple[str | None, str | None, str | None, float]  # what a job is queued with


@dataclass(frozen=True)
class Kept:
    """A report computed ahead, with when."""

    report: dict[str, Any]
    computed_at: datetime


def selection_args(selection: Selection) -> SelectionArgs:
    """The selection as a queued job's arguments (names and dates, not objects)."""
    return (
        selection.table.slug if selection.table else None,
        selection.start.isoformat() if selection.start else None,
        selection.end.isoformat() if selection.end else None,
        selection.threshold,
    )


def selection_of(args: SelectionArgs) -> Selection:
    slug, start, end, threshold = args
    table = Table.objects.get(slug=slug) if slug else None
    return Selection(
        table, date.fromisoformat(start) if start else None, date.fromisoformat(end) if end else None, threshold
    )


def _key(selection: Selection) -> str:
    slug, start, end, threshold = selection_args(selection)
    return f"review-report:{slug or '*'}:{start or ''}:{end or ''}:{threshold!r}"


def _claim_key(selection: Selection) -> str:
    return "computing:" + _key(selection)


def kept(selection: Selection) -> Kept | None:
    """The kept report of this selection, if there is one."""
    try:
        found = cache.get(_key(selection))
    except Exception:
        return None  # the cache is down: the page says the report is being computed
    return found if isinstance(found, Kept) else None


def computing(selection: Selection) -> bool:
    """Whether a job computes this selection's report now (or waits its turn)."""
    try:
        return cache.get(_claim_key(selection)) is not None
    except Exception:
        return False


def small(selection: Selection) -> bool:
    """Few enough rounds to compute while the page waits."""
    return selection.rounds().filter(voided=False).count() <= settings.REVIEW_INLINE_ROUNDS


def queue(selection: Selection) -> bool:
    """Queue a job that computes and keeps this selection's report, unless one is queued
    or running already. Returns whether this call queued it."""
    try:
        if not cache.add(_claim_key(selection), True, timeout=settings.REVIEW_JOB_SECONDS):
            return False
    except Exception:
        log.warning("cannot queue a report: the cache is unreachable (the page asks again as it refreshes)")
        return False
    enqueue(REPORT_TASK, report_compute, *selection_args(selection), queue=REPORTS_QUEUE)
    return True


def report_compute(slug: str | None, start: str | None, end: str | None, threshold: float) -> None:
    """The job: compute the selection's report, keep it, release the claim."""
    selection = selection_of((slug, start, end, threshold))
    try:
        keep(selection)
    finally:
        cache.delete(_claim_key(selection))


def keep(selection: Selection) -> Kept:
    computed = Kept(report(selection), timezone.now())
    cache.set(_key(selection), computed, timeout=settings.REVIEW_KEEP_SECONDS)
    return computed


def reports_refresh() -> int:
    """Compute and keep the whole-history report of all tables and of each table (beat,
    on the reports queue). Returns how many were kept."""
    threshold = settings.REVIEW_P_THRESHOLD
    selections = [Selection(None, None, None, threshold)]
    selections += [Selection(table, None, None, threshold) for table in Table.objects.order_by("name")]
    for selection in selections:
        keep(selection)
    return len(selections)


def fresh_wait(username: str) -> float:
    """Seconds until this reviewer may force a fresh report again (0: now, and the
    window starts)."""
    key = f"review-fresh:{username}"
    until = time.time() + settings.REVIEW_FRESH_SECONDS
    try:
        if cache.add(key, until, timeout=settings.REVIEW_FRESH_SECONDS):
            return 0.0
        return max(1.0, float(cache.get(key) or until) - time.time())
    except Exception:
        return settings.REVIEW_FRESH_SECONDS  # the cache is unreachable: no job could be claimed either
