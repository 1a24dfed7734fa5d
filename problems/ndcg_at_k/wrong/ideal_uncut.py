# verdict: wrong_answer
# Mistake: the ideal DCG sums every grade instead of cutting the ideal order at k.
import math


def ndcg_at_k(relevances, k):
    if k < 1:
        raise ValueError("k must be at least 1")
    if any(r < 0 for r in relevances):
        raise ValueError("relevances must not be negative")
    actual = sum(g / math.log2(i + 2) for i, g in enumerate(relevances[:k]))
    ideal = sum(g / math.log2(i + 2) for i, g in enumerate(sorted(relevances, reverse=True)))
    return actual / ideal if ideal else 0.0
