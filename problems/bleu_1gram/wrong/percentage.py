# verdict: wrong_answer
# Mistake: reports the score on the 0-100 scale instead of as a fraction.
import math
from collections import Counter


def bleu_1gram(reference, candidate):
    if not candidate:
        return 0.0
    ref_counts = Counter(reference)
    matched = sum(min(n, ref_counts[t]) for t, n in Counter(candidate).items())
    c, r = len(candidate), len(reference)
    penalty = 1.0 if c >= r else math.exp(1 - r / c)
    return 100 * penalty * matched / c
