"""recall_at_k's reference against an independent computation in exact fractions, on generated
rankings (a count by walking the window, not by sets)."""

from __future__ import annotations

import random
from fractions import Fraction

from tests.problems.test_against_libraries import CASES, SEED, _assert_agree, _reference

IDS = [f"d{i}" for i in range(10)] + ["D1", "d01", "caf\u00e9", ""]


def _exact(ranking: list[str], relevant: list[str], k: int) -> Fraction:
    distinct = sorted(set(relevant))
    found = [doc for doc in distinct if any(ranking[at] == doc for at in range(min(k, len(ranking))))]
    return Fraction(len(found), len(distinct))


def _case(rng: random.Random) -> tuple[list[str], list[str], int]:
    ranking = [rng.choice(IDS) for _ in range(rng.randint(0, 30))]
    return ranking, [rng.choice(IDS) for _ in range(rng.randint(1, 8))], rng.randint(1, 35)


def test_recall_at_k_agrees_with_exact_fractions() -> None:
    ours = _reference("recall_at_k")
    rng = random.Random(SEED)
    _assert_agree([_case(rng) for _ in range(CASES)], lambda c: ours(*c), lambda c: float(_exact(*c)))
