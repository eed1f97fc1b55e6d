"""Card accounting: every card of a shoe where it should be.

- **Overdealt** (:func:`overdealt_findings`): a card seen more often than the shoe's
  decks hold (ingest refuses it; the alarm says it was tried). A rank seen more often
  than it is held always has a card of it overdealt (pigeonhole), so cards suffice.
- **An authenticated shoe** (:func:`plaintext_findings`, :func:`unaccounted_finding`):
  each revealed plaintext names the card it was dealt as; at the shoe's end, every
  committed card has a state that accounts for it, in its place (card 1 turned, the
  burned ones, the dealt ones in the rounds' order, the rest unused), and a plaintext
  once revealed.
- **A plain shoe** (:func:`composition_finding`): the cards seen against the shoe's
  composition. Cards missing from a shoe show as cards never seen, or a rank seen too
  rarely, as the shoe is dealt to its cut card.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from .alarms import AlarmKind, Finding, Severity
from .cards import ALL_CARDS, RANKS, Card
from .review import chi2_sf
from .seen import CardState, ShoeSeen
from .shoe import DECK_SIZE, burn_count
from .tails import (
    binomial_critical,
    binomial_sf,
    chi2_critical,
    hypergeometric_cdf,
    hypergeometric_high_critical,
    hypergeometric_low_critical,
    hypergeometric_sf,
)
from .thresholds import Thresholds

MAX_LISTED = 40  # card numbers or codes listed in evidence
# A chi-square's tail is only near its true one when every count expects this many: with
# fewer cards seen, the counts' own exact tails (the most-seen card's, rank's) judge them.
CHI_SQUARE_EXPECTED = 5
COMPOSITION_TESTS = 6  # the tests a shoe's composition is judged by (Bonferroni: p times this)


def overdealt_findings(shoe: ShoeSeen) -> list[Finding]:
    """CARD_OVERDEALT, critical, one per card seen (dealt or turned) more often than the
    shoe's decks hold it; key ``shoe:<key>:card_overdealt:<card>``."""
    findings = []
    for card, count in zip(ALL_CARDS, shoe.card_counts, strict=True):
        if count <= shoe.decks:
            continue
        findings.append(
            Finding(
                AlarmKind.CARD_OVERDEALT,
                Severity.CRITICAL,
                shoe.key(AlarmKind.CARD_OVERDEALT, card.code),
                shoe.round_number,
                {
                    "test": "card_count",
                    "statistic": count,
                    "p_value": 0.0,
                    "held": shoe.decks,
                    "rounds": sorted({r.number for r in shoe.rounds if card in r.cards}),
                    "cards": [card.code],
                    "burn_card": shoe.burn_card == card,
                },
            )
        )
    return findings


# ------------------------------------------------------------- authenticated shoe


def plaintext_findings(shoe: ShoeSeen) -> list[Finding]:
    """PLAINTEXT_MISMATCH, critical: committed cards whose revealed plaintext names
    another card than the one they were dealt (or turned) as; one finding per shoe,
    key ``shoe:<key>:plaintext_mismatch``, listing them all."""
    wrong = [
        c
        for c in shoe.committed
        if c.plaintext_card is not None and c.dealt_as is not None and c.plaintext_card != c.dealt_as
    ]
    if not wrong:
        return []
    return [
        Finding(
            AlarmKind.PLAINTEXT_MISMATCH,
            Severity.CRITICAL,
            shoe.key(AlarmKind.PLAINTEXT_MISMATCH),
            shoe.round_number,
            {
                "test": "plaintext_names_card",
                "statistic": len(wrong),
                "p_value": 0.0,
                "numbers": [c.number for c in wrong][:MAX_LISTED],
                "cards": [c.dealt_as.code for c in wrong if c.dealt_as is not None][:MAX_LISTED],
                "plaintexts_name": [c.plaintext_card.code for c in wrong if c.plaintext_card is not None][:MAX_LISTED],
                "rounds": _rounds_of_numbers(shoe, [c.number for c in wrong]),
            },
        )
    ]


def _first_dealt_number(shoe: ShoeSeen) -> int | None:
    """The number of the first card dealt to a round: after card 1 and the ones it burns."""
    burn = shoe.burn_card
    if burn is None:
        first = next((c for c in shoe.committed if c.number == 1), None)
        burn = None if first is None else first.dealt_as or first.plaintext_card
    return None if burn is None else 2 + burn_count(burn)


def _rounds_of_numbers(shoe: ShoeSeen, numbers: list[int]) -> list[int]:
    """The rounds the committed cards ``numbers`` were dealt to (cancelled ones skipped)."""
    _, dealt_at = _expected_places(shoe, _first_dealt_number(shoe), DECK_SIZE * shoe.decks)
    rounds = shoe.card_rounds
    return sorted({rounds[dealt_at[n]] for n in numbers if n in dealt_at})[:MAX_LISTED]


def unaccounted_problems(shoe: ShoeSeen) -> dict[int, str]:
    """Why each committed card is not accounted for at the shoe's end, by card number:
    missing or duplicated numbers, an unknown state or one out of its place, a card
    revealed in play (turned or dealt) without a plaintext, a burned or unused card
    without one once the reveal is due, a dealt card that is not the round's card at its
    place. Card number 0 stands for the rounds' cards that no committed card accounts for."""
    size = DECK_SIZE * shoe.decks
    problems: dict[int, str] = {}
    numbers = Counter(c.number for c in shoe.committed)
    for n in range(1, size + 1):
        if numbers[n] == 0:
            problems[n] = "no committed card"
        elif numbers[n] > 1:
            problems[n] = f"committed {numbers[n]} times"
    first_dealt = _first_dealt_number(shoe)
    cards = shoe.cards
    places, dealt_at = _expected_places(shoe, first_dealt, size)
    for c in shoe.committed:
        if c.number in problems:
            continue
        if c.number < 1 or c.number > size:
            problems[c.number] = "a number past the shoe's cards"
            continue
        try:
            state = CardState(c.state)
        except ValueError:
            problems[c.number] = f"unknown state {c.state!r}"
            continue
        expected = places.get(c.number)
        if expected is not None and state is not expected:
            problems[c.number] = f"{state.value} where {expected.value} was expected"
        elif state in (CardState.BURN_CARD, CardState.DEALT) and c.plaintext_card is None:
            problems[c.number] = f"{state.value} without a plaintext"
        elif c.plaintext_card is None and shoe.reveal_due:
            problems[c.number] = f"{state.value}, not revealed"
        elif state is CardState.DEALT and c.number in dealt_at and c.dealt_as != cards[dealt_at[c.number]]:
            named = c.dealt_as.code if c.dealt_as is not None else "nothing"
            problems[c.number] = f"dealt as {named}, the round has {cards[dealt_at[c.number]].code}"
    dealt_count = sum(1 for c in shoe.committed if c.state == CardState.DEALT)
    if dealt_count < len(cards):
        problems[0] = f"{len(cards) - dealt_count} of the rounds' cards have no committed card"
    return problems


def _expected_places(shoe: ShoeSeen, first_dealt: int | None, size: int) -> tuple[dict[int, CardState], dict[int, int]]:
    """What each committed card should be, by number, and where each dealt one is in the
    rounds' cards: card 1 the burn card, the cards it burns burned, then the rounds' cards
    in number order and the rest unused. A card stored as burned among them, revealed, is
    a cancelled round's (a misdeal: its plaintext was checked as it came, and the shoe's
    next card moved past it): accounted for, and the rounds' cards go on after it."""
    places: dict[int, CardState] = {1: CardState.BURN_CARD}
    dealt_at: dict[int, int] = {}
    if first_dealt is None:
        return places, dealt_at
    places |= dict.fromkeys(range(2, first_dealt), CardState.BURNED)
    stored = {c.number: c for c in shoe.committed}
    dealt = 0
    for number in range(first_dealt, size + 1):
        card = stored.get(number)
        if card is not None and card.state == CardState.BURNED and card.plaintext_card is not None:
            places[number] = CardState.BURNED  # a cancelled round's card
        elif dealt < len(shoe.cards):
            places[number], dealt_at[number], dealt = CardState.DEALT, dealt, dealt + 1
        else:
            places[number] = CardState.UNUSED
    return places, dealt_at


def unaccounted_finding(shoe: ShoeSeen) -> Finding | None:
    """CARDS_UNACCOUNTED, critical, at an authenticated shoe's end: the committed cards
    :func:`unaccounted_problems` finds; key ``shoe:<key>:cards_unaccounted``."""
    if not shoe.ended or not shoe.authenticated:
        return None
    problems = unaccounted_problems(shoe)
    if not problems:
        return None
    listed = sorted(problems.items())[:MAX_LISTED]
    return Finding(
        AlarmKind.CARDS_UNACCOUNTED,
        Severity.CRITICAL,
        shoe.key(AlarmKind.CARDS_UNACCOUNTED),
        shoe.round_number,
        {
            "test": "card_accounting",
            "statistic": len(problems),
            "p_value": 0.0,
            "numbers": [n for n, _ in listed],
            "problems": {str(n): why for n, why in listed},
            "rounds": _rounds_of_numbers(shoe, [n for n, _ in listed]),
            "cards": [],
        },
    )


# --------------------------------------------------------------------- plain shoe


@lru_cache(maxsize=4096)
def unseen_chance(decks: int, seen: int) -> float:
    """The chance that a given card (held ``decks`` times) is never among ``seen`` cards
    of a full shoe: (N - d choose n) / (N choose n)."""
    return hypergeometric_cdf(0, DECK_SIZE * decks, decks, seen)


def composition_finding(shoe: ShoeSeen, thresholds: Thresholds) -> Finding | None:
    """SHORT_SHOE: the cards seen (the burn card and the rounds') against the shoe's
    composition, six tests, the lowest p-value times six: how many cards were never seen
    (binomial tail of the chance each is unseen: the cards' unseen events are negatively
    related, so it errs safe); the rank seen least often and the card and the rank seen
    most often (each its exact hypergeometric tail, times the 13 ranks or 52 cards: a
    union bound, near exact for rare events); and chi-squares of ranks and of cards,
    corrected for drawing without replacement (each count's variance is a binomial's
    times (N - n) / (N - 1)), once every count expects :data:`CHI_SQUARE_EXPECTED` cards:
    before that their tails are far off (four K♥ among a shoe's first 7 cards: 4.5e-9 by
    the chi-square, 1.1e-4 in truth)."""
    counts = shoe.card_counts
    n, size = sum(counts), DECK_SIZE * shoe.decks
    if n < 2 or n >= size:
        return None
    never = [card for card, count in zip(ALL_CARDS, counts, strict=True) if count == 0]
    ranks = dict.fromkeys(RANKS, 0)
    for card, count in zip(ALL_CARDS, counts, strict=True):
        ranks[card.rank] += count
    low_rank = min(RANKS, key=ranks.__getitem__)
    held = 4 * shoe.decks
    # The most seen among the cards (and ranks) the shoe could have dealt that often: one
    # dealt more often than the shoe holds it is an overdealt card, an alarm of its own.
    high_rank = max(RANKS, key=lambda rank: ranks[rank] if ranks[rank] <= held else -1)
    most_card = max((count for count in counts if count <= shoe.decks), default=0)
    correction = (size - 1) / (size - n)
    rank_expected = n * held / size
    rank_chi = correction * sum((ranks[r] - rank_expected) ** 2 for r in RANKS) / rank_expected
    card_expected = n * shoe.decks / size
    card_chi = correction * sum((count - card_expected) ** 2 for count in counts) / card_expected
    rank_chi_valid, card_chi_valid = rank_expected >= CHI_SQUARE_EXPECTED, card_expected >= CHI_SQUARE_EXPECTED
    # p < threshold exactly when one of the tests is under a sixth of it.
    level = thresholds.composition / COMPOSITION_TESTS
    unseen = unseen_chance(shoe.decks, n)
    if (
        len(never) < binomial_critical(len(ALL_CARDS), unseen, level)
        and ranks[low_rank] > hypergeometric_low_critical(size, held, n, level / len(RANKS))
        and ranks[high_rank] < hypergeometric_high_critical(size, held, n, level / len(RANKS))
        and most_card < hypergeometric_high_critical(size, shoe.decks, n, level / len(ALL_CARDS))
        and (not rank_chi_valid or rank_chi < chi2_critical(len(RANKS) - 1, level))
        and (not card_chi_valid or card_chi < chi2_critical(len(ALL_CARDS) - 1, level))
    ):
        return None
    tests: dict[str, tuple[float, float]] = {
        "cards_never_seen": (binomial_sf(len(never), len(ALL_CARDS), unseen), len(never)),
        "rank_shortfall": (min(1.0, 13 * hypergeometric_cdf(ranks[low_rank], size, held, n)), ranks[low_rank]),
        "rank_most": (min(1.0, 13 * hypergeometric_sf(ranks[high_rank], size, held, n)), ranks[high_rank]),
        "card_most": (min(1.0, 52 * hypergeometric_sf(most_card, size, shoe.decks, n)), most_card),
    }
    if rank_chi_valid:
        tests["rank_chi_square"] = (chi2_sf(rank_chi, len(RANKS) - 1), rank_chi)
    if card_chi_valid:
        tests["card_chi_square"] = (chi2_sf(card_chi, len(ALL_CARDS) - 1), card_chi)
    test = min(tests, key=lambda name: tests[name][0])
    p_value = min(1.0, COMPOSITION_TESTS * tests[test][0])
    severity = thresholds.severity(p_value, thresholds.composition)
    if severity is None:
        return None
    return Finding(
        AlarmKind.SHORT_SHOE,
        severity,
        shoe.key(AlarmKind.SHORT_SHOE, severity),
        shoe.round_number,
        {
            "test": test,
            "statistic": tests[test][1],
            "p_value": p_value,
            "seen": n,
            "never_seen": [card.code for card in never][:MAX_LISTED],
            "rank_seen_least": {"rank": low_rank, "seen": ranks[low_rank], "expected": rank_expected},
            "rounds": [],
            "cards": _cards_of(test, never, counts, most_card),
        },
    )


def _cards_of(test: str, never: list[Card], counts: list[int], most: int) -> list[str]:
    """The cards an alarm of ``test`` is about: the card seen most often, or those never seen."""
    if test == "card_most":
        return [card.code for card, count in zip(ALL_CARDS, counts, strict=True) if count == most][:MAX_LISTED]
    return [card.code for card in never][:MAX_LISTED]
