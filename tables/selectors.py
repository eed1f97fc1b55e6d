"""Reads: what pages and the API show, as plain data."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.db.models import Case, Count, Max, OuterRef, Prefetch, Q, QuerySet, Subquery, When

from .game.bets import BetType
from .game.cards import hand_score
from .game.dealing import Deal
from .game.outcome import PlayedRound, Winner
from .game.review import full_shoe_rates
from .game.summaries import Summary
from .labels import bet_label
from .models import Round, RoundAudit, RoundInProgress, Shoe, ShoeDay, Table
from .models.shoe_days import STORED, summary_of
from .page_version import NO_SHOE, NO_SHOE_TABLE, PageVersion


def table_open_shoe(*, table: Table) -> Shoe | None:
    return table.shoes.filter(state=Shoe.State.OPEN).first()


def _current_first(shoes: QuerySet[Shoe]) -> QuerySet[Shoe]:
    """A table's shoes with its current one first: the open shoe, else the latest (a table
    has one open shoe at most)."""
    return shoes.order_by(Case(When(state=Shoe.State.OPEN, then=0), default=1), "-number")


def shoe_find(*, table: Table, which: str) -> Shoe | None:
    """``which`` is ``"current"`` (the open shoe, else the latest) or a shoe number."""
    if which == "current":
        return _current_first(table.shoes.all()).first()
    return table.shoes.filter(number=int(which)).first()


def current_shoe_dealing(*, table: Table) -> tuple[Shoe | None, RoundInProgress | None]:
    """:func:`shoe_find`'s current shoe and :func:`shoe_round_in_progress` of it, in one
    query (every push reads both)."""
    shoe = _current_first(table.shoes.select_related("round_in_progress")).first()
    try:
        return shoe, shoe.round_in_progress if shoe is not None else None
    except RoundInProgress.DoesNotExist:
        return shoe, None


def shoe_rounds(*, shoe: Shoe) -> QuerySet[Round]:
    return shoe.rounds.select_related("voided_by").order_by("number")


class PlayedRow(Protocol):
    """What :func:`played_round` reads of a stored round: a ``Round``, or a row of
    :data:`PLAYED_FIELDS` read with ``values_list(..., named=True)``."""

    winner: str
    banker_pair: bool
    player_pair: bool
    player_natural: bool
    banker_natural: bool


class ShoeRow(PlayedRow, Protocol):
    """What a table's live parts read of every round of its shoe: a ``Round``, or a row
    read with ``values_list(..., named=True)`` (a page and each push read them all, and a
    model instance each costs twice the read)."""

    shoe_id: int
    number: int
    voided: bool
    odds: Any


class PushedRow(ShoeRow, Protocol):
    """A :class:`ShoeRow` read with whether its odds are stored (a push reads no odds)."""

    has_odds: bool


PLAYED_FIELDS = ("winner", "banker_pair", "player_pair", "player_natural", "banker_natural")


def played_round(r: PlayedRow) -> PlayedRound:
    """A stored round as the statistics read it: the one place a row becomes one."""
    return PlayedRound(
        winner=Winner(r.winner),
        banker_pair=r.banker_pair,
        player_pair=r.player_pair,
        natural=r.player_natural or r.banker_natural,
    )


def round_to_data(round_: Round, *, with_table: bool = False) -> dict[str, Any]:
    """The API's round object; ``with_table``, its table's slug too (a receipt, looked up
    by Transaction ID alone, names where the round was played)."""
    data = {
        "id": round_.round_id,
        "shoe": round_.shoe.number,
        "number": round_.number,
        "winner": round_.winner,
        "player_score": round_.player_score,
        "banker_score": round_.banker_score,
        "player_cards": [card.code for card in round_.player_hand],
        "banker_cards": [card.code for card in round_.banker_hand],
        "player_pair": round_.player_pair,
        "banker_pair": round_.banker_pair,
        "perfect_pair": round_.perfect_pair,
        "natural": {
            "player": round_.player_score if round_.player_natural else None,
            "banker": round_.banker_score if round_.banker_natural else None,
        },
        "bets": round_.bets,
        "dealer": round_.dealer_name,
        "created_at": round_.created_at.isoformat(),
        "voided": round_.voided,
        "void_reason": round_.void_reason,
    }
    return {**data, "table": round_.shoe.table.slug} if with_table else data


def round_in_progress(*, table: Table) -> RoundInProgress | None:
    """The round the table's open shoe is dealing card by card, if any (with its shoe)."""
    return RoundInProgress.objects.select_related("shoe").filter(shoe__table=table, shoe__state=Shoe.State.OPEN).first()


def shoe_round_in_progress(shoe: Shoe | None) -> RoundInProgress | None:
    """The round the shoe is dealing card by card, if any."""
    return RoundInProgress.objects.filter(shoe=shoe).first() if shoe is not None else None


def rounds_in_progress(shoe_ids: list[int]) -> dict[int, RoundInProgress]:
    """The rounds these shoes are dealing, by shoe, in one query (a lobby shows many)."""
    return {progress.shoe_id: progress for progress in RoundInProgress.objects.filter(shoe_id__in=shoe_ids)}


def deal_to_data(*, shoe: Shoe, number: int, deal: Deal, dealer: str, round_: Round | None = None) -> dict[str, Any]:
    """The API's object for a round dealt card by card: as far as it has gone (whose card
    is next, the hands' running scores, what the rules decided), or, once complete, the
    recorded round as a whole-round post answers it, with ``complete`` and ``next``."""
    player = [card.code for card in deal.player]
    banker = [card.code for card in deal.banker]
    progress = {"complete": round_ is not None, "next": deal.next_side.value if deal.next_side else None}
    if round_ is not None:
        return {**round_to_data(round_), **progress, "player": player, "banker": banker}
    return {
        "shoe": shoe.number,
        "number": number,
        **progress,
        "player": player,
        "banker": banker,
        "player_score": hand_score(deal.player) if deal.player else None,
        "banker_score": hand_score(deal.banker) if deal.banker else None,
        "cards": len(deal.cards),
        "calls": [call.value for call in deal.calls],
        "dealer": dealer,
    }


def shoe_to_data(shoe: Shoe) -> dict[str, Any]:
    burn = None
    if shoe.burn_card:
        burned = shoe.burned or 0
        burn = {"card": shoe.burn_card, "burned": burned, "next_card": 2 + burned}
    return {
        "number": shoe.number,
        "state": shoe.state,
        "decks": shoe.decks,
        "started_at": shoe.started_at.isoformat(),
        "ended_at": shoe.ended_at.isoformat() if shoe.ended_at else None,
        "authenticated": shoe.authenticated,
        "cards": shoe.cards,
        "commitment": shoe.commitment or None,
        "burn": burn,
        "revealed": shoe.revealed,
        "fully_verified": shoe.fully_verified,
    }


def table_limits(table: Table) -> list[tuple[str, Any, Any]]:
    """(bet label in the page's language, min, max) of the table's display limits, in
    the seed's bet order."""
    limits = table.limits or {}
    return [(bet_label(bet), *limits[bet.value]) for bet in BetType if bet.value in limits]


def shoe_version(shoe: Shoe | None) -> PageVersion:
    """What a page shows of a shoe: it changes with every recorded or voided round and
    every new shoe, so a reconnecting page can tell it missed one."""
    if shoe is None:
        return NO_SHOE
    seen = shoe.rounds.aggregate(last=Max("number"), voided=Count("pk", filter=Q(voided=True)))
    return PageVersion(shoe.number, seen["last"] or 0, seen["voided"])


def table_version(shoe: Shoe | None) -> PageVersion:
    """:func:`shoe_version`, the last round whose odds are stored (a table page also
    shows the odds, which arrive after their round) and :func:`cards_version`."""
    if shoe is None:
        return NO_SHOE_TABLE
    seen = shoe.rounds.aggregate(  # one query: every push reads it
        last=Max("number"), voided=Count("pk", filter=Q(voided=True)), odds=Max("number", filter=Q(odds__isnull=False))
    )
    return PageVersion(shoe.number, seen["last"] or 0, seen["voided"], seen["odds"] or 0, cards_version(shoe))


def cards_version(shoe: Shoe) -> int:
    """What a table page shows of a shoe besides its rounds, as one number that only
    grows: the cards revealed (the burn, each round's cards, the rest at the end), the
    steps of rounds dealt card by card (each card, each cancel) and whether the shoe has
    ended. None of these changes a recorded round, yet a page that missed its push must
    see from its version that it is behind."""
    return (shoe.revealed + shoe.deal_steps) * 2 + (shoe.state != Shoe.State.OPEN)


def table_version_of(shoe: Shoe | None, rounds: Sequence[PushedRow]) -> PageVersion:
    """:func:`table_version` of rounds already loaded (every round of ``shoe``, with
    their number, voided flag and whether their odds are stored): no query of its own."""
    if shoe is None:
        return NO_SHOE_TABLE
    last = max((r.number for r in rounds), default=0)
    voided = sum(1 for r in rounds if r.voided)
    odds = max((r.number for r in rounds if r.has_odds), default=0)
    return PageVersion(shoe.number, last, voided, odds, cards_version(shoe))


# What a lobby card needs of a round: number, winner, banker pair, player pair, voided.
LobbyRound = tuple[int, str, bool, bool, bool]


def _lobby_rounds(shoe_ids: list[int]) -> dict[int, list[LobbyRound]]:
    """The rounds of these shoes as light tuples, in one query (a lobby shows many)."""
    rows: dict[int, list[LobbyRound]] = {shoe_id: [] for shoe_id in shoe_ids}
    fields = ("shoe_id", "number", "winner", "banker_pair", "player_pair", "voided")
    for shoe_id, number, winner, banker_pair, player_pair, voided in (
        Round.objects.filter(shoe_id__in=shoe_ids).order_by("shoe_id", "number").values_list(*fields)
    ):
        rows[shoe_id].append((number, winner, banker_pair, player_pair, voided))
    return rows


def lobby_rounds_of(shoe: Shoe | None) -> list[LobbyRound]:
    return _lobby_rounds([shoe.pk])[shoe.pk] if shoe else []


def lobby_rounds_from(rounds: Sequence[ShoeRow]) -> list[LobbyRound]:
    """:func:`lobby_rounds_of` from every round of the shoe already read, newest first
    (a push reads them once for the table's pages and the lobby's)."""
    return [(r.number, r.winner, r.banker_pair, r.player_pair, r.voided) for r in reversed(rounds)]


def lobby_version(shoe: Shoe | None, rounds: list[LobbyRound]) -> PageVersion:
    """What a lobby card shows of its shoe: as :func:`shoe_version`, and
    :func:`cards_version` (the card shows the round being dealt)."""
    if shoe is None:
        return NO_SHOE
    voided = sum(1 for r in rounds if r[4])
    return PageVersion(shoe.number, rounds[-1][0] if rounds else 0, voided, cards=cards_version(shoe))


def lobby_sources() -> list[tuple[Table, Shoe | None, list[LobbyRound]]]:
    """Every table with its open shoe and that shoe's rounds, in three queries."""
    open_shoes = Prefetch("shoes", queryset=Shoe.objects.filter(state=Shoe.State.OPEN), to_attr="open_shoes")
    tables = list(Table.objects.prefetch_related(open_shoes))
    shoes: dict[int, Shoe | None] = {table.pk: table.open_shoes[0] if table.open_shoes else None for table in tables}
    rounds = _lobby_rounds([shoe.pk for shoe in shoes.values() if shoe])
    return [(t, shoe, rounds[shoe.pk] if shoe else []) for t in tables for shoe in [shoes[t.pk]]]


def newest_odds(shoe_ids: list[int]) -> dict[int, tuple[int, dict[str, Any]]]:
    """Each shoe's newest round whose odds are stored: (its number, its odds), in one
    query; a shoe with none is left out."""
    newest = Round.objects.filter(shoe_id=OuterRef("shoe_id"), odds__isnull=False).order_by("-number").values("pk")[:1]
    rows = Round.objects.filter(shoe_id__in=shoe_ids, pk=Subquery(newest)).values_list("shoe_id", "number", "odds")
    return {shoe_id: (number, odds) for shoe_id, number, odds in rows if odds is not None}


def round_audit_events(*, round_: Round) -> QuerySet[RoundAudit]:
    """What reviewers did to a round, newest first."""
    return RoundAudit.objects.filter(round=round_).select_related("round__shoe__table")


def shoe_audit_events(*, shoe: Shoe) -> QuerySet[RoundAudit]:
    """What reviewers did to a shoe's rounds, newest first (the shoe's admin page)."""
    return RoundAudit.objects.filter(round__shoe=shoe).select_related("round__shoe__table")


def recent_audit_events(*, limit: int = 10) -> list[RoundAudit]:
    """The latest audit events of every table (the admin index, at a glance)."""
    return list(RoundAudit.objects.select_related("round__shoe__table")[:limit])


@dataclass(frozen=True)
class ShoeSums:
    """A shoe's played rounds in a selection, summed from its shoe days."""

    decks: int
    summary: Summary
    lowest_p: float | None  # of the chi-square tests on these rounds


def shoe_sums(days: QuerySet[ShoeDay]) -> dict[int, ShoeSums]:
    """Each shoe's sums over ``days`` (ordered by shoe, then day), by shoe ID in that
    order. A shoe of one day keeps that day's p-value; a shoe spread over several is
    tested again on its sums."""
    sums: dict[int, ShoeSums] = {}
    rows = days.values_list("shoe_id", "shoe__decks", "lowest_p", *STORED)
    for shoe_id, decks, lowest_p, *stored in rows.iterator(chunk_size=2000):
        summary = summary_of(stored)
        earlier = sums.get(shoe_id)
        if earlier is not None:
            summary = earlier.summary.then(summary)
            lowest_p = summary.tally.frequencies(full_shoe_rates(decks)).lowest_p
        sums[shoe_id] = ShoeSums(decks, summary, lowest_p)
    return sums


def recent_flagged_shoes(*, threshold: float, shoes: int = 50) -> list[tuple[Shoe, float]]:
    """The latest ``shoes`` shoes whose lowest chi-square p-value falls under
    ``threshold``, with that p-value: the review page's flag, for the admin index at a
    glance (two queries, of the kept shoe days; voided rounds left out, as in the review)."""
    recent = list(Shoe.objects.select_related("table").order_by("-started_at", "-pk")[:shoes])
    sums = shoe_sums(ShoeDay.objects.filter(shoe__in=recent, rounds__gt=0).order_by("shoe_id", "day"))
    return [
        (shoe, lowest_p)
        for shoe in recent
        if shoe.pk in sums and (lowest_p := sums[shoe.pk].lowest_p) is not None and lowest_p < threshold
    ]
