"""matthews_corrcoef's reference against scikit-learn's matthews_corrcoef on generated binary
labels, including the degenerate cases where both answer 0.0."""

from __future__ import annotations

import random
import warnings

from tests.problems.test_against_libraries import CASES, SEED, _assert_agree, _reference, _require


def _labels(rng: random.Random) -> tuple[list[int], list[int]]:
    n = rng.choice((1, 2, 3, rng.randint(2, 30), rng.randint(10, 400)))
    rate = rng.choice((0.0, 0.05, 0.5, 0.9, 1.0))
    gold = [int(rng.random() < rate) for _ in range(n)]
    skill = rng.choice((0.0, 0.3, 0.5, 0.8, 1.0))
    return gold, [g if rng.random() < skill else 1 - g for g in gold]


def test_matthews_corrcoef_matches_scikit_learn() -> None:
    metrics = _require("sklearn.metrics")
    ours = _reference("matthews_corrcoef")
    rng = random.Random(SEED)
    cases = [_labels(rng) for _ in range(CASES)]
    assert any(len(set(g)) == 1 for g, _ in cases), "the degenerate cases must be compared too"
    with warnings.catch_warnings():  # scikit-learn warns where a class is missing and answers 0.0
        warnings.simplefilter("ignore")
        _assert_agree(cases, lambda c: ours(*c), lambda c: float(metrics.matthews_corrcoef(*c)))
