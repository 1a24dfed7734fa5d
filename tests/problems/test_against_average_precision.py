"""average_precision's reference against exact fractions on every generated ranking, and against
scikit-learn's average_precision_score where the two definitions meet: no repeated ids and every
relevant document retrieved (scikit-learn only sees the ranked items)."""

from __future__ import annotations

import random
from fractions import Fraction

from tests.problems.test_against_libraries import CASES, SEED, _assert_agree, _reference, _require

IDS = [f"d{i}" for i in range(12)] + ["D1", "d01", "caf\u00e9", ""]


def _exact(ranking: list[str], relevant: list[str]) -> Fraction:
    """Precision@k computed from scratch at each first occurrence of a relevant id."""
    wanted = set(relevant)
    total = Fraction(0)
    for k, document in enumerate(ranking, start=1):
        if document in wanted and document not in ranking[:k - 1]:
            total += Fraction(len(wanted & set(ranking[:k])), k)
    return total / len(wanted)


def _case(rng: random.Random) -> tuple[list[str], list[str]]:
    return ([rng.choice(IDS) for _ in range(rng.randint(0, 30))],
            [rng.choice(IDS) for _ in range(rng.randint(1, 8))])


def test_average_precision_agrees_with_exact_fractions() -> None:
    ours = _reference("average_precision")
    rng = random.Random(SEED)
    _assert_agree([_case(rng) for _ in range(CASES)], lambda c: ours(*c), lambda c: float(_exact(*c)))


def test_average_precision_matches_scikit_learn_on_complete_rankings() -> None:
    metrics = _require("sklearn.metrics")
    ours = _reference("average_precision")
    rng = random.Random(SEED + 1)
    cases = []
    while len(cases) < CASES:
        ranking = rng.sample(IDS, rng.randint(2, len(IDS)))
        relevant = rng.sample(ranking, rng.randint(1, len(ranking) - 1))  # both classes present
        cases.append((ranking, relevant))

    def theirs(case: tuple[list[str], list[str]]) -> float:
        ranking, relevant = case
        labels = [int(doc in relevant) for doc in ranking]
        scores = [len(ranking) - at for at in range(len(ranking))]  # distinct, best first
        return float(metrics.average_precision_score(labels, scores))

    _assert_agree(cases, lambda c: ours(*c), theirs)
