# verdict: runtime_error
# Mistake: never checks for a missing class, so one class divides by zero (ZeroDivisionError,
# not ValueError).
import bisect
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
    neg = sorted(s for o, s in zip(outcomes, scores, strict=True) if o == 0)
    total = 0.0
    for s in pos:
        lo = bisect.bisect_left(neg, s)
        hi = bisect.bisect_right(neg, s)
        total += lo + (hi - lo) / 2
    return total / (len(pos) * len(neg))
