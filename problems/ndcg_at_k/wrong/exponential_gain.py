# verdict: wrong_answer
# Mistake: uses the exponential gain 2**rel - 1 instead of the grade itself.
import math


def ndcg_at_k(relevances, k):
    if k < 1:
        raise ValueError("k must be at least 1")
    if any(r < 0 for r in relevances):
        raise ValueError("relevances must not be negative")

    def dcg(gains):
        return sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(gains[:k]))

    ideal = dcg(sorted(relevances, reverse=True))
    return dcg(relevances) / ideal if ideal else 0.0
