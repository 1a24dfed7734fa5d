# verdict: wrong_answer
# Mistake: drops the bigram order when the candidate has no bigrams (an "effective order" as in
# some libraries), so a one-token candidate scores p1 instead of 0.
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
    penalty = 1.0 if c >= r else math.exp(1 - r / c)
    p1 = _precision(reference, candidate, 1)
    if c == 1:
        return penalty * p1
    return penalty * math.sqrt(p1 * _precision(reference, candidate, 2))
