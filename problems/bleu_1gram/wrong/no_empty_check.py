# verdict: runtime_error
# Mistake: forgets the empty candidate, so the precision divides by zero.
import math
from collections import Counter


def bleu_1gram(reference, candidate):
    ref_counts = Counter(reference)
    matched = sum(min(n, ref_counts[t]) for t, n in Counter(candidate).items())
    c, r = len(candidate), len(reference)
    precision = matched / c
    penalty = 1.0 if c >= r else math.exp(1 - r / c)
    return penalty * precision
