"""roc_auc's reference against scikit-learn's roc_auc_score on generated scores with many ties,
plus the few inputs where the two differ by convention, pinned to the statement."""

from __future__ import annotations

import math
import random
import warnings

import pytest

from tests.problems.test_against_libraries import CASES, SEED, _assert_agree, _reference, _require


def _scored(rng: random.Random) -> tuple[list[int], list[float]]:
    n = rng.choice((2, 3, rng.randint(2, 30), rng.randint(10, 400)))
    outcomes = [int(rng.random() < rng.choice((0.05, 0.5, 0.9))) for _ in range(n)]
    if len(set(outcomes)) == 1:  # both classes are needed for an AUC
        outcomes[rng.randrange(n)] = 1 - outcomes[0]
    levels = rng.choice((1, 2, 4, 10, 10**6))  # few levels: many ties, across and within classes
    skill = rng.choice((-1.0, 0.0, 0.5, 2.0))
    scores = [round(rng.gauss(skill * o, 1.0) * levels) / levels for o in outcomes]
    if rng.random() < 0.1:
        scores = [rng.choice((0.0, -0.0, s)) for s in scores]  # signed zeros tie
    return outcomes, scores


def test_roc_auc_matches_scikit_learn() -> None:
    metrics = _require("sklearn.metrics")
    ours = _reference("roc_auc")
    rng = random.Random(SEED)
    cases = [_scored(rng) for _ in range(CASES)]
    assert any(len(set(s)) == 1 for _, s in cases), "all-tied scores must be compared too"
    _assert_agree(cases, lambda c: ours(*c), lambda c: float(metrics.roc_auc_score(*c)))


def test_roc_auc_refuses_where_scikit_learn_has_no_value() -> None:
    metrics = _require("sklearn.metrics")
    ours = _reference("roc_auc")
    # A NaN score: both refuse it.
    with pytest.raises(ValueError):
        ours([1, 0], [math.nan, 0.5])
    with pytest.raises(ValueError):
        metrics.roc_auc_score([1, 0], [math.nan, 0.5])
    # A single class: scikit-learn warns and returns NaN; the statement raises ValueError, since
    # there is no (positive, negative) pair and a NaN cannot travel as JSON.
    for outcomes, scores in (([1, 1], [0.2, 0.4]), ([0], [0.5])):
        with pytest.raises(ValueError):
            ours(outcomes, scores)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert math.isnan(metrics.roc_auc_score(outcomes, scores))


def test_roc_auc_pinned_where_the_statement_differs() -> None:
    ours = _reference("roc_auc")
    # scikit-learn refuses infinite scores ("Input contains infinity"); the statement takes any
    # float but NaN and orders infinities like any other number.
    assert ours([1, 0, 1], [math.inf, -math.inf, 0.0]) == 1.0
    assert ours([1, 0], [math.inf, math.inf]) == 0.5
