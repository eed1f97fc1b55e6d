"""Middleware made from a function of the request and its response, for Django's sync
handler (gunicorn) and its async one (the demo's ASGI server) alike, with no hop
between threads in either."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponseBase
from django.utils.decorators import sync_and_async_middleware

ResponseChange = Callable[[HttpRequest, HttpResponseBase], HttpResponseBase]


def response_middleware(change: ResponseChange) -> Callable[[Any], Any]:
    """A middleware that passes every response through ``change``."""

    @sync_and_async_middleware
    def middleware(get_response: Any) -> Any:
        if iscoroutinefunction(get_response):

            async def handle(request: HttpRequest) -> HttpResponseBase:
                return change(request, await get_response(request))

            return markcoroutinefunction(handle)

        def handle_sync(request: HttpRequest) -> HttpResponseBase:
            return change(request, get_response(request))

        return handle_sync

    return middleware
