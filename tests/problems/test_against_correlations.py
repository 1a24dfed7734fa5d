"""The rank correlations' references against SciPy (spearmanr; kendalltau, variant b), on
generated paired samples with many ties; SciPy's nan for a constant sample is the statements'
None."""

from __future__ import annotations

import math
import random
import warnings
from collections.abc import Callable
from typing import Any

import pytest

from tests.problems.test_against_libraries import CASES, SEED, _assert_agree, _reference, _require

Pair = tuple[list[float], list[float]]
SCIPY: dict[str, Callable[[Any, Pair], float]] = {
    "spearman_rho": lambda stats, c: float(stats.spearmanr(c[0], c[1]).statistic),
    "kendall_tau": lambda stats, c: float(stats.kendalltau(c[0], c[1], variant="b").statistic),
}


def _pair(rng: random.Random) -> Pair:
    n = rng.randint(3, 40)
    pool = rng.choice((3, 6, 20, 10_000))
    x: list[float] = [rng.randint(0, pool) for _ in range(n)]
    y: list[float] = [v + rng.randint(-pool, pool) if rng.random() < 0.5 else rng.randint(0, pool) for v in x]
    if rng.random() < 0.3:
        x = [v / 8 - 2 for v in x]
    return x, y


@pytest.mark.parametrize("slug", sorted(SCIPY))
def test_rank_correlations_match_scipy(slug: str) -> None:
    stats = _require("scipy.stats")
    ours, theirs = _reference(slug), SCIPY[slug]
    rng = random.Random(SEED)
    generated = [_pair(rng) for _ in range(CASES * 2)]
    defined = [c for c in generated if len(set(c[0])) > 1 and len(set(c[1])) > 1][:CASES]
    constant = [c for c in generated if len(set(c[0])) == 1 or len(set(c[1])) == 1]
    _assert_agree(defined, lambda c: ours(*c), lambda c: theirs(stats, c))
    with warnings.catch_warnings():  # SciPy warns about the constant input it answers nan for
        warnings.simplefilter("ignore")
        for pair in [*constant, ([1, 1, 1], [1, 2, 3])]:
            assert ours(*pair) is None and math.isnan(theirs(stats, pair))
