# verdict: wrong_answer
# Mistake: writes the brevity penalty as exp(1 - c / r), the ratio upside down.
import math
from collections import Counter


def bleu_1gram(reference, candidate):
    if not candidate:
        return 0.0
    ref_counts = Counter(reference)
    matched = sum(min(n, ref_counts[t]) for t, n in Counter(candidate).items())
    c, r = len(candidate), len(reference)
    penalty = 1.0 if c >= r else math.exp(1 - c / r)
    return penalty * matched / c
