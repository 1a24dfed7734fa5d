# verdict: wrong_answer
# Mistake: smooths the bigram precision with add-one counts, which the task forbids.
import math
from collections import Counter


def _counts(reference, candidate, n):
    total = max(len(candidate) - n + 1, 0)
    ref = Counter(tuple(reference[i:i + n]) for i in range(len(reference) - n + 1))
    cand = Counter(tuple(candidate[i:i + n]) for i in range(total))
    return sum(min(c, ref[g]) for g, c in cand.items()), total


def bleu_2(reference, candidate):
    c, r = len(candidate), len(reference)
    if c == 0:
        return 0.0
    m1, t1 = _counts(reference, candidate, 1)
    m2, t2 = _counts(reference, candidate, 2)
    p1 = m1 / t1
    p2 = (m2 + 1) / (t2 + 1)
    penalty = 1.0 if c >= r else math.exp(1 - r / c)
    return penalty * math.sqrt(p1 * p2)
