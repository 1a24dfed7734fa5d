"""Reference solution for ndcg_at_k: linear gains, log2 discounts, divided by the ideal order's DCG."""

import math


def _dcg(gains: list[float], k: int) -> float:
    return sum(gain / math.log2(rank + 2) for rank, gain in enumerate(gains[:k]))


def ndcg_at_k(relevances: list[float], k: int) -> float:
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    if any(r < 0 for r in relevances):
        raise ValueError("relevances must not be negative")
    ideal = _dcg(sorted(relevances, reverse=True), k)
    if ideal == 0:
        return 0.0
    return _dcg(relevances, k) / ideal
