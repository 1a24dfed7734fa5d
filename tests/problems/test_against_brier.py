"""brier_score's reference against scikit-learn's brier_score_loss on generated forecasts."""

from __future__ import annotations

import random

from tests.problems.test_against_libraries import CASES, SEED, _assert_agree, _reference, _require


def _forecasts(rng: random.Random) -> tuple[list[int], list[float]]:
    n = rng.choice((1, 2, rng.randint(1, 30), rng.randint(10, 400)))
    outcomes = [int(rng.random() < rng.choice((0.1, 0.5, 0.9))) for _ in range(n)]
    return outcomes, [rng.choice((0.0, 1.0, 0.5, rng.random())) for _ in range(n)]


def test_brier_score_matches_scikit_learn() -> None:
    metrics = _require("sklearn.metrics")
    ours = _reference("brier_score")
    rng = random.Random(SEED)
    cases = [_forecasts(rng) for _ in range(CASES)]
    # pos_label=1: with a single class present scikit-learn must still know which one is positive.
    _assert_agree(cases, lambda c: ours(*c), lambda c: float(metrics.brier_score_loss(*c, pos_label=1)))
