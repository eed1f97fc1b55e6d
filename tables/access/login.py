"""The admin login, throttled: a password flood neither guesses its way in nor starves the
threads that record rounds.

Before it hashes a password, a sign-in is refused with 429 and ``Retry-After`` when its
address, its username from that address, or its username from anywhere has failed too
often in the window (:mod:`.throttles`); the last spares a browser known to have signed
in as that user (a signed cookie each successful sign-in sets), so a flood against an
owner's username from many addresses never locks the owner out of their own browser;
when all processes together have hashed ``LOGIN_HASHES_PER_SECOND`` passwords this
second, or when this process is already hashing as many passwords as
``LOGIN_HASHING_AT_ONCE`` allows and none finishes within ``LOGIN_HASHING_WAIT``.
Admin's own login view does the rest, through its documented ``login_form`` hook.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import threading
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext, ngettext

from ..operations.metrics import AUTH_FAILURES, THROTTLED
from .throttles import (
    client_address,
    login_failures_by_address,
    login_failures_by_username,
    login_failures_by_username_address,
    login_hashes,
)

_hashing = threading.BoundedSemaphore(settings.LOGIN_HASHING_AT_ONCE)
_known_hashing = threading.BoundedSemaphore(1)  # known browsers' own: their owners, never a flood


class ThrottledLoginForm(AdminAuthenticationForm):
    """Admin's login form, refusing before the hash when the throttle says so;
    ``retry_after`` holds the seconds to wait when it refused."""

    retry_after: int | None = None

    def clean(self) -> dict[str, Any]:
        address = client_address(self.request) if self.request is not None else ""
        username = str(self.cleaned_data.get("username") or "").casefold()
        known = browser_known(self.request, username)
        waits = [
            login_failures_by_address.waiting(address),
            login_failures_by_username_address.waiting(f"{username} {address}"),
            None if known else login_failures_by_username.waiting(username),
        ]
        wait = max((w for w in waits if w is not None), default=None)
        if wait is not None:
            minutes = max(1, math.ceil(wait / 60))
            self._refuse(
                wait,
                ngettext(
                    "Too many failed sign-ins. Try again in %(minutes)d minute.",
                    "Too many failed sign-ins. Try again in %(minutes)d minutes.",
                    minutes,
                )
                % {"minutes": minutes},
            )
        # The hashes a second and at once bound a flood; a browser known to have signed in
        # as this user (which a flood cannot forge) has a slot of its own, so its owner
        # gets in while a flood from many addresses takes every other.
        slots = _known_hashing if known else _hashing
        if (not known and login_hashes.count("all") is not None) or not slots.acquire(
            timeout=settings.LOGIN_HASHING_WAIT
        ):
            self._refuse(1, gettext("Too many sign-ins at once. Try again in a moment."))
        try:
            return super().clean()
        except ValidationError:
            AUTH_FAILURES.labels("login").inc()
            login_failures_by_address.count(address)
            login_failures_by_username_address.count(f"{username} {address}")
            login_failures_by_username.count(username)
            raise
        finally:
            slots.release()

    def _refuse(self, wait: float, message: str) -> None:
        self.retry_after = max(1, math.ceil(wait))
        THROTTLED.labels("login").inc()
        raise ValidationError(message, code="throttled")


KNOWN_COOKIE = "known_sign_in"
KNOWN_SALT = "tables.access.login.known-browser"


def _who(username: str) -> str:
    # The cookie names its user by a digest: a shared browser shows no username.
    return hashlib.sha256(username.casefold().encode("utf-8", "surrogatepass")).hexdigest()[:32]


def browser_known(request: HttpRequest | None, username: str) -> bool:
    """Whether this browser signed in as ``username`` within LOGIN_KNOWN_BROWSER_DAYS."""
    if request is None:
        return False
    max_age = settings.LOGIN_KNOWN_BROWSER_DAYS * 86400
    known = request.get_signed_cookie(KNOWN_COOKIE, default=None, salt=KNOWN_SALT, max_age=max_age)
    return known is not None and hmac.compare_digest(known, _who(username))


def login(request: HttpRequest) -> HttpResponse:
    """Admin's login view; a refusal of the throttle answers 429 with ``Retry-After``; a
    successful sign-in marks the browser as known for its user."""
    response = admin.site.login(request)
    if request.method == "POST" and response.status_code == 302 and request.user.is_authenticated:
        response.set_signed_cookie(
            KNOWN_COOKIE,
            _who(request.user.get_username()),
            salt=KNOWN_SALT,
            max_age=settings.LOGIN_KNOWN_BROWSER_DAYS * 86400,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    form = (getattr(response, "context_data", None) or {}).get("form")
    retry_after = getattr(form, "retry_after", None)
    if retry_after is not None:
        response.status_code = 429
        response["Retry-After"] = str(retry_after)
    return response
