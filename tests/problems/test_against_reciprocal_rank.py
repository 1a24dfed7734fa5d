"""mean_reciprocal_rank's reference against an independent computation in exact fractions, on
generated queries (the ranking problems have no library oracle that takes these inputs)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from tests.problems.test_against_libraries import CASES, SEED, _assert_agree, _reference

IDS = [f"d{i}" for i in range(10)] + ["D1", "d01", "caf\u00e9", ""]


def _exact(rankings: list[list[str]], relevant: list[list[str]]) -> Fraction:
    """Each query's first relevant rank found by its index (not a walk), summed exactly."""
    total = Fraction(0)
    for ranking, wanted in zip(rankings, relevant, strict=True):
        ranks = [ranking.index(doc) + 1 for doc in set(wanted) if doc in ranking]
        total += Fraction(1, min(ranks)) if ranks else 0
    return total / len(rankings)


def _queries(rng: random.Random) -> tuple[list[list[str]], list[list[str]]]:
    count = rng.randint(1, 12)
    rankings = [[rng.choice(IDS) for _ in range(rng.randint(0, 25))] for _ in range(count)]
    relevant = [[rng.choice(IDS) for _ in range(rng.randint(0, 4))] for _ in range(count)]
    return rankings, relevant


def test_mean_reciprocal_rank_agrees_with_exact_fractions() -> None:
    ours = _reference("mean_reciprocal_rank")
    rng = random.Random(SEED)
    cases = [_queries(rng) for _ in range(CASES)]
    _assert_agree(cases, lambda c: ours(*c), lambda c: float(_exact(*c)))


@pytest.mark.parametrize(("rankings", "relevant"), [([], []), ([["a"]], []), ([["a"]], [["a"], ["b"]])])
def test_mean_reciprocal_rank_refuses_what_has_no_mean(rankings: list[list[str]],
                                                        relevant: list[list[str]]) -> None:
    with pytest.raises(ValueError):
        _reference("mean_reciprocal_rank")(rankings, relevant)
