# verdict: wrong_answer
# Mistake: counts every candidate n-gram that appears in the reference, without clipping.
import math


def _precision(reference, candidate, n):
    total = len(candidate) - n + 1
    if total <= 0:
        return 0.0
    ref = {tuple(reference[i:i + n]) for i in range(len(reference) - n + 1)}
    return sum(1 for i in range(total) if tuple(candidate[i:i + n]) in ref) / total


def bleu_2(reference, candidate):
    c, r = len(candidate), len(reference)
    if c == 0:
        return 0.0
    p1, p2 = _precision(reference, candidate, 1), _precision(reference, candidate, 2)
    penalty = 1.0 if c >= r else math.exp(1 - r / c)
    return penalty * math.sqrt(p1 * p2)
