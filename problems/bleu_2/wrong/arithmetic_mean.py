# verdict: wrong_answer
# Mistake: averages p1 and p2 arithmetically instead of taking their geometric mean.
import math
from collections import Counter


def _precision(reference, candidate, n):
    total = len(candidate) - n + 1
    if total <= 0:
        return 0.0
    ref = Counter(tuple(reference[i:i + n]) for i in range(len(reference) - n + 1))
    cand = Counter(tuple(candidate[i:i + n]) for i in range(total))
    return sum(min(c, ref[g]) for g, c in cand.items()) / total


def bleu_2(reference, candidate):
    c, r = len(candidate), len(reference)
    if c == 0:
        return 0.0
    p1, p2 = _precision(reference, candidate, 1), _precision(reference, candidate, 2)
    if p1 == 0 or p2 == 0:
        return 0.0
    penalty = 1.0 if c >= r else math.exp(1 - r / c)
    return penalty * (p1 + p2) / 2
