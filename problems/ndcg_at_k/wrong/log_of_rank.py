# verdict: runtime_error
# Mistake: discounts by log2(i + 1) with 0-based i, so the top result divides by log2(1) = 0.
import math


def ndcg_at_k(relevances, k):
    if k < 1:
        raise ValueError("k must be at least 1")
    if any(r < 0 for r in relevances):
        raise ValueError("relevances must not be negative")

    def dcg(gains):
        return sum(g / math.log2(i + 1) for i, g in enumerate(gains[:k]))

    ideal = dcg(sorted(relevances, reverse=True))
    return dcg(relevances) / ideal if ideal else 0.0
