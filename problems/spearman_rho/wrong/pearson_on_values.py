# verdict: wrong_answer
# Mistake: computes Pearson's correlation of the raw values, not of their ranks.
import math


def spearman_rho(x, y):
    if len(x) != len(y):
        raise ValueError("lengths differ")
    if len(x) < 2:
        raise ValueError("at least 2 pairs")
    mx, my = sum(x) / len(x), sum(y) / len(y)
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    if sxx == 0 or syy == 0:
        return None
    return sum((a - mx) * (b - my) for a, b in zip(x, y)) / math.sqrt(sxx * syy)
