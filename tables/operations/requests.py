"""Each request's id: the one the proxy sent (``X-Request-ID``, when it looks like one),
else a new one; in every log line of the request, in its response's ``X-Request-ID``,
and passed on to the jobs and tasks it queues (:mod:`tables.background.runner`)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from . import context

SENT = re.compile(r"[A-Za-z0-9._-]{8,64}")  # nginx's $request_id is 32 hex digits


def request_ids(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    """Middleware: the request's id, bound for its log lines and sent back with its answer.

    Not unbound when the response leaves: Django logs a 4xx or 5xx after the middleware
    has returned, and that line names the request too. The next request on the thread
    starts afresh (:func:`~.context.begin`); an ASGI request has a context of its own."""

    def middleware(request: HttpRequest) -> HttpResponse:
        sent = request.headers.get("X-Request-ID", "")
        request_id = sent if SENT.fullmatch(sent) else uuid.uuid4().hex
        context.begin(request_id)
        response = get_response(request)
        response["X-Request-ID"] = request_id
        return response

    return middleware
