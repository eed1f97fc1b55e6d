"""Tail probabilities of counts, in plain Python: how unlikely a count this high (or this
low) is. Sums of exact terms (each from the one before), so far tails (1e-12) stay
exact where a normal approximation would be off by orders of magnitude.

The ``*_critical`` functions give the count at which a tail falls under a level, cached:
a check compares its count with them after every round, and computes the exact tail only
for the evidence of what it raises.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from .review import chi2_sf


def _log_choose(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def _binomial_term(j: int, n: int, p: float) -> float:
    return math.exp(_log_choose(n, j) + j * math.log(p) + (n - j) * math.log1p(-p))


def binomial_sf(k: int, n: int, p: float) -> float:
    """P(X >= k) for X binomial with ``n`` trials of chance ``p``."""
    if k <= 0:
        return 1.0
    if k > n or p <= 0:
        return 0.0
    if p >= 1:
        return 1.0
    if k <= n * p:
        return 1.0 - binomial_cdf(k - 1, n, p)  # the upper tail is the large one: no cancellation to fear
    ratio = p / (1 - p)
    term = _binomial_term(k, n, p)
    total = 0.0
    for j in range(k, n + 1):
        total += term
        term *= (n - j) / (j + 1) * ratio
        if term < total * 1e-17:
            break  # past the mode the terms only shrink: the rest cannot change the sum
    return min(1.0, total)


def binomial_cdf(k: int, n: int, p: float) -> float:
    """P(X <= k) for X binomial with ``n`` trials of chance ``p``."""
    if k < 0:
        return 0.0
    if k >= n or p <= 0:
        return 1.0
    if p >= 1:
        return 0.0
    if k >= n * p:
        return 1.0 - binomial_sf(k + 1, n, p)
    ratio = (1 - p) / p
    term = _binomial_term(k, n, p)
    total = 0.0
    for j in range(k, -1, -1):
        total += term
        term *= j / (n - j + 1) * ratio
        if term < total * 1e-17:
            break
    return min(1.0, total)


def hypergeometric_cdf(x: int, population: int, successes: int, draws: int) -> float:
    """P(X <= x) for X the successes among ``draws`` cards drawn without replacement from
    ``population`` cards of which ``successes`` are successes."""
    low = max(0, draws - (population - successes))
    high = min(draws, successes)
    if x < low:
        return 0.0
    if x >= high:
        return 1.0
    log_all = _log_choose(population, draws)
    failures = population - successes
    total = 0.0
    for j in range(low, x + 1):
        total += math.exp(_log_choose(successes, j) + _log_choose(failures, draws - j) - log_all)
    return min(1.0, total)


def hypergeometric_sf(x: int, population: int, successes: int, draws: int) -> float:
    """P(X >= x) for X as in :func:`hypergeometric_cdf`: exact terms summed from ``x`` up
    (a far upper tail, 1e-12, stays exact)."""
    low = max(0, draws - (population - successes))
    high = min(draws, successes)
    if x <= low:
        return 1.0
    if x > high:
        return 0.0
    log_all = _log_choose(population, draws)
    failures = population - successes
    total = sum(
        math.exp(_log_choose(successes, j) + _log_choose(failures, draws - j) - log_all) for j in range(x, high + 1)
    )
    return min(1.0, total)


def _first_true(low: int, high: int, holds: Callable[[int], bool]) -> int:
    """The smallest k in [low, high] for which ``holds`` (monotone: false, then true) is
    true; ``high`` when it holds nowhere below it. A bisection: a cold cache costs a few
    tails, not one per count."""
    while low < high:
        middle = (low + high) // 2
        if holds(middle):
            high = middle
        else:
            low = middle + 1
    return low


@lru_cache(maxsize=65536)
def binomial_critical(n: int, p: float, level: float) -> int:
    """The smallest count k with P(X >= k) under ``level`` (``n + 1`` when none)."""
    return _first_true(max(0, math.floor(n * p)), n + 1, lambda k: binomial_sf(k, n, p) < level)


@lru_cache(maxsize=65536)
def binomial_low_critical(n: int, p: float, level: float) -> int:
    """The largest count k with P(X <= k) under ``level`` (-1 when none)."""
    return _first_true(-1, min(n, math.ceil(n * p)), lambda k: binomial_cdf(k + 1, n, p) >= level)


@lru_cache(maxsize=65536)
def hypergeometric_low_critical(population: int, successes: int, draws: int, level: float) -> int:
    """The largest count x with :func:`hypergeometric_cdf` under ``level`` (-1 when none)."""
    return _first_true(
        -1,
        min(draws, successes),
        lambda x: hypergeometric_cdf(x + 1, population, successes, draws) >= level,
    )


@lru_cache(maxsize=65536)
def hypergeometric_high_critical(population: int, successes: int, draws: int, level: float) -> int:
    """The smallest count x with :func:`hypergeometric_sf` under ``level`` (past the
    largest possible count when none)."""
    high = min(draws, successes) + 1
    return _first_true(0, high, lambda x: hypergeometric_sf(x, population, successes, draws) < level)


@lru_cache(maxsize=1024)
def chi2_critical(df: int, level: float) -> float:
    """The chi-square value (``df`` degrees of freedom) whose tail is ``level``: a
    statistic above it has a p-value under ``level``."""
    low, high = 0.0, 1.0
    while chi2_sf(high, df) >= level:
        high *= 2
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if chi2_sf(middle, df) >= level else (low, middle)
    return high
