# verdict: time_limit_exceeded
# Mistake: compares every (positive, negative) pair: right, but quadratic, too slow for 20,000 items.
import math


def roc_auc(outcomes, scores):
    if len(outcomes) != len(scores):
        raise ValueError("lengths differ")
    for o, s in zip(outcomes, scores, strict=True):
        if o not in (0, 1):
            raise ValueError("outcome not 0 or 1")
        if math.isnan(s):
            raise ValueError("NaN score")
    pos = [s for o, s in zip(outcomes, scores, strict=True) if o == 1]
    neg = [s for o, s in zip(outcomes, scores, strict=True) if o == 0]
    if not pos or not neg:
        raise ValueError("need both classes")
    total = 0.0
    for a in pos:
        for b in neg:
            if a > b:
                total += 1
            elif a == b:
                total += 0.5
    return total / (len(pos) * len(neg))
