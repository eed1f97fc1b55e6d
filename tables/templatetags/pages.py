"""Template helpers every page uses."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.http import QueryDict

register = template.Library()


# What a phone's header shows of the page's language (the switch lists the full names).
SHORT_NAMES = {"en": "EN", "zh-hans": "简", "zh-hant": "繁", "ko": "한", "vi": "VI", "th": "ไทย"}


@register.simple_tag
def languages_by_own_name() -> list[tuple[str, str]]:
    """Each language named in itself, as settings.LANGUAGES names them ("English", "한국어"):
    a reader finds their own whatever the page is in (Django's get_available_languages
    would name them in the page's language)."""
    return list(settings.LANGUAGES)


@register.filter
def language_short(code: str) -> str:
    return SHORT_NAMES.get(code, code.upper())


@register.simple_tag(takes_context=True)
def path_without_lang(context: dict[str, Any]) -> str:
    """The page's path and query without ``lang``: where the language switch brings the
    reader back, in the language just picked (a ``?lang=`` would override it)."""
    request = context.get("request")
    if request is None:
        return "/"
    query: QueryDict = request.GET.copy()
    query.pop("lang", None)
    return f"{request.path}?{query.urlencode()}" if query else request.path
