"""Bodies: JSON text in UTF-8, sent as JSON, small; read strictly before any operation runs."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from ninja.parser import Parser

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
