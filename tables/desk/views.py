"""Reviewer pages (staff only): statistics per table and date range, and exports."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable, Iterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import admin
from django.contrib.auth.decorators import permission_required, user_passes_test
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from .. import selectors
from ..surveillance.alarm_admin import desk_alarms
from . import capacity, dealers, exports, review

GLANCE_SHOES = 50  # the latest shoes tested for the flag
GLANCE_EVENTS = 10  # the latest audit events listed

View = Callable[..., HttpResponseBase]
EXPORT_SLOT_SECONDS = 3600  # an export's slots expire after this if its process died mid-stream
REPORT_SLOT_SECONDS = 120
RETRY_AFTER = {"exports": 10, "reports": 2}  # seconds: about how long one takes


def _exports() -> capacity.Caps:
    return capacity.Caps("exports", settings.EXPORTS_PER_USER, settings.EXPORTS_AT_ONCE, EXPORT_SLOT_SECONDS)


def _reports() -> capacity.Caps:
    return capacity.Caps("reports", settings.REPORTS_PER_USER, settings.REPORTS_AT_ONCE, REPORT_SLOT_SECONDS)


def _busy_message(caps: capacity.Caps) -> str:
    if caps.name == "exports":
        text = _(
            "Too many exports are under way (at most %(per_user)d of yours and %(total)d in all at once): "
            "try again when one has finished."
        )
    else:
        text = _(
            "Too many reports are being made (at most %(per_user)d of yours and %(total)d in all at once): "
            "try again in a moment."
        )
    return text % {"per_user": caps.per_user, "total": caps.total}


def _busy(request: HttpRequest, caps: capacity.Caps, *, as_json: bool) -> HttpResponse:
    """429 with ``Retry-After``: JSON for a download (read by machines, in English), the
    error page for a page."""
    if as_json:
        with translation.override("en"):
            response: HttpResponse = JsonResponse(
                {"errors": [{"field": None, "message": _busy_message(caps)}]}, status=429
            )
    else:
        response = render(request, "429.html", {"message": _busy_message(caps)}, status=429)
    response["Retry-After"] = str(RETRY_AFTER[caps.name])
    return response


def capped_report(*, as_json: bool = False) -> Callable[[View], View]:
    """A report over history (a page or a download rendered whole): it holds a reviewer's
    slot and one of everyone's while it is made (tables/desk/capacity.py)."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def capped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
            caps = _reports()
            held = capacity.slots_take(caps, user=request.user.pk)
            if held is None:
                return _busy(request, caps, as_json=as_json)
            try:
                return view(request, *args, **kwargs)
            finally:
                held.release()

        return capped

    return decorate


class _ChunksForASGI:
    """An export's chunks for an ASGI server, each read on Django's thread for sync code
    (where the export's database cursor lives): given a plain iterator, Django under ASGI
    would read the whole export into memory before sending a byte."""

    def __init__(self, chunks: capacity.Releasing) -> None:
        self._chunks = chunks

    def __aiter__(self) -> AsyncIterator[str | bytes]:
        return self

    async def __anext__(self) -> str | bytes:
        chunk = await sync_to_async(self._next, thread_sensitive=True)()
        if chunk is None:
            raise StopAsyncIteration
        return chunk

    def _next(self) -> str | bytes | None:
        """The next chunk, ``None`` at the end (StopIteration cannot leave a thread's future)."""
        return next(self._chunks, None)

    def close(self) -> None:
        """The response is closed (on Django's thread for sync code): the export's cursor
        closed and its slots given back."""
        self._chunks.close()


def reviewer_only(view: View) -> View:
    """Staff who may view rounds: a reviewer (or an owner). Anyone else signed in is
    refused (403); a visitor goes to admin's login."""
    return user_passes_test(lambda user: user.is_active and user.is_staff, login_url="admin:login")(
        permission_required("tables.view_round", raise_exception=True)(view)
    )


@reviewer_only
@require_http_methods(["GET", "HEAD"])
@capped_report()
def review_page(request: HttpRequest) -> HttpResponse:
    """The report of the selection in the query, summed on the request from the shoe
    days kept as rounds arrive (a year of history costs a row a shoe a day, not its
    rounds); the shoes a page at a time (``page``)."""
    query = request.GET.copy()
    page = query.pop("page", ["1"])[-1]
    form = review.ReviewForm(query)  # every field is optional: no query is the whole history
    context: dict[str, object] = {"form": form, "query": query.urlencode()}
    if not form.is_valid():
        return render(request, "tables/review.html", context, status=400)
    selection = review.Selection.of(form)
    report = review.report(selection, page)
    context |= {"selection": selection} | report | review.figures(report)
    return render(request, "tables/review.html", context)


def _selection_or_errors(request: HttpRequest) -> review.Selection | JsonResponse:
    form = review.ReviewForm(request.GET)
    with translation.override("en"):  # an export's errors are JSON, read by machines: English
        valid = form.is_valid()
    if not valid:
        errors = [{"field": field, "message": " ".join(map(str, messages))} for field, messages in form.errors.items()]
        return JsonResponse({"errors": errors}, status=400)
    return review.Selection.of(form)


def _export(
    request: HttpRequest, chunks: Callable[[review.Selection], Iterator[str | bytes]], name: str, content_type: str
) -> HttpResponseBase:
    selection = _selection_or_errors(request)
    if isinstance(selection, JsonResponse):
        return selection
    rounds = selection.played_rounds()
    if rounds > settings.EXPORT_MAX_ROUNDS:
        field = "start" if selection.start is None else "end"
        message = (
            f"this range holds {rounds:,} rounds, more than one download takes ({settings.EXPORT_MAX_ROUNDS:,}):"
            " choose a shorter date range"
        )
        return JsonResponse({"errors": [{"field": field, "message": message}]}, status=400)
    caps = _exports()
    held = capacity.slots_take(caps, user=request.user.pk)
    if held is None:
        return _busy(request, caps, as_json=True)
    content = capacity.Releasing(chunks(selection), held)
    streamed = _ChunksForASGI(content) if isinstance(request, ASGIRequest) else content
    response = StreamingHttpResponse(streamed, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@reviewer_only
def export_csv(request: HttpRequest) -> HttpResponseBase:
    return _export(request, exports.export_csv_lines, "rounds.csv", "text/csv; charset=utf-8")


@reviewer_only
def export_json(request: HttpRequest) -> HttpResponseBase:
    return _export(request, exports.export_json_chunks, "rounds.json", "application/json")


def _dealer_selection(request: HttpRequest) -> tuple[dealers.DealerReportForm, dealers.DealerSelection | None]:
    form = dealers.DealerReportForm(request.GET)  # every field optional: no query is the whole history
    return form, dealers.DealerSelection.of(form) if form.is_valid() else None


@reviewer_only
@require_http_methods(["GET", "HEAD"])
@capped_report()
def dealer_report_page(request: HttpRequest) -> HttpResponse:
    """Per dealer and per table over a date range: rounds dealt, voids, cancels, refused
    posts and plaintexts, alarms, shoes and their lengths, summed from the dealer days."""
    form, selection = _dealer_selection(request)
    query = request.GET.copy()
    query.pop("sort", None)
    context: dict[str, object] = {"form": form, "query": query.urlencode(), "full_query": request.GET.urlencode()}
    if selection is None:
        return render(request, "tables/dealers.html", context, status=400)
    context["selection"] = selection
    context |= dealers.dealer_report(selection)
    return render(request, "tables/dealers.html", context)


@reviewer_only
@require_http_methods(["GET", "HEAD"])
@capped_report(as_json=True)
def dealer_report_csv(request: HttpRequest) -> HttpResponseBase:
    """The dealer report as CSV (the same query, the same figures); a bad query is 400
    naming its field, in English, as the round exports' errors."""
    with translation.override("en"):
        form, selection = _dealer_selection(request)
    if selection is None:
        errors = [{"field": field, "message": " ".join(map(str, messages))} for field, messages in form.errors.items()]
        return JsonResponse({"errors": errors}, status=400)
    response = HttpResponse(
        "".join(dealers.report_csv(dealers.dealer_report(selection))), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = 'attachment; filename="dealers.csv"'
    return response


def admin_index(request: HttpRequest) -> HttpResponse:
    """Admin's index with the reviewer's desk above its apps: flagged shoes and recent
    voids at a glance, for those who may view rounds (``config/urls.py`` serves it through
    ``admin.site.admin_view``, staff only, before admin's own index)."""
    glance = None
    if request.user.has_perm("tables.view_round"):
        threshold = settings.REVIEW_P_THRESHOLD
        glance = {
            "threshold": threshold,
            "shoes": GLANCE_SHOES,
            "flagged": selectors.recent_flagged_shoes(threshold=threshold, shoes=GLANCE_SHOES),
            "events": selectors.recent_audit_events(limit=GLANCE_EVENTS),
        }
    return admin.site.index(request, extra_context={"glance": glance, "alarms": desk_alarms(request)})
