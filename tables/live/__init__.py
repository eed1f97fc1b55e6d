"""Live pages: what a change pushes, when, to whom, and the websockets that receive it.

The rest of the project calls :func:`table_changed` after a commit that changed what
a table's pages show, and :func:`odds_changed` once a round's odds are stored. Inside:

- :mod:`.scheduler`: when a change is pushed (at most once per ``PUSH_INTERVAL``, only
  if some page shows it); one scheduler object per process.
- :mod:`.push`: rendering the fragments once and sending them to the groups.
- :mod:`.fanout`: the pages this process serves, and the one channel that brings
  them what is pushed to their groups.
- :mod:`.ledger`: the push protocol's shared state, with one owner: which groups have
  a page open somewhere, which process pushes a table when, what each table's pages
  were pushed last.
- :mod:`.consumers`, :mod:`.routing`: the websockets of table pages, the lobby, the
  good-road alerts and the reviewer's desk (its alarms).
- :mod:`.answers`: what a table page that (re)connects is answered, read once for a crowd.
- :mod:`.lifespan`: the ASGI server's start and stop.
"""

from __future__ import annotations

from django.conf import settings

from .groups import PUSH, languages, lobby_group, push_message, table_group
from .push import Sender
from .scheduler import Scheduler, install, scheduler

__all__ = [
    "PUSH", "Scheduler", "alarms_changed", "channel_layer_check", "install", "lobby_group", "lobby_languages",
    "odds_changed", "push_message", "round_dealt", "scheduler", "table_changed", "table_group",
]  # fmt: skip


def table_changed(table_id: int, slug: str) -> None:
    """Call after a commit that changed what a table's pages show (``transaction.on_commit``)."""
    scheduler().table_changed(table_id, slug)


def round_dealt(table_id: int, slug: str) -> None:
    """Call after a commit that dealt a card of a round in progress, or cancelled one
    (``transaction.on_commit``): the table's pages get the round as it is now at once."""
    scheduler().round_dealt(table_id, slug)


def alarms_changed(shoe_id: int | None) -> None:
    """Call after a commit that raised or noted an alarm (of ``shoe_id``, or a table's
    day): the reviewer's desk gets its alarms at once."""
    scheduler().alarms_changed(shoe_id)


def odds_changed(table_id: int) -> None:
    """Call from a background job once a round's odds are stored."""
    scheduler().odds_changed(table_id)


def lobby_languages() -> list[str]:
    """The languages the lobby's cards are kept rendered in: the default, and every other
    one a lobby page shows now (a wall in Chinese finds its cards ready after a deploy)."""
    watched = scheduler().ledger.watched(*(lobby_group(language) for language in languages()))
    return [
        language for language in languages() if language == settings.LANGUAGE_CODE or watched[lobby_group(language)]
    ]


def channel_layer_check() -> None:
    """Reach the channel layer as this process's pushes do (the readiness probe); raises
    when it cannot."""
    sender = scheduler().sender
    (sender if isinstance(sender, Sender) else Sender()).check()
