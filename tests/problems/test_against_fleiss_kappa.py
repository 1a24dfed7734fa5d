"""fleiss_kappa's reference against statsmodels' fleiss_kappa on generated rating tables,
including the degenerate case P_e = 1, where the two differ on purpose."""

from __future__ import annotations

import math
import random
import warnings

import pytest

from tests.problems.test_against_libraries import CASES, SEED, _assert_agree, _reference, _require


def _table(rng: random.Random) -> list[list[int]]:
    items = rng.choice((1, 2, 3, rng.randint(2, 20), rng.randint(10, 150)))
    categories = rng.choice((1, 2, 3, rng.randint(2, 8)))
    raters = rng.choice((2, 3, 5, rng.randint(2, 30)))
    weights = [rng.choice((0, 1, 2, 10)) for _ in range(categories)]
    weights[0] = weights[0] or 1
    agreement = rng.choice((0.0, 0.5, 0.8, 1.0))
    table = []
    for _ in range(items):
        favourite = rng.choices(range(categories), weights)[0]
        row = [0] * categories
        for _ in range(raters):
            row[favourite if rng.random() < agreement else rng.choices(range(categories), weights)[0]] += 1
        table.append(row)
    return table


def _degenerate(table: list[list[int]]) -> bool:
    return sum(1 for j in range(len(table[0])) if any(row[j] for row in table)) == 1


def test_fleiss_kappa_matches_statsmodels() -> None:
    inter_rater = _require("statsmodels.stats.inter_rater")
    np = _require("numpy")
    ours = _reference("fleiss_kappa")
    rng = random.Random(SEED)
    cases = [_table(rng) for _ in range(CASES)]
    # P_e = 1 (every rating in one category): statsmodels answers NaN (0 / 0), the statement
    # raises ValueError. Those cases are pinned to the statement, the rest compared.
    degenerate = [t for t in cases if _degenerate(t)]
    assert degenerate, "the degenerate case must be pinned too"
    compared = [t for t in cases if not _degenerate(t)]
    while len(compared) < CASES:
        table = _table(rng)
        if not _degenerate(table):
            compared.append(table)
    with warnings.catch_warnings():  # numpy warns about the 0 / 0
        warnings.simplefilter("ignore")
        for table in degenerate:
            assert math.isnan(inter_rater.fleiss_kappa(np.array(table)))
            with pytest.raises(ValueError):
                ours(table)
    _assert_agree(compared, ours, lambda t: float(inter_rater.fleiss_kappa(np.array(t), method="fleiss")))
