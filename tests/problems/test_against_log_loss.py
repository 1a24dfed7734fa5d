"""log_loss's reference against scikit-learn's log_loss on generated forecasts, the extreme ones
included: both clip every probability to [eps, 1 - eps] with eps the float epsilon."""

from __future__ import annotations

import math
import random

from tests.problems.test_against_libraries import CASES, SEED, _assert_agree, _reference, _require

# Certain forecasts, tiny and denormal ones, and the floats next to 0 and 1: where the clip acts.
EXTREMES = (0.0, 1.0, 1e-300, 5e-324, 1e-16, 2.220446049250313e-16, 1 - 1e-16, 0.9999999999999999)


def _forecasts(rng: random.Random) -> tuple[list[int], list[float]]:
    n = rng.choice((1, 2, rng.randint(1, 30), rng.randint(10, 400)))
    outcomes = [int(rng.random() < rng.choice((0.1, 0.5, 0.9))) for _ in range(n)]
    probabilities = [rng.choice((*EXTREMES, 0.5, rng.random(), rng.random())) for _ in outcomes]
    return outcomes, probabilities


def test_log_loss_matches_scikit_learn() -> None:
    metrics = _require("sklearn.metrics")
    ours = _reference("log_loss")
    rng = random.Random(SEED)
    cases = [_forecasts(rng) for _ in range(CASES)]
    # labels=[0, 1]: with a single class present scikit-learn must still know both classes.
    _assert_agree(cases, lambda c: ours(*c), lambda c: float(metrics.log_loss(*c, labels=[0, 1])))


def test_a_certain_wrong_forecast_costs_minus_log_epsilon() -> None:
    ours = _reference("log_loss")
    eps = 2.0 ** -52
    assert math.isclose(ours([1], [0.0]), -math.log(eps), rel_tol=1e-12)
    assert math.isclose(ours([0], [1.0]), -math.log(eps), rel_tol=1e-12)
    assert math.isclose(ours([1], [1e-300]), -math.log(eps), rel_tol=1e-12)
