"""Reviewer pages (staff only): statistics per table and date range, and exports."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.decorators import permission_required, user_passes_test
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.http import require_http_methods

from .. import selectors
from ..surveillance.alarm_admin import desk_alarms
from . import dealers, exports, review

GLANCE_SHOES = 50  # the latest shoes tested for the flag
GLANCE_EVENTS = 10  # the latest audit events listed

View = Callable[..., HttpResponseBase]


def reviewer_only(view: View) -> View:
    """Staff who may view rounds: a reviewer (or an owner). Anyone else signed in is
    refused (403); a visitor goes to admin's login."""
    return user_passes_test(lambda user: user.is_active and user.is_staff, login_url="admin:login")(
        permission_required("tables.view_round", raise_exception=True)(view)
    )


@reviewer_only
@require_http_methods(["GET", "HEAD"])
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
    response = StreamingHttpResponse(chunks(selection), content_type=content_type)
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
