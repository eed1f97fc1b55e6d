"""The reviewer's desk for one shoe (its admin page): the shoe's reviewer statistics,
the cards dealt against what the shoe holds, its rounds, and a replay of the table page
as it stood after any of its rounds.

Every round of the shoe is read once; the replay's roads and stats are built from the
first ``k`` of them, as :func:`tables.pages.road_data.roads_after` builds them (voided rounds
left out), without a query per step.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from .. import selectors
from ..game.cards import RANKS, Card, Suit, unpack_cards
from ..game.review import Frequencies, frequencies, full_shoe_rates
from ..labels import bet_label
from ..models import AdvantageWindow, Round, RoundCancel, RoundInProgress, Shoe
from ..pages import svg
from ..pages.fragments import dealing_of, stats_context
from ..pages.road_data import roads_of

# The replay draws each road whole, as the table page does (its columns only size a
# lobby card's).
REPLAY_ROADS = {"bead_plate": 14, "big_road": 30, "big_eye_road": 30, "small_road": 30, "cockroach_road": 30}


class ReplayPositionError(ValueError):
    """A replay position that names no round of the shoe."""


def shoe_rounds(shoe: Shoe) -> list[Round]:
    """Every round of the shoe, oldest first, voided ones included (they are listed and
    replayed as voided, and left out of roads and statistics)."""
    return list(shoe.rounds.select_related("voided_by").order_by("number"))


def replay_position(text: str | None, rounds: list[Round]) -> int:
    """The round a replay stands after: ``text`` (a query's ``round``) or, without one,
    the shoe's last. Refused with a clear message when it names no round of the shoe."""
    last = rounds[-1].number if rounds else 0
    if text is None or text == "":
        return last
    if not text.isdigit():
        raise ReplayPositionError(
            _("round %(text)s is not a round number: expected a whole number from 1 to %(last)s")
            % {"text": repr(text), "last": last}
        )
    number = int(text)
    if not any(r.number == number for r in rounds):
        if last:
            message = _("the shoe has no round %(number)s: its rounds are from 1 to %(last)s")
        else:
            message = _("the shoe has no round %(number)s: it has no rounds yet")
        raise ReplayPositionError(message % {"number": number, "last": last})
    return number


@dataclass(frozen=True)
class Step:
    """A replay's step button: where it goes, or ``None`` where it cannot."""

    label: str
    number: int | None
    key: str  # what a test or the keyboard finds it by: first, previous, next, last


def replay_context(rounds: list[Round], at: int) -> dict[str, Any]:
    """The table page as it stood after round ``at``: roads (with that round's marks
    outlined), game stats and the round itself, with the steps around it."""
    road_data = roads_of([r for r in rounds if r.number <= at])
    marked = road_data.index_of(at)
    numbers = [r.number for r in rounds]
    here = numbers.index(at) if at in numbers else -1
    first, last = (numbers[0], numbers[-1]) if numbers else (None, None)
    previous = numbers[here - 1] if here > 0 else None
    following = numbers[here + 1] if 0 <= here < len(numbers) - 1 else None
    return {
        "at": at,
        "total": len(rounds),
        "first": first,
        "last": last,
        "round": rounds[here] if here >= 0 else None,
        "boards": svg.boards(road_data.roads, REPLAY_ROADS, whole=True, marked=marked),
        "steps": [
            Step(_("« First"), first if at != first else None, "first"),
            Step(_("‹ Previous"), previous, "previous"),
            Step(_("Next ›"), following, "next"),
            Step(_("Last »"), last if at != last else None, "last"),
        ],
        **stats_context(road_data),
    }


@dataclass(frozen=True)
class ShoeReview:
    """The review page's statistics for one shoe: observed against exact expectation,
    each with its chi-square test, and the flag under the review threshold."""

    frequencies: Frequencies
    threshold: float

    @property
    def flagged(self) -> bool:
        return self.frequencies.flagged(self.threshold)


def shoe_review(shoe: Shoe, rounds: list[Round], threshold: float | None = None) -> ShoeReview:
    """As the review page tests a shoe (:func:`tables.desk.review.report`): its played rounds
    against a full shoe of its decks, flagged when a p-value falls under the threshold."""
    played = [selectors.played_round(r) for r in rounds if not r.voided]
    threshold = settings.REVIEW_P_THRESHOLD if threshold is None else threshold
    return ShoeReview(frequencies(played, full_shoe_rates(shoe.decks)), threshold)


@dataclass(frozen=True)
class CardCount:
    """One card (or a rank's total): how many were dealt, and how many the shoe holds."""

    dealt: int
    held: int

    @property
    def over(self) -> bool:
        """More dealt than the shoe holds: a misread card or a wrong shoe."""
        return self.dealt > self.held


@dataclass(frozen=True)
class RankRow:
    label: str
    cells: tuple[CardCount, ...]  # in SUITS order
    total: CardCount


SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


@dataclass(frozen=True)
class CardsDealt:
    """Every card dealt from the shoe (voided rounds included: their cards left the
    shoe too) against the shoe's composition, by rank and suit."""

    rows: tuple[RankRow, ...]
    suits: tuple[CardCount, ...]
    total: CardCount

    @property
    def left(self) -> int:
        return max(0, self.total.held - self.total.dealt)

    @property
    def suit_symbols(self) -> list[str]:
        return [s.symbol for s in SUITS]

    @property
    def over(self) -> list[str]:
        """The cards dealt more often than the shoe holds them, e.g. ``["A♥"]``."""
        return [
            Card(rank, suit).label
            for rank, row in zip(RANKS, self.rows, strict=True)
            for suit, cell in zip(SUITS, row.cells, strict=True)
            if cell.over
        ]


def cards_dealt(shoe: Shoe) -> CardsDealt:
    counts = Counter(unpack_cards(shoe.dealt))
    decks = shoe.decks
    rows = []
    for rank in RANKS:
        cells = tuple(CardCount(counts[Card(rank, suit)], decks) for suit in SUITS)
        label = Card(rank, Suit.SPADES).label[:-1]
        rows.append(RankRow(label, cells, CardCount(sum(c.dealt for c in cells), 4 * decks)))
    suits = tuple(CardCount(sum(counts[Card(rank, suit)] for rank in RANKS), len(RANKS) * decks) for suit in SUITS)
    return CardsDealt(tuple(rows), suits, CardCount(sum(counts.values()), 52 * decks))


CANCELS_SHOWN = 50  # cancelled rounds listed on a shoe's page, newest first


def round_dealing(progress: RoundInProgress | None) -> dict[str, Any] | None:
    """A round being dealt as the pages show it (:func:`tables.pages.fragments.dealing_of`)."""
    return dealing_of(progress)


def dealing_context(shoe: Shoe) -> dict[str, Any]:
    """The round the shoe is dealing now, as the table page shows it (its hands so far,
    whose card is next, what the rules decided), and the shoe's cancelled rounds."""
    progress = selectors.shoe_round_in_progress(shoe)
    cancels: list[RoundCancel] = list(shoe.round_cancels.order_by("-at", "-pk")[:CANCELS_SHOWN])
    return {
        "progress": progress,
        "dealing": round_dealing(progress),
        "cancels": cancels,
        "cancels_shown": CANCELS_SHOWN,
    }


def round_change_urls(rounds: list[Round]) -> list[str]:
    """Each round's admin page, in order: one URL reversed and the others made from it (a
    shoe's 80 rows reversed one by one were a tenth of its page)."""
    head, _zero, tail = reverse("admin:tables_round_change", args=[0]).rpartition("/0/")
    return [f"{head}/{round_.pk}/{tail}" for round_ in rounds]


def desk_context(shoe: Shoe, rounds: list[Round], at: int) -> dict[str, Any]:
    """Everything the shoe's admin page shows, its replay standing after round ``at``."""
    return {
        "shoe": shoe,
        "rounds": rounds,
        "round_rows": list(zip(rounds, round_change_urls(rounds), strict=True)),
        "voided": sum(1 for r in rounds if r.voided),
        "review": shoe_review(shoe, rounds),
        "cards": cards_dealt(shoe),
        "replay": replay_context(rounds, at),
        "windows": advantage_windows(shoe),
    }


@dataclass(frozen=True)
class WindowLine:
    """An advantage window as the shoe's page lists it: the bet by name, and the row."""

    bet: str
    window: AdvantageWindow


def advantage_windows(shoe: Shoe) -> list[WindowLine]:
    """Each bet's advantage windows in the shoe, as they opened (a few at most)."""
    return [WindowLine(bet_label(w.bet), w) for w in shoe.advantage_windows.order_by("opened_after", "pk")]
