"""pass_at_k's reference against the numpy formula of the HumanEval paper (Chen et al., 2021)
and against exact rational values from math.comb and fractions, on generated (n, c, k)."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from tests.problems.test_against_libraries import CASES, SEED, _assert_agree, _reference, _require

BIG = 10**6


def _case(rng: random.Random) -> tuple[int, int, int]:
    n = rng.choice((1, 2, rng.randint(1, 10), rng.randint(1, 200), rng.randint(100, 3000), 200))
    c = rng.choice((0, n, rng.randint(0, n), rng.randint(0, n // 10), max(0, n - rng.randint(1, 5))))
    k = rng.choice((1, n, rng.randint(1, n), min(n, rng.choice((1, 5, 10, 100))), max(1, n - c),
                    min(n, n - c + 1)))
    return n, c, k


def _big_case(rng: random.Random) -> tuple[int, int, int]:
    """n = 10**6, with min(k, n - c - k) or c small so that the exact binomials stay cheap."""
    small = rng.randint(0, 50)
    if rng.random() < 0.5:  # few passing samples; k small or close to the number of failures
        c = small
        k = rng.choice((1, 10, rng.randint(1, 60), max(1, BIG - c - rng.randint(0, 60))))
    else:  # any number of passing samples, few draws
        c = rng.choice((1, rng.randint(0, BIG), BIG // 2, BIG - small))
        k = max(1, small)
    return BIG, c, k


def _humaneval(np, n: int, c: int, k: int) -> float:
    """The estimator exactly as printed in the HumanEval paper (figure 3)."""
    if n - c < k:
        return 1.0
    return float(1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))


def _exact(n: int, c: int, k: int) -> float:
    return float(1 - Fraction(math.comb(n - c, k), math.comb(n, k)))


def _cases() -> list[tuple[int, int, int]]:
    rng = random.Random(SEED)
    cases = [_case(rng) for _ in range(CASES)] + [_big_case(rng) for _ in range(40)]
    # The boundaries the statement names: n - c = k (one all-failing draw), and k = n.
    cases += [(5, 2, 3), (4, 1, 3), (BIG, 10, BIG - 10), (6, 1, 6), (6, 0, 6), (2000, 40, 1000)]
    return cases


def test_pass_at_k_matches_humaneval_numpy_formula() -> None:
    np = _require("numpy")
    ours = _reference("pass_at_k")
    _assert_agree(_cases(), lambda case: ours(*case), lambda case: _humaneval(np, *case))


def test_pass_at_k_matches_exact_fractions() -> None:
    ours = _reference("pass_at_k")
    _assert_agree(_cases(), lambda case: ours(*case), lambda case: _exact(*case))


@pytest.mark.parametrize("args", [(0, 0, 1), (-1, 0, 1), (5, -1, 1), (5, 6, 1), (5, 2, 0), (5, 2, 6)])
def test_pass_at_k_refuses_what_has_no_draw(args: tuple[int, int, int]) -> None:
    # Not a library comparison: numpy's formula answers something for these, the statement raises.
    with pytest.raises(ValueError):
        _reference("pass_at_k")(*args)
