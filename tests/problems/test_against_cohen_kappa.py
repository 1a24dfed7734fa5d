"""cohen_kappa's reference against scikit-learn's cohen_kappa_score on generated label pairs,
including the degenerate case p_e = 1, where the two differ on purpose."""

from __future__ import annotations

import math
import random
import warnings

import pytest

from tests.problems.test_against_libraries import CASES, LABELS, SEED, _assert_agree, _reference, _require


def _pair(rng: random.Random) -> tuple[list[str], list[str]]:
    n = rng.choice((1, 2, 3, rng.randint(2, 30), rng.randint(10, 400)))
    labels = rng.sample(LABELS, rng.choice((1, 2, 3, rng.randint(2, len(LABELS)))))
    weights = [rng.choice((1, 2, 10)) for _ in labels]
    gold = rng.choices(labels, weights, k=n)
    skill = rng.choice((0.0, 0.3, 0.7, 0.9, 1.0))
    return gold, [g if rng.random() < skill else rng.choice(labels) for g in gold]


def test_cohen_kappa_matches_scikit_learn() -> None:
    metrics = _require("sklearn.metrics")
    ours = _reference("cohen_kappa")
    rng = random.Random(SEED)
    cases = [_pair(rng) for _ in range(CASES)]
    # p_e = 1 (both raters constant on one label): scikit-learn answers NaN with a warning, the
    # statement raises ValueError. Those cases are pinned to the statement, the rest compared.
    degenerate = [c for c in cases if len(set(c[0]) | set(c[1])) == 1]
    assert degenerate, "the degenerate case must be pinned too"
    compared = [c for c in cases if c not in degenerate]
    while len(compared) < CASES:
        case = _pair(rng)
        if len(set(case[0]) | set(case[1])) > 1:
            compared.append(case)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for gold, predicted in degenerate:
            assert math.isnan(metrics.cohen_kappa_score(gold, predicted))
            with pytest.raises(ValueError):
                ours(gold, predicted)
        _assert_agree(compared, lambda c: ours(*c), lambda c: float(metrics.cohen_kappa_score(*c)))
