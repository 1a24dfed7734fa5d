# verdict: wrong_answer
# Mistake: returns the int 0 for an empty candidate; the function must return a float.
import math
from collections import Counter


def bleu_1gram(reference, candidate):
    if not candidate:
        return 0
    ref_counts = Counter(reference)
    matched = sum(min(n, ref_counts[t]) for t, n in Counter(candidate).items())
    c, r = len(candidate), len(reference)
    penalty = 1.0 if c >= r else math.exp(1 - r / c)
    return penalty * matched / c
