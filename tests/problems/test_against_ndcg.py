"""ndcg_at_k's reference against scikit-learn's ndcg_score, which takes the true grades and the
system's scores: distinct descending scores make its order the given one (no tie handling)."""

from __future__ import annotations

import random

from tests.problems.test_against_libraries import CASES, SEED, _assert_agree, _reference, _require


def _case(rng: random.Random) -> tuple[list[float], int]:
    length = rng.randint(2, 30)  # scikit-learn needs at least two documents
    if rng.random() < 0.6:
        grades: list[float] = [rng.choice((0, 0, 1, 2, 3)) for _ in range(length)]
    else:
        grades = [round(rng.uniform(0, 4), 3) for _ in range(length)]
    if not any(grades):
        grades[rng.randrange(length)] = 1  # an all-zero list is pinned below, not compared
    return grades, rng.choice((1, 2, 3, 5, 10, length, length + 3, rng.randint(1, 40)))


def test_ndcg_at_k_matches_scikit_learn() -> None:
    metrics = _require("sklearn.metrics")
    ours = _reference("ndcg_at_k")
    rng = random.Random(SEED)

    def theirs(case: tuple[list[float], int]) -> float:
        grades, k = case
        scores = [len(grades) - at for at in range(len(grades))]
        return float(metrics.ndcg_score([grades], [scores], k=k))

    _assert_agree([_case(rng) for _ in range(CASES)], lambda c: ours(*c), theirs)


def test_ndcg_at_k_of_nothing_relevant_is_zero() -> None:
    # scikit-learn also answers 0 here (with a warning); the statement says so outright.
    ndcg_at_k = _reference("ndcg_at_k")
    assert ndcg_at_k([0, 0, 0], 2) == 0.0 and ndcg_at_k([], 1) == 0.0
