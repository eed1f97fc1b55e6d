"""The dealer ingest API and public read API (OpenAPI schema at /api/docs)."""

from __future__ import annotations

import logging
from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse
from ninja import Field, NinjaAPI, Schema, Status
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.security import HttpBearer
from pydantic import ConfigDict

from roads import selectors as road_selectors

from . import selectors, services
from .game.validation import IllegalRoundError
from .models import Table

log = logging.getLogger(__name__)

api = NinjaAPI(
    title="Baccarat roads dashboard API",
    version="1",
    description="Dealer systems post rounds with their table's Bearer token; reads are public.",
    urls_namespace="api",
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


@api.exception_handler(ValidationError)
def _validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    errors = [{"field": _field_path(tuple(e.get("loc", ()))), "message": e.get("msg", "invalid")} for e in exc.errors]
    return api.create_response(request, {"errors": errors}, status=422)


@api.exception_handler(IllegalRoundError)
def _illegal_round(request: HttpRequest, exc: IllegalRoundError) -> HttpResponse:
    errors = [{"field": e.field, "message": e.message} for e in exc.errors]
    return api.create_response(request, {"errors": errors}, status=422)


@api.exception_handler(AuthenticationError)
def _unauthorized(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    response = error_response(
        request, 401, "missing or wrong token: send 'Authorization: Bearer <token>' for this table", "Authorization"
    )
    response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    if isinstance(exc.__cause__, ValueError):  # the body is not JSON
        return error_response(request, 422, f"malformed JSON: {exc.__cause__}", "body")
    return error_response(request, exc.status_code, str(exc))


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return error_response(request, 404, str(exc) or "not found")


@api.exception_handler(services.NoOpenShoeError)
def _no_open_shoe(request: HttpRequest, exc: services.NoOpenShoeError) -> HttpResponse:
    return error_response(request, 409, str(exc))


@api.exception_handler(services.RoundConflictError)
def _conflict(request: HttpRequest, exc: services.RoundConflictError) -> HttpResponse:
    return error_response(request, 409, str(exc), "round")


@api.exception_handler(OperationalError)
@api.exception_handler(InterfaceError)
def _database_unavailable(request: HttpRequest, exc: OperationalError | InterfaceError) -> HttpResponse:
    """The database is down or unreachable: nothing was recorded, and the same request
    can be sent again (a round sent with its ``number`` is never recorded twice)."""
    log.warning("database unavailable for %s %s: %s", request.method, request.path, exc)
    response = error_response(request, 503, "the database is unavailable: nothing was recorded, retry shortly")
    response["Retry-After"] = "2"
    return response


# --- Auth: one token per table ---------------------------------------------------------


def _table(slug: str) -> Table:
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
        return table if table.check_token(token) else None


# --- Schemas ---------------------------------------------------------------------------


class RoundIn(Schema):
    model_config = ConfigDict(extra="forbid")

    player: list[str] = Field(description="Player's cards in dealing order, e.g. ['AH', '5S', 'KD'].")
    banker: list[str] = Field(description="Banker's cards in dealing order.")
    round: int | None = Field(None, ge=1, description="Number of the round in the current shoe; the next when absent.")
    dealer: str | None = Field(None, max_length=80, description="Dealer on the table now.")


class BetOut(Schema):
    result: str = Field(description="win, lose, push or unavailable")
    pays: float | None = Field(description="Net result per unit staked: odds on a win, -1 lost, 0 push.")


class NaturalOut(Schema):
    player: int | None
    banker: int | None


class RoundOut(Schema):
    id: str
    shoe: int
    number: int
    winner: str
    player_score: int
    banker_score: int
    player_cards: list[str]
    banker_cards: list[str]
    player_pair: bool
    banker_pair: bool
    perfect_pair: bool
    natural: NaturalOut
    bets: dict[str, BetOut]
    dealer: str
    created_at: str
    voided: bool
    void_reason: str


class RoundEnvelope(Schema):
    round: RoundOut


class ShoeOut(Schema):
    number: int
    state: str
    decks: int
    started_at: str
    ended_at: str | None


class ShoeEnvelope(Schema):
    shoe: ShoeOut


class RoundsOut(Schema):
    table: str
    shoe: ShoeOut | None
    rounds: list[RoundOut]


# --- Endpoints -------------------------------------------------------------------------


@api.post(
    "/tables/{slug}/shoes",
    auth=TableToken(),
    response={201: ShoeEnvelope, 401: ErrorsOut, 404: ErrorsOut, 503: ErrorsOut},
    summary="Start a new shoe (ends the open one)",
)
def shoe_create(request: TableRequest, slug: str) -> Status[dict[str, Any]]:
    shoe = services.shoe_start(table=request.auth)
    return Status(201, {"shoe": selectors.shoe_to_data(shoe)})


@api.post(
    "/tables/{slug}/rounds",
    auth=TableToken(),
    response={
        200: RoundEnvelope,
        201: RoundEnvelope,
        401: ErrorsOut,
        404: ErrorsOut,
        409: ErrorsOut,
        422: ErrorsOut,
        503: ErrorsOut,
    },
    summary="Record a round",
    description=(
        "201 with the round; 200 with the same body when an identical round is replayed; "
        "409 when no shoe is open or the number is not the next one or was recorded with other cards; "
        "422 for any invalid input, naming the field."
    ),
)
def round_create(request: TableRequest, slug: str, payload: RoundIn) -> Status[dict[str, Any]]:
    recorded = services.round_record(
        table=request.auth, player=payload.player, banker=payload.banker, number=payload.round, dealer=payload.dealer
    )
    return Status(201 if recorded.created else 200, {"round": selectors.round_to_data(recorded.round)})


@api.get("/tables/{slug}/roads", response={200: dict, 404: ErrorsOut}, summary="Roads of the current shoe")
def roads_current(request: HttpRequest, slug: str) -> Status[dict[str, Any]]:
    shoe = selectors.shoe_find(table=_table(slug), which="current")
    return Status(200, road_selectors.shoe_roads(shoe=shoe).roads.to_data())


@api.get("/tables/{slug}/shoes/{number}/roads", response={200: dict, 404: ErrorsOut}, summary="Roads of a shoe")
def roads_of_shoe(request: HttpRequest, slug: str, number: int) -> Status[dict[str, Any]]:
    shoe = selectors.shoe_find(table=_table(slug), which=str(number))
    if shoe is None:
        raise Http404(f"table {slug!r} has no shoe {number}")
    return Status(200, road_selectors.shoe_roads(shoe=shoe).roads.to_data())


@api.get(
    "/tables/{slug}/rounds", response={200: RoundsOut, 404: ErrorsOut, 422: ErrorsOut}, summary="List a shoe's rounds"
)
def round_list(request: HttpRequest, slug: str, shoe: str = "current") -> Status[dict[str, Any]]:
    if shoe != "current" and not shoe.isdigit():
        return Status(422, {"errors": [{"field": "shoe", "message": "expected 'current' or a shoe number"}]})
    table = _table(slug)
    found = selectors.shoe_find(table=table, which=shoe)
    if found is None and shoe != "current":
        raise Http404(f"table {slug!r} has no shoe {shoe}")
    rounds = [selectors.round_to_data(r) for r in selectors.shoe_rounds(shoe=found)] if found else []
    return Status(
        200, {"table": table.slug, "shoe": selectors.shoe_to_data(found) if found else None, "rounds": rounds}
    )
