# verdict: wrong_answer
# Mistake: uses the rank-sum formula with ranks 1..n in sorted order, not mid-ranks for ties.
import math


def roc_auc(outcomes, scores):
    if len(outcomes) != len(scores):
        raise ValueError("lengths differ")
    for o, s in zip(outcomes, scores, strict=True):
        if o not in (0, 1):
            raise ValueError("outcome not 0 or 1")
        if math.isnan(s):
            raise ValueError("NaN score")
    p = sum(outcomes)
    n = len(outcomes) - p
    if p == 0 or n == 0:
        raise ValueError("need both classes")
    order = sorted(range(len(scores)), key=lambda i: scores[i])
    rank_sum = sum(rank for rank, i in enumerate(order, start=1) if outcomes[i] == 1)
    return (rank_sum - p * (p + 1) / 2) / (p * n)
