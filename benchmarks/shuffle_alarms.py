"""Shoe surveillance's calibration (issue 35): false alarms on properly shuffled shoes,
and how many rounds each shuffle failure takes to raise an alarm.

    python -m benchmarks.shuffle_alarms                  # 10,000 fair shoes, 400 per failure
    python -m benchmarks.shuffle_alarms --shoes 1000     # a quicker look
    python -m benchmarks.shuffle_alarms --shoes 1000000 --workers 2 --fair-only   # the issue's million

Every shoe is 8 decks dealt by the project's own dealing core (``DealingShoe``) round by
round to its cut card, and :func:`shoe_findings` runs after every round, as the shell
runs it. The fair shoes run under lax thresholds (every p-value threshold 1e-3) so each
check's smallest p-value per shoe is known: a shoe raises an alarm at the defaults when
its smallest p-value is under the default threshold, and the counts under 1e-3 ... 1e-6
show how far the defaults stand from the fair shoes' tail. The fingerprint index is an
in-memory dict of the first ``--indexed`` shoes' stretches (the shell's database
index), which every later shoe is looked up in.

Shuffle failures, each from decks in new-deck order (A-K of spades and diamonds, K-A of
clubs and hearts): unshuffled; stripped once (packets of 5-35 cards off the top, each
onto the last) then riffled once (Gilbert-Shannon-Reeds); riffled twice; seven decks
shuffled and one left in new-deck order, inserted as a block at a random place. Then a
shoe re-dealt in the same order as an earlier one, and a preset shoe (an earlier shoe's
order, cut at a random place).

The power table (issue 51) deals the attacks a casino fears, each ``--per-failure``
shoes, and says the share caught and by which round: new-deck order, riffled once, a
shoe dealt twice, its second half repeating its first (four shuffled decks twice: the
composition intact), one deck's order repeated 8 times, 9 copies of one card (and 7 of
another), Banker 20 in a row (20 Banker rounds drawn from the shoe's cards after 20 fair
ones: its 20th is round 40), one card removed.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator

from tables.game.alarms import AlarmKind
from tables.game.cards import RANKS, Card, Suit
from tables.game.dealing import deal_round
from tables.game.outcome import Winner
from tables.game.seen import RoundSeen, ShoeSeen, StretchMatch
from tables.game.shoe import DEFAULT_CUT_DEPTH, DEFAULT_CUT_JITTER, CutCardRule, DealingShoe, burn_count
from tables.game.shuffle_checks import card_stretches, result_stretches
from tables.game.surveillance import shoe_findings
from tables.game.thresholds import DEFAULT_THRESHOLDS, Thresholds

DECKS = 8
LAX = Thresholds(composition=1e-3, deck_order=1e-3, repeats=1e-3, outcomes=1e-3, streak=1e-3)
LEVELS = (1e-3, 1e-4, 1e-5, 1e-6, 1e-7)
TARGET = 1e-4  # the issue's: at most 1 fair shoe with any alarm in 10,000
DEFAULT_LEVEL = {
    AlarmKind.SHORT_SHOE: DEFAULT_THRESHOLDS.composition,
    AlarmKind.DECK_ORDER: DEFAULT_THRESHOLDS.deck_order,
    AlarmKind.CARD_REPEATS: DEFAULT_THRESHOLDS.repeats,
    AlarmKind.OUTCOMES: DEFAULT_THRESHOLDS.outcomes,
    AlarmKind.STREAK: DEFAULT_THRESHOLDS.streak,
}
Order = list[Card]


# ---------------------------------------------------------------------- shuffles


def new_deck() -> Order:
    """A deck as it comes from the box: A-K of spades and diamonds, K-A of clubs and hearts."""
    rising = [Card(rank, suit) for suit in (Suit.SPADES, Suit.DIAMONDS) for rank in RANKS]
    falling = [Card(rank, suit) for suit in (Suit.CLUBS, Suit.HEARTS) for rank in reversed(RANKS)]
    return rising + falling


def new_decks(decks: int = DECKS) -> Order:
    """Decks in new-deck order, one after another."""
    return new_deck() * decks


def strip(order: Order, rng: random.Random) -> Order:
    """A strip (overhand) shuffle: packets of 5-35 cards off the top, each dropped onto
    the pile before it, so the packets come out in reverse order, each kept in order."""
    packets, at = [], 0
    while at < len(order):
        size = rng.randint(5, 35)
        packets.append(order[at : at + size])
        at += size
    return [card for packet in reversed(packets) for card in packet]


def riffle(order: Order, rng: random.Random) -> Order:
    """One Gilbert-Shannon-Reeds riffle: a binomial cut, then each card drops from a half
    with chance proportional to the cards left in it."""
    cut = sum(rng.random() < 0.5 for _ in order)
    left, right = order[:cut], order[cut:]
    out: Order = []
    i = j = 0
    while i < len(left) or j < len(right):
        if rng.random() * (len(left) - i + len(right) - j) < len(left) - i:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return out


def shuffled(rng: random.Random, decks: int = DECKS) -> Order:
    """A properly shuffled shoe."""
    order = new_decks(decks)
    rng.shuffle(order)
    return order


FAILURES: dict[str, Callable[[random.Random], Order]] = {
    "unshuffled": lambda rng: new_decks(),
    "stripped once, riffled once": lambda rng: riffle(strip(new_decks(), rng), rng),
    "riffled twice": lambda rng: riffle(riffle(new_decks(), rng), rng),
    "one deck unshuffled": lambda rng: _one_deck_unshuffled(rng),
}


def _second_half_repeats(rng: random.Random) -> Order:
    """Four shuffled decks, then the same four in the same order: every card 8 times."""
    half = shuffled(rng, DECKS // 2)
    return half + half


def _one_card_nine_times(rng: random.Random) -> Order:
    """A shuffled shoe in which one copy of a card became a copy of another: 9 of one, 7 of another."""
    order = shuffled(rng)
    extra, gone = rng.sample(new_deck(), 2)
    at = rng.choice([i for i, card in enumerate(order) if card == gone])
    order[at] = extra
    return order


def _one_card_removed(rng: random.Random) -> Order:
    order = shuffled(rng)
    del order[rng.randrange(len(order))]
    return order


# The attacks, as card orders (Banker 20 in a row is dealt round by round: _banker_run).
ATTACKS: dict[str, Callable[[random.Random], Order]] = {
    "new-deck order": lambda rng: new_decks(),
    "riffled once": lambda rng: riffle(new_decks(), rng),
    "second half repeats the first": _second_half_repeats,
    "one deck's order 8 times": lambda rng: shuffled(rng, 1) * DECKS,
    "9 copies of one card": _one_card_nine_times,
    "one card removed": _one_card_removed,
}


def _one_deck_unshuffled(rng: random.Random) -> Order:
    order = shuffled(rng, DECKS - 1)
    at = rng.randint(0, len(order))
    return order[:at] + new_deck() + order[at:]


# ---------------------------------------------------------------------- dealing


class Index:
    """The shell's fingerprint index, in memory: fingerprint -> (shoe, position)."""

    def __init__(self) -> None:
        self.cards: dict[int, tuple[str, int]] = {}
        self.results: dict[int, tuple[str, int]] = {}


def deal(
    order: Order, rng: random.Random, key: str, index: Index | None = None, *, store: bool = False
) -> Iterator[ShoeSeen]:
    """Deal ``order`` round by round to its cut card: the shoe as the shell would give it
    after each round, its fingerprints looked up in ``index`` (and stored there with
    ``store``, once the round is dealt)."""
    depth = DEFAULT_CUT_DEPTH + rng.randint(-DEFAULT_CUT_JITTER, DEFAULT_CUT_JITTER)
    shoe = DealingShoe(order, cut_depth=depth, rule=CutCardRule.PLAY_ONE_MORE)
    rounds: list[RoundSeen] = []
    cards: list[Card] = []
    results: list[str] = []
    card_matches: list[StretchMatch] = []
    result_matches: list[StretchMatch] = []
    while not shoe.finished:
        outcome = shoe.deal()
        seen = RoundSeen(len(rounds) + 1, outcome.player_cards, outcome.banker_cards, outcome.winner)
        before = len(cards)
        rounds.append(seen)
        cards.extend(seen.cards)
        results.append(seen.result)
        if index is not None:
            new_cards = card_stretches(cards, since=before)
            new_results = result_stretches(results, since=len(results) - 1)
            for stretch in new_cards:
                hit = index.cards.get(stretch.fingerprint)
                if hit is not None and hit[0] != key:
                    card_matches.append(StretchMatch(hit[0], stretch.position, hit[1]))
            for stretch in new_results:
                hit = index.results.get(stretch.fingerprint)
                if hit is not None and hit[0] != key:
                    result_matches.append(StretchMatch(hit[0], stretch.position, hit[1]))
            if store:
                for stretch in new_cards:
                    index.cards.setdefault(stretch.fingerprint, (key, stretch.position))
                for stretch in new_results:
                    index.results.setdefault(stretch.fingerprint, (key, stretch.position))
        yield ShoeSeen(
            key,
            DECKS,
            tuple(rounds),
            burn_card=shoe.burn_card,
            ended=shoe.finished,
            card_matches=tuple(card_matches),
            result_matches=tuple(result_matches),
        )


def first_alarm(order: Order, rng: random.Random, key: str) -> tuple[int | None, AlarmKind | None]:
    """The round of the first alarm at the default thresholds, and its kind."""
    return first_alarm_of(deal(order, rng, key))


def first_alarm_of(shoes: Iterator[ShoeSeen]) -> tuple[int | None, AlarmKind | None]:
    """The round of the first alarm among a shoe's states round by round, and its kind."""
    for seen in shoes:
        findings = shoe_findings(seen)
        if findings:
            return seen.round_number, findings[0].kind
    return None, None


BANKER_RUN_AFTER = 20  # fair rounds before the attack's Banker run: its 20th Banker is round 40


def _banker_run(rng: random.Random, key: str, run: int = 20) -> Iterator[ShoeSeen]:
    """A shoe dealt round by round from its cards left: :data:`BANKER_RUN_AFTER` fair
    rounds, then ``run`` Banker wins in a row (each round drawn from the cards left until
    Banker wins it), then fair rounds to about a deck from the end."""
    left = shuffled(rng)
    fair_before = BANKER_RUN_AFTER
    rounds: list[RoundSeen] = []
    while len(left) > 60:
        forced = fair_before <= len(rounds) < fair_before + run
        for _ in range(20_000):
            if forced:
                rng.shuffle(left)
            cards = iter(left)
            outcome = deal_round(cards.__next__)
            if not forced or outcome.winner is Winner.BANKER:
                break
        for card in (*outcome.player_cards, *outcome.banker_cards):
            left.remove(card)
        rounds.append(RoundSeen(len(rounds) + 1, outcome.player_cards, outcome.banker_cards, outcome.winner))
        yield ShoeSeen(key, DECKS, tuple(rounds))


def block_start(order: Order) -> int | None:
    """Where a new deck lies whole in ``order``, if it does."""
    deck = new_deck()
    return next((i for i in range(len(order) - len(deck) + 1) if order[i : i + len(deck)] == deck), None)


def rounds_after_block(order: Order, rng: random.Random, key: str) -> int | None:
    """Rounds from the one that deals the unshuffled deck's first card to the first alarm
    (counting both): None when no alarm, or when the deck lies behind the cut card."""
    start = block_start(order)
    block_round: int | None = None
    for seen in deal(order, rng, key):
        burned = 1 + burn_count(seen.burn_card) if seen.burn_card is not None else 0
        if start is not None and block_round is None and len(seen.cards) > start - burned:
            block_round = seen.round_number
        if shoe_findings(seen) and seen.round_number is not None:
            return None if block_round is None else seen.round_number - block_round + 1
    return None


# ---------------------------------------------------------------------- figures


def quartiles(values: list[int]) -> str:
    """Median and quartiles as ``median (q1-q3)``."""
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0]}"
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return f"{q2:g} ({q1:g}-{q3:g})"


CHUNK = 500  # fair shoes a worker runs at a time, each chunk from a seed of its own


def _fair_chunk(task: tuple[int, int, int, int]) -> dict[str, object]:
    """Shoes ``first`` to ``first + count`` of the fair run: each shoe's smallest p-value
    per kind (under the lax thresholds), the kinds raised without one, the rounds, and
    which shoes would raise an alarm at the defaults. Its first ``indexed`` shoes'
    fingerprints are indexed, the rest looked up among them."""
    seed, first, count, indexed = task
    rng = random.Random(seed * 1_000_003 + first)
    index = Index()
    lowest: dict[str, list[float]] = defaultdict(list)
    repeated: Counter[str] = Counter()
    alarmed: list[int] = []
    rounds = 0
    for n in range(first, first + count):
        low: dict[AlarmKind, float] = {}
        raised: set[AlarmKind] = set()
        for seen in deal(shuffled(rng), rng, f"fair{n}", index, store=n - first < indexed):
            for f in shoe_findings(seen, LAX):
                p = f.evidence.get("p_value")
                if f.kind in DEFAULT_LEVEL and isinstance(p, float):
                    low[f.kind] = min(low.get(f.kind, 1.0), p)
                else:
                    raised.add(f.kind)
            rounds += 1
        for kind, p in low.items():
            lowest[kind.value].append(p)
        repeated.update(kind.value for kind in raised)
        if raised or any(p < DEFAULT_LEVEL[kind] for kind, p in low.items()):
            alarmed.append(n)
    return {"rounds": rounds, "lowest": dict(lowest), "repeated": dict(repeated), "alarmed": alarmed}


def upper_bound(alarmed: int, shoes: int) -> float:
    """A 95 % upper bound on the chance of a fair shoe alarming, from ``alarmed`` of
    ``shoes`` (Clopper-Pearson, by bisection on the binomial's lower tail)."""
    low, high = 0.0, 1.0
    for _ in range(100):
        middle = (low + high) / 2
        below = sum(math.comb(shoes, k) * middle**k * (1 - middle) ** (shoes - k) for k in range(alarmed + 1))
        low, high = (middle, high) if below > 0.05 else (low, middle)
    return high


def false_alarms(shoes: int, indexed: int, seed: int, workers: int = 1, first: int = 0) -> dict[str, object]:
    """Run ``shoes`` fair shoes, in chunks, on ``workers`` processes: shoes ``first`` to
    ``first + shoes`` of the seed's sequence (runs of disjoint ranges add up: a million
    shoes in several sittings)."""
    last = first + shoes
    tasks = [(seed, start, min(CHUNK, last - start), indexed) for start in range(first, last, CHUNK)]
    started = time.perf_counter()
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            parts = list(pool.imap_unordered(_fair_chunk, tasks))
    else:
        parts = [_fair_chunk(task) for task in tasks]
    elapsed = time.perf_counter() - started
    lowest: dict[str, list[float]] = defaultdict(list)
    repeated: Counter[str] = Counter()
    alarmed: list[int] = []
    rounds = 0
    for part in parts:
        rounds += part["rounds"]  # type: ignore[operator]
        for kind, values in part["lowest"].items():  # type: ignore[attr-defined]
            lowest[kind] += values
        repeated.update(part["repeated"])  # type: ignore[arg-type]
        alarmed += part["alarmed"]  # type: ignore[arg-type]
    figures: dict[str, object] = {"shoes": shoes, "first": first, "rounds": rounds, "seconds": round(elapsed, 1)}
    figures["alarmed shoes"] = sorted(alarmed)
    print(
        f"False alarms over {shoes:,} properly shuffled 8-deck shoes, numbers {first:,} to {last - 1:,} of seed"
        f" {seed} ({rounds:,} rounds, {elapsed:.0f} s)"
    )
    print("  kind                shoes with a smallest p-value under: " + " ".join(f"{lv:>8g}" for lv in LEVELS))
    for kind, level in DEFAULT_LEVEL.items():
        values = lowest[kind.value]
        counts = [sum(p < lv for p in values) for lv in LEVELS]
        at_default = sum(p < level for p in values)
        figures[f"false alarms: {kind.value}"] = at_default
        print(
            f"  {kind.value:18s}  " + " " * 37 + " ".join(f"{c:8d}" for c in counts),
            f"  at the default {level:g}: {at_default}",
        )
    for kind in (AlarmKind.CARD_OVERDEALT, AlarmKind.REPEATED_CARDS, AlarmKind.REPEATED_RESULTS):
        figures[f"false alarms: {kind.value}"] = repeated[kind.value]
        print(f"  {kind.value:18s}  (no p-value threshold) {repeated[kind.value]}")
    bound = upper_bound(len(alarmed), shoes)
    figures["shoes with any false alarm"] = len(alarmed)
    figures["per 10,000 shoes, 95 % upper bound"] = round(bound * 10_000, 3)
    print(
        f"  shoes with any alarm at the default thresholds: {len(alarmed)} "
        f"({len(alarmed) / shoes * 10_000:.3f} per 10,000; 95 % upper bound {bound * 10_000:.3f};"
        f" the target {TARGET * 10_000:g})"
    )
    figures["lowest p-values (smallest per kind)"] = {k: min(v) for k, v in lowest.items() if v}
    print("  smallest p-value seen per kind:", {k: f"{min(v):.2g}" for k, v in lowest.items() if v})
    return figures


def detection(per_failure: int, seed: int) -> dict[str, object]:
    """Rounds to the first alarm for each shuffle failure."""
    rng = random.Random(seed)
    figures: dict[str, object] = {}
    print(f"\nRounds to the first alarm, {per_failure} shoes per failure: median (quartiles), detected, kinds first")
    for name, make in FAILURES.items():
        rounds: list[int] = []
        kinds: Counter[str] = Counter()
        for n in range(per_failure):
            at, kind = first_alarm(make(rng), rng, f"{name}{n}")
            if at is not None and kind is not None:
                rounds.append(at)
                kinds[kind.value] += 1
        figures[f"rounds to detection: {name}"] = quartiles(rounds)
        print(f"  {name:30s} {quartiles(rounds):16s} {len(rounds)}/{per_failure}  {dict(kinds.most_common())}")
    after = [
        r
        for n in range(per_failure)
        if (r := rounds_after_block(_one_deck_unshuffled(rng), rng, f"block{n}")) is not None
    ]
    figures["rounds to detection: one deck unshuffled, from its first card dealt"] = quartiles(after)
    print(f"  {'  the same, from its first card':30s} {quartiles(after):16s} {len(after)}/{per_failure}")
    return figures


def power(per_attack: int, seed: int) -> dict[str, object]:
    """The issue's attacks: the share of shoes caught, and the round each was caught by."""
    rng = random.Random(seed)
    figures: dict[str, object] = {}
    print(f"\nPower, {per_attack} shoes per attack: caught, rounds to the first alarm median (quartiles), kinds first")
    attacks: dict[str, Callable[[int], Iterator[ShoeSeen]]] = {
        name: (lambda n, make=make, name=name: deal(make(rng), rng, f"{name}{n}")) for name, make in ATTACKS.items()
    }
    attacks["Banker 20 in a row"] = lambda n: _banker_run(rng, f"run{n}")
    for name, shoes in attacks.items():
        rounds: list[int] = []
        kinds: Counter[str] = Counter()
        for n in range(per_attack):
            at, kind = first_alarm_of(shoes(n))
            if at is not None and kind is not None:
                rounds.append(at)
                kinds[kind.value] += 1
        figures[f"power: {name}"] = f"{len(rounds)}/{per_attack}, {quartiles(rounds)}"
        print(f"  {name:32s} {len(rounds):4d}/{per_attack}  {quartiles(rounds):16s} {dict(kinds.most_common(3))}")
    return figures


def repeats(orders: list[Order], seed: int) -> dict[str, object]:
    """Rounds to REPEATED_CARDS and REPEATED_RESULTS for shoes re-dealt, and preset."""
    rng = random.Random(seed)
    index = Index()
    for n, order in enumerate(orders):  # the history: these shoes dealt and stored
        for _ in deal(order, random.Random(n), f"earlier{n}", index, store=True):
            pass
    figures: dict[str, object] = {}
    print(f"\nAn earlier shoe's cards dealt again, {len(orders)} shoes each: rounds to the alarm, median (quartiles)")
    for name in ("re-dealt", "preset, cut elsewhere"):
        by_kind: dict[AlarmKind, list[int]] = {AlarmKind.REPEATED_CARDS: [], AlarmKind.REPEATED_RESULTS: []}
        for n, order in enumerate(orders):
            if name == "re-dealt":
                again, cut_rng = order, random.Random(n)  # the same burn and the same cut card
            else:
                at = rng.randint(52, len(order) - 52)
                again, cut_rng = order[at:] + order[:at], rng
            raised: dict[AlarmKind, int] = {}
            for seen in deal(again, cut_rng, f"again{n}", index):
                for f in shoe_findings(seen):
                    if f.kind in by_kind and f.kind not in raised and seen.round_number is not None:
                        raised[f.kind] = seen.round_number
                if len(raised) == len(by_kind):
                    break
            for kind, at_round in raised.items():
                by_kind[kind].append(at_round)
        for kind, values in by_kind.items():
            figures[f"{name}: {kind.value}"] = quartiles(values)
            print(f"  {name:22s} {kind.value:17s} {quartiles(values):14s} {len(values)}/{len(orders)}")
    return figures


def timing(shoes: int, seed: int, warm_up: int = 20) -> dict[str, object]:
    """Milliseconds per :func:`shoe_findings` call at the default thresholds, every round
    and at a full shoe's end, after ``warm_up`` shoes fill the cached critical values
    (the slowest call of those is shown apart: a new process's first shoes)."""
    rng = random.Random(seed)
    every: list[float] = []
    at_end: list[float] = []
    cold: list[float] = []
    for n in range(warm_up + shoes):
        seen_all = list(deal(shuffled(rng), rng, f"t{n}"))
        for i, seen in enumerate(seen_all):
            start = time.perf_counter()
            shoe_findings(seen)
            elapsed = (time.perf_counter() - start) * 1000
            if n < warm_up:
                cold.append(elapsed)
                continue
            every.append(elapsed)
            if i == len(seen_all) - 1:
                at_end.append(elapsed)
    figures: dict[str, object] = {
        "ms per call, every round: median": statistics.median(every),
        "ms per call, every round: p99": statistics.quantiles(every, n=100)[98],
        "ms per call, every round: max": max(every),
        "ms per call, a full shoe at its end: median": statistics.median(at_end),
        "ms per call, a full shoe at its end: max": max(at_end),
        f"ms per call, the first {warm_up} shoes (caches filling): max": max(cold),
    }
    print(f"\nshoe_findings over {shoes} shoes:", {k: f"{v:.3f}" for k, v in figures.items()})
    return figures


def main() -> dict[str, object]:
    """Run it all and print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--shoes", type=int, default=10_000, help="properly shuffled shoes")
    parser.add_argument("--per-failure", type=int, default=400, help="shoes per shuffle failure")
    parser.add_argument("--indexed", type=int, default=2_000, help="fair shoes whose fingerprints are indexed")
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--workers", type=int, default=1, help="processes for the fair shoes")
    parser.add_argument("--fair-only", action="store_true", help="the fair shoes alone: no failures, no power")
    parser.add_argument("--first", type=int, default=0, help="the first fair shoe's number (a later sitting's range)")
    options = parser.parse_args()
    started = time.perf_counter()
    figures = false_alarms(options.shoes, min(options.indexed, CHUNK), options.seed, options.workers, options.first)
    if not options.fair_only:
        figures |= detection(options.per_failure, options.seed + 1)
        figures |= power(options.per_failure, options.seed + 4)
        orders = [shuffled(random.Random(options.seed + 5 + n)) for n in range(200)]
        figures |= repeats(orders, options.seed + 2)
        figures |= timing(200, options.seed + 3)
    print(f"\n{time.perf_counter() - started:.0f} s in all")
    return figures


if __name__ == "__main__":
    main()
