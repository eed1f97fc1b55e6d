"""Tail probabilities: exact sums against fractions, and the critical counts the checks
compare with."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from tables.game.tails import (
    binomial_cdf,
    binomial_critical,
    binomial_low_critical,
    binomial_sf,
    chi2_critical,
    hypergeometric_cdf,
    hypergeometric_low_critical,
)

pytestmark = pytest.mark.backend_free  # the pure core: no database, cache or channel layer


def exact_binomial(k: int, n: int, p: Fraction) -> Fraction:
    return sum((math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1)), Fraction(0))


@pytest.mark.parametrize("k", range(0, 12))
def test_the_binomial_upper_tail_is_the_exact_sum(k: int) -> None:
    assert binomial_sf(k, 10, 0.3) == pytest.approx(float(exact_binomial(k, 10, Fraction(3, 10))), rel=1e-12)


@pytest.mark.parametrize("k", range(-1, 11))
def test_the_binomial_lower_tail_is_one_minus_the_upper(k: int) -> None:
    assert binomial_cdf(k, 10, 0.3) == pytest.approx(1 - float(exact_binomial(k + 1, 10, Fraction(3, 10))), abs=1e-15)


def test_far_tails_stay_exact() -> None:
    assert binomial_sf(20, 20, 0.1) == pytest.approx(1e-20, rel=1e-12)
    assert binomial_cdf(0, 100, 0.25) == pytest.approx(0.75**100, rel=1e-12)


def test_a_card_held_eight_times_is_never_among_360_of_416_with_the_product_chance() -> None:
    product = math.prod(Fraction(56 - i, 416 - i) for i in range(8))
    assert hypergeometric_cdf(0, 416, 8, 360) == pytest.approx(float(product), rel=1e-10)
    assert hypergeometric_cdf(8, 416, 8, 360) == 1.0


def test_critical_counts_sit_where_the_tail_crosses_the_level() -> None:
    k = binomial_critical(355, 0.0356, 5e-9)
    assert binomial_sf(k, 355, 0.0356) < 5e-9 <= binomial_sf(k - 1, 355, 0.0356)
    low = binomial_low_critical(72, 0.4586, 5e-7)
    assert binomial_cdf(low, 72, 0.4586) < 5e-7 <= binomial_cdf(low + 1, 72, 0.4586)
    x = hypergeometric_low_critical(416, 32, 300, 1e-9)
    assert hypergeometric_cdf(x, 416, 32, 300) < 1e-9 <= hypergeometric_cdf(x + 1, 416, 32, 300)


def test_the_chi_square_critical_value_at_the_textbook_5_percent_point() -> None:
    assert chi2_critical(1, 0.05) == pytest.approx(3.841459, abs=1e-5)
    assert chi2_critical(12, 0.05) == pytest.approx(21.026070, abs=1e-5)
