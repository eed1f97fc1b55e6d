"""The API object, its error shape and auth: every error is ``{"errors": [{"field": ..., "message": ...}]}``."""

from __future__ import annotations

import logging
import math
import re
import sys
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.views import defaults
from ninja import NinjaAPI, Schema
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.operation import Operation
from ninja.security import HttpBearer

from .. import services
from ..access.throttles import client_address, failures
from ..game.validation import IllegalRoundError
from ..middleware import response_middleware
from ..models import Table
from ..operations import context
from ..operations.metrics import AUTH_FAILURES, CARDS_REFUSED, ROUNDS_REFUSED, THROTTLED
from .bodies import BodyError, JsonBody, _too_large

log = logging.getLogger(__name__)

MAX_ERRORS = 10  # a 422 names at most this many problems: a bad body never makes a bigger answer


class TablesAPI(NinjaAPI):
    """The API, its operation IDs named for their operation alone (``tables_api_round_create``),
    whichever module of the package holds it: the IDs clients generated code from stay."""

    def get_openapi_operation_id(self, operation: Operation) -> str:
        return f"tables_api_{operation.view_func.__name__}"


api = TablesAPI(
    title="Baccarat roads dashboard API",
    version="1",
    description=(
        "Dealer systems post rounds with their table's Bearer token; reads are public. Every error is "
        '`{"errors": [{"field": ..., "message": ...}]}`.'
    ),
    urls_namespace="api",
    parser=JsonBody(),
)


# --- Errors: always {"errors": [{"field": ..., "message": ...}]} ---------------------


class ErrorOut(Schema):
    field: str | None
    message: str


class ErrorsOut(Schema):
    errors: list[ErrorOut]


def error_response(request: HttpRequest, status: int, message: str, field: str | None = None) -> HttpResponse:
    return api.create_response(request, {"errors": [{"field": field, "message": message}]}, status=status)


def _field_path(loc: tuple[Any, ...]) -> str:
    """("body", "payload", "banker", 2) -> "banker[2]"."""
    parts = list(loc[2:] if loc[:1] == ("body",) else loc[1:]) or ["body"]
    path = str(parts[0])
    for part in parts[1:]:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def _bounded(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """At most :data:`MAX_ERRORS` errors, the last saying how many more there were."""
    if len(errors) <= MAX_ERRORS:
        return errors
    more = len(errors) - (MAX_ERRORS - 1)
    return [*errors[: MAX_ERRORS - 1], {"field": None, "message": f"and {more} more errors"}]


@api.exception_handler(ValidationError)
def _validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    _round_refused(request, "invalid")
    errors = [{"field": _field_path(tuple(e.get("loc", ()))), "message": e.get("msg", "invalid")} for e in exc.errors]
    return api.create_response(request, {"errors": _bounded(errors)}, status=422)


@api.exception_handler(IllegalRoundError)
def _illegal_round(request: HttpRequest, exc: IllegalRoundError) -> HttpResponse:
    _round_refused(request, "illegal")
    errors = [{"field": e.field, "message": e.message} for e in exc.errors]
    return api.create_response(request, {"errors": _bounded(errors)}, status=422)


@api.exception_handler(AuthenticationError)
def _unauthorized(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    """401, or 429 once the client's address has failed too often (:mod:`.access.throttles`).
    A right token never gets here."""
    AUTH_FAILURES.labels("token").inc()
    wait = failures.count(client_address(request))
    _round_refused(request, "unauthorized" if wait is None else "throttled")
    if wait is not None:
        THROTTLED.labels("token").inc()
        response = error_response(
            request, 429, "too many failed authentications from this address: wait and check the token", "Authorization"
        )
        response["Retry-After"] = str(max(1, math.ceil(wait)))
        return response
    response = error_response(
        request, 401, "missing or wrong token: send 'Authorization: Bearer <token>' for this table", "Authorization"
    )
    response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    _round_refused(request, "unreadable")
    if isinstance(exc.__cause__, BodyError):  # ninja wraps what the parser raises
        return error_response(request, exc.__cause__.status, exc.__cause__.message, "body")
    if exc.__cause__ is not None:
        log.warning("unreadable body for %s %s", request.method, request.path, exc_info=exc.__cause__)
        return error_response(request, 400, "the body could not be read", "body")
    return error_response(request, exc.status_code, str(exc))


@api.exception_handler(RequestDataTooBig)
def _too_big(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
    _round_refused(request, "too_large")
    return error_response(request, 413, _too_large(request), "body")


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return error_response(request, 404, str(exc) or "not found")


@api.exception_handler(services.ServiceError)
def _refused(request: HttpRequest, exc: services.ServiceError) -> HttpResponse:
    """Every refusal of a service, with the status and field it carries."""
    _round_refused(request, _reason(exc))
    return error_response(request, exc.status, str(exc), exc.field)


@api.exception_handler(OperationalError)
@api.exception_handler(InterfaceError)
def _database_unavailable(request: HttpRequest, exc: OperationalError | InterfaceError) -> HttpResponse:
    """The database is down or unreachable: nothing was recorded, and the same request
    can be sent again (a round sent with its ``number`` is never recorded twice)."""
    log.warning("database unavailable for %s %s: %s", request.method, request.path, exc)
    _round_refused(request, "database_unavailable")
    response = error_response(request, 503, _DATABASE_DOWN)
    response["Retry-After"] = "2"
    return response


@api.exception_handler(Exception)
def _server_error(request: HttpRequest, exc: Exception) -> HttpResponse:
    """A bug: logged with its traceback; the client gets the documented shape, and no
    Python internals."""
    log.error("%s %s failed", request.method, request.path, exc_info=exc)
    return error_response(request, 500, _SERVER_ERROR)


def _round_refused(request: HttpRequest, reason: str) -> None:
    """Count a refused round or card post by its reason (``/metrics``), and on the day of
    the table's dealer when the post came with the table's token: a stranger's posts
    (no token, a wrong one) are the table's attackers', not its dealer's."""
    if request.method == "POST" and request.path.endswith("/rounds"):
        ROUNDS_REFUSED.labels(reason).inc()
    elif request.method == "POST" and request.path.endswith("/cards"):
        CARDS_REFUSED.labels(reason).inc()
    else:
        return
    table = getattr(request, "auth", None)
    if isinstance(table, Table) and reason != "database_unavailable":
        services.dealer_day_refused(table=table, reason=reason)


def _reason(error: Exception) -> str:
    """A refusal's reason as the metric names it: ``RoundConflictError`` is ``round_conflict``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(error).__name__.removesuffix("Error")).lower()


_DATABASE_DOWN = "the database is unavailable: nothing was recorded, retry shortly"
_SERVER_ERROR = "the server failed to handle the request; a round sent with its number can be sent again safely"


# --- Django's own error pages, for requests that never reach an API operation (no such
# URL, a Host header not allowed, a body over Django's limit): JSON under /api/ too.


def _api_path(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _api_path(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        return _json_errors(413, _too_large(), "body")
    return _json_errors(400, "the request was refused before the API read it (a malformed request or Host header)")


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _api_path(request):
        return defaults.page_not_found(request, exception)
    return _json_errors(404, "no such API path: see /api/docs")


def server_error(request: HttpRequest) -> HttpResponse:
    """A request that failed: 500, or, while the database is down (the exception being
    handled is one of its), 503 with ``Retry-After``: nothing went wrong that sending the
    request again a moment later will not mend. A page in the reader's language, or the
    API's JSON under /api/."""
    down = isinstance(sys.exc_info()[1], OperationalError | InterfaceError)
    if _api_path(request):
        response: HttpResponse = _json_errors(503, _DATABASE_DOWN) if down else _json_errors(500, _SERVER_ERROR)
    else:
        response = defaults.server_error(request, template_name="503.html" if down else "500.html")
    if down:
        response.status_code = 503
        response["Retry-After"] = "2"
    return response


def _method_not_allowed_as_json(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """A method an API path does not take gets the API's JSON error, with ``Allow``
    (django-ninja answers it with Django's bare text 405)."""
    if response.status_code != 405 or not _api_path(request) or isinstance(response, JsonResponse):
        return response
    allowed = ", ".join(sorted(m.strip() for m in response.headers.get("Allow", "").split(",") if m.strip()))
    error = _json_errors(405, f"{request.method} is not taken here; this path takes {allowed or 'nothing'}")
    error.headers["Allow"] = allowed
    return error


json_method_not_allowed = response_middleware(_method_not_allowed_as_json)


def _json_errors(status: int, message: str, field: str | None = None) -> JsonResponse:
    errors = {"errors": [{"field": field, "message": message}]}
    return JsonResponse(errors, status=status, content_type="application/json; charset=utf-8")


# --- Auth: one token per table ---------------------------------------------------------


SLUG = re.compile(r"[-a-zA-Z0-9_]{1,40}")


def _table(slug: str) -> Table:
    if not SLUG.fullmatch(slug):  # no table has it; and PostgreSQL would refuse a NUL in a query
        raise Http404(f"no table {slug[:40]!r}")
    try:
        return Table.objects.get(slug=slug)
    except Table.DoesNotExist:
        raise Http404(f"no table {slug!r}") from None


class TableRequest(HttpRequest):
    """A request that :class:`TableToken` let in: ``auth`` is the table of its path."""

    auth: Table


class TableToken(HttpBearer):
    """Bearer token of the table named in the path; a token never opens another table."""

    def authenticate(self, request: HttpRequest, token: str) -> Table | None:
        match = request.resolver_match
        table = _table(match.kwargs["slug"] if match else "")
        context.bind(table=table.slug)  # its log lines name it, refused or not
        return table if table.check_token(token) else None


# --- What each operation can answer --------------------------------------------------
# Each lists every status it can answer. 400 comes from Django before an operation runs
# (a Host header not allowed); 503 from any operation while the database is down.

READ_ERRORS: dict[int, Any] = {400: ErrorsOut, 404: ErrorsOut, 500: ErrorsOut, 503: ErrorsOut}
WRITE_ERRORS: dict[int, Any] = {**READ_ERRORS, 401: ErrorsOut, 429: ErrorsOut}
BODY_ERRORS: dict[int, Any] = {**WRITE_ERRORS, 409: ErrorsOut, 413: ErrorsOut, 415: ErrorsOut, 422: ErrorsOut}
