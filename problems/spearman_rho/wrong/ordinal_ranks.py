# verdict: wrong_answer
# Mistake: breaks ties by position (ranks 2 and 3) instead of sharing the average rank.
import math


def spearman_rho(x, y):
    if len(x) != len(y):
        raise ValueError("lengths differ")
    if len(x) < 2:
        raise ValueError("at least 2 pairs")
    if len(set(x)) == 1 or len(set(y)) == 1:
        return None

    def ranks(values):
        out = [0.0] * len(values)
        for rank, i in enumerate(sorted(range(len(values)), key=lambda i: values[i]), start=1):
            out[i] = float(rank)
        return out

    rx, ry = ranks(x), ranks(y)
    mean = (len(x) + 1) / 2
    num = sum((a - mean) * (b - mean) for a, b in zip(rx, ry))
    return num / math.sqrt(sum((a - mean) ** 2 for a in rx) * sum((b - mean) ** 2 for b in ry))
