"""Middleware made from a function of the request and its response, for Django's sync
handler (gunicorn) and its async one (the demo's ASGI server) alike, with no hop
between threads in either."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponseBadRequest, HttpResponseBase, QueryDict
from django.urls import reverse
from django.utils import translation
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


RequestCheck = Callable[[HttpRequest], HttpResponseBase | None]


def request_middleware(check: RequestCheck) -> Callable[[Any], Any]:
    """A middleware that runs ``check`` on every request first: a response it returns
    answers the request instead of the view."""

    @sync_and_async_middleware
    def middleware(get_response: Any) -> Any:
        if iscoroutinefunction(get_response):

            async def handle(request: HttpRequest) -> HttpResponseBase:
                return check(request) or await get_response(request)

            return markcoroutinefunction(handle)

        def handle_sync(request: HttpRequest) -> HttpResponseBase:
            return check(request) or get_response(request)

        return handle_sync

    return middleware


def _url_language(request: HttpRequest) -> HttpResponseBase | None:
    """``?lang=zh-hant`` sets the page's language, over the cookie and the browser's: a
    table display or a lobby wall has no keyboard to switch with. Only for this request
    (a link shared with it changes nobody's choice); an unknown language is a 400 that
    names the ones there are, so whoever sets a screen up sees the mistake at once."""
    asked = request.GET.get("lang")
    if asked is None:
        return None
    try:
        code = translation.get_supported_language_variant(asked)
    except LookupError:
        known = ", ".join(code for code, _ in settings.LANGUAGES)
        return HttpResponseBadRequest(
            f"lang: {asked!r} is not a language of this site (one of {known})", content_type="text/plain; charset=utf-8"
        )
    translation.activate(code)
    request.LANGUAGE_CODE = code
    if request.path_info.startswith(_admin_root()):
        # The admin's change lists take every parameter for a filter of their rows (an
        # unknown one sends the reviewer to ?e=1): the language is not one.
        query = request.GET.copy()
        del query["lang"]
        request.GET = QueryDict(query.urlencode(), encoding=request.encoding)
    return None


@cache
def _admin_root() -> str:
    return reverse("admin:index")


language_from_url = request_middleware(_url_language)
