"""The dealer ingest API and public read API (OpenAPI schema at /api/docs)."""

from __future__ import annotations

import json
import logging
import math
import re
from typing import Annotated, Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.views import defaults
from ninja import Field, NinjaAPI, Path, Query, Schema, Status
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser
from ninja.security import HttpBearer
from pydantic import ConfigDict, StrictInt, StrictStr, StringConstraints, WithJsonSchema
from pydantic import ValidationError as PydanticValidationError

from roads import selectors as road_selectors

from . import selectors, services
from .access.throttles import client_address, failures
from .game.authentication import PLAINTEXT_MAX
from .game.cards import CODE_PATTERN
from .game.validation import IllegalRoundError
from .middleware import response_middleware
from .models import Table
from .pages import receipts

log = logging.getLogger(__name__)

MAX_ERRORS = 10  # a 422 names at most this many problems: a bad body never makes a bigger answer
LARGEST_INTEGER = 10**18  # the largest round number the schema allows (any beyond the next is a 409)
MAX_DIGITS = 30  # integers in a body: longer ones are refused before they are read
LARGEST_SHOE = 999_999_999  # shoe numbers in paths and queries (stored as integers)


# --- Bodies: JSON text in UTF-8, sent as JSON, small -------------------------------------


class BodyError(Exception):
    """A request body the API refuses before reading any field of it."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


def _json_int(text: str) -> int:
    """No field takes a number near this long; Python refuses to read past 4,300 digits,
    with a message about its own internals."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BodyError(422, f"malformed JSON: a number in the body has more than {MAX_DIGITS} digits")
    return int(text)


def _no_constant(name: str) -> None:
    raise BodyError(422, f"malformed JSON: {name} is not a JSON number")


class JsonBody(Parser):
    """The API's request bodies: ``Content-Type: application/json``, UTF-8, at most
    ``API_MAX_BODY_BYTES``, and JSON as RFC 8259 has it (no NaN, no Infinity). The
    standard parser also read UTF-16 and any media type."""

    def parse_body(self, request: HttpRequest) -> Any:
        media = request.content_type or ""
        if media != "application/json" and not (media.startswith("application/") and media.endswith("+json")):
            raise BodyError(415, "send the body as JSON, with 'Content-Type: application/json'")
        if (request.content_params or {}).get("charset", "utf-8").lower() not in ("utf-8", "utf8"):
            raise BodyError(415, "send the body as JSON in UTF-8 ('Content-Type: application/json; charset=utf-8')")
        body = request.body
        if len(body) > _body_limit(request):
            raise BodyError(413, _too_large(request))
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as error:
            raise BodyError(422, f"malformed JSON: the body is not UTF-8 text (byte {error.start + 1})") from None
        try:
            return json.loads(text, parse_int=_json_int, parse_constant=_no_constant)
        except json.JSONDecodeError as error:
            where = f"line {error.lineno}, column {error.colno}"
            raise BodyError(422, f"malformed JSON: {error.msg[:1].lower()}{error.msg[1:]} at {where}") from None
        except RecursionError:
            raise BodyError(422, "malformed JSON: the body is nested too deeply") from None


# Operations whose bodies carry a whole shoe's hashes or plaintexts.
SHOE_BODIES = frozenset({"shoe_create", "shoe_reveal"})


def _body_limit(request: HttpRequest | None) -> int:
    match = request.resolver_match if request is not None else None
    if match is not None and match.url_name in SHOE_BODIES:
        return int(settings.API_MAX_SHOE_BODY_BYTES)
    return int(settings.API_MAX_BODY_BYTES)


def _too_large(request: HttpRequest | None = None) -> str:
    limit = _body_limit(request)
    if limit != settings.API_MAX_BODY_BYTES:
        return f"the body is larger than {limit} bytes: a shoe's hashes or plaintexts take at most about 220 KiB"
    return f"the body is larger than {limit} bytes: a round's body is about 100 bytes"


api = NinjaAPI(
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
    errors = [{"field": _field_path(tuple(e.get("loc", ()))), "message": e.get("msg", "invalid")} for e in exc.errors]
    return api.create_response(request, {"errors": _bounded(errors)}, status=422)


@api.exception_handler(IllegalRoundError)
def _illegal_round(request: HttpRequest, exc: IllegalRoundError) -> HttpResponse:
    errors = [{"field": e.field, "message": e.message} for e in exc.errors]
    return api.create_response(request, {"errors": _bounded(errors)}, status=422)


@api.exception_handler(AuthenticationError)
def _unauthorized(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    """401, or 429 once the client's address has failed too often (:mod:`.access.throttles`).
    A right token never gets here."""
    wait = failures.failed(client_address(request))
    if wait is not None:
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
    if isinstance(exc.__cause__, BodyError):  # ninja wraps what the parser raises
        return error_response(request, exc.__cause__.status, exc.__cause__.message, "body")
    if exc.__cause__ is not None:
        log.warning("unreadable body for %s %s", request.method, request.path, exc_info=exc.__cause__)
        return error_response(request, 400, "the body could not be read", "body")
    return error_response(request, exc.status_code, str(exc))


@api.exception_handler(RequestDataTooBig)
def _too_big(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
    return error_response(request, 413, _too_large(request), "body")


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return error_response(request, 404, str(exc) or "not found")


@api.exception_handler(services.ServiceError)
def _refused(request: HttpRequest, exc: services.ServiceError) -> HttpResponse:
    """Every refusal of a service, with the status and field it carries."""
    return error_response(request, exc.status, str(exc), exc.field)


@api.exception_handler(OperationalError)
@api.exception_handler(InterfaceError)
def _database_unavailable(request: HttpRequest, exc: OperationalError | InterfaceError) -> HttpResponse:
    """The database is down or unreachable: nothing was recorded, and the same request
    can be sent again (a round sent with its ``number`` is never recorded twice)."""
    log.warning("database unavailable for %s %s: %s", request.method, request.path, exc)
    response = error_response(request, 503, "the database is unavailable: nothing was recorded, retry shortly")
    response["Retry-After"] = "2"
    return response


@api.exception_handler(Exception)
def _server_error(request: HttpRequest, exc: Exception) -> HttpResponse:
    """A bug: logged with its traceback; the client gets the documented shape, and no
    Python internals."""
    log.error("%s %s failed", request.method, request.path, exc_info=exc)
    return error_response(request, 500, _SERVER_ERROR)


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
    if not _api_path(request):
        return defaults.server_error(request)
    return _json_errors(500, _SERVER_ERROR)


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
        return table if table.check_token(token) else None


# --- Schemas ---------------------------------------------------------------------------


# A card code: validated by the rules core (its message names the card); the pattern
# tells clients and schema-driven tools what a code is.
CardCode = Annotated[StrictStr, StringConstraints(max_length=3), Field(json_schema_extra={"pattern": CODE_PATTERN})]
# Printable text: no control character (U+0000-U+001F, U+007F-U+009F); the rules core
# checks it (unpaired surrogates too), on every database alike.
PRINTABLE = r"^[^\x00-\x1f\x7f-\x9f]*$"
DealerName = Annotated[StrictStr, StringConstraints(max_length=80), Field(json_schema_extra={"pattern": PRINTABLE})]


# A card plaintext, checked by the rules core (its message says which part is wrong).
Plaintext = Annotated[
    StrictStr,
    StringConstraints(max_length=PLAINTEXT_MAX),
    Field(json_schema_extra={"pattern": "^[SHDC]-(1[0-3]|[1-9])-[A-Za-z0-9-]{16,}$"}),
]
PublicHash = Annotated[
    StrictStr, StringConstraints(max_length=128), Field(json_schema_extra={"pattern": "^[0-9a-fA-F]{128}$"})
]
MOST_CARDS = 16 * 52  # the largest shoe a table can have


class ShoeIn(Schema):
    model_config = ConfigDict(extra="forbid", strict=True)

    commitments: list[PublicHash] | None = Field(
        None,
        max_length=MOST_CARDS,
        description=(
            "The Public Hash Value (SHA-512 hex of the card's plaintext) of every card, card 1 (the burn card "
            "turned over) first: exactly 52 x decks. Absent: a plain shoe."
        ),
    )


class BurnIn(Schema):
    model_config = ConfigDict(extra="forbid", strict=True)

    plaintext: Plaintext | None = Field(None, description="Card 1's plaintext (an authenticated shoe).")
    card: CardCode | None = Field(None, description="Card 1 (a plain shoe), e.g. '3H'.")


class RevealIn(Schema):
    model_config = ConfigDict(extra="forbid", strict=True)

    plaintexts: dict[str, Plaintext] = Field(
        max_length=MOST_CARDS, description='Card number -> plaintext, e.g. {"2": "S-12-..."}, for cards not revealed.'
    )


class RoundIn(Schema):
    """Strict: card codes are strings, the round number an integer (not ``true``, ``"9"``
    or ``9.0``), and nothing else is accepted."""

    model_config = ConfigDict(extra="forbid", strict=True)

    player: list[CardCode] = Field(
        min_length=2, max_length=3, description="Player's cards in dealing order, e.g. ['AH', '5S', 'KD']."
    )
    banker: list[CardCode] = Field(min_length=2, max_length=3, description="Banker's cards in dealing order.")
    round: StrictInt | None = Field(
        None, ge=1, le=LARGEST_INTEGER, description="Number of the round in the current shoe; the next when absent."
    )
    dealer: DealerName | None = Field(None, description="Dealer on the table now.")
    plaintexts: list[Plaintext] | None = Field(
        None,
        max_length=6,
        description=(
            "Authenticated shoe only (and required there): the plaintext of each card in dealing order "
            "(P1, B1, P2, B2, then P3, B3 when drawn)."
        ),
    )


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


class ReceiptOut(RoundOut):
    table: str = Field(description="The slug of the table the round was played at.")


class ReceiptEnvelope(Schema):
    round: ReceiptOut


class BurnOut(Schema):
    card: str = Field(description="Card 1, turned over.")
    burned: int = Field(description="Cards burned after it: its baccarat value, 10 for a 0-value card.")
    next_card: int = Field(description="Number of the first card dealt to a round.")


class BurnEnvelope(Schema):
    burn: BurnOut


class ShoeOut(Schema):
    number: int
    state: str
    decks: int
    started_at: str
    ended_at: str | None
    authenticated: bool = Field(description="Every card committed by its SHA-512 before play.")
    cards: int
    commitment: str | None = Field(
        description="SHA-512 hex of the card hashes joined in card-number order, no separator; null for a plain shoe."
    )
    burn: BurnOut | None
    revealed: int = Field(description="Cards whose plaintext is revealed (authenticated shoes).")
    fully_verified: bool = Field(description="Every card revealed, each plaintext matching its public hash.")


class CardOut(Schema):
    number: int
    hash: str
    plaintext: str | None = Field(description="Null until the card is revealed.")
    state: str = Field(description="burn_card, burned, dealt or unused")
    round: int | None = Field(description="Number of the round the card was dealt to.")


class CardsOut(Schema):
    shoe: int
    authenticated: bool
    commitment: str | None = Field(description="Null for a plain shoe, which has no committed cards.")
    cards: list[CardOut]


class ShoeEnvelope(Schema):
    shoe: ShoeOut


class RoundsOut(Schema):
    table: str
    shoe: ShoeOut | None
    rounds: list[RoundOut]


# --- Endpoints -------------------------------------------------------------------------
# Each lists every status it can answer. 400 comes from Django before an operation runs
# (a Host header not allowed); 503 from any operation while the database is down.

READ_ERRORS: dict[int, Any] = {400: ErrorsOut, 404: ErrorsOut, 500: ErrorsOut, 503: ErrorsOut}
WRITE_ERRORS: dict[int, Any] = {**READ_ERRORS, 401: ErrorsOut, 429: ErrorsOut}
BODY_ERRORS: dict[int, Any] = {**WRITE_ERRORS, 409: ErrorsOut, 413: ErrorsOut, 415: ErrorsOut, 422: ErrorsOut}


@api.post(
    "/tables/{slug}/shoes",
    auth=TableToken(),
    response={201: ShoeEnvelope, **BODY_ERRORS},
    summary="Start a new shoe (ends the open one)",
    openapi_extra={
        "requestBody": {
            "required": False,
            "content": {"application/json": {"schema": ShoeIn.model_json_schema()}},
        }
    },
    description=(
        "No body: a plain shoe. With `commitments`, an authenticated shoe (seed 001): the Public Hash Value of "
        "every card, card 1 first, exactly 52 x decks, no two alike; 422 naming the first bad one "
        "(`commitments[17]`), and no shoe starts. 401 for a missing or wrong token, 429 (with Retry-After) "
        "after too many of those from one address."
    ),
)
def shoe_create(request: TableRequest, slug: str) -> Status[dict[str, Any]]:
    payload = _optional_body(request, ShoeIn)
    commitments = list(payload.commitments) if payload is not None and payload.commitments is not None else None
    shoe = services.shoe_start(table=request.auth, commitments=commitments)
    return Status(201, {"shoe": selectors.shoe_to_data(shoe)})


def _optional_body(request: HttpRequest, schema: type[ShoeIn]) -> ShoeIn | None:
    """The body of an operation that also takes none: starting a shoe took no body
    before shoes were authenticated, and dealer systems still post it bare (or as an
    empty form). A JSON body is read as strictly as any other."""
    media = request.content_type or ""
    if not request.body or not (media == "application/json" or media.startswith("application/")):
        return None
    try:
        data = api.parser.parse_body(request)
    except BodyError as error:
        raise HttpError(error.status, error.message) from error
    try:
        return schema.model_validate(data)
    except PydanticValidationError as error:
        raise ValidationError([{**e, "loc": ("body", "payload", *e["loc"])} for e in error.errors()]) from None


@api.post(
    "/tables/{slug}/shoes/current/burn",
    auth=TableToken(),
    response={200: BurnEnvelope, 201: BurnEnvelope, **BODY_ERRORS},
    summary="Turn over card 1 and burn",
    description=(
        "Card 1 is turned over and the next cards burned by its baccarat value (10 for a 0-value card). "
        "An authenticated shoe takes card 1's `plaintext` (422 unless it matches card 1's public hash), a plain "
        "shoe the `card`. 201; 200 with the same body for an identical retry; 409 when no shoe is open, it "
        "has rounds already, or it burned another card."
    ),
)
def shoe_burn(request: TableRequest, slug: str, payload: BurnIn) -> Status[dict[str, Any]]:
    done = services.shoe_burn(table=request.auth, plaintext=payload.plaintext, card=payload.card)
    burn = {"card": done.burn.card.code, "burned": done.burn.burned, "next_card": done.burn.next_card}
    return Status(201 if done.created else 200, {"burn": burn})


@api.post(
    "/tables/{slug}/shoes/current/end",
    auth=TableToken(),
    response={200: ShoeEnvelope, **WRITE_ERRORS, 409: ErrorsOut},
    summary="End the open shoe",
    description="After its last round: the table has no open shoe until the next starts; 409 when none is open.",
)
def shoe_end(request: TableRequest, slug: str) -> Status[dict[str, Any]]:
    return Status(200, {"shoe": selectors.shoe_to_data(services.shoe_end(table=request.auth))})


@api.post(
    "/tables/{slug}/shoes/{number}/reveal",
    auth=TableToken(),
    response={200: ShoeEnvelope, **BODY_ERRORS},
    summary="Reveal the cards no round revealed",
    description=(
        "Once an authenticated shoe has ended: the plaintexts of its burned cards and every card left after "
        "the last round, by card number. Each must match its card's public hash (422 naming it, and nothing "
        "is stored); a card revealed already with the same plaintext is left as it is. 409 while the shoe "
        "is open or for a plain shoe."
    ),
)
def shoe_reveal(
    request: TableRequest, slug: str, payload: RevealIn, number: int = Path(..., ge=1, le=LARGEST_SHOE)
) -> Status[dict[str, Any]]:
    shoe = services.shoe_reveal(table=request.auth, number=number, plaintexts=dict(payload.plaintexts))
    return Status(200, {"shoe": selectors.shoe_to_data(shoe)})


@api.get(
    "/tables/{slug}/shoes/{number}/cards",
    response={200: CardsOut, **READ_ERRORS, 422: ErrorsOut},
    summary="An authenticated shoe's cards",
    description=(
        "Every card's number and Public Hash Value from the start of the shoe, and its plaintext once revealed "
        "(never before). A plain shoe has none: an empty list, and no commitment."
    ),
)
def shoe_cards(
    request: HttpRequest, slug: str, number: int = Path(..., ge=1, le=LARGEST_SHOE)
) -> Status[dict[str, Any]]:
    shoe = selectors.shoe_find(table=_table(slug), which=str(number))
    if shoe is None:
        raise Http404(f"table {slug!r} has no shoe {number}")
    cards = selectors.shoe_cards(shoe=shoe) if shoe.authenticated else []
    body = {"shoe": shoe.number, "authenticated": shoe.authenticated, "commitment": shoe.commitment or None}
    return Status(200, {**body, "cards": cards})


@api.post(
    "/tables/{slug}/rounds",
    auth=TableToken(),
    response={200: RoundEnvelope, 201: RoundEnvelope, **BODY_ERRORS},
    summary="Record a round",
    description=(
        "201 with the round; 200 with the same body when an identical round is replayed; "
        "409 when no shoe is open or the number is not the next one or was recorded with other cards; "
        "422 for any invalid input, naming the field; 413 for a body over the size limit; "
        "415 for a body not sent as JSON in UTF-8; 401 for a missing or wrong token, and 429 "
        "(with Retry-After) after too many of those from one address."
    ),
)
def round_create(request: TableRequest, slug: str, payload: RoundIn) -> Status[dict[str, Any]]:
    recorded = services.round_record(
        table=request.auth,
        player=payload.player,
        banker=payload.banker,
        number=payload.round,
        dealer=payload.dealer,
        plaintexts=list(payload.plaintexts) if payload.plaintexts is not None else None,
    )
    return Status(201 if recorded.created else 200, {"round": selectors.round_to_data(recorded.round)})


@api.get("/tables/{slug}/roads", response={200: dict, **READ_ERRORS}, summary="Roads of the current shoe")
def roads_current(request: HttpRequest, slug: str) -> Status[dict[str, Any]]:
    shoe = selectors.shoe_find(table=_table(slug), which="current")
    return Status(200, road_selectors.shoe_roads(shoe=shoe).roads.to_data())


@api.get(
    "/tables/{slug}/shoes/{number}/roads",
    response={200: dict, **READ_ERRORS, 422: ErrorsOut},
    summary="Roads of a shoe",
)
def roads_of_shoe(
    request: HttpRequest, slug: str, number: int = Path(..., ge=1, le=LARGEST_SHOE)
) -> Status[dict[str, Any]]:
    shoe = selectors.shoe_find(table=_table(slug), which=str(number))
    if shoe is None:
        raise Http404(f"table {slug!r} has no shoe {number}")
    return Status(200, road_selectors.shoe_roads(shoe=shoe).roads.to_data())


SHOE_QUERY = re.compile(r"current|[1-9][0-9]{0,8}")


@api.get(
    "/tables/{slug}/rounds", response={200: RoundsOut, **READ_ERRORS, 422: ErrorsOut}, summary="List a shoe's rounds"
)
def round_list(
    request: HttpRequest,
    slug: str,
    shoe: Annotated[str, WithJsonSchema({"type": "string", "pattern": f"^({SHOE_QUERY.pattern})$"})] = Query(
        "current", description="'current' or a shoe number"
    ),
) -> Status[dict[str, Any]]:
    if not SHOE_QUERY.fullmatch(shoe):  # ASCII digits only: "²".isdigit() is true
        return Status(422, {"errors": [{"field": "shoe", "message": "expected 'current' or a shoe number"}]})
    table = _table(slug)
    found = selectors.shoe_find(table=table, which=shoe)
    if found is None and shoe != "current":
        raise Http404(f"table {slug!r} has no shoe {shoe}")
    rounds = [selectors.round_to_data(r) for r in selectors.shoe_rounds(shoe=found)] if found else []
    return Status(
        200, {"table": table.slug, "shoe": selectors.shoe_to_data(found) if found else None, "rounds": rounds}
    )


@api.get(
    "/rounds/{round_id}",
    response={200: ReceiptEnvelope, **READ_ERRORS},
    summary="A round by its Transaction ID",
    description=(
        "The round a player asks about (its receipt page is /rounds/{round_id}/): cards, winner, every bet's "
        "result, its table and shoe, and whether it was voided and why. The ID is read in any case, I and L "
        "as 1, O as 0; 404 when no round has it."
    ),
)
def round_detail(
    request: HttpRequest, round_id: str = Path(..., description="The round's Transaction ID, e.g. 01JC8Z4Q2M7X9ABC")
) -> Status[dict[str, Any]]:
    found = receipts.round_find(round_id)
    if found is None:
        raise Http404(f"no round has the Transaction ID {round_id[:40]!r}")
    return Status(200, {"round": selectors.round_to_data(found, with_table=True)})
