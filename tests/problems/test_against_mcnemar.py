"""mcnemar_test's reference against statsmodels' exact McNemar test and SciPy's binomial test on
generated discordant counts, with (0, 0) pinned where SciPy has no answer."""

from __future__ import annotations

import random

import pytest

from tests.problems.test_against_libraries import CASES, SEED, _assert_agree, _reference, _require


def _counts(rng: random.Random) -> tuple[int, int]:
    scale = rng.choice((2, 5, 20, 100, 1000, 5000))
    a = rng.randint(0, scale)
    b = a + rng.randint(-(scale // 4) - 1, scale // 4 + 1) if rng.random() < 0.5 else rng.randint(0, scale)
    return a, max(b, 0)


def test_mcnemar_test_matches_statsmodels() -> None:
    tables = _require("statsmodels.stats.contingency_tables")
    ours = _reference("mcnemar_test")
    rng = random.Random(SEED)
    cases = [_counts(rng) for _ in range(CASES)] + [(0, 0), (0, 1), (3, 3)]
    # Only the off-diagonal cells of the 2x2 table enter the exact test; the diagonal (both
    # right, both wrong) is arbitrary. statsmodels also answers 1.0 for (0, 0).
    _assert_agree(cases, lambda c: ours(*c),
                  lambda c: float(tables.mcnemar([[7, c[0]], [c[1], 3]], exact=True).pvalue))


def test_mcnemar_test_matches_scipy_binomtest() -> None:
    stats = _require("scipy.stats")
    ours = _reference("mcnemar_test")
    rng = random.Random(SEED + 1)
    cases = [c for c in (_counts(rng) for _ in range(2 * CASES)) if sum(c) > 0][:CASES]
    # binomtest's two-sided p-value for p = 1/2 adds the outcomes no more likely than the one
    # seen; the binomial(n, 1/2) is symmetric, so that is the doubled tail, capped at 1.
    _assert_agree(cases, lambda c: ours(*c),
                  lambda c: float(stats.binomtest(c[0], c[0] + c[1], 0.5).pvalue))


def test_mcnemar_test_pinned_where_scipy_has_no_answer() -> None:
    stats = _require("scipy.stats")
    ours = _reference("mcnemar_test")
    # With no discordant items SciPy refuses n = 0; the statement defines the p-value as 1.0.
    with pytest.raises(ValueError):
        stats.binomtest(0, 0, 0.5)
    assert ours(0, 0) == 1.0
    with pytest.raises(ValueError):
        ours(-1, 2)
