"""precision_at_k's reference against an independent numpy formulation on generated rankings: a
boolean hit matrix over (window position, relevant id), each position's first occurrence kept,
summed and divided by k, rather than a set intersection."""

from __future__ import annotations

import random

from tests.problems.test_against_libraries import CASES, SEED, _assert_agree, _reference, _require

IDS = [f"d{i}" for i in range(10)] + ["D1", "d01", "caf\u00e9", ""]


def _numpy_precision(np, ranking: list[str], relevant: list[str], k: int) -> float:
    window = np.array(ranking[:k], dtype=object)
    wanted = np.array(relevant, dtype=object)
    # hits[i, j]: window position i holds relevant id j.
    hits = window[:, None] == wanted[None, :] if len(window) and len(wanted) else np.zeros((len(window), 0), bool)
    relevant_at = hits.any(axis=1)
    # first[i]: no earlier window position holds the same id (a repeat is not a second hit).
    same = window[:, None] == window[None, :] if len(window) else np.zeros((0, 0), bool)
    first = ~np.tril(same, k=-1).any(axis=1)
    # Padding to k slots: the positions a short ranking leaves empty are misses.
    return float(np.count_nonzero(relevant_at & first)) / k


def _case(rng: random.Random) -> tuple[list[str], list[str], int]:
    ranking = [rng.choice(IDS) for _ in range(rng.randint(0, 30))]
    relevant = [rng.choice(IDS) for _ in range(rng.choice((0, rng.randint(1, 8))))]
    return ranking, relevant, rng.randint(1, 35)


def test_precision_at_k_agrees_with_numpy() -> None:
    np = _require("numpy")
    ours = _reference("precision_at_k")
    rng = random.Random(SEED)
    cases = [_case(rng) for _ in range(CASES)]
    assert any(len(r) < k for r, _, k in cases) and any(not v for _, v, _ in cases)
    _assert_agree(cases, lambda c: ours(*c), lambda c: _numpy_precision(np, *c))
