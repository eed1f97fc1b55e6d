"""Reviewer statistics kept as sums: what a stretch of one shoe's rounds adds up to.

A review over a year of history cannot read a year of rounds on a request. So each
stretch of a shoe's rounds (the rounds of one shoe on one day, as the database keeps
them) is summarised as its rounds arrive: the counts the chi-square tests take, the runs
the streak chart takes and what one unit on each bet paid. Summaries of consecutive
stretches of a shoe join with :meth:`Summary.then` into the summary of the whole, exactly
as if it had been counted round by round, so any date range sums its stretches.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from .outcome import PlayedRound, Winner
from .review import Tally

Run = tuple[Winner, int]  # a side and how many rounds in a row it won


@dataclass
class Runs:
    """The runs of one side winning over consecutive rounds of a shoe, ties ignored (the
    Big Road's columns): the first run, the last one (it may go on) and how many runs of
    each length ended. The first run is needed to join a stretch to the one before it:
    when both sides of the seam are the same side, the two runs are one."""

    first: Run | None = None
    last: Run | None = None
    ended: Counter[int] = field(default_factory=Counter)

    def add(self, winner: Winner) -> None:
        """One more round."""
        if winner is Winner.TIE:
            return
        if self.last is not None and self.last[0] is winner:
            self.last = (winner, self.last[1] + 1)
        else:
            if self.last is not None:
                self.ended[self.last[1]] += 1
            self.last = (winner, 1)
        if not self.ended:  # one run so far: the first is the last
            self.first = self.last

    def then(self, later: Runs) -> Runs:
        """These runs followed by ``later``'s, the rounds of a later stretch of the shoe."""
        if self.last is None or later.first is None or later.last is None:
            return Runs(self.first or later.first, later.last or self.last, self.ended + later.ended)
        side, length = self.last
        if later.first[0] is not side:
            return Runs(self.first, later.last, self.ended + Counter({length: 1}) + later.ended)
        joined: Run = (side, length + later.first[1])  # the seam is inside one run
        first = self.first if self.ended else joined
        if not later.ended:  # the later stretch is that one run
            return Runs(first, joined, Counter(self.ended))
        ended = self.ended + later.ended
        ended[later.first[1]] -= 1
        ended[joined[1]] += 1
        return Runs(first, later.last, +ended)


@dataclass
class Summary:
    """A stretch of one shoe's played rounds: its counts (:class:`Tally`), its runs and
    the units one unit on each bet won or lost (a bet not open on a round adds nothing)."""

    tally: Tally = field(default_factory=Tally)
    runs: Runs = field(default_factory=Runs)
    pays: dict[str, float] = field(default_factory=dict)

    def add(self, played: PlayedRound, pays: Mapping[str, float | None]) -> None:
        """One more round, and what one unit on each bet paid on it (None: not open)."""
        self.tally.add(played)
        self.runs.add(played.winner)
        for bet, result in pays.items():
            if result is not None:
                self.pays[bet] = self.pays.get(bet, 0.0) + result

    def then(self, later: Summary) -> Summary:
        """This stretch followed by a later one of the same shoe."""
        pays = dict(self.pays)
        for bet, result in later.pays.items():
            pays[bet] = pays.get(bet, 0.0) + result
        return Summary(self.tally.then(later.tally), self.runs.then(later.runs), pays)


@dataclass(frozen=True)
class Share:
    """What one stretch of a shoe adds to the sums of all history: its own counts and pays,
    the runs that ended once it joined the stretches before it (a run across the seam
    ends in the later stretch, at its joined length), and the shoe itself, counted once,
    in its first stretch with played rounds.

    Summed over every stretch of every shoe, the shares give each shoe's runs joined as a
    whole: what the review over all history needs, kept a row a table and day."""

    summary: Summary
    ended: Counter[int]
    shoes: int


def shares(stretches: list[Summary]) -> list[Share]:
    """Each of a shoe's consecutive ``stretches`` (its days, in order) as its :class:`Share`."""
    whole, counted, kept = Summary(), False, []
    for stretch in stretches:
        joined = whole.then(stretch)
        ended = Counter(joined.runs.ended)
        ended.subtract(whole.runs.ended)  # appending a stretch only ends more runs
        first = bool(stretch.tally.rounds) and not counted
        counted |= first
        kept.append(Share(stretch, +ended, int(first)))
        whole = joined
    return kept


def whole(stretches: list[Summary]) -> Summary:
    """A shoe's consecutive stretches joined into the summary of the whole shoe."""
    joined = Summary()
    for stretch in stretches:
        joined = joined.then(stretch)
    return joined
