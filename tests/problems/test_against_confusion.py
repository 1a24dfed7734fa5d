"""confusion_matrix's reference against scikit-learn's confusion_matrix on generated labels, with
the label order given explicitly (shuffled, so it is rarely sorted)."""

from __future__ import annotations

import random
import warnings

from tests.problems.test_against_libraries import CASES, LABELS, SEED, _assert_agree, _reference, _require

POOL = tuple(dict.fromkeys((*LABELS, "neu", "Neg", "z", "a")))  # distinct: a label is listed once


def _case(rng: random.Random) -> tuple[list[str], list[str], list[str]]:
    labels = rng.sample(POOL, rng.randint(1, len(POOL)))
    n = rng.choice((0, 1, 2, rng.randint(1, 30), rng.randint(10, 300)))
    gold = [rng.choice(labels) for _ in range(n)]
    skill = rng.choice((0.0, 0.5, 0.9, 1.0))
    return labels, gold, [g if rng.random() < skill else rng.choice(labels) for g in gold]


def _flat(matrix) -> tuple[float, ...]:
    return tuple(float(cell) for row in matrix for cell in row)


def test_confusion_matrix_matches_scikit_learn() -> None:
    metrics = _require("sklearn.metrics")
    ours = _reference("confusion_matrix")
    rng = random.Random(SEED)
    cases = [_case(rng) for _ in range(CASES)]
    assert any(not gold for _, gold, _ in cases), "the empty case must be pinned too"

    def theirs(case: tuple[list[str], list[str], list[str]]) -> tuple[float, ...]:
        labels, gold, predicted = case
        if not gold:
            # scikit-learn refuses empty input; the statement says no items count zero everywhere.
            return _flat([[0] * len(labels) for _ in labels])
        return _flat(metrics.confusion_matrix(gold, predicted, labels=labels).tolist())

    def mine(case: tuple[list[str], list[str], list[str]]) -> tuple[float, ...]:
        matrix = ours(*case)
        assert len(matrix) == len(case[0]) and all(len(row) == len(case[0]) for row in matrix)
        assert all(type(cell) is int for row in matrix for cell in row)
        return _flat(matrix)

    with warnings.catch_warnings():  # scikit-learn warns (harmlessly, labels are given) on one label
        warnings.simplefilter("ignore")
        _assert_agree(cases, mine, theirs)
