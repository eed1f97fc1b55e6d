"""Names of the push groups (a table's pages, and the lobby's, in each language) and the
message a push sends. A push is rendered once per language some page shows, so a page
joins its table's (or the lobby's, or the good-road alerts') group of its own language."""

from __future__ import annotations

from django.conf import settings

PUSH = "fragments.push"  # a push's message type on the channel layer


def push_message(group: str, html: str) -> dict[str, str]:
    """What the channel layer carries to each process serving pages of ``group``."""
    return {"type": PUSH, "group": group, "html": html}


def languages() -> list[str]:
    """The languages a page may be in (settings.LANGUAGES)."""
    return [code for code, _ in settings.LANGUAGES]


def table_group(slug: str, language: str = settings.LANGUAGE_CODE) -> str:
    return f"table.{slug}.{language}"


def lobby_group(language: str = settings.LANGUAGE_CODE) -> str:
    return f"lobby.{language}"


def alerts_group(language: str = settings.LANGUAGE_CODE) -> str:
    """The pages that asked for good-road alerts (any table's), in ``language``."""
    return f"alerts.{language}"


def desk_group(language: str = settings.LANGUAGE_CODE) -> str:
    """The reviewer's desk (admin's index): its alarms panel."""
    return f"desk.{language}"


def desk_shoe_group(shoe_id: int, language: str = settings.LANGUAGE_CODE) -> str:
    """A shoe's page on the reviewer's desk: the shoe's alarms panel."""
    return f"desk.shoe.{shoe_id}.{language}"
