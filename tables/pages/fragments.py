"""HTML fragments, rendered by the same templates as the pages, for live pushes.

A page and a push never disagree: the table page includes ``_table_live.html`` and a
push sends that same template's output, whose top-level elements the page swaps in
by id; or, to the pages that showed the state pushed before, only what changed since
(``_table_delta.html``, of the same parts).
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from types import EllipsisType
from typing import Any, Generic, NamedTuple, TypeVar

from django.core.cache import cache
from django.db.models import BooleanField, ExpressionWrapper, Q
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, override

from roads import alerts
from roads.entries import RoadRound

from .. import selectors
from ..authentication import selectors as authentication
from ..game.audience import sight
from ..game.cards import hand_score
from ..game.outcome import Winner
from ..game.stats import shoe_stats
from ..models import RoundInProgress, Shoe, Table
from ..page_version import PageVersion
from . import charts, odds_panel, svg
from .road_data import ShoeRoads, roads_of

K = TypeVar("K")  # what a TakenOut keeps each drawing by
V = TypeVar("V")  # and what it keeps

HISTORY_ROWS = 20  # rounds in the live history; the whole shoe is one click away
CARD_SECONDS = 24 * 3600  # a cached lobby card; its key changes whenever the card would
LIVE_SECONDS = 120  # a table page's live part, for the pages that resync at once
TABLE_ROADS = {"bead_plate": 14, "big_road": 30, "big_eye_road": 30, "small_road": 30, "cockroach_road": 30}  # columns


# What roads (and their titles), stats and odds read of every round of a shoe; the rest,
# the bets above all (a JSON field per round), only the history's rows need.
SHOE_ROUND_FIELDS = (
    "shoe_id", "number", "winner", "player_cards", "banker_cards", "player_score", "banker_score",
    "player_pair", "banker_pair", "player_natural", "banker_natural", "voided", "odds",
)  # fmt: skip


# The same but the odds: what a push reads of every round (a round's odds, a JSON field
# each, come in their own push), and whether they are stored, for the version.
PUSHED_ROUND_FIELDS = tuple(f for f in SHOE_ROUND_FIELDS if f != "odds")
_HAS_ODDS = ExpressionWrapper(Q(odds__isnull=False), output_field=BooleanField())


def _rounds_newest_first(shoe: Shoe | None, fields: tuple[str, ...] = SHOE_ROUND_FIELDS) -> list[selectors.PushedRow]:
    """Every round of the shoe, with the ``fields`` (:data:`SHOE_ROUND_FIELDS`) and
    ``has_odds``, as rows (a model instance each cost twice the read, on every push)."""
    if shoe is None:
        return []
    rows = shoe.rounds.order_by("-number").annotate(has_odds=_HAS_ODDS).values_list(*fields, "has_odds", named=True)
    return list(rows)


def pushed_rounds(shoe: Shoe | None) -> list[selectors.PushedRow]:
    """Every round of the shoe as a push reads them, once for all it renders: newest first,
    with :data:`PUSHED_ROUND_FIELDS` (:func:`~tables.selectors.table_version_of` gives
    their version)."""
    return _rounds_newest_first(shoe, PUSHED_ROUND_FIELDS)


def table_context(
    table: Table,
    shoe: Shoe | None,
    *,
    history_rows: int | None = HISTORY_ROWS,
    version: PageVersion | None = None,
    progress: Progress = ...,
) -> dict[str, Any]:
    rounds = _rounds_newest_first(shoe)
    history = list(selectors.shoe_rounds(shoe=shoe).reverse()[:history_rows]) if shoe else []
    road_data = roads_of(rounds[::-1])
    return {
        "table": table,
        "shoe": shoe,
        "rounds": rounds,
        "history": history,
        "history_shown": len(history),
        "rounds_total": len(rounds),
        "capped": history_rows is not None,
        "last": history[0] if history else None,
        "shoes": list(table.shoes.order_by("-number").values_list("number", flat=True)[:50]),
        "roads": road_data,
        "boards": _boards(road_data),
        "road_cell": svg.CELL,
        "good_roads": road_data.roads.good_roads(),
        "version": selectors.table_version(shoe) if version is None else version,
        "dealing": dealing_of(_in_progress(shoe, progress)),
        **stats_context(road_data),
        "odds": odds_panel.odds_context(table, shoe, rounds),
        "limits": selectors.table_limits(table),
    }


# The shoe's round in progress as a caller read it (None: none), or ... for "not read yet".
Progress = RoundInProgress | EllipsisType | None


def _in_progress(shoe: Shoe | None, progress: Progress) -> RoundInProgress | None:
    """The shoe's round in progress: as the caller read it, or read now."""
    return selectors.shoe_round_in_progress(shoe) if isinstance(progress, EllipsisType) else progress


def dealing_of(progress: RoundInProgress | None) -> dict[str, Any] | None:
    """A round being dealt card by card, as the pages show it: the hands so far, their
    running scores, whose card is next and what the rules decided."""
    if progress is None:
        return None
    deal = progress.deal
    return {
        "number": progress.number,
        "player": deal.player,
        "banker": deal.banker,
        "player_score": hand_score(deal.player) if deal.player else None,
        "banker_score": hand_score(deal.banker) if deal.banker else None,
        "next": deal.next_side,
        "calls": deal.calls,
    }


def table_dealing_html(table: Table, shoe: Shoe, version: PageVersion, progress: RoundInProgress | None) -> str:
    """The last-round panel as a card of the round in progress makes it (each card is
    pushed on its own, at once): the round so far, or, once it is complete or cancelled,
    the last round recorded."""
    last = None if progress is not None else selectors.shoe_rounds(shoe=shoe).reverse().first()
    context = {"table": table, "version": version, "dealing": dealing_of(progress), "last": last}
    return render_to_string("tables/_last_round.html", context)


def lobby_dealing_html(table: Table, version: PageVersion, progress: RoundInProgress | None) -> str:
    """A lobby card's round being dealt (empty once it is over), pushed on its own."""
    context = {"table": table, "version": version, "dealing": dealing_of(progress), "push": True}
    return render_to_string("tables/_card_dealing.html", context)


def _boards(road_data: ShoeRoads) -> dict[str, svg.Board]:
    return svg.boards(road_data.roads, TABLE_ROADS)


def stats_context(road_data: ShoeRoads) -> dict[str, Any]:
    stats = shoe_stats(selectors.played_round(r) for r in road_data.rounds)
    return {"stats": stats, "charts": {"shares": charts.shares_figure(stats), "running": charts.running_figure(stats)}}


def table_live_html(table: Table, shoe: Shoe | None, version: PageVersion, *, progress: Progress = ...) -> str:
    """The live part of the table page for its current ``shoe``, whose
    :func:`~tables.selectors.table_version` (and round in progress, ``progress``, if
    it did) the caller has just read.

    Kept for a while under that state: the pages that reconnect together (after a
    restart or a network blip, a few hundred to a table) and the push of the same
    state cost one render between all processes, not one each."""
    key = f"table-live:{table.pk}:{version}:{table_look(table)}"
    if (html := recent_live.get(key)) is not None:
        return html
    with contextlib.suppress(Exception):  # a cache that is down only costs a render
        if (kept := cache.get(key)) is not None:
            return recent_live.keep(key, str(kept))
    html = render_to_string("tables/_table_live.html", table_context(table, shoe, version=version, progress=progress))
    with contextlib.suppress(Exception):
        cache.set(key, html, timeout=LIVE_SECONDS)
    return recent_live.keep(key, html)


class Recent:
    """The last few strings this process rendered or fetched, by key, each for ``seconds``
    (as long as the shared cache keeps it). The pages that resync together (a few hundred
    to a table after a restart) share one string, where a fetch from the cache each would
    make a copy each, all alive at once until sent: about 7 KiB a page of server memory
    that stays with the process after the burst."""

    def __init__(self, size: int, seconds: float) -> None:
        self.size, self.seconds = size, seconds
        self._kept: dict[str, tuple[float, str]] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> str | None:
        kept = self._kept.get(key)
        return kept[1] if kept is not None and time.monotonic() < kept[0] else None

    def keep(self, key: str, value: str) -> str:
        with self._lock:
            self._kept.pop(key, None)
            self._kept[key] = (time.monotonic() + self.seconds, value)
            while len(self._kept) > self.size:
                del self._kept[next(iter(self._kept))]  # the oldest
        return value

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


recent_live = Recent(size=64, seconds=LIVE_SECONDS)  # a few states of each table a venue has open


def table_push_html(
    table: Table,
    shoe: Shoe | None,
    version: PageVersion,
    *,
    since: PageVersion | None,
    progress: Progress = ...,
    rounds: list[selectors.PushedRow] | None = None,
) -> str:
    """What a push sends the table's pages: to a page showing ``since``, the changes
    that bring it to ``version`` (the shoe's current state, just read by the caller),
    when ``since`` is an earlier round of the same shoe with the same rounds voided; the
    whole live part otherwise (a new shoe, a void, or an unknown ``since``). A page
    that shows some other state swaps none of a delta and asks for the whole part.
    ``progress``: the shoe's round in progress, and ``rounds``, its rounds as
    :func:`pushed_rounds` reads them, when the caller has read them."""
    base = version.delta_base(since, HISTORY_ROWS)
    if base is None or since is None:
        started = _shoe_start_context(table, shoe, version, since, _in_progress(shoe, progress))
        if started is not None:
            return render_to_string("tables/_shoe_start_delta.html", started)
        return table_live_html(table, shoe, version, progress=progress)
    context = _delta_context(table, shoe, version, since, base, _in_progress(shoe, progress), rounds)
    return render_to_string("tables/_table_delta.html", context)


@dataclass(frozen=True)
class RoadChange:
    """What a delta does to one road: add ``marks`` (and move the view with them), or,
    with ``marks`` None, draw the whole road again; ``alt``: its words changed. Its ask
    marks go with the state the page leaves (static/js/live.js), and the page fetches
    them again when asked."""

    board: svg.Board
    marks: str | None
    moved: bool
    alt: bool = False


class Drawn(NamedTuple):
    """What a delta drew of a table's shoe, for the pages of one language: the roads (with
    the rounds on them), their boards, the good roads that hold and the charts."""

    road_data: ShoeRoads
    boards: dict[str, svg.Board]
    good_roads: list[Any]
    charts: dict[str, Any]


def _played_key(rounds: Sequence[selectors.ShoeRow]) -> list[tuple[Any, ...]]:
    """What the roads, the good roads and the stats read of each round (and its shoe's)."""
    return [
        (r.shoe_id, r.number, r.winner, r.banker_pair, r.player_pair, r.player_natural, r.banker_natural)
        for r in rounds
        if not r.voided
    ]


class TakenOut(Generic[K, V]):
    """What this process drew last of each key (a table's delta in a language, a shoe's
    lobby card), so that the next draw goes on from it instead of drawing again from every
    round; the ``size`` drawn longest ago make room. Taken out while in use (the next draw
    extends its roads in place, so no two threads share one), and kept again once done."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: dict[K, V] = {}
        self._lock = threading.Lock()

    def take(self, key: K) -> V | None:
        with self._lock:
            return self._kept.pop(key, None)

    def keep(self, key: K, value: V) -> None:
        with self._lock:
            self._kept[key] = value
            while len(self._kept) > self.size:
                del self._kept[next(iter(self._kept))]  # the one drawn longest ago

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


# A venue's tables in the languages their pages show: about 100 KiB each at the end of a
# shoe (its rounds, roads, boards and charts), under 10 MiB a process. Each with what its
# roads were drawn from (:func:`_played_key`): taken only for the same rounds (a shoe's
# rounds are only added to; a void or another shoe draws anew).
last_drawn: TakenOut[tuple[int, str], tuple[list[tuple[Any, ...]], Drawn]] = TakenOut(size=96)


def _drawn_from(key: tuple[int, str], rounds: Sequence[selectors.ShoeRow]) -> Drawn | None:
    """The last :class:`Drawn` of ``key`` if it was drawn from these ``rounds`` (oldest first)."""
    kept = last_drawn.take(key)
    return kept[1] if kept is not None and kept[0] == _played_key(rounds) else None


def _delta_context(
    table: Table,
    shoe: Shoe | None,
    version: PageVersion,
    since: PageVersion,
    base: int,
    progress: RoundInProgress | None,
    pushed: list[selectors.PushedRow] | None,
) -> dict[str, Any]:
    # The odds stored since the state the page shows come in the same message; without
    # them, a delta reads no odds (a JSON field per round), or the rounds the push read.
    with_odds = since.odds is not None and (version.odds or 0) > since.odds
    rounds = _rounds_newest_first(shoe) if with_odds else pushed if pushed is not None else pushed_rounds(shoe)
    new_rows = list(selectors.shoe_rounds(shoe=shoe).filter(number__gt=base).reverse()) if shoe else []
    # The roads as the page shows them (as the push before drew them, when this process
    # did), then the same roads a few rounds on.
    shown = [r for r in reversed(rounds) if r.number <= base]
    drawn = _drawn_from((table.pk, table_look(table)), shown)
    if drawn is None:
        road_data = roads_of(shown)
        drawn = Drawn(road_data, _boards(road_data), road_data.roads.good_roads(), stats_context(road_data)["charts"])
    road_data, before, good_roads_before, charts_before = drawn
    for r in reversed(rounds):
        if r.number > base and not r.voided:
            road_data.roads.append(RoadRound(Winner(r.winner), r.banker_pair, r.player_pair, len(road_data.rounds)))
            road_data.rounds.append(r)
    boards = _boards(road_data)
    changes = []
    for name, board in boards.items():
        added = svg.appended(before[name], board)
        changes.append(
            RoadChange(
                board,
                None if added is None else mark_safe(added),  # our own builder's markup
                board.view != before[name].view,  # a table page's road grows a column at a time
                board.alt != before[name].alt,
            )
        )
    good_roads = road_data.roads.good_roads()
    stats = stats_context(road_data)
    drawn = Drawn(road_data, boards, good_roads, stats["charts"])
    last_drawn.keep((table.pk, table_look(table)), (_played_key(road_data.rounds), drawn))
    return {
        "table": table,
        "shoe": shoe,
        "version": version,
        "since": since,
        "new_rows": new_rows,
        "last": new_rows[0] if new_rows else None,
        "dealing": dealing_of(progress),
        "history_shown": min(len(rounds), HISTORY_ROWS),
        "rounds_total": len(rounds),
        "road_changes": changes,
        "boards": boards,
        "road_words_changed": any(change.alt or change.marks is None for change in changes),
        "good_roads": good_roads,
        "good_roads_changed": good_roads != good_roads_before,
        **stats,
        "charts_change": {name: (charts_before[name], figure) for name, figure in stats["charts"].items()},
        "odds": (
            odds_panel.odds_change(table, shoe, rounds, since.odds)
            if with_odds and since.odds is not None
            else {"pending": version.odds_pending, "sight": sight(table.audience)}
        ),
        "limits": selectors.table_limits(table),
        # The cards the new rounds revealed: their rows, for a page that shows the list.
        "card_rows": authentication.shoe_cards(shoe=shoe, rounds_from=base + 1) if shoe and shoe.authenticated else [],
    }


def _shoe_start_context(
    table: Table, shoe: Shoe | None, version: PageVersion, since: PageVersion | None, progress: RoundInProgress | None
) -> dict[str, Any] | None:
    """What a new shoe, no round dealt yet, brings the pages that show the whole of the
    shoe before it (``since``, as it ended): the roads and the history emptied, the
    stats, charts and odds as they change, instead of the whole live part (a shoe's
    start pushed 14.2 KiB whole, about 4 KiB so). None for any other ``since``."""
    if shoe is None or version.round or since is None or since.odds is None or since.shoe >= version.shoe:
        return None
    previous = selectors.shoe_find(table=table, which=str(since.shoe))
    if previous is None:
        return None
    rounds = _rounds_newest_first(previous)
    ended = selectors.table_version_of(previous, rounds)
    if (ended.round, ended.voided) != (since.round, since.voided) or since.odds > (ended.odds or 0):
        return None  # the pages do not show that shoe's end
    shown = roads_of(rounds[::-1])
    charts_before = stats_context(shown)["charts"]
    odds_before = odds_panel.odds_context(table, previous, [r for r in rounds if r.number <= since.odds])
    context = table_context(table, shoe, version=version, progress=progress)
    return context | {
        "since": since,
        "charts_change": {name: (charts_before[name], figure) for name, figure in context["charts"].items()},
        "odds": odds_panel.odds_change_from(odds_before, context["odds"], since.odds),
    }


def table_odds_push_html(table: Table, *, since: PageVersion | None) -> tuple[str, PageVersion]:
    """What a round's odds push the table's pages, with the version it brings them to: to
    the pages that show ``since`` (the state pushed last), the numbers that changed since
    its odds; nothing when they show these odds already; the whole panel otherwise (a
    new shoe, a void, an unknown ``since``)."""
    shoe = selectors.shoe_find(table=table, which="current")
    rounds = _rounds_newest_first(shoe)
    version = selectors.table_version_of(shoe, rounds)
    context: dict[str, Any] = {"table": table, "shoe": shoe, "rounds": rounds, "version": version}
    if since is None or (since.shoe, since.voided) != (version.shoe, version.voided) or since.odds is None:
        context["odds"] = odds_panel.odds_context(table, shoe, rounds)
        return render_to_string("tables/_odds_push.html", context), version
    if since.odds >= (version.odds or 0):
        return "", version
    context["odds"] = odds_panel.odds_change(table, shoe, rounds, since.odds)
    return render_to_string("tables/_odds_delta.html", context), version


def table_odds_html(table: Table) -> str:
    """The odds panel, with the version whose odds it shows."""
    shoe = selectors.shoe_find(table=table, which="current")
    rounds = _rounds_newest_first(shoe)
    context: dict[str, Any] = {"table": table, "shoe": shoe, "rounds": rounds}
    context |= {
        "version": selectors.table_version_of(shoe, rounds),
        "odds": odds_panel.odds_context(table, shoe, rounds),
    }
    return render_to_string("tables/_odds_push.html", context)


def lobby_card_html(
    table: Table,
    open_shoe: Shoe | EllipsisType | None = ...,
    *,
    odds_pending: bool = False,
    progress: Progress = ...,
    rounds: list[selectors.LobbyRound] | None = None,
) -> str:
    """A table's lobby card, rendered now (for a push) and kept for the lobby pages; of
    its ``open_shoe`` when the caller has read it (None: it has none), and that shoe's
    round in progress (``progress``) likewise. With ``odds_pending`` (the caller's
    version says its last round's odds are not stored yet) the card says they are being
    worked out, whatever odds came before: none are read, and the card is not kept (its
    key names the odds it shows). ``rounds``: that shoe's, when the caller has read them."""
    shoe = selectors.table_open_shoe(table=table) if isinstance(open_shoe, EllipsisType) else open_shoe
    rounds = selectors.lobby_rounds_of(shoe) if rounds is None else rounds
    odds = selectors.newest_odds([shoe.pk]).get(shoe.pk) if shoe and not odds_pending else None
    html = _card_render(table, shoe, rounds, odds, _in_progress(shoe, progress))
    if not odds_pending:
        with contextlib.suppress(Exception):  # a cache that is down only costs the lobby a render
            cache.set(_card_key(table, selectors.lobby_version(shoe, rounds), odds), html, timeout=CARD_SECONDS)
    return html


def lobby_cards_html(have: dict[str, PageVersion] | None = None) -> list[str]:
    """Every table's lobby card: from the cache where the table shows what it showed when
    its card was rendered (pushes and :func:`lobby_cards_keep` keep them there), rendered
    and kept otherwise. With ``have`` (a reconnecting lobby's cards, slug to version),
    only the cards it has in another state."""
    sources = lobby_sources()
    return lobby_cards_of(sources if have is None else lobby_behind(sources, have))


def lobby_behind(sources: list[LobbySource], have: dict[str, PageVersion]) -> list[LobbySource]:
    """The tables of ``sources`` whose card a lobby that shows ``have`` shows in another state."""
    return [s for s in sources if s.table.slug in have and have[s.table.slug] != s.version]


def lobby_cards_keep(languages: list[str]) -> None:
    """Keep every table's lobby card rendered in the cache in each of ``languages``
    (the tables read once for all of them)."""
    sources = lobby_sources()
    for language in languages:
        with override(language):
            lobby_cards_of(sources)


Odds = tuple[int, dict[str, Any]]  # a round's number and the odds stored after it


class LobbySource(NamedTuple):
    table: Table
    shoe: Shoe | None
    rounds: list[selectors.LobbyRound]
    version: PageVersion
    odds: Odds | None  # the shoe's newest stored odds
    dealing: RoundInProgress | None  # the round its shoe is dealing card by card


def lobby_sources() -> list[LobbySource]:
    """Each table with its open shoe, that shoe's rounds, its lobby version and its
    newest odds."""
    sources = selectors.lobby_sources()
    shoe_ids = [shoe.pk for _, shoe, _ in sources if shoe]
    odds, dealing = selectors.newest_odds(shoe_ids), selectors.rounds_in_progress(shoe_ids)
    return [
        LobbySource(
            table,
            shoe,
            rounds,
            selectors.lobby_version(shoe, rounds),
            odds.get(shoe.pk) if shoe else None,
            dealing.get(shoe.pk) if shoe else None,
        )
        for table, shoe, rounds in sources
    ]


def lobby_cards_of(sources: list[LobbySource]) -> list[str]:
    """These tables' cards in the active language: kept ones from the cache, the others
    rendered and kept."""
    keys = [_card_key(source.table, source.version, source.odds) for source in sources]
    try:
        cached = cache.get_many(keys)
    except Exception:
        cached = {}
    cards: list[str] = []
    fresh: dict[str, str] = {}
    for key, source in zip(keys, sources, strict=True):
        if key not in cached:
            fresh[key] = _card_render(source.table, source.shoe, source.rounds, source.odds, source.dealing)
        cards.append(mark_safe(cached.get(key) or fresh[key]))  # our own templates' output
    with contextlib.suppress(Exception):
        cache.set_many(fresh, timeout=CARD_SECONDS)
    return cards


def _card_render(
    table: Table,
    shoe: Shoe | None,
    rounds: list[selectors.LobbyRound],
    odds: Odds | None,
    dealing: RoundInProgress | None = None,
) -> str:
    row = lobby_row(table, shoe, rounds, odds, dealing)
    html = render_to_string("tables/_table_card.html", {"row": row})
    if shoe is not None:
        held_drawn.keep(shoe.pk, row["held"])  # once drawn: the next card of the shoe extends its roads
    return html


def _card_key(table: Table, version: PageVersion, odds: Odds | None) -> str:
    """A card is kept per state of its shoe and per round its odds are of (the odds of a
    round are stored a moment after the round)."""
    return f"lobby-card:{table.pk}:{version}:{odds[0] if odds else '-'}:{table_look(table)}"


def table_look(table: Table) -> str:
    """What a kept fragment depends on besides its shoe's state: the table's own fields
    (a rename or new limits show at once) and the language it is rendered in."""
    fields = [getattr(table, f.attname) for f in Table._meta.concrete_fields]
    return hashlib.blake2b(repr([*fields, get_language()]).encode(), digest_size=8).hexdigest()


# A lobby's tables: each shoe's rounds, their roads and runs, under 80 KiB at its end.
held_drawn: TakenOut[int, tuple[list[RoadRound], alerts.HeldRoads]] = TakenOut(size=128)


def _held_roads(shoe: Shoe | None, rounds: list[RoadRound]) -> alerts.HeldRoads:
    """:func:`roads.alerts.held_roads`, carrying on from the roads and runs this process
    found for the shoe's card before (kept by :func:`_card_render`) when its rounds since
    only added to them (a card a round, twice on the embedded default: with the round, and
    with its odds)."""
    seen = held_drawn.take(shoe.pk) if shoe is not None else None
    if seen is not None and rounds[: len(seen[0])] == seen[0]:
        return alerts.held_roads(rounds, known=(len(seen[0]), seen[1].runs), built=seen[1].roads)
    return alerts.held_roads(rounds)


def forget_drawn() -> None:
    """Forget what this process drew of every table (a test starts afresh)."""
    last_drawn.clear()
    held_drawn.clear()


def lobby_row(
    table: Table,
    shoe: Shoe | None,
    rounds: list[selectors.LobbyRound],
    odds: Odds | None = None,
    dealing: RoundInProgress | None = None,
) -> dict[str, Any]:
    """One table's lobby card: its open shoe's roads, counts and good roads (with how
    many rounds each has held), and the next round's returns where they are stored."""
    played = [r for r in rounds if not r[4]]  # voided rounds stay out of the roads
    road_rounds = [RoadRound(Winner(w), bp, pp, i) for i, (_, w, bp, pp, _) in enumerate(played)]
    held = _held_roads(shoe, road_rounds)
    winners = [r[1] for r in played]
    return {
        "table": table,
        "shoe": shoe,
        "roads": ShoeRoads(held.roads, rounds=[]),  # no titles on a card
        "last": {"number": played[-1][0], "winner": played[-1][1]} if played else None,
        "counts": {w: winners.count(w) for w in ("B", "P", "T")},
        "good_roads": list(held.runs),  # the good roads that hold, in the order of PATTERNS
        "runs": held.runs,
        "next_returns": odds_panel.next_returns(table, odds, rounds[-1][0] if rounds else 0),
        "version": selectors.lobby_version(shoe, rounds),
        "dealing": dealing_of(dealing),
        "held": (road_rounds, held),  # kept by _card_render once the card is drawn
    }
